"""Compiled drivers that step many games per call (``prange`` over rows), and packed policies."""
