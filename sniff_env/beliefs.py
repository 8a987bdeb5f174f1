"""Sniff beliefs: ``infer(view, model)`` and ``BeliefTracker`` over what a seat cannot see (``sniff_twelve.beliefs``)."""

from sniff_twelve.beliefs import Beliefs, infer
from sniff_twelve.beliefs.tracker import BeliefTracker

__all__ = ["BeliefTracker", "Beliefs", "infer"]
