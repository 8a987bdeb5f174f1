"""Block dominoes as the OpenSpiel game ``python_blockdom`` (``sniff_twelve.envs.openspiel.SpecAdapter``)."""

from sniff_twelve.envs.openspiel import SpecAdapter, register_spiel_game
from tests.blockdom.kernels import TILES
from tests.blockdom.spec import SPEC


class BlockdomAdapter(SpecAdapter):
    spec = SPEC

    def max_game_length(self) -> int:
        """Placements and draws, each after at most one pass of every other seat, in each deal;
        every deal gives some seat a point, so a seat has the target after ``n * (target - 1) + 1``
        deals at most."""
        n, target = self.num_players, self.options["target"]
        return (TILES + TILES - 2 * n) * n * (n * (target - 1) + 1)


BlockdomSpielGame = register_spiel_game(BlockdomAdapter)
