"""Block dominoes as the OpenSpiel game ``python_blockdom`` (``sniff_twelve.envs.openspiel.SpecSpielGame``)."""

import pyspiel

from sniff_twelve.envs.openspiel import SpecSpielGame, spec_game_type
from tests.blockdom.game import Game
from tests.blockdom.kernels import TILES


class BlockdomSpielGame(SpecSpielGame):
    game_cls, game_type = Game, spec_game_type(Game.spec, "python_blockdom")

    @classmethod
    def longest_game(cls, num_players: int, target: int) -> int:
        """Placements and draws, each after at most one pass of every other seat, in each deal;
        every deal gives some seat a point, so a seat has the target after ``n * (target - 1) + 1``
        deals at most."""
        return (TILES + TILES - 2 * num_players) * num_players * (num_players * (target - 1) + 1)


pyspiel.register_game(BlockdomSpielGame.game_type, BlockdomSpielGame)
