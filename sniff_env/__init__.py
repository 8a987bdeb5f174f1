"""American Sniff dominoes for reinforcement learning (docs/rules.md Part S).

>>> import sniff_env
>>> env = sniff_env.env(num_players=4)
>>> env.reset(seed=42)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, obs["action_mask"].dtype
((135,), dtype('int8'))
"""

from sniff_env.env import env, raw_env, single_agent_env
from sniff_env.game import Game
from sniff_env.tiles import DRAW, NUM_ACTIONS, PASS, TILES, decode_action, encode_action
from sniff_env.vector import VectorGame, vector_env
from sniff_twelve import __version__ as __version__

__all__ = [
    "DRAW",
    "NUM_ACTIONS",
    "PASS",
    "TILES",
    "Game",
    "VectorGame",
    "decode_action",
    "encode_action",
    "env",
    "raw_env",
    "single_agent_env",
    "vector_env",
]
