"""The import structure: the layer contract holds and no module-level import cycle remains."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("sniff_twelve", "sniff_env", "twelve_env", "dominoes_env")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def module_level_imports(path: Path, known: set[str]) -> set[str]:
    """The modules of ours that ``path`` imports when it is executed: the top-level statements
    (``try`` and plain ``if`` blocks included), not function bodies nor ``if TYPE_CHECKING``.
    The parent packages every import also runs are left out, as import-linter leaves them."""
    found: set[str] = set()
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]

    def visit(statements: list[ast.stmt]) -> None:
        for node in statements:
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join([*package.split(".")[: len(package.split(".")) - node.level + 1], base]).strip(".")
                # a submodule named in ``from package import submodule`` is the dependency, not the
                # package's ``__init__`` (as import-linter counts it)
                names = {f"{base}.{alias.name}" for alias in node.names}
                found.update(names & known or {base})
            elif isinstance(node, ast.If) and not _type_checking(node):
                visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)

    visit(ast.parse(path.read_text(encoding="utf-8")).body)
    return found & known


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (a list of modules, the first repeated at the end), or ``None``."""
    state: dict[str, int] = {}  # 1 on the current path, 2 finished
    path: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (cycle := walk(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (cycle := walk(start)):
            return cycle
    return None


def import_graph() -> dict[str, set[str]]:
    files = [p for package in PACKAGES for p in (ROOT / package).rglob("*.py")]
    known = {module_name(p) for p in files}
    return {module_name(p): module_level_imports(p, known) - {module_name(p)} for p in files}


def test_find_cycle_finds_one() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "d": {"a", "c"}}) is None


def test_no_module_level_import_cycle() -> None:
    graph = import_graph()
    assert len(graph) > 70 and "sniff_twelve.core.game" in graph["sniff_env.game"]
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def test_layer_contract_holds() -> None:
    """``lint-imports`` (import-linter) with the contracts in ``pyproject.toml``: core ← batch | search
    ← envs ← agents ← web ← tools, no framework in the core, no game named by the shared package,
    no Pillow in the web, and in each game tiles/cards ← kernels ← … ← spec ← game ← solver ← agents
    ← env ← ui ← CLI."""
    command = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    assert command, "lint-imports is part of the test extra: pip install -e '.[test]'"
    result = subprocess.run([command, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout and "Contracts: 9 kept" in result.stdout


def imported_names(path: Path) -> set[str]:
    """Every module or ``module.name`` ``path`` imports, at any depth of the file (functions and
    ``if TYPE_CHECKING`` included)."""
    named = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            named |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            named |= {f"{node.module}.{alias.name}" for alias in node.names}
    return named


def test_the_games_import_the_tools_for_their_command_line_only() -> None:
    """No module of a game package but its ``__main__`` (the CLI) imports ``sniff_twelve.tools``:
    its agents, texts and pictures sit below the tools (``Table`` and ``who`` in
    ``sniff_twelve.core.seats``, the Pillow drawing in ``sniff_twelve.drawing``)."""
    found = {
        module_name(path): sorted(name for name in imported_names(path) if name.startswith("sniff_twelve.tools"))
        for package in ("sniff_env", "twelve_env")
        for path in (ROOT / package).rglob("*.py")
    }
    assert found["sniff_env.__main__"] == ["sniff_twelve.tools.cli.GameCommands"]  # the check sees the CLI
    assert {module: names for module, names in found.items() if names and not module.endswith(".__main__")} == {}


def test_the_agents_import_no_environment() -> None:
    """``sniff_twelve.agents`` imports nothing of ``sniff_twelve.envs``: the agents sit below the
    environments, which seat them as opponents."""
    found = {
        module_name(path): sorted(name for name in imported_names(path) if name.startswith("sniff_twelve.envs"))
        for path in (ROOT / "sniff_twelve" / "agents").rglob("*.py")
    }
    assert len(found) >= 8 and {module: names for module, names in found.items() if names} == {}


@pytest.mark.parametrize("layer", ["core", "batch", "search"])
def test_framework_free_layers_import_without_frameworks(layer: str) -> None:
    """Importing the lower layers loads none of the frameworks (checked in a fresh interpreter)."""
    code = (
        f"import importlib, pkgutil, sys, sniff_twelve.{layer} as p\n"
        f"for m in pkgutil.iter_modules(p.__path__): importlib.import_module('sniff_twelve.{layer}.' + m.name)\n"
        "bad = {'gymnasium', 'pettingzoo', 'ray', 'torch', 'pyspiel', 'starlette'} & set(sys.modules)\n"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, timeout=300)


def test_web_tables_load_no_pillow() -> None:
    """Both games' SVG tables and the web app load neither Pillow nor an image module (fresh interpreter)."""
    code = (
        "import sys, sniff_env.web, twelve_env.web, sniff_twelve.web.server\n"
        "bad = {m for m in sys.modules if m == 'PIL' or m.endswith('.image')}\n"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, timeout=300)
