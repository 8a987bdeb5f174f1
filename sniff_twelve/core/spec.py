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
``env_id``             gymnasium's id of its single-seat env (``"sniff_env/Sniff-v0"``)
``players``            the table sizes it plays; ``default_players`` the table of ``Game()``
``parts``              where its parts above the kernels live (``game``, ``agents``, ``ui``,
                       ``web`` …: ``GameSpec.part``); the registry (``sniff_twelve.core.games``)
                       finds the spec, the spec its parts
``options``            its rules' options, each declared once (``GameOption``: name, default,
                       kind and bounds, rule, one line of help, slot in the options row);
                       ``make_params``, the records, the constructors' signatures, the CLIs,
                       the OpenSpiel parameters and the start page all derive theirs from it
``env_options``        the environments' own options (Sniff's ``episode``, ``forced``), declared
                       alike; ``reward_modes`` the reward kernel's modes by name,
                       ``default_reward`` the default (``None``: the first of ``reward_choices``)
``reward_scale``       what a learner multiplies the points reward (``points_reward``) by for
                       returns of order 1 (``examples/selfplay_ppo.py``'s default)
``PARAMS_SIZE``        the options row's width; slot 0 holds the table size
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
``POOL`` …             the boneyard or stock of a game of the default ``deal=`` format: its
                       slots, ``POOL_HEAD`` the next item, ``POOL_LEN`` the end of what was dealt
                       to it; ``action_names`` its actions, for a game that names them no other way
=====================  ==========================================================================

Kernels, each ``numba.njit(cache=True)`` (``s`` a state row, ``params`` the options row):
``new_game(s, params, rng_hi, rng_lo)``, ``apply_action(s, params, a) -> events``,
``legal_mask_into(s, params, mask)``, ``write_observation(s, params, seat, obs)``,
``write_state(s, params, out)`` (the critic state), ``write_view(s, params, seat, view)``,
``resample(view, params, seat, out, rng)``, ``snapshot(s, out)``,
``write_rewards(s, params, before, mode, out) -> LIVE / TERMINATED / TRUNCATED``,
``action_features(view, params, out)``, ``greedy_action(view, params)``,
``heuristic_action(view, params)``, ``forced_move(s, params)`` (the move the seat to act has no
choice but to make, else ``-1``: what the environments' ``forced="auto"`` and the learners make
for it; a game that never forces a move leaves it to ``GameSpec``'s default), the widths under
``params``: ``obs_size``, ``critic_size``, ``num_actions`` (a game whose widths no option
changes leaves them to ``GameSpec``: ``MAX_OBS`` …), and what the beliefs
(``sniff_twelve.beliefs``) rebuild worlds with:
``hidden_items(view, params, me, out)`` (counts per item ``me`` cannot see),
``held_items(s, params, seat, out)``, ``hand_size(s, params, seat)``,
``shown_item(s, params, a)`` (the item action ``a`` shows from the actor's hand, ``-1``),
``deal_hidden(view, params, me, holdings, pool, out)`` (the other hands and the boneyard or
stock given), ``allowed_items(view, params, me, out)`` (which other seat may hold which item,
as far as the view tells: known voids) and ``rollout(s, params, me, first, mask, rng,
greedy_rate) -> value`` (``first`` applied to the full position ``s``, the rest played on
``rng``'s stream: ``greedy_rate`` per mille the rule of thumb, else random; what the searches
on those worlds add up, ``sniff_twelve.core.rollouts``). ``KERNELS`` lists their names; ``class MySpec(GameSpec,
kernels=module)`` takes those it does not set from the game's kernel module.

A game writes its kernels, this spec, its ``Game`` (``sniff_twelve.core.game.BaseGame`` with
the accessors of its own) and what else is truly its own (drawings, rule-of-thumb agents, an
OpenSpiel adapter for a deal of its own); the shared layers give it the rest
(``sniff_twelve.envs.package.GamePackage``). docs/architecture.md walks through it, with
``tests/blockdom`` as the worked example.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any, ClassVar

import numba as nb
import numpy as np
from numba.core.dispatcher import Dispatcher

from sniff_twelve.core.hooks import GameHooks
from sniff_twelve.core.options import GameOption, check_choice, check_int, check_options
from sniff_twelve.core.rewards import places_by_score

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
    "forced_move",
    "obs_size",
    "critic_size",
    "num_actions",
    "hidden_items",
    "held_items",
    "hand_size",
    "shown_item",
    "deal_hidden",
    "allowed_items",
    "rollout",
)


@nb.njit(cache=True)
def no_forced_move(s, params):
    """``forced_move`` of a game that never forces a move: ``-1``."""
    return -1


#: the width kernels and the fixed widths they default to
WIDTHS = {"obs_size": "MAX_OBS", "critic_size": "MAX_CRITIC", "num_actions": "MAX_ACTIONS"}


def fixed_width(width: int) -> Dispatcher:
    """A width kernel that returns ``width`` under every options row (numba caches one per value)."""

    @nb.njit(cache=True)
    def constant(params):
        return width

    return constant


class GameSpec(GameHooks):
    """Base of a game's registration (see the module docstring); a subclass sets every attribute."""

    name: ClassVar[str]
    package: ClassVar[str]
    env_id: ClassVar[str]
    #: the part of the rule book that holds the game's rules, ``""`` for none, and the page of the
    #: documentation it is on (``docs/<rules_page>.md``)
    rules_part: ClassVar[str] = ""
    rules_page: ClassVar[str] = "rules"
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
    forced_move = staticmethod(no_forced_move)
    #: the exact searches' order among actions that gain alike: the higher id first, else the lower
    HIGHER_FIRST: ClassVar[bool] = False

    def __init_subclass__(cls, kernels: ModuleType | tuple[ModuleType, ...] = (), **kwargs: Any) -> None:
        """Kernels are plain functions of the spec, never bound to it: ``SPEC.apply_action(s, p, a)``
        from Python calls the same compiled function a driver calls as ``g.apply_action``.

        ``class MySpec(GameSpec, kernels=module)`` (or a tuple of modules) takes every kernel of
        ``KERNELS`` the class body does not set from the first module that defines it, by its name;
        a width kernel found nowhere returns the class's fixed width (``WIDTHS``)."""
        super().__init_subclass__(**kwargs)
        modules = kernels if isinstance(kernels, tuple) else (kernels,)
        for name in KERNELS:
            found = [getattr(m, name) for m in modules if isinstance(getattr(m, name, None), Dispatcher)]
            if name not in vars(cls) and found:
                setattr(cls, name, found[0])
            elif not hasattr(cls, name) and name in WIDTHS and hasattr(cls, WIDTHS[name]):
                setattr(cls, name, fixed_width(getattr(cls, WIDTHS[name])))
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
    #: (``AGENTS``, ``make_agent``; its name is the entry-point group of the agents installed
    #: for the game; default the spec's own, ``SPEC_AGENTS``),
    #: ``outcome`` how a finished game went for the arena (default: places by score), ``infos``
    #: what its AEC env's ``infos`` hold (``step_info``, ``quiet_info``; default none), ``ui`` its
    #: play-screen texts (``GameUI``), ``narrate`` its one-line move texts, ``web`` its browser
    #: table (``WebGame``: its one drawing, which ``Game.image`` rasterises), ``solve`` its exact
    #: solver, ``text`` its table as text (``str(game)``; default the state row)
    PARTS: ClassVar[tuple[str, ...]] = ("game", "agents", "outcome", "infos", "ui", "narrate", "web", "solve", "text")
    parts: ClassVar[dict[str, str]] = {}
    #: what ``part`` gives for a part the game does not declare, where every game has one
    PART_DEFAULTS: ClassVar[dict[str, Any]] = {"outcome": places_by_score}

    def part(self, name: str, default: Any = None) -> Any:
        """The game's part ``name`` (``PARTS``), imported from where ``parts`` says; for one the game
        does not declare, ``PART_DEFAULTS``'s, else ``default``. ``ValueError`` for a name that is
        no part."""
        if name not in self.PARTS:
            raise ValueError(f"a game's parts are {', '.join(self.PARTS)}; got {name!r}")
        where = self.parts.get(name)
        if where is None:
            return self.PART_DEFAULTS.get(name, default)
        module, _, attribute = where.partition(":")
        module = importlib.import_module(module)
        return getattr(module, attribute) if attribute else module

    #: the table size of ``Game()`` and ``env()`` without one (the learners' envs: ``players[0]``)
    default_players: ClassVar[int]
    #: the options of the environments besides ``reward`` (``reward_modes``): Sniff's ``episode``
    #: and ``forced``. One with a ``slot`` is in the options row (``Game`` takes it too); the
    #: others go to the modes row after the reward's code, as ``encode`` writes them
    env_options: ClassVar[tuple[GameOption, ...]] = ()
    #: the environments' ``reward`` when none is given; ``None``: the first of ``reward_choices``
    default_reward: ClassVar[str | None] = None
    #: the options row's width; its slot 0 is the table size, each option's own is its ``slot``
    PARAMS_SIZE: ClassVar[int]

    @property
    def row_options(self) -> tuple[GameOption, ...]:
        """The options the options row holds: the rules' own, then the environments' with a slot."""
        return self.options + tuple(option for option in self.env_options if option.slot >= 0)

    def checked_options(self, given: dict[str, Any]) -> dict[str, Any]:
        """Every option of the game by name: ``given``'s checked, the rest at their defaults (an
        unknown name or a bad value raises, naming what is allowed)."""
        return check_options(self.options, given)

    def make_params(self, num_players: int, **options: Any) -> np.ndarray:
        """The options row of a table of ``num_players`` (``players``) with ``options`` (``row_options``),
        each checked against its declaration; ``ValueError`` / ``ArgumentTypeError`` naming it."""
        players = self.players
        n = check_int("num_players", num_players, min(players), max(players))
        if n not in players:
            raise ValueError(f"num_players must be one of {', '.join(map(str, players))}; got {n}")
        given = check_options(self.row_options, options)
        params = np.zeros(self.PARAMS_SIZE, dtype=np.int32)
        params[0] = n
        for option in self.row_options:
            option.write(params, given[option.name], n)
        self.check_table(params)
        return params

    def check_table(self, params: np.ndarray) -> None:
        """Check (and complete) an options row whose options were each checked on their own: what
        holds between options (a hand size the set can deal), and a choice left ``None`` (``-1``
        in the row) resolved by the others (Sniff's small tables play one hand). ``ValueError``
        naming the options that do not go together."""

    def complete_row(self, params: Any) -> np.ndarray:
        """An options row saved by an older release, whose layout lacked the options added since
        at its end (Sniff's size dial), completed with those options' defaults."""
        full = self.make_params(int(params[0]))
        full[: len(params)] = params
        return full

    def param_bounds(self) -> list[tuple[str, tuple[int, int], int, int]]:
        """``(what, (start, stop), low, high)`` for every slot of the options row."""
        bounds = [("num_players", (0, 1), min(self.players), max(self.players))]
        for o in self.row_options:
            bounds.append((o.name, (o.slot, o.slot + 1), *o.row_range))
            if o.values is not None:
                low, high, copies = o.values
                bounds.append((f"{o.name} counts", (o.counts_slot, o.counts_slot + high - low + 1), 0, copies))
        return bounds

    def record_options(self, params: np.ndarray) -> dict[str, Any]:
        """The options of the options row ``params`` by name, table size first: a record's ``options``,
        what ``Game(**options)`` takes again."""
        return {"num_players": int(params[0]), **{o.name: o.read(params) for o in self.row_options}}

    @property
    def points_reward(self) -> str | None:
        """The dense reward whose sum over a game is each seat's points (Sniff's ``points``, "12"'s
        ``score``): what margins are counted in; ``None`` for a game whose only reward is ``win``."""
        return next((name for name in self.reward_modes if name != "win"), None)

    def reward_choices(self, options: dict[str, Any]) -> tuple[str, ...]:
        """The rewards the environments offer with the environment options ``options`` (checked),
        the default first: every one of ``reward_modes``."""
        return tuple(self.reward_modes)

    def setup(self, num_players: int, reward: str | None = None, **options: Any) -> tuple[np.ndarray, np.ndarray]:
        """What an environment's options come to: the options row (``make_params``) and the modes
        row ``[reward's code, each slotless environment option's code …]`` (what the reward kernel
        and ``VectorGame.step``'s forced moves read)."""
        slotless = tuple(option for option in self.env_options if option.slot < 0)
        env = check_options(slotless, {o.name: options.pop(o.name) for o in slotless if o.name in options})
        params = self.make_params(num_players, **options)
        chosen = {**env, **{o.name: o.read(params) for o in self.env_options if o.slot >= 0}}
        choices = self.reward_choices(chosen)
        if isinstance(reward, str) and reward in self.reward_modes and reward not in choices:
            said = ", ".join(f"{name}={value!r}" for name, value in chosen.items())
            raise ValueError(f"reward={reward!r} does not go with {said}: choose {', '.join(map(repr, choices))}")
        if reward is None and self.default_reward is None:
            reward = choices[0]
        reward = check_choice("reward", reward, tuple(self.reward_modes))
        codes = [self.reward_modes[reward], *(option.encode(env[option.name], num_players) for option in slotless)]
        return params, np.array(codes, dtype=np.int32)

    def option(self, name: str) -> GameOption:
        """The declaration of option ``name``."""
        return next(option for option in self.options if option.name == name)

    #: the reward kernel's modes by name: ``reward=`` of the environments
    reward_modes: ClassVar[dict[str, int]]
    #: a learner's multiplier of the points reward: returns of order 1 (the module docstring)
    reward_scale: ClassVar[float] = 1.0

    @property
    def forced_moves(self) -> bool:
        """Whether the environments can make the moves forced on an agent for it (a ``forced``
        option, its code ``modes[1]``: whether ``VectorGame.step`` plays ``forced_move``)."""
        return any(option.name == "forced" for option in self.env_options)

    def learner_setup(
        self, num_players: int, reward: str | None = None, **options: Any
    ) -> tuple[np.ndarray, np.ndarray]:
        """``setup`` of the learners' environments (``single_agent_env``, ``vector_env``): every move
        forced on the learner made for it (``forced="auto"`` where the game has the option)."""
        if self.forced_moves:
            options["forced"] = "auto"
        return self.setup(num_players, reward, **options)

    @property
    def learner_options(self) -> tuple[GameOption, ...]:
        """The options the learners' environments take: all but ``forced`` (``learner_setup``)."""
        return self.options + tuple(option for option in self.env_options if option.name != "forced")

    def search_params(self, params: np.ndarray) -> np.ndarray:
        """The options row the exact searches (``sniff_twelve.search``) run a position with:
        ``params`` itself, unless the game's solver rules say otherwise (Sniff's)."""
        return params

    def shorten(self, s: np.ndarray, cards: int) -> None:
        """Cut the draw pile of the row ``s`` (its ``POOL`` slots) to its next ``cards`` items."""
        s[self.POOL_LEN] = min(s[self.POOL_LEN], s[self.POOL_HEAD] + cards)

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
        """The texts any ``BaseGame`` gives without a word of its own: ``str(game)`` for the
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
