"""One source of truth for strength: the newest dated table of the ladder page is what each game ships
(``ladder.json``, which ``agents`` prints), what the README's strength headline quotes and what the
agents page's table gives; and the pages name the policy-guided search by its current name."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LADDER = (ROOT / "docs" / "ladder.md").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")
AGENTS = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
#: the newest table's columns: (package, players) per score / ms pair
COLUMNS = (("sniff_env", "2"), ("sniff_env", "4"), ("twelve_env", "2"))


def newest_section() -> tuple[str, str]:
    """The ladder page's section with the newest date in its heading: (date, text)."""
    sections = re.findall(r"^## [^\n]*\((\d{4}-\d{2}-\d{2})\)\n(.*?)(?=^## |\Z)", LADDER, flags=re.M | re.S)
    assert len(sections) >= 2
    return max(sections)


def newest_table() -> dict[tuple[str, str], dict[str, dict]]:
    """The newest section's first table, as ``ladder.json``'s tables: by (package, players), by entry."""
    _, text = newest_section()
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    tables: dict[tuple[str, str], dict[str, dict]] = {column: {} for column in COLUMNS}
    for row in rows:
        entry, *cells = (cell.strip().strip("*") for cell in row.strip("|").split("|"))
        for column, (score, ms) in zip(COLUMNS, zip(cells[::2], cells[1::2], strict=True), strict=True):
            if score != "—":
                mean, half = map(float, score.replace("*", "").split(" ± "))
                tables[column][entry.strip("`")] = {"score": mean, "ci95": half, "ms": float(ms)}
    return tables


def shipped(package: str) -> dict:
    return json.loads((ROOT / package / "ladder.json").read_text())


def test_each_game_ships_the_newest_table():
    date, _ = newest_section()
    table = newest_table()
    assert len(table[("sniff_env", "4")]) == 8 and len(table[("twelve_env", "2")]) == 6
    for package in ("sniff_env", "twelve_env"):
        data = shipped(package)
        assert data["measured"] == date
        assert data["tables"] == {players: table[(p, players)] for p, players in COLUMNS if p == package}


def _leaders() -> list[tuple[str, float]]:
    """The top entry of each of the newest tables and its score (a tie: every entry at the top)."""
    leaders = []
    for column in COLUMNS:
        entries = newest_table()[column]
        best = max(row["score"] for row in entries.values())
        leaders += [(name, row["score"]) for name, row in entries.items() if row["score"] == best]
    return leaders


def test_the_readme_headline_quotes_the_newest_table():
    headline = next(item for item in README.split("\n- ") if item.startswith("**Strength**"))
    date, _ = newest_section()
    assert date in headline
    for name, score in _leaders():
        assert f"`{name}`" in headline and f"{score:.3f}" in headline, (name, score)
    guided = newest_table()[("sniff_env", "4")]["guided"]
    assert f"{guided['ms']:.2f} ms" in headline  # the time it quotes for `guided`


def test_the_agents_page_quotes_the_newest_table():
    opening = AGENTS.split("\n## ")[0]
    date, _ = newest_section()
    assert date in opening and "not on the ladder" not in AGENTS
    table = newest_table()
    rows = {row.split("|")[1].strip(): row for row in opening.splitlines() if row.startswith("| `")}
    for spec, row in rows.items():
        name = re.match(r"`(\w+)", spec)[1]
        scores = " / ".join(f"{table[c][name]['score']:.3f}" if name in table[c] else "—" for c in COLUMNS)
        assert scores in row, (name, scores)
    for name, _ in _leaders():  # the prose beneath names the leaders
        assert f"`{name}` heads" in opening or f"`{name}` level" in opening, name


#: the pages that keep old spellings: the changelog (what each release named) and the public
#: contract (the old specs that must keep working)
HISTORY = {"changelog.md", "api.md"}


@pytest.mark.parametrize("page", sorted(path.name for path in (ROOT / "docs").glob("*.md")))
def test_the_pages_use_the_current_agent_names(page):
    """``ismcts`` (the first name of ``rollout``) and ``SEARCH+ppo`` (the first spelling of
    ``SEARCH@ppo``) appear in the one paragraph of the agents page that explains them, and on no
    other page (OpenSpiel's own ``ismcts`` module is not an agent spec)."""
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    old = re.compile(r"`(?:ismcts[^`]*|belief[^`+]*\+ppo[^`]*)`")
    paragraphs = [p for p in text.split("\n\n") if old.search(p)]
    if page == "agents.md":
        assert len(paragraphs) == 1 and "DeprecationWarning" in paragraphs[0], paragraphs
    elif page not in HISTORY:
        assert paragraphs == [], paragraphs
