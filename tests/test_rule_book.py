"""The rule book ships with the repository (``docs/rules.md``, the originals in ``docs/seeds``),
and every rule number the code and tests cite is defined there."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
CITED = re.compile(r"(?<![\w.])([ST]\d{1,2}a?)(?![\w])")


def test_every_cited_rule_number_is_defined_in_docs_rules():
    defined = set(re.findall(r"\*\*([ST]\d{1,2}a?)\*\*", RULES.read_text(encoding="utf-8")))
    assert {"S1", "S27", "T1", "T15", "S4a"} <= defined
    sources = [p for d in ("sniff_env", "twelve_env", "envkit", "tests", "examples") for p in (ROOT / d).rglob("*.py")]
    sources.append(ROOT / "README.md")
    cited = {(m, p.name) for p in sources for m in CITED.findall(p.read_text(encoding="utf-8"))}
    missing = sorted((rule, name) for rule, name in cited if rule not in defined)
    assert not missing, f"rule numbers cited but not in docs/rules.md: {missing}"


def test_vendored_rule_book_equals_the_team_copy_where_present():
    """The team's copy beside a checkout (``shared/``) and ``docs/`` must not drift apart."""
    for parent in ROOT.parents:
        shared = parent / "shared"
        if (shared / "RULES.md").is_file():
            assert (shared / "RULES.md").read_text(encoding="utf-8") == RULES.read_text(encoding="utf-8")
            for seed in (shared / "seeds").glob("*.txt"):
                assert (ROOT / "docs" / "seeds" / seed.name).read_bytes() == seed.read_bytes()
    assert len(list((ROOT / "docs" / "seeds").glob("*.txt"))) == 3
