"""A compiled driver's cache never runs a game's old kernels (``sniff_twelve.core.hooks``)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numba as nb

from sniff_twelve.core.hooks import GameHooks

ROOT = Path(__file__).resolve().parents[2]

DRIVER = """
import numba as nb

@nb.njit(cache=True)
def run(hooks, x):
    return hooks.kernel(x) + hooks.SLOT
"""

HOOKS = """
import numba as nb
from sniff_twelve.core.hooks import GameHooks

@nb.njit(cache=True)
def kernel(x):
    return x * {factor}

class Hooks(GameHooks):
    kernel = staticmethod(kernel)
    SLOT = {slot}
"""


def _run(folder: Path) -> int:
    code = "import driver, hooks; print(driver.run(hooks.Hooks(), 10))"
    env = {"PYTHONPATH": f"{folder}:{ROOT}", "PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-c", code], cwd=folder, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return int(done.stdout)


def test_an_edited_kernel_or_slot_is_compiled_again_in_the_next_process(tmp_path):
    (tmp_path / "driver.py").write_text(textwrap.dedent(DRIVER))
    hooks = tmp_path / "hooks.py"
    hooks.write_text(HOOKS.format(factor=2, slot=1))
    assert _run(tmp_path) == 21
    assert _run(tmp_path) == 21  # from the cache
    hooks.write_text(HOOKS.format(factor=3, slot=1))
    assert _run(tmp_path) == 31  # the driver's own file did not change
    hooks.write_text(HOOKS.format(factor=3, slot=5))
    assert _run(tmp_path) == 35
    assert list(tmp_path.glob("__pycache__/driver.run-*.nbi"))  # the driver is cached at all


def test_a_spec_subclass_keeps_the_widths_its_game_computes():
    """A subclass of a game's spec (a solver's rules) inherits the width kernels the game set or
    found; only a game with none gets the fixed widths."""
    from twelve_env.solver import HOOKS
    from twelve_env.spec import SPEC

    params = SPEC.make_params(2, deck="numbers")  # 11 ranks (T1)
    widths = (HOOKS.obs_size(params), HOOKS.critic_size(params), HOOKS.num_actions(params))
    assert widths == (61, 138, 11)  # 4R + 17 seen; + 6R others' hands and R the stock's; R
    assert (SPEC.obs_size(params), SPEC.num_actions(params)) == (61, 11)


class _FlagOn(GameHooks):
    FLAG = True


class _FlagOff(GameHooks):
    FLAG = False


def test_a_flag_of_the_hooks_is_one_or_zero_in_a_driver():
    """A ``bool`` class attribute (the solver's ``HIGHER_FIRST``) reads as the constant 1 or 0."""

    @nb.njit
    def read(hooks):
        return hooks.FLAG * 10 + 1

    assert (read(_FlagOn()), read(_FlagOff())) == (11, 1)
