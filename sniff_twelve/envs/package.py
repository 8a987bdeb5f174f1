"""What a game's package exports, built from its spec alone: the one way to write a game.

A game's package holds its kernels, its ``GameSpec`` (``sniff_twelve.core.spec``), its ``Game``
(``sniff_twelve.core.game.BaseGame`` with its own accessors) and its drawings and agents, and
ends its ``__init__`` with (``twelve_env/__init__.py``)::

    from twelve_env.spec import SPEC

    Game, raw_env, env, single_agent_env, VectorGame, vector_env = GamePackage(SPEC, __name__).exports()

which gives it, from the spec: the PettingZoo AEC env (``raw_env``, and ``env`` behind the
classic wrappers), the single-seat ``gymnasium.Env`` (``single_agent_env``, registered with
gymnasium under the spec's ``env_id``), the batched ``VectorGame`` and ``vector_env``, and
PettingZoo's versioned module (``<package>.<name>_v0``). Each takes the game's options (the
rules' and the environments', ``GameSpec.options`` and ``env_options``) by their names, listed
in its signature from their declarations.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any

import gymnasium

from sniff_twelve.batch.vector import BaseVectorGame
from sniff_twelve.core.options import with_options
from sniff_twelve.envs.aec import BaseAECEnv
from sniff_twelve.envs.learner_vector import learner_vector_env
from sniff_twelve.envs.single_agent import learner_env

if TYPE_CHECKING:
    from sniff_twelve.core.game import BaseGame
    from sniff_twelve.core.options import GameOption
    from sniff_twelve.core.spec import GameSpec


def options_text(options: tuple[GameOption, ...]) -> str:
    """The options, one line each from its declaration: what a built class's docstring lists."""
    lines = [f"- ``{o.name}`` (default ``{o.default!r}``{', ' + o.rule if o.rule else ''}): {o.label}" for o in options]
    return "\n".join(lines)


class GamePackage:
    """The public names of ``spec``'s game, built once for its package ``module`` (see the module
    docstring); ``exports()`` returns them in the order the package binds them."""

    def __init__(self, spec: GameSpec, module: str) -> None:
        self.spec, self.module = spec, module
        self.Game: type[BaseGame] = spec.part("game")
        every = options_text(spec.options + spec.env_options)
        self.raw_env = self._class(
            "raw_env",
            BaseAECEnv,
            f"{spec.title} as a PettingZoo AEC env: ``raw_env(num_players, render_mode, reward, **options)``;"
            f" ``reward`` one of {', '.join(spec.reward_modes)}.\n\nOptions:\n\n{every}\n",
        )
        self.env = self.raw_env.wrapped
        self.VectorGame = self._class(
            "VectorGame",
            BaseVectorGame,
            f"``num_envs`` games of {spec.title} stepped by compiled kernels (``BaseVectorGame``).\n\n"
            f"Options:\n\n{every}\n",
        )
        self.single_agent_env = self._learner(learner_env, "single_agent_env")
        self.vector_env = self._learner(learner_vector_env, "vector_env")
        gymnasium.register(spec.env_id, entry_point=self.single_agent_env)
        self._versioned_module()

    def exports(self) -> tuple[Any, ...]:
        """``Game, raw_env, env, single_agent_env, VectorGame, vector_env``."""
        return self.Game, self.raw_env, self.env, self.single_agent_env, self.VectorGame, self.vector_env

    def _class(self, name: str, base: type, doc: str) -> type:
        return type(name, (base,), {"game_cls": self.Game, "__module__": self.module, "__doc__": doc})

    def _learner(self, build: Callable[..., Any], name: str) -> Callable[..., Any]:
        """``build(game_cls, ...)`` bound to the game, its signature the learners' options
        (``GameSpec.learner_options``) after ``build``'s own parameters."""
        game_cls, spec = self.Game, self.spec

        def learner(*args: Any, **options: Any) -> Any:
            return build(game_cls, *args, **options)

        own = inspect.signature(build)
        learner.__signature__ = own.replace(parameters=list(own.parameters.values())[1:])  # type: ignore[attr-defined]
        learner.__name__ = learner.__qualname__ = name
        learner.__module__ = self.module
        learner.__doc__ = f"{build.__doc__}\n\nThe game's options:\n\n{options_text(spec.learner_options)}\n"
        return with_options(
            spec.learner_options, {"num_players": spec.players[0], "reward": spec.default_reward}, place=False
        )(learner)

    def _versioned_module(self) -> None:
        """PettingZoo's versioned module, ``<package>.<name>_v0``: ``env``, ``raw_env`` and
        ``single_agent_env`` under the env's versioned name (``metadata["name"]``)."""
        versioned = self.raw_env.metadata["name"]
        module = ModuleType(f"{self.module}.{versioned}", f"{self.spec.title} under PettingZoo's versioned name.")
        module.env, module.raw_env, module.single_agent_env = self.env, self.raw_env, self.single_agent_env
        module.__all__ = ["env", "raw_env", "single_agent_env"]
        sys.modules[module.__name__] = module
        setattr(sys.modules[self.module], versioned, module)
