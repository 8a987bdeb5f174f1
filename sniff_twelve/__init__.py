"""Shared machinery of the ``sniff-twelve`` distribution, in layers whose imports flow one way.

``core`` (the game protocol, seat views, rng, options, rewards, hooks, records, the game spec: numpy
and numba only) ← ``batch`` (compiled batch drivers) and ``search`` (the exact solver) ← ``envs``
(one module per framework) ← ``agents`` ← ``web`` ← ``tools`` (arena, cross-play, analyze, play,
CLI). ``lint-imports`` checks the contract (``pyproject.toml``). The games themselves are the
``sniff_env`` and ``twelve_env`` packages.
"""

#: the distribution's version (``sniff_env.__version__`` and ``twelve_env.__version__`` are this one)
__version__ = "0.1.0"
