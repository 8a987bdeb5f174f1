"""American Sniff dominoes for reinforcement learning (docs/rules.md Part S).

Import:
    ``import sniff_env; env = sniff_env.env(num_players=4)``
Actions:
    Discrete(114): ``tile * 4 + arm`` places (0–111), 112 DRAW, 113 PASS
Agents:
    ``player_0 … player_{n-1}``; with 4, ``player_0``+``player_2`` vs 1+3 (S1)
Observation:
    dict: ``observation`` float32[135], ``action_mask`` int8[114]
State:
    float32[247] (``state()``): the observation of the seat to act + hidden tiles

The observation layout is the table in ``sniff_env.observation``; what ``infos`` hold is
``sniff_env.infos``. Rewards: ``"win"`` (the default for a match: +1 to the side that reaches
the target, −1 shared by the others, 0 on truncation) or ``"points"`` (each seat receives its
side's score changes as they happen, S17 and S24; the only one for a single hand). Every
constructor lists the game's options (``sniff_env.spec.SPEC``) in its signature.

>>> import sniff_env
>>> env = sniff_env.env(num_players=4)
>>> env.reset(seed=42)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, obs["action_mask"].dtype
((135,), dtype('int8'))
"""

from sniff_env.spec import SPEC
from sniff_env.tiles import DRAW, NUM_ACTIONS, PASS, TILES, decode_action, encode_action
from sniff_twelve import __version__ as __version__
from sniff_twelve.envs.package import GamePackage

Game, raw_env, env, single_agent_env, VectorGame, vector_env = GamePackage(SPEC, __name__).exports()

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
