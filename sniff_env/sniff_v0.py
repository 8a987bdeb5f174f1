"""American Sniff under PettingZoo's versioned module name: ``from sniff_env import sniff_v0``.

The version moves when a change would alter what an env returns for the same seed and actions
(the gymnasium id ``sniff_env/Sniff-v0`` moves with it); ``docs/changelog.md`` records each move.

>>> from sniff_env import sniff_v0
>>> env = sniff_v0.env(num_players=4)
>>> env.reset(seed=0)
"""

from sniff_env.env import env, raw_env, single_agent_env

__all__ = ["env", "raw_env", "single_agent_env"]
