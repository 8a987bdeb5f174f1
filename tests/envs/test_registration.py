"""The packages as a published library presents them: a version, and the single-seat envs
registered with gymnasium under versioned ids (``gymnasium.make``), bounded observation spaces."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys

import gymnasium
import numpy as np
import pytest

import sniff_env
import sniff_twelve
import twelve_env


def test_every_package_carries_the_distribution_version():
    version = importlib.metadata.version("sniff-twelve")
    assert sniff_env.__version__ == twelve_env.__version__ == sniff_twelve.__version__ == version


@pytest.mark.parametrize(
    ("env_id", "options", "size"),
    [
        ("sniff_env/Sniff-v0", {"num_players": 4, "partner": "heuristic"}, 135),
        ("twelve_env/Twelve-v0", {"deck": "numbers"}, 61),
    ],
)
def test_gymnasium_make_builds_the_single_seat_env(env_id, options, size):
    env = gymnasium.make(env_id, render_mode="ansi", **options)
    assert env.spec.id == env_id and env.spec.kwargs == {"render_mode": "ansi", **options}
    assert env.metadata["render_modes"] == ["ansi", "rgb_array"]
    obs, info = env.reset(seed=0)
    assert obs.shape == (size,) and env.observation_space.contains(obs)
    assert np.isfinite(env.observation_space.low).all() and np.isfinite(env.observation_space.high).all()
    assert info["action_mask"].any() and isinstance(env.render(), str)


def test_scores_have_no_lower_bound_without_a_limit_on_the_match():
    """S4: scores have no floor, so a match without a hand or step limit (S26) has none either."""
    from sniff_env.observation import OBS

    scores = slice(OBS.offset("scores"), OBS.offset("turn_position"))
    unlimited = sniff_env.single_agent_env(num_players=2, max_hands=None).observation_space
    limited = sniff_env.single_agent_env(num_players=2, max_hands=10, target=100).observation_space
    assert np.isneginf(unlimited.low[scores]).all()
    assert limited.low[scores].tolist() == [-18.0] * 4  # 10 hands of at most 180 points, / 100
    assert limited.high[scores].tolist() == [3.25] * 4  # the target plus a credit (45) and a settlement (180)


def test_the_module_prefix_imports_the_package_first():
    """``gymnasium.make("twelve_env:twelve_env/Twelve-v0")`` in a fresh interpreter."""
    code = "import gymnasium; env = gymnasium.make('twelve_env:twelve_env/Twelve-v0'); print(env.spec.id)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == "twelve_env/Twelve-v0", done.stderr


def test_pettingzoo_style_versioned_modules_name_the_same_envs():
    from sniff_env import sniff_v0
    from twelve_env import twelve_v0

    assert (sniff_v0.env, sniff_v0.raw_env, sniff_v0.single_agent_env) == (
        sniff_env.env,
        sniff_env.raw_env,
        sniff_env.single_agent_env,
    )
    assert (twelve_v0.env, twelve_v0.raw_env) == (twelve_env.env, twelve_env.raw_env)


def test_the_gymnasium_envs_entry_point_registers_both_games():
    """The distribution's ``gymnasium.envs`` entry point, loaded and called in a fresh interpreter
    that has imported no game, registers both ids."""
    code = (
        "from importlib.metadata import entry_points; import gymnasium\n"
        "[point] = [p for p in entry_points(group='gymnasium.envs') if p.name == 'sniff_twelve']\n"
        "point.load()()\n"
        "print(sorted(i for i in gymnasium.registry if i.endswith(('Sniff-v0', 'Twelve-v0'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "['sniff_env/Sniff-v0', 'twelve_env/Twelve-v0']"
