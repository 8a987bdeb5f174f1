"""The repository stands alone: the rule book ships with it (``docs/rules.md``, the public
contract in ``docs/api.md``; the original rule texts' worked examples as data, never their
prose), every rule number the code and tests cite is defined there, and no tracked file points
outside the repository."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules.md"
CITED = re.compile(r"(?<![\w.])([ST]\d{1,2}a?)(?![\w])")


def test_every_cited_rule_number_is_defined_in_docs_rules():
    defined = set(re.findall(r"\*\*([ST]\d{1,2}a?)\*\*", RULES.read_text(encoding="utf-8")))
    assert {"S1", "S27", "T1", "T15", "S4a"} <= defined
    sources = [
        p for d in ("sniff_env", "twelve_env", "sniff_twelve", "tests", "examples") for p in (ROOT / d).rglob("*.py")
    ]
    sources.append(ROOT / "README.md")
    cited = {(m, p.name) for p in sources for m in CITED.findall(p.read_text(encoding="utf-8"))}
    missing = sorted((rule, name) for rule, name in cited if rule not in defined)
    assert not missing, f"rule numbers cited but not in docs/rules.md: {missing}"


def _tracked_files() -> list[Path]:
    """The files git tracks; outside a git checkout (an unpacked sdist), every file but caches."""
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode == 0 and listed.stdout:
        return [ROOT / name for name in listed.stdout.split()]
    return [p for p in ROOT.rglob("*") if p.is_file() and "__pycache__" not in p.parts and ".venv" not in p.parts]


def _without_headings(text: str) -> list[str]:
    """The contract's lines but its headings (the docs name the sections for their readers)."""
    return [line for line in text.splitlines() if not line.startswith("#")]


def _rules_part(text: str) -> str:
    """The numbered rules (from Part S on): the introduction names where the texts live."""
    return text[text.index("## Part S") :]


def test_vendored_rule_book_equals_the_team_copy_where_present():
    """The team's copy beside a checkout (``shared/``) and ``docs/`` must not drift apart."""
    for parent in ROOT.parents:
        shared = parent / "shared"
        if (shared / "RULES.md").is_file():
            assert _rules_part((shared / "RULES.md").read_text(encoding="utf-8")) == _rules_part(
                RULES.read_text(encoding="utf-8")
            )
            assert _without_headings((shared / "API.md").read_text("utf-8")) == _without_headings(
                (ROOT / "docs" / "api.md").read_text("utf-8")
            )


def test_no_rule_text_is_copied_into_the_repository():
    """Other people's prose stays out: the worked examples' own words (built here from parts, so
    this file does not hold them) appear in no tracked file."""
    phrases = ["Gutschrift für " + "das Anlegen", "Выложена " + "кость", "Freie " + "Anlegestellen"]
    texts = [path for path in _tracked_files() if path.suffix in {".py", ".md", ".txt", ".json"}]
    copied = [(path.name, p) for path in texts if path.is_file() for p in phrases if p in path.read_text("utf-8")]
    assert not copied and not (ROOT / "docs" / "seeds").exists(), copied


def test_no_tracked_file_points_outside_the_repository():
    """A clone has no team folder beside it and no machine paths: nothing may refer to them."""
    outside = re.compile("|".join([r"\.\./" + "shared", "/" + "work/", "/" + r"shared/(RULES|API|ECOSYSTEM|seeds)"]))
    files = _tracked_files()
    assert len(files) > 50
    offenders = []
    for path in files:
        name = path.relative_to(ROOT)
        if path.suffix in {".py", ".md", ".toml", ".txt", ".cfg", ".yml", ".yaml", ""} and path.is_file():
            offenders += [
                f"{name}: {m.group(0)}" for m in outside.finditer(path.read_text(encoding="utf-8", errors="replace"))
            ]
    assert not offenders, offenders
