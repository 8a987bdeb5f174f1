"""Worker processes kept across arenas (``arena.game_processes``): started once, the same games."""

from __future__ import annotations

from benchmarks import training
from sniff_env.agents import arena_table
from sniff_twelve.tools import arena


def test_arenas_on_kept_processes_start_them_once_and_play_the_same_games(pool_starts):
    """Two arenas on one ``game_processes`` start one pool, and each gives what a run in this
    process gives (the games do not depend on where they ran)."""
    table = arena_table(2, max_hands=1)
    runs = [(["greedy", "heuristic"], 6, 1), (["random", "greedy"], 4, 2)]
    with arena.game_processes(2) as processes:
        kept = [arena.run(table, *run, workers=2, progress=False, processes=processes) for run in runs]
    assert len(pool_starts) == 1
    assert kept == [arena.run(table, *run, workers=1, progress=False) for run in runs]


def test_time_to_skill_starts_its_arena_processes_once_after_the_first_training(pool_starts, monkeypatch, tmp_path):
    """``benchmarks.training`` plays every snapshot's arenas on one set of worker processes, started
    once the first training is over, so that their start takes none of its time."""
    trained, measured = [], []

    def train(recipe, marks, out, args, stop):
        trained.append(len(pool_starts))
        return True

    def measure(recipe, checkpoint, minutes, args, deals, processes):
        measured.append(processes)
        scores = {opponent: {"score": 0.5, "ci95": 0.1} for opponent in training.OPPONENTS}
        in_search = {"ms_per_decision": 1.0, "scores": scores}
        return {"minutes": minutes, "labels": 1, "scores": scores, "in_search": in_search}

    monkeypatch.setattr(training, "optional_import", lambda *needed: None)  # no training runs: no torch needed
    monkeypatch.setattr(training, "train", train)
    monkeypatch.setattr(training, "measure", measure)
    training.main(["--quick", "--recipes", "sniff2", "exit4", "--workers", "2", "--out", str(tmp_path)])
    assert trained == [0, 1] and len(pool_starts) == 1
    assert len(measured) == 2 * len(training.QUICK_MARKS) and measured[0] is not None
    assert all(processes is measured[0] for processes in measured)
