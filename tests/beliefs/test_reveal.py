"""The ``beliefs`` command: bits of log-loss of the true deal under the rules alone and a model,
per agent and phase, the partner's hand apart, and a reliability table — checked against sums
this test makes itself from the records and ``infer``."""

from __future__ import annotations

import json

import numpy as np
import pytest

import sniff_env
import twelve_env
from sniff_env.__main__ import main as sniff_main
from sniff_env.agents import make_agent
from sniff_twelve.beliefs import infer
from sniff_twelve.core.records import replay_steps
from twelve_env.__main__ import main as twelve_main


def record_file(tmp_path, game, agents: dict[int, str], moves: int):
    players = {seat: make_agent(spec) for seat, spec in agents.items()}
    for _ in range(moves):
        game.apply(players[game.current_player].act(game))
    record = game.to_record() | {"agents": {str(s): spec for s, spec in agents.items()}}
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(record) + "\n")
    return path, record


def test_sniff_bits_per_decision_match_a_sum_made_here(tmp_path, capsys):
    game = sniff_env.Game(num_players=4, seed=21)
    path, record = record_file(tmp_path, game, {0: "greedy", 1: "heuristic", 2: "greedy", 3: "heuristic"}, 14)
    out = tmp_path / "bits.json"
    assert (
        sniff_main(["beliefs", str(path), "--model", "greedy", "--worlds", "32", "--json", str(out), "--no-progress"])
        == 0
    )
    result = json.loads(out.read_text())
    assert "bits revealed" in capsys.readouterr().out

    uniform, model, partner, decisions, units = [], [], [], 0, 0
    agent = make_agent("greedy")
    for start, action in replay_steps(record, sniff_env.Game):
        if action is not None and len(start.legal_actions()) > 1:
            decisions += 1
            me = start.current_player
            view = start.seat_view(me)
            for bits, m in ((uniform, None), (model, agent)):
                beliefs = infer(view, m, worlds=32, seed=0)
                places = [start.hand(s) for s in range(4) if s != me] + [start.boneyard]
                truth = [next(p for p, place in enumerate(places) if tile in place) for tile in beliefs.items]
                bits.append(-sum(np.log2(beliefs.marginals[i, p]) for i, p in enumerate(truth)))
                if m is not None:
                    column = beliefs.places.index((me + 2) % 4)
                    q = beliefs.marginals[:, column]
                    held = np.array([p == column for p in truth])
                    partner.append(-(np.log2(q[held]).sum() + np.log2(1 - q[~held]).sum()))
                    units += len(beliefs.items) * len(beliefs.places)
    summary = result["all"]
    assert summary["decisions"] == decisions > 5
    assert summary["bits_uniform"][0] == pytest.approx(np.mean(uniform))
    assert summary["bits_model"][0] == pytest.approx(np.mean(model))
    assert summary["bits_revealed"][0] == pytest.approx(np.mean(uniform) - np.mean(model))
    assert summary["partner_bits_model"][0] == pytest.approx(np.mean(partner))
    assert set(result["agents"]) == {"greedy", "heuristic"}
    assert sum(row["decisions"] for row in result["phases"].values()) == decisions
    assert sum(b["units"] for b in result["reliability"]) == units  # every (tile, place) once a decision
    assert 0 <= result["ece"] <= 1
    for row in result["reliability"]:
        low, high = (float(x) for x in row["bin"].split("–"))
        assert low - 1e-9 <= row["predicted"] <= high + 1e-9


def test_learned_beliefs_are_scored_as_a_model(tmp_path):
    """``--model learned`` scores the shipped network's marginals: its bits are the sum made here
    from ``infer(view, learned="shipped")`` at every decision with a choice."""
    game = sniff_env.Game(num_players=4, seed=22)
    path, record = record_file(tmp_path, game, {s: "ppo" for s in range(4)}, 12)
    out = tmp_path / "bits.json"
    argv = ["beliefs", str(path), "--model", "learned", "--worlds", "16", "--json", str(out), "--no-progress"]
    assert sniff_main(argv) == 0
    bits = []
    for start, action in replay_steps(record, sniff_env.Game):
        if action is not None and len(start.legal_actions()) > 1:
            me = start.current_player
            beliefs = infer(start.seat_view(me), learned="shipped", worlds=16)
            places = [start.hand(s) for s in range(4) if s != me] + [start.boneyard]
            truth = [next(p for p, place in enumerate(places) if tile in place) for tile in beliefs.items]
            bits.append(-sum(np.log2(beliefs.marginals[i, p]) for i, p in enumerate(truth)))
    summary = json.loads(out.read_text())["all"]
    assert summary["decisions"] == len(bits) > 5
    assert summary["bits_model"][0] == pytest.approx(np.mean(bits))


def test_twelve_counts_cards_of_a_rank_as_units(tmp_path):
    game = twelve_env.Game(num_players=3, seed=4)
    from twelve_env.agents import make_agent as twelve_agent

    players = twelve_agent("greedy")
    for _ in range(9):
        game.apply(players.act(game))
    path = tmp_path / "one.json"
    path.write_text(json.dumps(game.to_record()))
    out = tmp_path / "bits.json"
    assert (
        twelve_main(
            ["beliefs", str(path), "--model", "heuristic", "--worlds", "16", "--json", str(out), "--no-progress"]
        )
        == 0
    )
    result = json.loads(out.read_text())
    decisions, units = 0, 0
    for position, action in replay_steps(game.to_record(), twelve_env.Game):
        if action is not None and len(position.legal_actions()) > 1:
            decisions += 1
            hidden = sum(len(position.hand(s)) for s in range(3) if s != position.current_player)
            units += (hidden + position.stock_size) * 3  # each hidden card, at each of 3 places
    assert result["all"]["decisions"] == decisions > 3 and "partner_bits_model" not in result["all"]
    assert sum(b["units"] for b in result["reliability"]) == units
    assert set(result["agents"]) <= {"seat 0", "seat 1", "seat 2"}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--model", "nope"], "unknown agent 'nope'"),
        (["--model", "greedy", "--worlds", "0"], "--worlds must be at least 1"),
        (["--model", "greedy", "--learned", "net.npz"], "--learned goes with --model learned, not --model greedy"),
        (["--model", "learned", "--learned", "missing.npz"], "belief network missing.npz: no such file"),
    ],
)
def test_bad_input_is_one_error_line(tmp_path, capsys, argv, message):
    game = sniff_env.Game(num_players=2, seed=1)
    path, _ = record_file(tmp_path, game, {0: "greedy", 1: "greedy"}, 3)
    with pytest.raises(SystemExit) as exit_:
        sniff_main(["beliefs", str(path), *argv, "--no-progress"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]
