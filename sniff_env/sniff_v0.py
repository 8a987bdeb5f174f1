"""American Sniff under PettingZoo's versioned module name (the version: ``sniff_twelve.envs.aec``).

>>> from sniff_env import sniff_v0
>>> sniff_v0.env(num_players=4).metadata["name"]
'sniff_v0'
"""

from sniff_env.env import env, raw_env, single_agent_env

__all__ = ["env", "raw_env", "single_agent_env"]
