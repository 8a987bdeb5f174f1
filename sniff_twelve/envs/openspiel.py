"""OpenSpiel games over a ``BaseGame``: what ``python_sniff`` and ``python_twelve`` share.

Needs the optional ``open-spiel`` package (the ``bench`` extra); nothing else in the library
imports this module. A game module (``sniff_env.openspiel``, ``twelve_env.openspiel``) subclasses
``Adapter`` (the deal, bounds, names, strings), names it in a ``SpielGame`` with its
``GameType`` (``make_game_type``), then calls ``pyspiel.register_game``. The OpenSpiel state only
wraps our ``Game``: every rule stays in the compiled kernels.

Conventions, as OpenSpiel's ``python_team_dominoes``:

- **Chance nodes deal.** Chance draws the items of a deal one at a time from what is left (tiles
  or cards, each with the probability of its remaining copies), in the order the deal uses them —
  the hands in seat order, then the rest (boneyard or stock order) — then, when the rules say so,
  a lot among the seats (a uniform seat). When the deal is complete the adapter builds the
  engine's ``deal=`` dict and starts or re-deals our ``Game`` with it.
- **Returns** are the environments' ``reward="win"`` (the game's own reward kernel): zero-sum,
  +1 at best, −1 at worst, paid at the end. With the parameter ``returns="margin"`` they are each
  seat's margin instead (``Table.margins`` of the points the game's dense reward pays: its
  side's points minus the other sides' mean; zero-sum), what exact game theory on the size
  dial's small tables measures in points (``sniff_twelve.tools.exploitability``).
- **Observations** come from the seat's view (``Game.seat_view``, ``sniff_twelve.core.view``): the tensor is
  the observation vector, the strings describe what the view holds. The information state string
  has perfect recall: the items the seat was dealt, then the public history of the players'
  actions, each followed by the items that action put into the seat's own hand (a tile it drew,
  the cards of "12" it drew), so two histories share it only if the seat saw the same things in
  the same order. While chance deals, the tensor is zero and the strings show only the seat's own
  items dealt so far.
- ``resample_from_infostate`` deals what the seat cannot see at random, consistently with its
  view (``SeatView.sample``), for determinizing searches such as OpenSpiel's ``ISMCTSBot``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import pyspiel

from sniff_twelve.core.options import check_choice, check_int
from sniff_twelve.core.seats import Table

if TYPE_CHECKING:
    from sniff_twelve.core.game import BaseGame
    from sniff_twelve.core.spec import GameSpec
    from sniff_twelve.core.view import SeatView

#: owner of a dealt position nobody sees (boneyard, stock) / that everybody sees (a face-up card)
HIDDEN, PUBLIC = -1, -2
#: OpenSpiel's ``GameInfo.max_game_length`` is a C++ ``int``
MAX_INT = 2**31 - 1

_resample_rng: np.random.Generator | None = None


def seed_resampling(seed: int | None) -> None:
    """Make ``resample_from_infostate`` reproducible: with a seed, its seeds come from a stream
    seeded with it and the caller's sampler is ignored; ``None`` returns to the sampler.

    OpenSpiel's python ``ISMCTSBot`` passes a fresh ``UniformProbabilitySampler`` on every call,
    seeded from the clock, so a search cannot be replayed without this."""
    global _resample_rng
    _resample_rng = None if seed is None else np.random.default_rng(check_int("seed", seed, 0))


def _resample_seed(probability_sampler: Any) -> int:
    """A seed for ``SeatView.sample``: from ``seed_resampling``'s stream if set, else the sampler."""
    if _resample_rng is not None:
        return int(_resample_rng.integers(2**62))
    return int(float(probability_sampler()) * 2**53)


@dataclass(frozen=True)
class Deal:
    """One deal as chance performs it.

    ``pool[item]`` copies of each item are drawn one by one, all of them; position ``i`` of the
    deal goes to ``owners[i]`` (a seat, ``HIDDEN`` or ``PUBLIC``). Then, if ``lot`` > 0, chance
    draws one of ``lot`` seats uniformly."""

    pool: tuple[int, ...]
    owners: tuple[int, ...]
    lot: int = 0

    def __deepcopy__(self, memo: dict) -> Deal:
        return self  # immutable

    @property
    def length(self) -> int:
        """Chance nodes of this deal."""
        return len(self.owners) + (1 if self.lot else 0)

    @property
    def orders(self) -> int:
        """The distinct ways chance can deal it: the orders of the pool's items, times the lot."""
        return math.factorial(sum(self.pool)) // math.prod(map(math.factorial, self.pool)) * max(self.lot, 1)

    def outcomes(self, drawn: Sequence[int], left: Sequence[int]) -> list[tuple[int, float]]:
        """``(outcome, probability)`` of the next chance node after ``drawn``; ``left`` counts the
        copies of each item not drawn yet."""
        if len(drawn) >= len(self.owners):
            return [(seat, 1.0 / self.lot) for seat in range(self.lot)]
        total = len(self.owners) - len(drawn)
        return [(item, count / total) for item, count in enumerate(left) if count]

    def left_after(self, drawn: Sequence[int]) -> list[int]:
        """Copies of each item not yet drawn after ``drawn``."""
        left = list(self.pool)
        for item in drawn[: len(self.owners)]:
            left[item] -= 1
        return left

    def resample(self, drawn: Sequence[int], seat: int, rng: np.random.Generator) -> list[int]:
        """``drawn`` with every position ``seat`` cannot see redrawn at random from what is left."""
        known = [item for item, owner in zip(drawn, self.owners, strict=False) if owner in (seat, PUBLIC)]
        left = np.array(self.pool, dtype=np.int64) - np.bincount(known, minlength=len(self.pool))
        out = list(drawn)
        for i, owner in enumerate(self.owners[: len(drawn)]):
            if owner not in (seat, PUBLIC):
                item = int(rng.choice(len(left), p=left / left.sum()))
                left[item] -= 1
                out[i] = item
        return out


class Adapter:
    """What a game module tells the shared OpenSpiel machinery (one per game instance).

    Subclasses set ``spec`` and ``obs_fields`` and implement the hooks; ``options`` are the
    engine's keyword arguments besides ``num_players``, every one of ``spec.options``, already
    checked against its declaration. The options row (``params``), the widths under it and the
    reward mode of the returns come from the spec.
    """

    obs_fields: tuple[tuple[str, int, int], ...]
    obs_size: int
    num_actions: int
    spec: GameSpec  # the game's kernels and sizes
    win_mode: int

    #: ``returns="margin"``: each seat's margin in points instead of the ``win`` reward
    margin: bool = False

    def __init__(self, num_players: int, options: dict[str, Any]) -> None:
        self.num_players = num_players
        self.options = options
        self.params = self.spec.make_params(num_players, **options)
        self.obs_size, _, self.num_actions = self.spec.widths(self.params)
        self.win_mode = self.spec.reward_modes["win"]
        #: the dense reward mode whose sum is each seat's points (Sniff's ``points``, "12"'s ``score``)
        self.points_mode = self.spec.reward_modes.get(self.spec.points_reward)
        self.game_cls = self.spec.part("game")
        self._fresh = self.game_cls(num_players=num_players, seed=0, **options)  # names actions

    def __deepcopy__(self, memo: dict) -> Adapter:
        return self  # immutable and shared by every state of a game: never copied by Clone

    # --- hooks ------------------------------------------------------------------------------------
    def first_deal(self) -> Deal:
        """The deal that starts the game."""
        raise NotImplementedError

    def next_deal(self, engine: BaseGame, marker: Any) -> Deal | None:
        """After a player action: the deal that must come now (a new hand), else ``None``.
        ``marker`` is what ``mark(engine)`` returned before the action."""
        return None

    def mark(self, engine: BaseGame) -> Any:
        return None

    def deal_dict(self, deal: Deal, drawn: Sequence[int], engine: BaseGame | None) -> dict[str, Any]:
        """The engine's ``deal=`` dict for a complete deal (``drawn`` ends with the lot, if any)."""
        raise NotImplementedError

    def start(self, deal: dict[str, Any], engine: BaseGame | None) -> BaseGame:
        """The engine positioned at ``deal``: a new game, or ``engine`` re-dealt (its next deal)."""
        if engine is None:
            return self.game_cls(num_players=self.num_players, seed=0, deal=deal, **self.options)
        engine._deal(deal)
        return engine

    def max_game_length(self) -> int:
        raise NotImplementedError

    def max_margin(self) -> float:
        """The largest margin a seat can have at the end (``returns="margin"``'s utility bound)."""
        raise NotImplementedError

    def max_chance_nodes(self) -> int:
        """Chance nodes in a game (default: those of its one deal, ``first_deal``)."""
        return self.first_deal().length

    def item_name(self, item: int) -> str:
        raise NotImplementedError

    def outcome_name(self, deal: Deal, position: int, outcome: int) -> str:
        """Name of chance ``outcome`` at ``position`` of ``deal``."""
        raise NotImplementedError

    def action_name(self, action: int) -> str:
        """Our name of a player action (the engine's ``action_name``)."""
        return self._fresh.action_name(action)

    def view_string(self, view: SeatView) -> str:
        """What the view holds, one line."""
        raise NotImplementedError

    def items_text(self, items: Sequence[Any]) -> str:
        """Items as ``Game`` lists them (a hand, the pool), by ``item_name``; ``-`` for none."""
        return " ".join(self.item_name(item) for item in items) or "-"

    def pool(self, engine: BaseGame) -> Sequence[Any]:
        """The boneyard or stock, in drawing order, as ``Game`` lists it (default ``Game.pool``)."""
        return engine.pool

    def engine_string(self, engine: BaseGame) -> str:
        """The whole position, hidden parts included (for ``str(state)``): the game, every hand and the pool."""
        hands = " | ".join(f"{s}: {self.items_text(engine.hand(s))}" for s in range(engine.num_players))
        return f"{engine}\nhands {hands}\n{self.spec.pool_name} {self.items_text(self.pool(engine))}"


#: OpenSpiel's ``returns`` parameter: the ``win`` reward, or each seat's margin in points
RETURNS = ("win", "margin")


def spiel_parameters(spec: GameSpec, players: int) -> dict[str, Any]:
    """OpenSpiel's parameters of a game: ``players`` (default ``players``), then every option of
    ``spec.options`` by its own name, ``0`` standing for ``None`` (OpenSpiel has no null), then
    ``returns`` (``RETURNS``; default ``"win"``)."""
    options = {option.name: option.spiel_default for option in spec.options}
    return {"players": players, **options, "returns": RETURNS[0]}


def spiel_options(spec: GameSpec, params: dict[str, Any]) -> dict[str, Any]:
    """The game options of OpenSpiel ``params``, as ``Game`` takes them (``0`` → ``None`` where an
    option allows ``None``)."""
    return {option.name: option.from_spiel(params[option.name]) for option in spec.options}


def make_game_type(spec: GameSpec) -> pyspiel.GameType:
    """The ``GameType`` of ``spec``'s game, named ``python_<name>`` and ``Python <title>``: sequential,
    explicit chance, imperfect information, zero-sum terminal returns, all four observation kinds;
    the parameters from ``spec.options`` (``players`` defaults to ``spec.default_players``)."""
    return pyspiel.GameType(
        short_name=f"python_{spec.name}",
        long_name=f"Python {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(spec.players),
        min_num_players=min(spec.players),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spiel_parameters(spec, spec.default_players),
    )


def table_players(spec: GameSpec, params: dict[str, Any]) -> int:
    """OpenSpiel's ``players`` parameter, checked against the spec's table sizes."""
    return check_int("players", params["players"], min(spec.players), max(spec.players))


class SpielGame(pyspiel.Game):
    """A ``pyspiel.Game`` over one of our games; subclasses set ``game_type`` and ``adapter_cls``.

    ``params`` are OpenSpiel's game parameters (``players`` and the game's options); missing ones
    take the defaults of ``game_type.parameter_specification``; unknown or bad ones raise
    ``ValueError``, and so do options that let a game outlast OpenSpiel's ``int`` of actions.
    """

    game_type: ClassVar[pyspiel.GameType]
    adapter_cls: ClassVar[type[Adapter]]

    @classmethod
    def make_adapter(cls, params: dict[str, Any]) -> Adapter:
        """The adapter of a table of ``players`` with the options checked against the spec's
        (``ValueError`` / ``ArgumentTypeError`` naming the option)."""
        spec = cls.adapter_cls.spec
        adapter = cls.adapter_cls(table_players(spec, params), spec.checked_options(spiel_options(spec, params)))
        adapter.margin = check_choice("returns", params["returns"], RETURNS) == "margin"
        if adapter.margin and adapter.points_mode is None:
            raise ValueError(f"returns='margin' needs a reward of points; {spec.title} has only 'win'")
        return adapter

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        spec = self.game_type.parameter_specification
        params = dict(params or {})
        unknown = sorted(set(params) - set(spec))
        if unknown:
            raise ValueError(f"unknown parameters {unknown} for {self.game_type.short_name}; known: {sorted(spec)}")
        params = {**spec, **params}
        self._adapter = adapter = self.make_adapter(params)
        for option in adapter.spec.options:
            params[option.name] = option.spiel_value(params[option.name])
        if adapter.max_game_length() > MAX_INT or adapter.max_chance_nodes() > MAX_INT:
            raise ValueError(
                f"{self.game_type.short_name} with these options can last more than {MAX_INT} actions: "
                "too long for OpenSpiel"
            )
        bound = adapter.max_margin() if adapter.margin else 1.0
        info = pyspiel.GameInfo(
            num_distinct_actions=adapter.num_actions,
            max_chance_outcomes=max(len(adapter.first_deal().pool), adapter.num_players),
            num_players=adapter.num_players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=adapter.max_game_length(),
        )
        super().__init__(self.game_type, info, params)

    def new_initial_state(self) -> SpielState:
        """The start of a game: a chance node, the first card or tile of the deal."""
        return SpielState(self, self._adapter)

    def max_chance_nodes_in_history(self) -> int:
        return self._adapter.max_chance_nodes()

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict | None = None
    ) -> SpielObserver:
        """An observer of the default kind (observation) or ``iig_obs_type`` (e.g. information state)."""
        return SpielObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params, self._adapter)


class SpielState(pyspiel.State):
    """One game in progress: the deal in progress (chance nodes) or our ``Game`` (``_engine``).

    Every attribute is plain data, so OpenSpiel's ``Clone`` (deep copy) and serialisation
    (pickle) work; the adapter is shared, never copied.
    """

    def __init__(self, game: SpielGame, adapter: Adapter) -> None:
        super().__init__(game)
        self._adapter = adapter
        self._engine: BaseGame | None = None
        self._deal: Deal | None = adapter.first_deal()  # the deal in progress, None while playing
        self._drawn: list[int] = []  # its outcomes so far
        self._left: list[int] = list(self._deal.pool)  # copies of each item not drawn yet
        self._actions: list[tuple[int, int]] = []  # public history: (seat, action) of every player action
        self._deals_at: list[int] = []  # len(_actions) whenever a later deal began (a new hand)
        #: private history: each seat's items when each deal began (as ``Game.hand`` lists them), and
        #: after each player action the item indexes it added to each seat's hand (``()``: none)
        self._dealt: list[list[list[Any]]] = []
        self._gained: list[tuple[tuple[int, ...], ...]] = []
        self._before: np.ndarray | None = None  # the reward kernel's snapshot of the start

    # --- the OpenSpiel API -----------------------------------------------------------------------
    def current_player(self) -> int:
        if self._deal is not None:
            return pyspiel.PlayerId.CHANCE
        if self._engine.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self._engine.current_player

    def _legal_actions(self, player: int) -> list[int]:
        return self._engine.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._deal.outcomes(self._drawn, self._left)

    def _apply_action(self, action: int) -> None:
        if self._deal is not None:
            self._deal_one(int(action))
            return
        engine = self._engine
        seat, marker = engine.current_player, self._adapter.mark(engine)
        engine.apply(action)  # ValueError naming the legal actions if it is illegal
        self._actions.append((seat, int(action)))
        self._deal = self._adapter.next_deal(engine, marker)
        self._gained.append(self._drawn_by(engine))
        if self._deal is not None:
            self._left = list(self._deal.pool)
            self._deals_at.append(len(self._actions))

    def _deal_one(self, outcome: int) -> None:
        deal, drawn, left = self._deal, self._drawn, self._left
        if len(drawn) < len(deal.owners):
            if not (0 <= outcome < len(left) and left[outcome]):
                raise ValueError(f"chance outcome {outcome} is not possible here: no copy of it is left")
            left[outcome] -= 1
        elif not 0 <= outcome < deal.lot:
            raise ValueError(f"chance outcome {outcome} is not possible here: the lot is among {deal.lot} seats")
        drawn.append(outcome)
        if len(drawn) < deal.length:
            return
        first = self._engine is None
        self._engine = self._adapter.start(self._adapter.deal_dict(deal, self._drawn, self._engine), self._engine)
        self._dealt.append(self._hands())
        if first:
            spec = self._adapter.spec
            self._before = np.zeros(spec.SNAPSHOT_SIZE, dtype=np.int32)
            spec.snapshot(self._engine._state, self._before)
        self._deal, self._drawn, self._left = None, [], []

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._deal is not None:
                return self._adapter.outcome_name(self._deal, len(self._drawn), action)
            return f"chance outcome {action}"
        return self._adapter.action_name(action)

    def _hands(self) -> list[list[Any]]:
        """Every seat's items now, as ``Game.hand`` lists them (what each seat was dealt)."""
        return [self._engine.hand(seat) for seat in range(self._adapter.num_players)]

    def _drawn_by(self, engine: BaseGame) -> tuple[tuple[int, ...], ...]:
        """The item indexes the action just applied put in each seat's hand: ``()`` unless it took
        items from the pool (a draw, the cards of "12"), the only way items enter a hand within a
        deal. An action that ends a deal records none: that deal is over (its row before the
        action is gone with it, ``Game.apply``), and so are the decisions it could inform."""
        if not engine._deal_rows:
            return ()
        spec, before, after = self._adapter.spec, engine._deal_rows[-1], engine._state
        if before[spec.POOL_HEAD] == after[spec.POOL_HEAD]:
            return ()
        held = np.zeros((2, spec.ITEMS), dtype=np.int64)
        gained = []
        for seat in range(self._adapter.num_players):
            spec.held_items(before, engine._params, seat, held[0])
            spec.held_items(after, engine._params, seat, held[1])
            counts = np.maximum(held[1] - held[0], 0)
            gained.append(tuple(np.repeat(np.arange(spec.ITEMS), counts).tolist()))
        return tuple(gained)

    def is_terminal(self) -> bool:
        return self._deal is None and self._engine.is_terminal()

    def returns(self) -> list[float]:
        """The environments' ``reward="win"`` summed over the game, or with ``returns="margin"``
        each seat's margin in points (``Table.margins`` of the dense reward's points): zero
        until it ends."""
        adapter = self._adapter
        out = np.zeros(adapter.num_players, dtype=np.float64)
        if self.is_terminal():
            engine, spec = self._engine, adapter.spec
            mode = adapter.points_mode if adapter.margin else adapter.win_mode
            spec.write_rewards(engine._state, engine._params, self._before, mode, out)
            if adapter.margin:
                return Table.of(spec, adapter.num_players).margins(out.tolist())
        return out.tolist()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SpielState:
        """A state ``player_id`` cannot tell from this one: what it cannot see dealt at random,
        consistently with its view (hand sizes, known voids; ``SeatView.sample``). The seed is
        drawn from ``probability_sampler`` (or ``seed_resampling``'s stream, if set). The new
        state's ``history()`` is empty: it is a determinization, not a replayable history."""
        seat = int(player_id)
        if not 0 <= seat < self._adapter.num_players:
            raise ValueError(f"player_id must be a seat 0 … {self._adapter.num_players - 1}; got {player_id}")
        seed = _resample_seed(probability_sampler)
        state = self.get_game().new_initial_state()
        if self._engine is not None:
            state._engine = self._engine.seat_view(seat, past=False).sample(seed)
        state._deal = self._deal
        if self._deal is not None:
            state._drawn = self._deal.resample(self._drawn, seat, np.random.default_rng(seed))
            state._left = self._deal.left_after(state._drawn)
        state._actions, state._deals_at = list(self._actions), list(self._deals_at)
        # the other seats' private history is not the determinization's: only the seat's own is kept
        state._dealt = [[hand if s == seat else [] for s, hand in enumerate(hands)] for hands in self._dealt]
        state._gained = [tuple(items if s == seat else () for s, items in enumerate(step)) for step in self._gained]
        state._before = None if self._before is None else self._before.copy()
        return state

    def __str__(self) -> str:
        lines = [] if self._engine is None else [self._adapter.engine_string(self._engine)]
        if self._deal is not None:
            dealt = ", ".join(self._adapter.outcome_name(self._deal, i, o) for i, o in enumerate(self._drawn))
            lines.append(f"dealing ({len(self._drawn)} of {self._deal.length} chance nodes): {dealt}")
        return "\n".join(lines)

    # --- what a seat sees (the observer) -------------------------------------------------------
    def _view(self, seat: int) -> SeatView | None:
        """The seat's view, ``None`` while chance deals (the engine's hand is not the real one)."""
        return None if self._deal is not None else self._engine.seat_view(seat, past=False)

    def _dealing_string(self, seat: int) -> str:
        deal = self._deal
        own = [
            self._adapter.item_name(item)
            for item, owner in zip(self._drawn, deal.owners, strict=False)
            if owner == seat
        ]
        shown = [
            self._adapter.item_name(item)
            for item, owner in zip(self._drawn, deal.owners, strict=False)
            if owner == PUBLIC
        ]
        text = f"p{seat} dealing: you hold {' '.join(own) or '-'}"
        return text + (f"; face up {' '.join(shown)}" if shown else "")

    def _observation_string(self, seat: int) -> str:
        view = self._view(seat)
        return self._dealing_string(seat) if view is None else f"p{seat} {self._adapter.view_string(view)}"

    def _information_state_string(self, seat: int) -> str:
        """The observation string and the seat's whole history (perfect recall): what it was dealt
        at each deal (``dealt …``), then every player action as ``seat:name``, followed by
        ``+items`` where the action added items to the seat's own hand; ``|`` where a new deal began."""
        adapter, tokens, start = self._adapter, [], 0
        for deal, end in enumerate([*self._deals_at, len(self._actions)]):
            dealt = self._dealt[deal][seat] if deal < len(self._dealt) else []
            moves = [f"dealt {adapter.items_text(dealt)}"]
            for i in range(start, end):
                player, action = self._actions[i]
                gained = self._gained[i][seat] if self._gained[i] else ()
                drew = f" +{' '.join(map(adapter.item_name, gained))}" if gained else ""
                moves.append(f"{player}:{adapter.action_name(action)}{drew}")
            tokens.append(" ".join(moves))
            start = end
        return f"{self._observation_string(seat)}\nhistory: {' | '.join(tokens)}"


class SpielObserver:
    """OpenSpiel's ``PyObserver`` interface over our observation vector.

    ``tensor`` is the seat's observation (``Game.observation``, from its view) and ``dict`` names
    its fields; ``string_from`` is the observation string, or with ``perfect_recall`` the
    information state string (the view plus the public history of actions). Only the kinds that
    include the seat's private information are offered: our vector always holds its hand.
    """

    def __init__(self, iig_obs_type: pyspiel.IIGObservationType, params: dict | None, adapter: Adapter) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError("only observations of one seat's private and public information are supported")
        self.perfect_recall = iig_obs_type.perfect_recall
        self.tensor = np.zeros(adapter.obs_size, dtype=np.float32)
        self.dict = {name: self.tensor[start : start + size] for name, start, size in adapter.obs_fields}

    def set_from(self, state: SpielState, player: int) -> None:
        """Write ``player``'s observation of ``state`` into ``tensor`` (zero while chance deals)."""
        view = state._view(player)
        if view is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = view.observation()

    def string_from(self, state: SpielState, player: int) -> str:
        if self.perfect_recall:
            return state._information_state_string(player)
        return state._observation_string(player)


def play_bots(state: pyspiel.State, bots: Sequence[pyspiel.Bot], rng: np.random.Generator) -> list[float]:
    """``open_spiel.python.algorithms.evaluate_bots.evaluate_bots`` without ``restart_at``, which
    OpenSpiel's python ``ISMCTSBot`` lacks: chance samples ``chance_outcomes()``, each seat's bot
    steps, the others are informed. Returns the final returns."""
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            action = int(rng.choice(outcomes, p=probs))
            for bot in bots:
                bot.inform_action(state, pyspiel.PlayerId.CHANCE, action)
        else:
            player = state.current_player()
            action = bots[player].step(state)
            for other, bot in enumerate(bots):
                if other != player:
                    bot.inform_action(state, player, action)
        state.apply_action(action)
    return state.returns()


class SpecAdapter(Adapter):
    """The adapter of a game of the default ``deal=`` format (``BaseGame``): ``class
    MyAdapter(SpecAdapter)`` with the game's ``spec`` and its ``max_game_length`` (the most player
    actions a game can take), then ``register_spiel_game(MyAdapter)``.

    Chance deals every item a deal of the table puts in play (each with the probability of its
    copies left) to the hands in seat order, as many as ``Game`` deals each, then to the pool
    (the boneyard or stock, in drawing order), then draws the first player by lot: the engine
    is ``Game(deal=…, **options)``. A game of several deals (the spec's ``HANDS`` slot) is dealt
    each later deal by chance alike, in place of the one the engine dealt itself. The tensor is
    the observation vector; the strings are the seat's hand by the spec's ``item_names`` and
    ``str(game)`` of its public game, which must therefore show public information only.
    """

    def __init__(self, num_players: int, options: dict[str, Any]) -> None:
        super().__init__(num_players, options)
        self.obs_fields = (("observation", 0, self.obs_size),)
        dealt = self._fresh.deal_of(self._fresh.state_array)
        self.sizes = [len(hand) for hand in dealt["hands"]]
        items = [item for part in [*dealt["hands"], dealt["pool"]] for item in part]
        owners = [seat for seat, size in enumerate(self.sizes) for _ in range(size)]
        pool = np.bincount(items, minlength=self.spec.ITEMS)
        self._deal = Deal(tuple(pool.tolist()), (*owners, *[HIDDEN] * len(dealt["pool"])), num_players)

    def first_deal(self) -> Deal:
        return self._deal

    def mark(self, engine: BaseGame) -> int:
        return int(engine.state_array[self.spec.HANDS]) if self.spec.HANDS >= 0 else 0

    def next_deal(self, engine: BaseGame, marker: int) -> Deal | None:
        """A deal ended and the game goes on: chance deals the next."""
        return None if engine.is_terminal() or self.mark(engine) == marker else self._deal

    def deal_dict(self, deal: Deal, drawn: Sequence[int], engine: BaseGame | None) -> dict[str, Any]:
        starts = np.cumsum([0, *self.sizes]).tolist()
        hands = [list(drawn[a:b]) for a, b in itertools.pairwise(starts)]
        return {"hands": hands, "pool": list(drawn[starts[-1] : -1]), "first_player": int(drawn[-1])}

    def max_chance_nodes(self) -> int:
        """A deal's chance nodes, for every deal: each later deal follows a player action."""
        return self._deal.length * (1 + (self.max_game_length() if self.spec.HANDS >= 0 else 0))

    def item_name(self, item: int) -> str:
        return str(self.spec.item_names[item])

    def outcome_name(self, deal: Deal, position: int, outcome: int) -> str:
        if position >= len(deal.owners):
            return f"seat {outcome} plays first"
        owner = deal.owners[position]
        return f"deal {self.item_name(outcome)} to {f'seat {owner}' if owner >= 0 else f'the {self.spec.pool_name}'}"

    def view_string(self, view: SeatView) -> str:
        return f"hand {self.items_text(view.hand())} | {self.game_cls._from_row(view.array, view.params)}"

    def engine_string(self, engine: BaseGame) -> str:
        return str(engine)


def register_spiel_game(adapter_cls: type[Adapter]) -> type[SpielGame]:
    """The OpenSpiel game of ``adapter_cls``'s game (its ``spec``), registered with
    ``pyspiel.register_game`` under ``make_game_type(spec)``: what a game's ``openspiel`` module
    does at import, for its own adapter or ``SpecAdapter``."""
    name = f"{adapter_cls.spec.title} as an OpenSpiel game"
    game_type = make_game_type(adapter_cls.spec)
    attributes = {
        "game_type": game_type,
        "adapter_cls": adapter_cls,
        "__module__": adapter_cls.__module__,
        "__doc__": name,
    }
    game = type("SpielGame", (SpielGame,), attributes)
    pyspiel.register_game(game_type, game)
    return game
