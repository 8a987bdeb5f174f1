"""Agents built on the game protocol: random, compiled rule policies, rollouts, PIMC, checkpoints."""
