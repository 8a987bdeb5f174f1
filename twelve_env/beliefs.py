"""Beliefs in "12": ``infer(view, model)`` over what a seat cannot see (``sniff_twelve.beliefs``)."""

from sniff_twelve.beliefs import Beliefs, infer

__all__ = ["Beliefs", "infer"]
