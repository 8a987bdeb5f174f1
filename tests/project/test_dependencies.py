"""Declared dependencies are tested, not assumed: every example and command imports only what the
extra the README names for it provides (the core dependencies plus that extra, and what those
require in turn). Imports that are optional — inside ``try`` … ``except ImportError`` or through
``sniff_twelve.core.optional`` — are exempt: they degrade with a one-line message instead."""

from __future__ import annotations

import ast
import importlib.metadata as metadata
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
FIRST_PARTY = {"sniff_twelve", "sniff_env", "twelve_env", "dominoes_env", "benchmarks"}
# entry point → the extra the README tells users to install for it (None: the core install)
ENTRY_POINTS = {
    "sniff_env/__main__.py": None,
    "twelve_env/__main__.py": None,
    "examples/render_tables.py": None,
    "benchmarks/ladder.py": None,
    "examples/selfplay_ppo.py": "train",
    "examples/sb3_maskable_ppo.py": "train",
    "examples/rllib_selfplay.py": "rllib",
    "examples/expert_iteration.py": "train",
    "benchmarks/cluster.py": "rllib",
    "sniff_twelve/envs/rllib.py": "rllib",
    "sniff_twelve/envs/sb3.py": "train",
    "benchmarks/__main__.py": "bench",
    "benchmarks/training.py": "train",
    "sniff_env/openspiel.py": "bench",
    "twelve_env/openspiel.py": "bench",
    "sniff_twelve/web/server.py": "web",
}
OPTIONAL_EXCEPTIONS = {"ImportError", "ModuleNotFoundError", "MissingExtraError"}


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _module_file(dotted: str) -> Path | None:
    base = ROOT.joinpath(*dotted.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _guarded(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Whether ``node`` sits in the body of a ``try`` that catches an import error or of a ``with
    extra_needed(...)`` block (``sniff_twelve.core.optional``)."""
    while node in parents:
        parent = parents[node]
        if isinstance(parent, ast.With) and any(
            isinstance(item.context_expr, ast.Call) and getattr(item.context_expr.func, "id", "") == "extra_needed"
            for item in parent.items
        ):
            return True
        if isinstance(parent, ast.Try) and node in parent.body:
            names = set()
            for handler in parent.handlers:
                kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
                names |= {k.id if isinstance(k, ast.Name) else getattr(k, "attr", "") for k in kinds if k}
            if names & OPTIONAL_EXCEPTIONS:
                return True
        node = parent
    return False


def required_modules(path: Path, seen: set[Path] | None = None) -> set[str]:
    """Top-level third-party modules ``path`` needs, following first-party imports."""
    seen = set() if seen is None else seen
    if path in seen:
        return set()
    seen.add(path)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    needed: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        if _guarded(node, parents):
            continue
        for name in names:
            top = name.split(".")[0]
            if top in FIRST_PARTY:
                module = _module_file(name)
                if module is not None:
                    needed |= required_modules(module, seen)
            elif top not in sys.stdlib_module_names and top != "__future__":
                needed.add(top)
    return needed


def provided_distributions(extra: str | None) -> set[str]:
    """The distributions the core install plus ``extra`` brings, requirements of requirements too."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    todo = [Requirement(r) for r in project["dependencies"]]
    extras = {extra} if extra else set()
    while extras:
        name = extras.pop()
        for r in map(Requirement, project["optional-dependencies"][name]):
            if _normal(r.name) == _normal(project["name"]):
                extras |= r.extras
            else:
                todo.append(r)
    provided: set[str] = set()
    while todo:
        requirement = todo.pop()
        name = _normal(requirement.name)
        if name in provided:
            continue
        provided.add(name)
        for text in metadata.requires(requirement.name) or []:
            sub = Requirement(text)
            wanted = [{"extra": e} for e in requirement.extras] or [{"extra": ""}]
            if sub.marker is None or any(sub.marker.evaluate(env) for env in wanted):
                todo.append(sub)
    return provided


@pytest.mark.parametrize(("entry", "extra"), ENTRY_POINTS.items())
def test_entry_point_imports_only_what_its_extra_provides(entry, extra):
    modules = required_modules(ROOT / entry)
    distributions = metadata.packages_distributions()
    provided = provided_distributions(extra)
    missing = {
        module: distributions.get(module)
        for module in modules
        if not {_normal(d) for d in distributions.get(module, [])} & provided
    }
    assert not missing, f"{entry} (README: {extra or 'core'} install) imports {missing} outside it"


def test_the_checker_sees_a_missing_extra():
    """The analysis itself: the training example needs torch, which the core install lacks."""
    assert "torch" in required_modules(ROOT / "examples/selfplay_ppo.py")
    assert "torch" not in provided_distributions(None) and "torch" in provided_distributions("train")
    assert "matplotlib" not in required_modules(ROOT / "sniff_twelve/tools/report.py"), (
        "plots go through sniff_twelve.core.optional"
    )


def test_a_missing_optional_piece_is_one_line_saying_what_to_install():
    from sniff_twelve.core.optional import MissingExtraError, optional_import

    with pytest.raises(MissingExtraError) as error:
        optional_import("no_such_plotting_library.pyplot", "bench", "arena --plot")
    message = str(error.value)
    assert "\n" not in message and "arena --plot needs no_such_plotting_library" in message
    assert 'pip install -e ".[bench]" in your clone' in message and isinstance(error.value, ImportError)


def test_an_import_in_an_extra_needed_block_says_what_to_install():
    """A missing package imported in ``with extra_needed(...)`` is the same one line; the
    checker counts such an import as optional (``pyspiel`` for the games' OpenSpiel modules)."""
    from sniff_twelve.core.optional import MissingExtraError, extra_needed

    with pytest.raises(MissingExtraError) as error, extra_needed("bench", "the demo", "unused"):
        import no_such_package_anywhere  # noqa: F401
    assert str(error.value).startswith("the demo needs no_such_package_anywhere, which is not installed")
    assert "pyspiel" not in required_modules(ROOT / "sniff_env/openspiel.py")


@pytest.mark.parametrize("game", ["sniff_env", "twelve_env"])
def test_the_openspiel_game_without_the_bench_extra_says_what_to_install(game):
    """``import sniff_env.openspiel`` with no ``pyspiel`` (installed without the bench extra): one
    ``ImportError`` naming the extra, not a bare ``No module named 'pyspiel'``."""
    code = (
        "import sys; sys.modules['pyspiel'] = None\n"  # what a missing package looks like to import
        f"try:\n    import {game}.openspiel\n"
        "except ImportError as error:\n    print(type(error).__name__, error, sep=': ')\n"
    )
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, "PYTHONPATH": path}
    )
    assert done.returncode == 0, done.stderr[-2000:]
    message = done.stdout.strip()
    assert message.startswith(f"MissingExtraError: {game}.openspiel ") and "needs pyspiel" in message, message
    assert 'pip install -e ".[bench]" in your clone' in message and "\n" not in message
