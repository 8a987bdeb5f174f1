"""Block dominoes as OpenSpiel plays it, for reinforcement learning (docs/dominoes_rules.md, D1–D12):
OpenSpiel's ``python_block_dominoes`` with 2 players, ``python_team_dominoes`` with 4 (partners
0+2 against 1+3).

Import:
    ``import dominoes_env; env = dominoes_env.env(num_players=4)``
Actions:
    Discrete(77), OpenSpiel's ids of one player (``decode_action``, ``encode_action``, D6)
Agents:
    ``player_0 … player_{n-1}``
Observation:
    dict: ``observation`` float32[98] (``dominoes_env.kernels.OBS``), ``action_mask`` int8[77]
State:
    float32[182] (``state()``): the observation of the seat to act + the other hands

Rewards: ``"points"`` (OpenSpiel's returns at the end, D12) or ``"win"`` (their signs).

>>> import dominoes_env
>>> env = dominoes_env.env(num_players=4)
>>> env.reset(seed=42)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum())
((98,), 7)
"""

from dominoes_env.game import decode_action, encode_action
from dominoes_env.kernels import NUM_ACTIONS
from dominoes_env.spec import SPEC
from sniff_twelve import __version__ as __version__
from sniff_twelve.core.tiles import TILES
from sniff_twelve.envs.package import GamePackage

Game, raw_env, env, single_agent_env, VectorGame, vector_env = GamePackage(SPEC, __name__).exports()

__all__ = ["NUM_ACTIONS", "TILES", "Game", "VectorGame", "decode_action", "encode_action"]
__all__ += ["env", "raw_env", "single_agent_env", "vector_env"]  # built from the spec (GamePackage)
