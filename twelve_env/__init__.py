"""The card game "12" (Jamaican Sniping) for reinforcement learning (docs/rules.md Part T).

>>> import twelve_env
>>> env = twelve_env.env(num_players=3)
>>> env.reset(seed=0)
>>> obs, *_ = env.last()
>>> obs["observation"].shape, obs["action_mask"].shape
((69,), (13,))
"""

from sniff_twelve import __version__ as __version__
from twelve_env.cards import card_value, rank_name
from twelve_env.env import env, raw_env, single_agent_env
from twelve_env.game import Game
from twelve_env.vector import VectorGame, vector_env

__all__ = ["Game", "VectorGame", "card_value", "env", "rank_name", "raw_env", "single_agent_env", "vector_env"]
