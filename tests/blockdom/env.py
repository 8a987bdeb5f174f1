"""Block dominoes' environments: the shared layers' generic ones over ``Game``."""

from functools import partial

from sniff_twelve.agents.builtin import spec_make_agent
from sniff_twelve.batch.vector import SpecVectorGame
from sniff_twelve.envs.aec import SpecAECEnv
from sniff_twelve.envs.single_agent import register, spec_single_agent_env
from tests.blockdom.game import Game


class raw_env(SpecAECEnv):
    game_cls = Game


class VectorGame(SpecVectorGame):
    game_cls = Game


env = raw_env.wrapped
single_agent_env = partial(spec_single_agent_env, Game, spec_make_agent)
register(Game.spec)  # gymnasium.make("tests_blockdom/Blockdom-v0")
