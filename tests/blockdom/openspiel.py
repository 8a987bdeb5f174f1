"""Block dominoes as the OpenSpiel game ``python_blockdom`` (``sniff_twelve.envs.openspiel.SpecSpielGame``)."""

import pyspiel

from sniff_twelve.envs.openspiel import SpecSpielGame, spec_game_type
from tests.blockdom.game import Game
from tests.blockdom.kernels import TILES


class BlockdomSpielGame(SpecSpielGame):
    game_cls, game_type = Game, spec_game_type(Game.spec, "python_blockdom")

    @classmethod
    def longest_game(cls, num_players: int) -> int:
        """Placements and draws, each after at most one pass of every other seat."""
        return (TILES + TILES - 2 * num_players) * num_players


pyspiel.register_game(BlockdomSpielGame.game_type, BlockdomSpielGame)
