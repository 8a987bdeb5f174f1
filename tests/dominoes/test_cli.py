"""``python -m dominoes_env``: the shared command line on block dominoes."""

from __future__ import annotations

import json

from dominoes_env.__main__ import main


def test_demo_arena_and_a_record_replayed(tmp_path, capsys):
    assert main(["demo", "--players", "2", "--seed", "1", "--quiet"]) == 0
    assert "over, returns" in capsys.readouterr().out
    records = tmp_path / "records.jsonl"
    argv = ["arena", "--players", "4", "--agents", "greedy", "heuristic", "--deals", "2", "--no-progress"]
    assert main([*argv, "--records", str(records), "--json", str(tmp_path / "arena.json")]) == 0
    result = json.loads((tmp_path / "arena.json").read_text())
    assert result and records.read_text().count("\n") >= 2
    assert main(["replay", str(records)]) == 0
