"""The card game "12" (Jamaican Sniping) for reinforcement learning (docs/rules.md Part T).

Import:
    ``import twelve_env; env = twelve_env.env(num_players=4)``
Actions:
    Discrete(13) bridge deck (A, 2 … 10, J, Q, K) / Discrete(11) number deck
Agents:
    ``player_0 … player_{n-1}``, 2 to 7 (T4)
Observation:
    dict: ``observation`` float32[69] (bridge) / [61] (numbers), ``action_mask`` int8
State:
    ``state()``: the observation of the seat to act + every hidden card (by rank)

One game is one episode (T15). The observation layout is the table in ``twelve_env.observation``;
what ``infos`` hold is ``twelve_env.infos``. Rewards: ``"score"`` (the default, dense: +1 a card captured,
−1 a card left in hand at the end; an episode sums to the T15 score) or ``"win"`` (zero-sum by
final rank: +1 first … −1 last, tied players share). Every constructor lists the game's options
(``twelve_env.spec.SPEC``) in its signature.

>>> import twelve_env
>>> env = twelve_env.env(num_players=3)
>>> env.reset(seed=0)
>>> obs, *_ = env.last()
>>> obs["observation"].shape, obs["action_mask"].shape
((69,), (13,))
"""

from sniff_twelve import __version__ as __version__
from sniff_twelve.envs.package import GamePackage
from twelve_env.cards import card_value, rank_name
from twelve_env.spec import SPEC

Game, raw_env, env, single_agent_env, VectorGame, vector_env = GamePackage(SPEC, __name__).exports()

__all__ = ["Game", "VectorGame", "card_value", "env", "rank_name", "raw_env", "single_agent_env", "vector_env"]
