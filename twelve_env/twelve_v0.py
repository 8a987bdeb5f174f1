"""The card game "12" under PettingZoo's versioned module name: ``from twelve_env import twelve_v0``.

The version moves when a change would alter what an env returns for the same seed and actions
(the gymnasium id ``twelve_env/Twelve-v0`` moves with it); ``docs/changelog.md`` records each move.

>>> from twelve_env import twelve_v0
>>> env = twelve_v0.env(num_players=3)
>>> env.reset(seed=0)
"""

from twelve_env.env import env, raw_env, single_agent_env

__all__ = ["env", "raw_env", "single_agent_env"]
