"""Optional pieces (plots) that live in an extra: import them with a one-line message instead of
a traceback when the extra is missing.

>>> plt = pyplot("this doctest", "bench")  # the test install has every extra
>>> plt.get_backend().lower()
'agg'
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType


class MissingExtraError(ImportError):
    """A feature needs a package from an extra that is not installed; the message says which."""


def optional_import(module: str, extra: str, purpose: str) -> ModuleType:
    """``module``, or ``MissingExtraError`` saying that ``purpose`` needs it and how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtraError(
            f"{purpose} needs {module.split('.')[0]}, which is not installed: "
            f'pip install -e ".[{extra}]" in your clone of sniff-twelve (it is not on the package index)'
        ) from None


@contextmanager
def extra_needed(extra: str, purpose: str, module: str) -> Iterator[None]:
    """Imports of an extra's packages in a ``with`` block: a missing one raises
    ``MissingExtraError`` saying that ``purpose`` needs it (``module`` where the error names none)."""
    try:
        yield
    except ImportError as error:
        optional_import(error.name or module, extra, purpose)
        raise


def pyplot(purpose: str, extra: str) -> ModuleType:
    """``matplotlib.pyplot`` on the non-interactive Agg backend (files only, no display)."""
    optional_import("matplotlib", extra, purpose).use("Agg")
    return importlib.import_module("matplotlib.pyplot")
