"""Block dominoes as the OpenSpiel game ``python_dominoes`` (``sniff_twelve.envs.openspiel``),
dealt by chance exactly as OpenSpiel's own ``python_block_dominoes`` and ``python_team_dominoes``
deal (D3): the same chance outcomes (tile indexes, each remaining tile equally likely) in the
same order, and the same player action ids less ``seat * 77`` (D6). Returns: the template's
``win`` (the signs of OpenSpiel's returns, D12).

>>> import pyspiel, dominoes_env.openspiel
>>> game = pyspiel.load_game("python_dominoes", {"players": 2})
>>> state = game.new_initial_state()
>>> len(state.chance_outcomes()), game.num_distinct_actions(), game.max_game_length()
(28, 77, 14)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dominoes_env.kernels import HAND_SIZE
from dominoes_env.spec import SPEC
from sniff_twelve.core.optional import extra_needed
from sniff_twelve.core.tiles import TILES, tile_name

with extra_needed("bench", "dominoes_env.openspiel (the OpenSpiel game python_dominoes)", "pyspiel"):
    from sniff_twelve.envs.openspiel import Adapter, Deal, SpecAdapter, register_spiel_game


class PartDeal(Deal):
    """A deal that leaves tiles undealt (2 players, D3): each remaining tile equally likely."""

    def outcomes(self, drawn: Sequence[int], left: Sequence[int]) -> list[tuple[int, float]]:
        total = sum(left)
        return [(item, count / total) for item, count in enumerate(left) if count]


class DominoesAdapter(SpecAdapter):
    spec = SPEC

    def __init__(self, num_players: int, options: dict[str, Any]) -> None:
        Adapter.__init__(self, num_players, options)
        self.obs_fields = (("observation", 0, self.obs_size),)
        n = num_players
        owners = [i // HAND_SIZE if n == 2 else i % n for i in range(n * HAND_SIZE)]
        self._deal = PartDeal((1,) * self.spec.ITEMS, tuple(owners))

    def deal_dict(self, deal: Deal, drawn: Sequence[int], engine: Any) -> dict[str, Any]:
        hands: list[list[tuple[int, int]]] = [[] for _ in range(self.num_players)]
        for seat, tile in zip(self._deal.owners, drawn, strict=True):
            hands[seat].append(self.spec.item_names[tile])
        return {"hands": hands}

    def max_game_length(self) -> int:
        """Every dealt tile placed (D9)."""
        return self.num_players * HAND_SIZE

    def item_name(self, item: int | tuple[int, int]) -> str:
        """A tile by its index or its pips (``Game.hand`` lists pips), ``[a|b]``."""
        return tile_name(item if isinstance(item, tuple) else TILES[item])

    def max_chance_nodes(self) -> int:
        return len(self._deal.owners)


DominoesSpielGame = register_spiel_game(DominoesAdapter)
