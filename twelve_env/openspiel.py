"""The card game "12" as the OpenSpiel game ``python_twelve`` (needs the optional ``open-spiel`` package).

``import twelve_env.openspiel`` registers it; then ``pyspiel.load_game("python_twelve", {...})``.

Parameters: OpenSpiel's ``players`` (default 2), then the options of ``SPEC.options`` by their
names. Bad values raise ``ValueError`` naming the option.

Chance deals the whole deck one card at a time — 5 to each seat in seat order (T5), the face-up
card, then the stock in drawing order — each rank with the probability of its copies left, and
then picks the first player (T6). Player actions are our rank ids (``Discrete(13)`` A…K, or
``Discrete(11)`` for the number deck); the tensors are our ``4R + 17``-float observation.

Returns: our environments' ``reward="win"``: zero-sum by the rank of the T15 scores (+1 first,
−1 last, evenly between; tied seats share their places' mean). Rank rather than the raw T15
score keeps the returns zero-sum and in ``[-1, 1]`` like ``python_sniff``'s, which is what
OpenSpiel's zero-sum algorithms and bots expect; the scores themselves stay readable in the
observation and ``str(state)``.

>>> import pyspiel, twelve_env.openspiel
>>> game = pyspiel.load_game("python_twelve", {"players": 3})
>>> game.num_distinct_actions(), game.max_chance_outcomes(), game.max_game_length()
(13, 13, 51)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sniff_twelve.core.optional import extra_needed

with extra_needed("bench", "twelve_env.openspiel (the OpenSpiel game python_twelve)", "pyspiel"):
    from sniff_twelve.envs.openspiel import HIDDEN, PUBLIC, Adapter, Deal, register_spiel_game

from twelve_env import kernels as K
from twelve_env.cards import NUM_RANKS, deck_ranks, rank_name
from twelve_env.observation import obs_fields
from twelve_env.spec import SPEC

if TYPE_CHECKING:
    from sniff_twelve.core.view import SeatView
    from twelve_env.game import Game


class TwelveAdapter(Adapter):
    """``python_twelve``'s deal, bounds and strings over ``twelve_env.Game``."""

    spec = SPEC

    def __init__(self, num_players: int, options: dict[str, Any]) -> None:
        super().__init__(num_players, options)
        self.deck = options["deck"]
        ranks = NUM_RANKS[deck_ranks(self.deck)]
        self.obs_fields = obs_fields(ranks)
        _, seen, _ = next(field for field in self.obs_fields if field[0] == "seen")
        self._seen = slice(seen, seen + ranks)  # cards of each rank seen face up so far
        pool = tuple(int(K.copies(self.params, r)) for r in range(ranks))  # T1, or the size dial's deck
        self.cards = sum(pool)
        self.hand_size = h = int(self.params[K.P_HAND_SIZE])  # T5, or the size dial's
        dealt = num_players * h
        owners = tuple(i // h if i < dealt else PUBLIC if i == dealt else HIDDEN for i in range(self.cards))
        self._deal = Deal(pool=pool, owners=owners, lot=num_players)

    # --- the deal ---------------------------------------------------------------------------------
    def first_deal(self) -> Deal:
        return self._deal

    def deal_dict(self, deal: Deal, drawn: Sequence[int], engine: Game | None) -> dict[str, Any]:
        n, h = self.num_players, self.hand_size
        return {
            "hands": [list(drawn[s * h : (s + 1) * h]) for s in range(n)],
            "face_up": int(drawn[n * h]),
            "stock": list(drawn[n * h + 1 : self.cards]),
            "first_player": int(drawn[self.cards]),
        }

    # --- bounds -------------------------------------------------------------------------------------
    def max_game_length(self) -> int:
        """Every turn plays a card from a hand (T7), and only the face-up card of the deal never
        reaches one: at most ``cards - 1`` turns."""
        return self.cards - 1

    def max_margin(self) -> float:
        """A bound on a margin: a seat captures at most every card and holds at most every card (T15)."""
        return float(2 * self.cards)

    # --- names and strings --------------------------------------------------------------------------
    def item_name(self, item: int) -> str:
        return rank_name(self.deck, item)

    def outcome_name(self, deal: Deal, position: int, outcome: int) -> str:
        dealt = self.num_players * self.hand_size
        if position >= self.cards:
            return f"seat {outcome} plays first"
        card = rank_name(self.deck, outcome)
        if position < dealt:
            return f"deal {card} to seat {position // self.hand_size}"
        if position == dealt:
            return f"face up {card}"
        return f"stock {position - dealt}: {card}"

    def view_string(self, view: SeatView) -> str:
        if view.is_terminal():
            status = "over"
        else:
            status = f"seat {view.current_player} to act" + (
                f", last round: {view.turns_left} turns left" if view.last_round else ""
            )
        seen = view.observation()[self._seen].astype(int)
        seen_text = " ".join(f"{rank_name(self.deck, r)}x{c}" for r, c in enumerate(seen) if c) or "-"
        return (
            f"hand {self.items_text(view.hand())} | pile {self.items_text(view.pile)} | seen {seen_text} | "
            f"stock {view.stock_size} | hand sizes {view.hand_sizes} | captured {view.captured} | "
            f"scores {view.scores} | {status}"
        )


TwelveGame = register_spiel_game(TwelveAdapter)
