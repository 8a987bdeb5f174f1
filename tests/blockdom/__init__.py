"""Block dominoes with the double-two set: a test-only third game, declared with its kernels, one
spec and a drawing; everything else comes from the shared layers (``sniff_twelve``).

The rules:

- Six tiles: [0|0] [0|1] [0|2] [1|1] [1|2] [2|2]. Two or three players get two tiles each at
  random; the rest is the boneyard, face down in a random order. The first player is drawn by lot.
- Players take turns. The first places any tile; after that a tile goes on either end of the
  line, its matching half against that end. A player who can place must.
- A player who cannot place draws the next boneyard tile, which ends their turn; with the
  boneyard empty they pass.
- A deal ends when a player places their last tile (out: they win it) or when the boneyard is
  empty and nobody can place (blocked: the players with the fewest pips in hand win it).
- A match is played to ``target`` points (the option, default 1: one deal is the whole match).
  Every winner of a deal scores 1 plus the pips left in the hands of the players who did not
  win it. When a deal
  ends and no player has the target, the next deal is dealt at once as the first was (tiles
  shuffled again, the first player by a new lot); the match ends when a deal ends with a
  player at the target or beyond.
- The reward ranks the players' points at the end of the match: +1 first, −1 last, ties share.
"""

from sniff_twelve.envs.package import GamePackage
from tests.blockdom.spec import SPEC

Game, raw_env, env, single_agent_env, VectorGame, vector_env = GamePackage(SPEC, __name__).exports()

__all__ = ["Game", "VectorGame", "env", "raw_env", "single_agent_env", "vector_env"]
