"""One copy of a compiled driver for both games: the game's kernels come in a ``GameHooks`` argument.

A game lists its jitted kernels and layout constants as class attributes of a ``GameHooks``
subclass and passes an instance to the shared ``numba.njit(cache=True)`` drivers, which call
``hooks.apply_action(s, params, a)``, read ``s[hooks.CUR]`` and so on. The instance's numba type is
named by its class's import path: a driver compiles once per game, calls that game's kernels
directly (as a global would be: no function pointers, the same machine code) and finds its cache
entry again in the next process. A jitted function passed as an argument, or captured by a
closure, is typed by the object itself: numba caches it but never hits that cache.

What a game lists there — names, slots, sizes, kernels — is its ``GameSpec``
(``sniff_twelve.core.spec``), the ``GameHooks`` subclass every game declares once.

Numba finds a cached driver again by the driver's own source file and its argument types, and
never looks at the kernels a hooks type resolves to. So the type's name carries a digest of the
source files of the hooks class (and its bases) and of every kernel it lists
(``hooks_fingerprint``): edit a game's kernels or slots and every driver compiles afresh for it,
instead of running machine code built for the old ones (a row layout that changed would be read
and written at the old offsets). Functions the kernels call in other modules are not covered,
as numba does not cover them for a plain cached function either.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib
import sys
from pathlib import Path

from numba.core import types
from numba.core.dispatcher import Dispatcher
from numba.core.typing.templates import AttributeTemplate
from numba.extending import (
    NativeValue,
    infer_getattr,
    lower_getattr_generic,
    models,
    register_model,
    typeof_impl,
    unbox,
)


class GameHooks:
    """Base of a game's hooks (see the module docstring); pass an instance to the drivers."""


def hooks_fingerprint(cls: type) -> str:
    """A digest of the source files of ``cls``, its ``GameHooks`` bases and every kernel it lists
    (read once per class and process: ``_hooks_type`` keeps the type it names)."""
    bases = [base for base in cls.__mro__ if issubclass(base, GameHooks)]
    files = {getattr(sys.modules.get(base.__module__), "__file__", None) for base in bases}  # None: no file
    for name in dir(cls):
        value = getattr(cls, name, None)
        if isinstance(value, Dispatcher):
            files.add(value.py_func.__code__.co_filename)
    digest = hashlib.sha256()
    for path in sorted(filter(None, files)):
        with contextlib.suppress(OSError):  # a file that cannot be read (a zip import) adds nothing
            digest.update(Path(path).read_bytes())
    return digest.hexdigest()[:16]


class GameHooksType(types.Type):
    """The numba type of a ``GameHooks`` instance: its class, by import path, and the digest of
    its kernels' sources (``hooks_fingerprint``: a cached driver never runs old kernels)."""

    def __init__(self, path: str, fingerprint: str = "") -> None:
        self.path = path
        super().__init__(name=f"GameHooks({path}@{fingerprint})")

    def hook(self, name: str):
        module, _, qualname = self.path.partition(":")
        return getattr(getattr(importlib.import_module(module), qualname), name, None)


@functools.cache
def _hooks_type(cls: type) -> GameHooksType:
    """The type of ``cls``'s instances, made once per class: numba types the hooks in Python at
    every driver call, and making the type afresh took about 4 µs, a third of a one-row step."""
    return GameHooksType(f"{cls.__module__}:{cls.__qualname__}", hooks_fingerprint(cls))


@typeof_impl.register(GameHooks)
def _typeof_hooks(val, c):
    return _hooks_type(type(val))


register_model(GameHooksType)(models.OpaqueModel)  # no data: every hook is resolved at compile time


@unbox(GameHooksType)
def _unbox_hooks(typ, obj, c):
    return NativeValue(c.context.get_dummy_value())


@infer_getattr
class _HookAttributes(AttributeTemplate):
    key = GameHooksType

    def generic_resolve(self, typ, attr):
        value = typ.hook(attr)
        if isinstance(value, int):
            return types.intp
        return types.Dispatcher(value) if isinstance(value, Dispatcher) else None


@lower_getattr_generic(GameHooksType)
def _lower_hook(context, builder, typ, val, attr):
    value = typ.hook(attr)
    if isinstance(value, int):  # a bool too, as 0 or 1
        return context.get_constant(types.intp, int(value))
    return context.get_dummy_value()
