"""American Sniff as the OpenSpiel game ``python_sniff`` (needs the optional ``open-spiel`` package).

``import sniff_env.openspiel`` registers it; then ``pyspiel.load_game("python_sniff", {...})``.

Parameters: OpenSpiel's ``players`` (default 4), then the options of ``SPEC.options`` by their
names, ``0`` standing for ``None``. A match must be bounded by one of its limits (S26): OpenSpiel
needs ``max_game_length``. Bad values raise ``ValueError`` naming the option.

Chance: at the start of every hand chance picks the 28 tiles one by one — the hands in seat
order (S5), then the whole boneyard order (a draw, S19, takes the next one) — and then, for the
first hand and after a blocked hand, the opener by lot (S6); after a domino the seat that went
out opens, with no chance node. Player actions are our action ids (``Discrete(114)``: ``tile * 4
+ arm``, 112 draw, 113 pass); the tensors are our 135-float seat-relative observation.

Returns: our environments' ``reward="win"``: +1 to the side that reaches the target (S25), −1 to
the other (3 players: −0.5 to each of the two others), 0 to all when the match is truncated (S26).

>>> import pyspiel, sniff_env.openspiel
>>> game = pyspiel.load_game("python_sniff", {"players": 2, "target": 30})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes()), game.num_distinct_actions()
(True, 28, 114)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sniff_twelve.core.optional import extra_needed

with extra_needed("bench", "sniff_env.openspiel (the OpenSpiel game python_sniff)", "pyspiel"):
    from sniff_twelve.envs.openspiel import HIDDEN, Adapter, Deal, register_spiel_game

from sniff_env import kernels as K
from sniff_env.game import Game
from sniff_env.observation import OBS_FIELDS
from sniff_env.spec import SPEC
from sniff_env.tiles import NUM_TILES, TILES, set_size, tile_name

if TYPE_CHECKING:
    from sniff_twelve.core.view import SeatView


class SniffAdapter(Adapter):
    """``python_sniff``'s deal, bounds and strings over ``sniff_env.Game``."""

    obs_fields = OBS_FIELDS
    spec = SPEC

    def __init__(self, num_players: int, options: dict[str, Any]) -> None:
        super().__init__(num_players, options)
        #: the truncation limits (S26), ``0`` for none: hands, then player actions
        self.limits = int(self.params[K.P_MAX_HANDS]), int(self.params[K.P_MAX_STEPS])
        if not any(self.limits):
            limits = " or ".join(option.name for option in SPEC.options if option.kind == "limit")
            raise ValueError(f"python_sniff needs {limits} (OpenSpiel needs a bounded game)")
        n = num_players
        self.hand_size = h = int(self.params[K.P_HAND_SIZE])  # S5: 7 / 6 / 5, or the size dial's
        self.tiles = count = set_size(int(self.params[K.P_PIPS]))  # S2: the double-six set, or smaller
        pool = tuple(int(TILES[t][1] <= self.params[K.P_PIPS]) for t in range(NUM_TILES))
        owners = tuple(i // h if i < n * h else HIDDEN for i in range(count))
        self._lot_deal = Deal(pool=pool, owners=owners, lot=n)  # S6: opener by lot
        self._deal = Deal(pool=pool, owners=owners)  # S6: the domino-maker opens

    # --- the deal ---------------------------------------------------------------------------------
    def first_deal(self) -> Deal:
        return self._lot_deal

    def mark(self, engine: Game) -> int:
        return engine.hands_played

    def next_deal(self, engine: Game, marker: int) -> Deal | None:
        """A hand ended and the match goes on: deal the next (the engine already seated the
        domino-maker as opener; after a block, ``LAST_OUT`` is -1 and a lot decides, S6)."""
        if engine.is_terminal() or engine.hands_played == marker:
            return None
        return self._lot_deal if engine.state_array[K.LAST_OUT] < 0 else self._deal

    def deal_dict(self, deal: Deal, drawn: Sequence[int], engine: Game | None) -> dict[str, Any]:
        n, h = self.num_players, self.hand_size
        return {
            "hands": [[TILES[t] for t in drawn[s * h : (s + 1) * h]] for s in range(n)],
            "boneyard": [TILES[t] for t in drawn[n * h : self.tiles]],
            "opener": int(drawn[self.tiles]) if deal.lot else engine.opener,
        }

    def start(self, deal: dict[str, Any], engine: Game | None) -> Game:
        if engine is None:
            return Game(self.num_players, seed=0, deal=deal, **self.options)
        engine.redeal(deal)
        return engine

    # --- bounds -------------------------------------------------------------------------------------
    def max_game_length(self) -> int:
        """Player actions in the longest match the truncation limits allow (S26).

        A hand has at most a placement per tile of the set, as many draws as the boneyard holds
        (S19), and between two placements at most ``n - 1`` passes: a seat passes only when it can
        neither place nor draw (S21), and then some seat can place (else the hand is blocked at
        once, S21), so the turn reaches that seat before every seat has passed."""
        n, (hands, steps), tiles = self.num_players, self.limits, self.tiles
        if self.params[K.P_HAND_EPISODE]:
            hands = 1
        per_hand = tiles + (tiles - n * self.hand_size) + (n - 1) * (tiles - 1)
        return min(limit for limit in (hands * per_hand, steps) if limit)

    def max_margin(self) -> float:
        """A bound on a margin: each hand at most 45 points a placement (four ends of at most 12,
        S14, S17) and every pip of the set deducted (S23, rounded up by at most 4 a seat)."""
        pips = sum(a + b for a, b in TILES if b <= self.params[K.P_PIPS])
        hands = 1 if self.params[K.P_HAND_EPISODE] else min(limit for limit in self.limits if limit)
        return float(hands * (45 * self.tiles + pips + 4 * self.num_players))

    def max_chance_nodes(self) -> int:
        hands = 1 if self.params[K.P_HAND_EPISODE] else min(limit for limit in self.limits if limit)
        return hands * self._lot_deal.length

    # --- names and strings --------------------------------------------------------------------------
    def item_name(self, item: int) -> str:
        return tile_name(TILES[item])

    def outcome_name(self, deal: Deal, position: int, outcome: int) -> str:
        n, h = self.num_players, self.hand_size
        if position >= self.tiles:
            return f"lot: seat {outcome} opens"
        if position < n * h:
            return f"deal {tile_name(TILES[outcome])} to seat {position // h}"
        return f"boneyard {position - n * h + 1}: {tile_name(TILES[outcome])}"

    def view_string(self, view: SeatView) -> str:
        d = view.describe()
        voids = "; ".join(
            f"{s}: {''.join(map(str, view.known_voids(s)))}" for s in range(view.num_players) if view.known_voids(s)
        )
        if view.is_terminal():
            won = "hand over" if view.winner is None else f"won by side {view.winner}"
            status = "truncated" if view.is_truncated() else won
        else:
            status = f"seat {view.current_player} to act"
        return (
            f"hand #{view.hands_played + 1} opened by {view.opener} | hand {self.items_text(view.hand())} | "
            f"table {self.items_text(d['tiles'])} | ends {' '.join(str(pip) for *_, pip in d['open_spots']) or '-'} "
            f"total {d['total']} credit {d['credit']} | hand sizes {view.hand_sizes} | boneyard {view.boneyard_size} | "
            f"voids {voids or '-'} | scores {view.scores} of {view.target} | {status}"
        )

    def items_text(self, tiles: Sequence[tuple[int, int]]) -> str:
        return " ".join(map(tile_name, tiles)) or "-"

    def pool(self, engine: Game) -> list[tuple[int, int]]:
        return engine.boneyard


SniffGame = register_spiel_game(SniffAdapter)
