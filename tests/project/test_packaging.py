"""What a user of the package index gets: the wheel and the sdist carry what they must, the wheel
installed in a fresh virtualenv outside the checkout runs the demo, the commands and an arena
with the shipped ``ppo``, and the unpacked sdist runs its own tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_NOT_SOURCES = (".git", ".venv", "venv", "build", "dist", "*.egg-info", "__pycache__", "*_cache", ".hypothesis", "runs")


pytestmark = pytest.mark.xdist_group("packaging")  # one worker: its module fixture is made once


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    """The wheel and the sdist, built by ``python -m build`` from a copy of this checkout: setuptools
    writes its release tree and ``build/`` beside the sources, and the tests running alongside
    (``ruff`` walking the checkout) must never see them."""
    pytest.importorskip("build", reason="needs the test extra")
    source = tmp_path_factory.mktemp("source") / "checkout"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*_NOT_SOURCES))
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(source)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return out


def _run(command: list[str], cwd: Path, **kwargs) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=env, **kwargs)


def test_the_wheel_and_the_sdist_carry_what_they_must(dist):
    [wheel] = dist.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for must in ("sniff_env/py.typed", "twelve_env/py.typed", "sniff_twelve/py.typed", "sniff_twelve/web/static/"):
        assert any(name.startswith(must) for name in names), must
    fonts = {"sniff_twelve/fonts/" + name for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "LICENSE")}
    assert fonts <= set(names)  # what the pictures write with
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names)
    for shipped in ("sniff_env/checkpoints/ppo_4p.npz", "sniff_env/checkpoints/beliefs_4p.npz"):
        assert shipped in names, shipped
    assert {f"dominoes_env/checkpoints/ppo_{n}p.npz" for n in (2, 4)} <= set(names)  # its ppo
    assert "twelve_env/checkpoints/beliefs_2p.npz" in names
    assert {"sniff_env/ladder.json", "twelve_env/ladder.json"} <= set(names)  # what the agents command quotes
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert "License-Expression: MIT" in metadata and "Classifier: Typing :: Typed" in metadata
    assert "Project-URL: Documentation, https://sniff-twelve.readthedocs.io" in metadata
    [sdist] = dist.glob("*.tar.gz")
    top = sdist.name.removesuffix(".tar.gz")
    with tarfile.open(sdist) as archive:
        members = set(archive.getnames())
    for must in (
        "LICENSE",
        "conftest.py",
        "tests/data/sniff_worked_examples.json",
        "docs/conf.py",
        "benchmarks/ladder.py",
    ):
        assert f"{top}/{must}" in members, must
    assert not any("__pycache__" in name or "/docs/seeds" in name for name in members)


def test_the_wheel_works_from_a_fresh_virtualenv_outside_the_checkout(dist, tmp_path):
    [wheel] = dist.glob("*.whl")
    venv = tmp_path / "venv"
    assert _run([sys.executable, "-m", "venv", str(venv)], tmp_path).returncode == 0
    python, bin_dir = venv / "bin" / "python", venv / "bin"
    installed = _run([str(python), "-m", "pip", "install", "-q", str(wheel)], tmp_path)
    assert installed.returncode == 0, installed.stderr[-3000:]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = _run([str(python), "-c", "import sniff_env; print(sniff_env.__file__, sniff_env.__version__)"], elsewhere)
    assert str(venv) in where.stdout and str(ROOT) not in where.stdout, where.stdout + where.stderr
    demo = _run([str(python), "-m", "sniff_env", "--quiet"], elsewhere)
    assert demo.returncode == 0 and "match over" in demo.stdout, demo.stdout[-2000:] + demo.stderr[-2000:]
    picture = "import sniff_env; e = sniff_env.env(render_mode='rgb_array'); e.reset(); print(e.render().shape)"
    drawn = _run([str(python), "-c", picture], elsewhere)  # resvg-py and the shipped fonts come with the wheel
    assert drawn.returncode == 0 and drawn.stdout.strip() == "(880, 1200, 3)", drawn.stdout + drawn.stderr[-2000:]
    for command in ("sniff", "twelve"):
        helped = _run([str(bin_dir / command), "--help"], elsewhere)
        assert helped.returncode == 0 and "https://sniff-twelve.readthedocs.io" in helped.stdout, helped.stderr
    lineup = ["--players", "4", "--agents", "ppo", "greedy", "--deals", "1", "--workers", "1", "--no-progress"]
    arena = _run([str(bin_dir / "sniff"), "arena", *lineup], elsewhere)
    assert arena.returncode == 0 and "| ppo |" in arena.stdout, arena.stdout[-2000:] + arena.stderr[-2000:]
    listed = _run([str(bin_dir / "twelve"), "agents"], elsewhere)
    assert listed.returncode == 0 and "#1/6 0.652" in listed.stdout, listed.stdout[-2000:] + listed.stderr[-2000:]


def test_the_sdist_runs_its_own_tests(dist, tmp_path):
    """Unpacked, the sdist collects its whole suite without an error and passes a part of it (the
    rules, the worked examples, the rule book) with this environment's packages."""
    [sdist] = dist.glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path, filter="data")
    unpacked = tmp_path / sdist.name.removesuffix(".tar.gz")
    collected = _run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"], unpacked)
    assert collected.returncode == 0 and "error" not in collected.stdout.lower(), collected.stdout[-3000:]
    tests = ["tests/sniff/test_worked_examples.py", "tests/twelve/test_rules.py", "tests/project/test_rule_book.py"]
    done = _run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests], unpacked)
    assert done.returncode == 0, done.stdout[-3000:]
