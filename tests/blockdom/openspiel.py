"""Block dominoes as the OpenSpiel game ``python_blockdom`` (``sniff_twelve.envs.openspiel.SpecAdapter``)."""

from sniff_twelve.envs.openspiel import SpecAdapter, register
from tests.blockdom.kernels import TILES
from tests.blockdom.spec import SPEC


class BlockdomAdapter(SpecAdapter):
    spec = SPEC

    def max_game_length(self) -> int:
        """Placements and draws, each after at most one pass of every other seat."""
        return (TILES + TILES - 2 * self.num_players) * self.num_players


BlockdomSpielGame = register(BlockdomAdapter)
