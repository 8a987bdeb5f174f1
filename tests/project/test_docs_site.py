"""The documentation site builds with warnings as errors (broken links and references included),
from the ``docs`` extra alone as Read the Docs builds it, and its generated tables render as
tables; every Python example on its pages runs as printed, page by page, from a fresh folder, every
``gymnasium.make`` snippet (README too) alone in a fresh interpreter, and a ``play`` transcript is
what the command prints."""

from __future__ import annotations

import contextlib
import importlib
import importlib.metadata as metadata
import io
import os
import re
import subprocess
import sys
import tomllib
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.project.test_dependencies import FIRST_PARTY, _normal, provided_distributions

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))
#: a block whose first line is ``# NAME.py`` is a file the page asks the reader to write
FILE_BLOCK = re.compile(r"^# (\w+\.py)\n")


def _blocks(page: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.S)


def _environment(*first: Path) -> dict[str, str]:
    """The environment for a subprocess that imports this checkout (``first`` before it on the path)."""
    path = [*map(str, first), str(ROOT), os.environ.get("PYTHONPATH", "")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in path if p)}


def _build(out: Path, pythonpath: tuple[Path, ...] = ()) -> subprocess.CompletedProcess:
    """``sphinx-build -W`` of this checkout's docs into ``out`` (``pythonpath`` first on the path)."""
    return subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", str(DOCS), str(out)],
        capture_output=True,
        text=True,
        env=_environment(*pythonpath),
    )


pytestmark = pytest.mark.xdist_group("docs_site")  # one worker: its module fixture is made once


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site built once for the tests that read its pages."""
    pytest.importorskip("myst_parser", reason="needs the docs extra")
    out = tmp_path_factory.mktemp("site")
    done = _build(out)
    assert done.returncode == 0, done.stderr[-4000:]
    return out


#: Sphinx's smart quotes, back to the source's
_PLAIN_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})


class _Tables(HTMLParser):
    """The ``<table>``s of a page, each as its rows of cell texts (header row included; whitespace
    collapsed, curly quotes straightened)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            text = " ".join("".join(self._cell).split())
            self.tables[-1][-1].append(text.translate(_PLAIN_QUOTES))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def tables(page: Path) -> list[list[list[str]]]:
    parser = _Tables()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.tables


def test_the_site_builds_with_warnings_as_errors(site):
    for page in ("index", "sniff", "twelve", "reference", "own_agents", "benchmarks"):
        assert (site / f"{page}.html").is_file()


@pytest.mark.parametrize(
    ("page", "layouts"),
    [("sniff", ("sniff_env.observation", "OBS", "CRITIC")), ("twelve", ("twelve_env.observation", "OBS", "CRITIC"))],
)
def test_the_layout_tables_render_as_tables(site, page, layouts):
    """``{layout-table}`` gives an HTML table with the layout's header and rows, not raw markup."""
    module, *names = layouts
    html = (site / f"{page}.html").read_text(encoding="utf-8")
    assert "====" not in html, "a table came out as reStructuredText source"
    rendered = tables(site / f"{page}.html")
    for name in names:
        layout = getattr(importlib.import_module(module), name)
        expected = [list(layout.HEADER)] + [[o, s, n, m.replace("``", "")] for o, s, n, m in layout.rows()]
        assert expected in rendered, f"{module}:{name} is not a table on {page}.html"


#: never made unimportable: the project's own packages and the standard library
DOCS_EXTRA_ALLOWS = FIRST_PARTY | set(sys.stdlib_module_names)


def test_the_site_builds_from_the_docs_extra_alone(tmp_path):
    """What ``pip install -e ".[docs]"`` (and Read the Docs) has: every module the pages autodoc
    imports with the core dependencies and the docs extra, or is mocked (``autodoc_mock_imports``).
    Every installed package outside that extra is made unimportable for the build (a finder ahead
    of the others raises ``ModuleNotFoundError``; autodoc's mocks go ahead of it)."""
    pytest.importorskip("myst_parser", reason="needs the docs extra")
    provided = provided_distributions("docs")
    blocked = sorted(
        module
        for module, distributions in metadata.packages_distributions().items()
        if module not in DOCS_EXTRA_ALLOWS and not {_normal(d) for d in distributions} & provided
    )
    shim = tmp_path / "shim"
    shim.mkdir()
    (shim / "sitecustomize.py").write_text(
        "import sys\n"
        f"BLOCKED = frozenset({blocked!r})\n\n\n"
        "class NotInstalled:\n"
        "    @staticmethod\n"
        "    def find_spec(name, path=None, target=None):\n"
        "        if name.partition('.')[0] in BLOCKED:\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n\n\n"
        "sys.meta_path.insert(0, NotInstalled)\n",
        encoding="utf-8",
    )
    if "ray" in blocked:  # the shim works: what the docs extra lacks does not import
        probe = subprocess.run(
            [sys.executable, "-c", "import ray"],
            capture_output=True,
            text=True,
            env=_environment(shim),
        )
        assert "No module named 'ray'" in probe.stderr
    done = _build(tmp_path / "site", pythonpath=(shim,))
    assert done.returncode == 0, done.stderr[-4000:]
    assert "RllibEnv" in (tmp_path / "site" / "reference.html").read_text(encoding="utf-8")


def test_read_the_docs_builds_the_docs_extra_with_warnings_as_errors():
    yaml = pytest.importorskip("yaml", reason="PyYAML comes with the docs extra (myst-parser)")
    config = yaml.safe_load((ROOT / ".readthedocs.yaml").read_text(encoding="utf-8"))
    assert config["version"] == 2
    assert config["build"]["tools"]["python"] == "3.11"
    assert config["sphinx"] == {"configuration": "docs/conf.py", "fail_on_warning": True}
    assert config["python"]["install"] == [{"method": "pip", "path": ".", "extra_requirements": ["docs"]}]
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert "docs" in extras


def _make_snippets() -> list[tuple[str, str]]:
    """Every snippet on the pages and the README that calls ``gymnasium.make``: inline code and
    Python blocks, as ``(file, code)``. The public contract (``api.md``) names the calls, with
    ``...`` for the other options, in the team's own words: it is mirrored, not a tutorial."""
    found = []
    for path in [ROOT / "README.md", *(page for page in PAGES if page.name != "api.md")]:
        text = path.read_text(encoding="utf-8")
        blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
        inline = re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", text, flags=re.S))
        found += [(path.name, code) for code in blocks + inline if "gymnasium.make(" in code]
    return found


MAKE_SNIPPETS = _make_snippets()


def test_the_pages_show_gymnasium_make():
    assert {file for file, _ in MAKE_SNIPPETS} >= {"README.md", "index.md", "sniff.md", "twelve.md"}


@pytest.mark.parametrize(("file", "code"), MAKE_SNIPPETS, ids=[f"{f}:{c[:40]}" for f, c in MAKE_SNIPPETS])
def test_every_gymnasium_make_runs_as_printed_in_a_fresh_interpreter(file, code, tmp_path):
    """Gymnasium 1.x loads no plugins: ``gymnasium.make("sniff_env/Sniff-v0")`` works only after
    ``import sniff_env``, so each snippet runs alone, with nothing imported before it."""
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_environment(),
    )
    assert done.returncode == 0, f"{file}: {code}\n{done.stderr[-2000:]}"


#: a shown ``play`` session: the command, then what it prints, the answers typed after the prompts
TRANSCRIPT = re.compile(r"```\n\$ python (-m \w+ play[^\n]*)\n(.*?)```", flags=re.S)
TRANSCRIPTS = [(page.name, *found) for page in PAGES for found in TRANSCRIPT.findall(page.read_text(encoding="utf-8"))]


def test_the_quick_start_shows_a_play_session():
    assert any(page == "quickstart.md" for page, *_ in TRANSCRIPTS)


@pytest.mark.parametrize(("page", "command", "shown"), TRANSCRIPTS, ids=[f"{p}:{c}" for p, c, _ in TRANSCRIPTS])
def test_a_play_transcript_is_what_the_command_prints_from_its_first_line(page, command, shown, tmp_path):
    """The command, fed the answers the transcript shows (then ``q``), prints the transcript from its
    first line on: the session starts where a player starts, at the first prompt."""
    answers = re.findall(r"^Your move \[[^]]*\]: (.*)$", shown, flags=re.M)
    done = subprocess.run(
        [sys.executable, *command.split()],
        input="\n".join([*answers, "q"]) + "\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_environment(),
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith(shown), f"{page}: the transcript of {command!r} is not its output"


@pytest.mark.parametrize("page", [p for p in PAGES if _blocks(p)], ids=lambda p: p.stem)
def test_every_python_example_runs(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    namespace: dict = {}
    for number, block in enumerate(_blocks(page), 1):
        named = FILE_BLOCK.match(block)
        if named:
            (tmp_path / named.group(1)).write_text(block)
            continue
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(block, f"{page.name}, example {number}", "exec"), namespace)


def test_pages_speak_of_the_project_only():
    """No page tells how the work was organised."""
    words = re.compile(r"\b(issues? #?\d+|this turn|next turn)\b", re.IGNORECASE)
    found = [(page.name, m.group(0)) for page in PAGES for m in words.finditer(page.read_text(encoding="utf-8"))]
    assert not found, found


def test_links_read_as_names_not_file_paths():
    """A link's text names what it links to ("[Solvers](solvers.md)"), never its file."""
    link = re.compile(r"(?<!!)\[([^]]+)\]\(([^)]+)\)")
    paths = re.compile(r"^`?[\w./-]+\.(md|py|html|txt|json)`?$")
    found = [
        (path.name, text)
        for path in [ROOT / "README.md", *PAGES]
        for text, _ in link.findall(path.read_text(encoding="utf-8"))
        if paths.match(text)
    ]
    assert not found, found


def test_every_py_agent_spec_on_the_pages_names_an_agent_they_define():
    """``py:module:Name`` in an example names a module one of the pages writes (a ``# module.py``
    block) with ``Name`` in it, or one that imports; ``py:package.module:Name`` is the pattern."""
    files = {}
    for page in PAGES:
        for block in _blocks(page):
            named = FILE_BLOCK.match(block)
            if named:
                files[named.group(1).removesuffix(".py")] = block
    specs = {
        (path.name, module, name)
        for path in [ROOT / "README.md", *PAGES]
        for module, name in re.findall(r"\bpy:([A-Za-z_][\w.]*):([A-Za-z_]\w*)", path.read_text(encoding="utf-8"))
        if (module, name) != ("package.module", "Name")
    }
    assert specs
    for page, module, name in specs:
        if module in files:
            assert re.search(rf"^(class|def) {name}\b", files[module], flags=re.M), f"{page}: py:{module}:{name}"
        else:
            assert hasattr(importlib.import_module(module), name), f"{page}: py:{module}:{name}"


def test_the_agents_page_opens_with_a_table_of_agents_whose_figures_come_from_the_measurements():
    """The agents page opens with one table (spec, what it does, strength, time per decision); every
    figure in it is one the ladder, beliefs or agents pages measured."""
    text = (DOCS / "agents.md").read_text(encoding="utf-8")
    opening = text.split("\n## ")[0]
    rows = [line for line in opening.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in rows[0].strip("|").split("|")]
    assert [h.split(" (")[0] for h in header] == ["spec", "what it does", "strength", "ms per decision"]
    specs = {row.split("|")[1].strip() for row in rows[2:]}
    for spec in ("random", "greedy", "heuristic", "rollout:N", "pimc:K", "belief[:N[:MODEL]]"):
        assert f"`{spec}`" in " ".join(specs), spec
    measured = " ".join(
        (DOCS / page).read_text(encoding="utf-8") for page in ("ladder.md", "beliefs.md")
    ) + text.replace(opening, "")
    for row in rows[2:]:
        for cell in row.strip("|").split("|")[2:]:
            for figure in re.findall(r"\d+\.\d+", cell):
                assert figure in measured, f"{figure} in the agents table is measured nowhere: {row[:60]}"


def test_records_hands_and_decisions_are_defined_once_and_analyze_points_there():
    headed = [page.name for page in PAGES if "\n### Records, hands and decisions\n" in page.read_text(encoding="utf-8")]
    assert headed == ["quickstart.md"]
    assert "quickstart.md#records-hands-and-decisions" in (DOCS / "solvers.md").read_text(encoding="utf-8")


def test_the_template_table_gives_each_file_of_the_test_game_its_length():
    page = (DOCS / "architecture.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| \d\. [^|]+ \| `(\w+\.py)` \| (\d+) \|", page, flags=re.M)
    lengths = {name: len((ROOT / "tests" / "blockdom" / name).read_text("utf-8").splitlines()) for name, _ in rows}
    assert len(rows) == 7 and {name: int(lines) for name, lines in rows} == lengths
