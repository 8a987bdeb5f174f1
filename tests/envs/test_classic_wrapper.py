"""``env()``'s fused wrapper behaves exactly like PettingZoo's stock classic-game stack.

The stock stack is ``OrderEnforcingWrapper(AssertOutOfBoundsWrapper(TerminateIllegalWrapper(raw,
-1)))``, built here from PettingZoo's own classes. Both are driven with the same actions — legal
moves, in-range illegal moves and the ``None`` steps of finished agents — and every observable
agrees at every step. Only out-of-space actions differ by design: ours raise ``ValueError`` naming
the range, PettingZoo's a bare ``AssertionError``.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

import sniff_env
import twelve_env
from sniff_twelve.core.options import ArgumentTypeError
from sniff_twelve.envs.aec import ClassicWrapper

TABLES = [
    (sniff_env, {"num_players": 2}),
    (sniff_env, {"num_players": 3, "forced": "auto"}),
    (sniff_env, {"num_players": 4, "episode": "hand"}),
    (twelve_env, {"num_players": 2}),
    (twelve_env, {"num_players": 5}),
]
IDS = [f"{m.__name__}-{'-'.join(f'{k}={v}' for k, v in o.items())}" for m, o in TABLES]


def stock(module, options: dict):
    env = wrappers.TerminateIllegalWrapper(module.raw_env(**options), illegal_reward=-1)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(env))


def same(a, b) -> bool:
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple):
        return isinstance(b, list | tuple) and len(a) == len(b) and all(map(same, a, b))
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b)
    return type(a) is type(b) and a == b


def observables(env) -> dict:
    return {
        "agents": list(env.agents),
        "agent_selection": env.agent_selection,
        "last": env.last() if env.agents else None,
        "rewards": dict(env.rewards),
        "cumulative": dict(env._cumulative_rewards),
        "terminations": dict(env.terminations),
        "truncations": dict(env.truncations),
        "infos": env.infos,
        "observations": {a: env.observe(a) for a in env.agents},
        "state": env.state(),
    }


@pytest.mark.parametrize(("module", "options"), TABLES, ids=IDS)
def test_same_as_pettingzoo_stack(module, options):
    """Thirty games per table, one in three ending with an illegal move at a random step: the same
    observations, rewards (the −1 penalty included), flags, infos and agent order as the stock stack."""
    EnvLogger.suppress_output()
    try:
        ours, theirs = module.env(**options), stock(module, options)
        assert isinstance(ours, ClassicWrapper)
        rng = random.Random(7)
        illegal_moves = 0
        for game in range(30):
            ours.reset(seed=game)
            theirs.reset(seed=game)
            cheat_at = rng.randrange(40) if game % 3 == 0 else -1
            for step in range(10_000):
                assert same(observables(ours), observables(theirs)), (game, step)
                if not ours.agents:
                    break
                obs, _, terminated, truncated, _ = ours.last()
                if terminated or truncated:
                    action = None
                else:
                    legal = np.flatnonzero(obs["action_mask"])
                    illegal = np.flatnonzero(obs["action_mask"] == 0)
                    if step >= cheat_at >= 0 and len(illegal):
                        action, cheat_at = int(rng.choice(illegal)), -1
                        illegal_moves += 1
                    else:
                        action = int(rng.choice(legal))
                ours.step(action)
                theirs.step(action)
            assert not ours.agents
        assert illegal_moves >= 5
    finally:
        EnvLogger.unsuppress_output()


@pytest.mark.parametrize(("module", "options"), TABLES[:1] + TABLES[3:4], ids=IDS[:1] + IDS[3:4])
def test_same_order_errors_as_pettingzoo_stack(module, options):
    """Before ``reset`` the same errors as ``OrderEnforcingWrapper``; ``agent_iter`` demands a step
    per agent in both."""
    for env in (module.env(**options), stock(module, options)):
        for name in ("agent_selection", "rewards", "terminations", "truncations", "infos", "agents", "num_agents"):
            with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
                getattr(env, name)
        with pytest.raises(AssertionError, match="reset\\(\\) needs to be called before step"):
            env.step(0)
        with pytest.raises(AssertionError, match="reset\\(\\) needs to be called before observe"):
            env.observe("player_0")
        with pytest.raises(AssertionError, match="before agent_iter"):
            env.agent_iter()
        env.reset(seed=1)
        iterator = iter(env.agent_iter())
        next(iterator)
        with pytest.raises(AssertionError, match="need to call step"):
            next(iterator)


@pytest.mark.parametrize(("module", "options"), TABLES[:1] + TABLES[3:4], ids=IDS[:1] + IDS[3:4])
def test_non_actions_raise_and_change_nothing(module, options):
    """Where PettingZoo asserts, ours says what is wrong: ``ArgumentTypeError`` for a non-integer,
    ``ValueError`` naming the range outside it; a finished agent takes only ``None``."""
    env = module.env(**options)
    env.reset(seed=2)
    before = env.unwrapped.game.state_array.copy()
    n = env.action_space(env.agent_selection).n
    for bad in (None, 1.5, "3", True):
        with pytest.raises(ArgumentTypeError, match="action"):
            env.step(bad)
    for bad in (-1, n):
        with pytest.raises(ValueError, match=f"action must be between 0 and {n - 1}"):
            env.step(bad)
    assert (env.unwrapped.game.state_array == before).all()
    assert not any(env.terminations.values())
    mask = env.last()[0]["action_mask"]
    EnvLogger.suppress_output()
    env.step(int(np.flatnonzero(mask == 0)[0]))
    EnvLogger.unsuppress_output()
    with pytest.raises(ValueError, match="only valid action is None"):
        env.step(int(np.flatnonzero(mask)[0]))
