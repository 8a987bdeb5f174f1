"""Differential test: the compiled engine (``sniff_env.Game``) against the independent pure-Python
reference of one hand (``tests/reference/sniff_ref.py``, written from RULES.md S1–S27 only).

Random matches (actions drawn by a seeded ``random.Random``) are played in both. At every hand
start a fresh ``SniffHandReference`` is built from the ``Game``'s hands, boneyard, opener, scores and
target; at every step the legal actions, the layout (``describe()``, lists as multisets), the seat
to act, the scores and the hidden hands/boneyard must agree; at every hand end the scores, the
settlement (S23/S24), the result (S22/S25: domino → the out player opens next, S6; won → the match is
over with that winner; blocked) and the hand count must agree.

Sizing: 1,050 matches in total, 350 per player count. A full match to the default target (S3)
takes about 0.08 s here, so 170 matches per player count play to the default target and 180 to
a lower target of 100 (shorter matches, more of them ended by a win, S25), which keeps the whole
file around one minute on the 2-core machine.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from reference.sniff_ref import SniffHandReference

from sniff_env import Game

pytestmark = pytest.mark.slow

LIST_KEYS = ("connections", "open_spots", "scored")
# (players, target or None for the S3 default, number of matches, chunk index)
FULL_MATCHES, FULL_CHUNKS = 170, 5
SHORT_MATCHES, SHORT_CHUNKS, SHORT_TARGET = 180, 3, 100
CASES = [(n, None, FULL_MATCHES // FULL_CHUNKS, c) for n in (2, 3, 4) for c in range(FULL_CHUNKS)] + [
    (n, SHORT_TARGET, SHORT_MATCHES // SHORT_CHUNKS, c) for n in (2, 3, 4) for c in range(SHORT_CHUNKS)
]


def as_multisets(desc: dict) -> dict:
    return {k: Counter(v) if k in LIST_KEYS else v for k, v in desc.items()}


def check_same(game: Game, ref: SniffHandReference, where: str) -> None:
    assert game.current_player == ref.current_player, where
    assert game.scores == ref.scores, where
    assert game.legal_actions() == ref.legal_actions(), where
    got, want = game.describe(), ref.describe()
    assert got["tiles"] == want["tiles"], where
    assert as_multisets(got) == as_multisets(want), where
    assert game.boneyard == ref.boneyard, where
    for seat in range(game.num_players):
        assert game.hand(seat) == sorted(ref.hands[seat]), where


def play_match(n: int, seed: int, target: int | None, rng: random.Random) -> Counter:
    """Play one match in lockstep with the reference; returns how its hands ended."""
    game = Game(num_players=n, seed=seed, target=target)
    results: Counter = Counter()
    while not game.is_terminal():
        hands_before = game.hands_played
        assert game.describe()["tiles"] == [] and game.current_player == game.opener
        ref = SniffHandReference(
            n,
            [game.hand(s) for s in range(n)],
            game.boneyard,
            game.current_player,
            game.scores,
            game.target,
        )
        step = 0
        while True:
            where = f"players={n} seed={seed} hand={hands_before} step={step} history={game.history[-8:]}"
            check_same(game, ref, where)
            action = rng.choice(ref.legal_actions())
            events_before = len(game.events)
            game.apply(action)
            ref.apply(action)
            step += 1
            if not ref.over:
                assert game.hands_played == hands_before and not game.is_terminal(), where
                continue
            results[ref.result] += 1
            assert game.scores == ref.scores, where
            if ref.result == "won":  # S25: over at once, not settled
                assert game.is_terminal() and not game.is_truncated, where
                assert game.winner == ref.winner, where
                assert game.hands_played == hands_before, where
            else:  # S22: settled (S23/S24) and counted
                assert game.hands_played == hands_before + 1, where
                deducted = Counter((e[1], e[2]) for e in game.events[events_before:] if e[0] == "deduct")
                assert deducted == Counter((s, d) for s, d in enumerate(ref.deductions) if d), where
                if game.is_terminal():
                    assert game.is_truncated and game.winner is None, where
                elif ref.result == "domino":  # S6: the domino-maker opens the next hand
                    assert game.current_player == ref.out_player == game.opener, where
            break
    return results


@pytest.mark.parametrize(("n", "target", "matches", "chunk"), CASES)
def test_engine_matches_reference(n, target, matches, chunk):
    """S1–S26: random matches agree step by step with the reference implementation."""
    base = 10_000_000 * n + 10_000 * (target or 0) + matches * chunk
    rng = random.Random(base)
    results: Counter = Counter()
    for seed in range(base, base + matches):
        results += play_match(n, seed, target, rng)
    assert results["domino"] + results["blocked"] > 0 and results["won"] > 0
