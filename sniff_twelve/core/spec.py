"""A game's one registration with the shared layers: a ``GameSpec``, and its play-screen texts.

A game package declares one ``GameSpec`` subclass (``sniff_env.spec``, ``twelve_env.spec``): its
names, the slots and sizes of its state row, and its compiled kernels. Everything the shared
layers build for a game is built from that one class — the ``Game`` state object reads it
(``Game.spec``), the compiled batch and search drivers receive an instance as their ``GameHooks``
argument (numba resolves every kernel at compile time, ``sniff_twelve.core.hooks``), and the AEC,
single-seat, vector and OpenSpiel environments take their spaces and buffers from it.

=====================  ==========================================================================
attribute              meaning
=====================  ==========================================================================
``name``               the short name in options, checkpoints and records (``"sniff"``)
``package``            the game's package (``"sniff_env"``); ``title`` its name in prose
``players``            the table sizes it plays
``parts``              where its parts above the kernels live (``game``, ``agents``, ``ui``,
                       ``web`` …: ``GameSpec.part``); the registry (``sniff_twelve.core.games``)
                       finds the spec, the spec its parts
``options``            its rules' options, each declared once (``GameOption``: name, default,
                       kind and bounds, rule, one line of help); ``make_params``, the CLIs, the
                       OpenSpiel parameters and the start page all derive theirs from it
``RNG`` … ``STEPS``    slots of the state row: its stream, ``STATUS`` (``LIVE`` while in play,
                       ``TRUNCATED`` when cut short by a limit, ``-1`` for a game without one), the
                       seat to act (``CUR``), actions applied since the game began
``ROW_SIZE``           the state row's width (int32)
``MAX_ACTIONS``        the widest action mask, ``MAX_OBS`` the widest observation, ``MAX_CRITIC``
                       the widest critic state, under any option
``SNAPSHOT_SIZE``      the width ``snapshot`` writes (what ``write_rewards`` compares against)
``action_feature_names``  the columns of ``action_features``
``HANDS``              the slot counting the deals played (a new deal starts a seat's history
                       afresh), ``-1`` for a game of one deal
``ITEMS``              what beliefs are about: tiles (each once) or ranks (in counts);
                       ``item_names`` each in the game's own format, ``pool_name`` the
                       boneyard's or stock's name
``observation_bounds``  ``(params) -> (low, high)``: every observation entry's bounds (the envs' ``Box``)
``reward_modes``       the reward kernel's modes by name, the default first (the generic envs)
``POOL`` …             a ``SpecGame``'s boneyard or stock: its slots, ``POOL_HEAD`` the next item,
                       ``POOL_LEN`` the end of what was dealt to it; ``action_names`` its actions
=====================  ==========================================================================

Kernels, each ``numba.njit(cache=True)`` (``s`` a state row, ``params`` the options row):
``new_game(s, params, rng_hi, rng_lo)``, ``apply_action(s, params, a) -> events``,
``legal_mask_into(s, params, mask)``, ``write_observation(s, params, seat, obs)``,
``write_state(s, params, out)`` (the critic state), ``write_view(s, params, seat, view)``,
``resample(view, params, seat, out, rng)``, ``snapshot(s, out)``,
``write_rewards(s, params, before, mode, out) -> LIVE / TERMINATED / TRUNCATED``,
``action_features(view, params, out)``, ``greedy_action(view, params)``,
``heuristic_action(view, params)``, ``play_forced(s, params, modes)`` (``VectorGame.step``'s
moves after the action), ``forced_action(s, params, mask)`` (the learner's move when it has no
choice, else ``-1``), the widths under ``params``: ``obs_size``, ``critic_size``,
``num_actions``, and what the beliefs (``sniff_twelve.beliefs``) rebuild worlds with:
``hidden_items(view, params, me, out)`` (counts per item ``me`` cannot see),
``held_items(s, params, seat, out)``, ``hand_size(s, params, seat)``,
``shown_item(s, params, a)`` (the item action ``a`` shows from the actor's hand, ``-1``),
``deal_hidden(view, params, me, holdings, pool, out)`` (the other hands and the boneyard or
stock given), ``allowed_items(view, params, me, out)`` (which other seat may hold which item,
as far as the view tells: known voids) and ``world_rollouts(s, params, me, actions, rng,
greedy_rate, values)`` (one paired rollout of each action on a full position, what a search
on those worlds adds up). ``KERNELS`` lists their names; ``class MySpec(GameSpec,
kernels=module)`` takes those it does not set from the game's kernel module.

A game that writes nothing but its kernels, its spec and a drawing gets its state object, its
environments, agents, OpenSpiel game and web table from the shared layers: ``SpecGame``
(``sniff_twelve.core.game``), ``SpecAECEnv``, ``SpecVectorGame``, ``spec_single_agent_env``,
``SPEC_AGENTS``, ``SpecSpielGame`` and ``WebGame.plain``; ``tests/blockdom`` is the template.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from numba.core.dispatcher import Dispatcher

from sniff_twelve.core.hooks import GameHooks
from sniff_twelve.core.options import GameOption, check_choice, check_options

if TYPE_CHECKING:
    import numpy as np


#: the kernels every game declares (the module docstring), by name
KERNELS = (
    "new_game",
    "apply_action",
    "legal_mask_into",
    "write_observation",
    "write_state",
    "write_view",
    "resample",
    "snapshot",
    "write_rewards",
    "action_features",
    "greedy_action",
    "heuristic_action",
    "play_forced",
    "forced_action",
    "obs_size",
    "critic_size",
    "num_actions",
    "hidden_items",
    "held_items",
    "hand_size",
    "shown_item",
    "deal_hidden",
    "allowed_items",
    "world_rollouts",
)


class GameSpec(GameHooks):
    """Base of a game's registration (see the module docstring); a subclass sets every attribute."""

    name: ClassVar[str]
    package: ClassVar[str]
    title: ClassVar[str]
    players: ClassVar[tuple[int, ...]]
    options: ClassVar[tuple[GameOption, ...]]
    action_feature_names: ClassVar[tuple[str, ...]]
    RNG: ClassVar[int]
    STATUS: ClassVar[int]
    LIVE: ClassVar[int]
    TRUNCATED: ClassVar[int] = -1  # a game without a limit of its own is never truncated
    CUR: ClassVar[int]
    STEPS: ClassVar[int]
    ROW_SIZE: ClassVar[int]
    MAX_ACTIONS: ClassVar[int]
    MAX_OBS: ClassVar[int]
    MAX_CRITIC: ClassVar[int]
    SNAPSHOT_SIZE: ClassVar[int]
    HANDS: ClassVar[int]
    ITEMS: ClassVar[int]
    item_names: ClassVar[tuple]
    pool_name: ClassVar[str]
    observation_bounds: ClassVar[Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]]

    def __init_subclass__(cls, kernels: ModuleType | tuple[ModuleType, ...] = (), **kwargs: Any) -> None:
        """Kernels are plain functions of the spec, never bound to it: ``SPEC.apply_action(s, p, a)``
        from Python calls the same compiled function a driver calls as ``g.apply_action``.

        ``class MySpec(GameSpec, kernels=module)`` (or a tuple of modules) takes every kernel of
        ``KERNELS`` the class body does not set from the first module that defines it, by its name."""
        super().__init_subclass__(**kwargs)
        modules = kernels if isinstance(kernels, tuple) else (kernels,)
        for name in KERNELS:
            found = [getattr(m, name) for m in modules if isinstance(getattr(m, name, None), Dispatcher)]
            if name not in vars(cls) and found:
                setattr(cls, name, found[0])
        for attr, value in list(vars(cls).items()):
            if isinstance(value, Dispatcher):
                setattr(cls, attr, staticmethod(value))

    @staticmethod
    def sides(num_players: int) -> tuple[tuple[int, ...], ...] | None:
        """The seats of each side at a table of ``num_players``, or ``None`` when every seat
        plays for itself (the arena's sides, the partner of ``partner_seat``)."""
        raise NotImplementedError

    #: the game's parts above its kernels, each ``"module:attribute"`` (or a whole module) and
    #: imported on first use (they sit in higher layers than the spec, as a Gymnasium registry
    #: entry names its entry point): ``game`` its ``Game`` class, ``agents`` its agents module
    #: (``AGENTS``, ``make_agent``, ``AGENT_GROUP``; default the spec's own, ``SPEC_AGENTS``),
    #: ``outcome`` how a finished game went for the arena (default: places by score), ``ui`` its
    #: play-screen texts (``GameUI``), ``narrate`` its one-line move texts, ``web`` its browser
    #: table (``WebGame``), ``image`` its drawing as an RGB array, ``solve`` its exact solver
    PARTS: ClassVar[tuple[str, ...]] = ("game", "agents", "outcome", "ui", "narrate", "web", "image", "solve")
    parts: ClassVar[dict[str, str]] = {}

    def part(self, name: str, default: Any = None) -> Any:
        """The game's part ``name`` (``PARTS``), imported from where ``parts`` says; ``default``
        for one the game does not declare. ``ValueError`` for a name that is no part."""
        if name not in self.PARTS:
            raise ValueError(f"a game's parts are {', '.join(self.PARTS)}; got {name!r}")
        where = self.parts.get(name)
        if where is None:
            return default
        module, _, attribute = where.partition(":")
        module = importlib.import_module(module)
        return getattr(module, attribute) if attribute else module

    def checked_options(self, given: dict[str, Any]) -> dict[str, Any]:
        """Every option of the game by name: ``given``'s checked, the rest at their defaults (an
        unknown name or a bad value raises, naming what is allowed)."""
        return check_options(self.options, given)

    def option(self, name: str) -> GameOption:
        """The declaration of option ``name``."""
        return next(option for option in self.options if option.name == name)

    #: the reward kernel's modes by name, the default first: ``reward=`` of the environments
    #: built from a spec alone (``sniff_twelve.envs.aec.SpecAECEnv`` and its kin)
    reward_modes: ClassVar[dict[str, int]]

    def reward_mode(self, reward: str | None = None) -> int:
        """The mode code of ``reward`` (``None``: the first of ``reward_modes``); ``ValueError`` naming them."""
        modes = self.reward_modes
        return modes[check_choice("reward", next(iter(modes)) if reward is None else reward, tuple(modes))]

    def widths(self, params: np.ndarray) -> tuple[int, int, int]:
        """``(observation, critic state, actions)`` widths under the options row ``params``, from
        the hooks' Python originals (``py_func``): a cold start compiles nothing for three integers."""
        hooks = (self.obs_size, self.critic_size, self.num_actions)
        return tuple(int(getattr(hook, "py_func", hook)(params)) for hook in hooks)  # type: ignore[return-value]

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


@dataclass(frozen=True)
class GameUI:
    """The game-specific parts of the play screen; ``human`` is the human's seat throughout.

    table(game, human): the layout / public state as text (no hidden information).
    scores(game, human): the running score as text.
    hand(game, human): the human's hand, one name per item (shown numbered).
    move(game, action, human): a legal move in words, e.g. ``[3|5] on the east end (scores 15)``.
    event(before, after, seat, action, human): what a move did, e.g. ``played 7 on the Q: captured 4``
        (the loop prefixes the seat's name); it may reveal what the human drew, never other hands.
    result(game, human): the end of the game: winner, final scores (and whatever else matters).
    rules: a short reminder shown with the help.
    settlement(game, human): a game of several hands: how the hand that just ended was settled.
    """

    title: str
    table: Callable[[Any, int], str]
    scores: Callable[[Any, int], str]
    hand: Callable[[Any, int], list[str]]
    move: Callable[[Any, int, int], str]
    event: Callable[[Any, Any, int, int, int], str]
    result: Callable[[Any, int], str]
    rules: str = ""
    settlement: Callable[[Any, int], str] | None = None

    @classmethod
    def plain(cls, title: str, rules: str = "") -> GameUI:
        """The texts any ``KernelGame`` gives without a word of its own: ``str(game)`` for the
        table, ``Game.scores``, the hand by the spec's ``item_names``, moves by ``action_name``."""

        def scores(game: Any, human: int) -> str:
            return " · ".join(f"{'you' if s == human else f'seat {s}'} {v}" for s, v in enumerate(game.scores))

        def result(game: Any, human: int) -> str:
            best = max(game.scores)
            winners = [s for s, v in enumerate(game.scores) if v == best]
            won = "You win" if winners == [human] else "A tie" if len(winners) > 1 else f"Seat {winners[0]} wins"
            return f"{won}. Scores: {scores(game, human)}"

        return cls(
            title=title,
            table=lambda game, human: str(game),
            scores=scores,
            hand=lambda game, human: [str(game.spec.item_names[item]) for item in game.hand(human)],
            move=lambda game, action, human: game.action_name(action),
            event=lambda before, after, seat, action, human: before.action_name(action),
            result=result,
            rules=rules,
        )
