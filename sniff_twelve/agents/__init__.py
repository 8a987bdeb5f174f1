"""Agents built on the game protocol: random, compiled rule policies, rollouts, PIMC, checkpoints,
and the table of them each game declares (``registry``)."""
