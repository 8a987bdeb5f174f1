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
"""

from __future__ import annotations

import importlib

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


class GameHooksType(types.Type):
    """The numba type of a ``GameHooks`` instance: its class, by import path."""

    def __init__(self, path: str) -> None:
        self.path = path
        super().__init__(name=f"GameHooks({path})")

    def hook(self, name: str):
        module, _, qualname = self.path.partition(":")
        return getattr(getattr(importlib.import_module(module), qualname), name, None)


@typeof_impl.register(GameHooks)
def _typeof_hooks(val, c):
    cls = type(val)
    return GameHooksType(f"{cls.__module__}:{cls.__qualname__}")


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
    return context.get_constant(types.intp, value) if isinstance(value, int) else context.get_dummy_value()
