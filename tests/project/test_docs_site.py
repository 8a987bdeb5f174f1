"""The documentation site builds with warnings as errors (broken links and references included),
and every Python example on its pages runs as printed, page by page, from a fresh folder."""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGES = sorted(DOCS.glob("*.md"))
#: a block whose first line is ``# NAME.py`` is a file the page asks the reader to write
FILE_BLOCK = re.compile(r"^# (\w+\.py)\n")


def _blocks(page: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.S)


def test_the_site_builds_with_warnings_as_errors(tmp_path):
    pytest.importorskip("myst_parser", reason="needs the docs extra")
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", str(DOCS), str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    for page in ("index", "sniff", "twelve", "reference", "own_agents", "benchmarks"):
        assert (tmp_path / f"{page}.html").is_file()
    sniff = (tmp_path / "sniff.html").read_text(encoding="utf-8")
    assert "known_voids" in sniff and "boneyard_size" in sniff  # the tables generated from the layouts


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
