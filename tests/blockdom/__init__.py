"""Block dominoes with the double-two set: a test-only third game, declared with its kernels, one
spec and a drawing; everything else comes from the shared layers (``sniff_twelve``).

The rules:

- Six tiles: [0|0] [0|1] [0|2] [1|1] [1|2] [2|2]. Two or three players get two tiles each at
  random; the rest is the boneyard, face down in a random order. The first player is drawn by lot.
- Players take turns. The first places any tile; after that a tile goes on either end of the
  line, its matching half against that end. A player who can place must.
- A player who cannot place draws the next boneyard tile, which ends their turn; with the
  boneyard empty they pass.
- The hand ends when a player places their last tile (out: they win) or when the boneyard is
  empty and nobody can place (blocked: the fewest pips in hand wins; equal pips tie).
- Result: 1 for the player out, else minus the pips in hand. The reward ranks the results:
  +1 first, −1 last, ties share.
"""

from sniff_twelve.envs.package import GamePackage
from tests.blockdom.spec import SPEC

Game, raw_env, env, single_agent_env, VectorGame, vector_env = GamePackage(SPEC, __name__).exports()

__all__ = ["Game", "VectorGame", "env", "raw_env", "single_agent_env", "vector_env"]
