"""Sniff beliefs over what a seat cannot see: ``infer(view, model)``, ``BeliefTracker`` (``sniff_twelve.beliefs``)."""

from sniff_twelve.beliefs import Beliefs, infer
from sniff_twelve.beliefs.tracker import BeliefTracker

__all__ = ["BeliefTracker", "Beliefs", "infer"]
