"""The card game "12" under PettingZoo's versioned module name (the version: ``sniff_twelve.envs.aec``).

>>> from twelve_env import twelve_v0
>>> twelve_v0.env(num_players=3).metadata["name"]
'twelve_v0'
"""

from twelve_env.env import env, raw_env, single_agent_env

__all__ = ["env", "raw_env", "single_agent_env"]
