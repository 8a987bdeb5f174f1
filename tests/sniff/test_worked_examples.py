"""The worked examples of the Sniff rule texts (German and Russian: the same eleven positions),
replayed through ``Game``.

docs/rules.md makes every worked example a test vector (S9–S17). ``tests/data/
sniff_worked_examples.json`` holds them as facts: each position's tiles in placement order, the
spinner, every connection, every free attachment spot with its pip, every scored contribution,
their total and the credit of the placement. Each position is rebuilt by a scripted two-player
deal and compared as multisets with ``Game.describe()``. The S16 example (whose tiles the German
text lost) is played by hand.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from sniff_env import TILES, Game, encode_action

DATA = Path(__file__).resolve().parents[1] / "data" / "sniff_worked_examples.json"
BIG_TARGET = 10_000


def _tile(pair: list[int]) -> tuple[int, int]:
    return (pair[0], pair[1])


def load_examples() -> list[dict]:
    """The data file's examples, tiles as tuples (what ``describe()`` returns)."""
    examples = []
    for e in json.loads(DATA.read_text(encoding="utf-8"))["examples"]:
        examples.append(
            {
                "source": e["source"],
                "placed": _tile(e["placed"]),
                "summands": e["summands"],
                "expected": {
                    "tiles": [_tile(t) for t in e["tiles"]],
                    "spinner": None if e["spinner"] is None else _tile(e["spinner"]),
                    "connections": [((_tile(a), sa), (_tile(b), sb)) for (a, sa), (b, sb) in e["connections"]],
                    "open_spots": [(_tile(t), side, pip) for t, side, pip in e["open_spots"]],
                    "scored": [(_tile(t), points) for t, points in e["scored"]],
                    "total": e["total"],
                    "credit": e["credit"],
                },
            }
        )
    return examples


EXAMPLES = load_examples()
IDS = [f"{i + 1}-{e['placed']}" for i, e in enumerate(EXAMPLES)]


def arms_from_connections(tiles, connections) -> list[int]:
    """The arm of every tile, by docs/api.md's rules, from the parsed connections alone."""
    parent_of = {child: (parent, side) for (parent, side), (child, _) in connections}
    opening = tiles[0]
    arm: dict[tuple[int, int], int] = {opening: 0}
    for tile in tiles[1:]:
        parent, side = parent_of[tile]
        if side in ("arm_a", "arm_b"):
            arm[tile] = 2 if side == "arm_a" else 3  # the Sniff's side arms
        elif parent == opening:
            arm[tile] = 0 if side in ("low", "line_a") else 1  # opening: low / A west, high / B east
        else:
            arm[tile] = arm[parent]  # a tile attached to a tile continues its arm
    return [arm[t] for t in tiles]


def replay(tiles, arms) -> Game:
    """Two players alternately hold the tiles in placement order; fillers pad each hand to 7."""
    hands = [list(tiles[0::2]), list(tiles[1::2])]
    spare = [t for t in TILES if t not in tiles]
    for hand in hands:
        while len(hand) < 7:
            hand.append(spare.pop(0))
    game = Game(num_players=2, seed=0, target=BIG_TARGET, deal={"hands": hands, "boneyard": spare, "opener": 0})
    for i, (tile, arm) in enumerate(zip(tiles, arms, strict=True)):
        assert game.current_player == i % 2
        game.apply(encode_action(tile, arm))
    return game


def multiset_view(desc: dict) -> dict:
    return {
        key: Counter(value) if key in ("connections", "open_spots", "scored") else value for key, value in desc.items()
    }


def test_the_rule_texts_have_eleven_worked_examples():
    """docs/rules.md: every worked example is a test vector; the texts state eleven positions."""
    assert len(EXAMPLES) == 11 and len({tuple(e["expected"]["tiles"]) for e in EXAMPLES}) == 11


@pytest.mark.parametrize("example", EXAMPLES, ids=IDS)
def test_example_is_self_consistent(example):
    """S17: the block's summary (summands, total) agrees with its detailed contribution list."""
    exp = example["expected"]
    assert exp["tiles"][-1] == example["placed"]
    assert [c for _, c in exp["scored"]] == example["summands"]
    assert sum(example["summands"]) == exp["total"]
    credit = exp["total"] if exp["total"] > 0 and exp["total"] % 5 == 0 else 0
    assert exp["credit"] == credit


@pytest.mark.parametrize("example", EXAMPLES, ids=IDS)
def test_worked_example_reproduced(example):
    """S9–S17: the position of each worked example, placed tile by tile, is described exactly."""
    exp = example["expected"]
    game = replay(exp["tiles"], arms_from_connections(exp["tiles"], exp["connections"]))
    desc = game.describe()
    assert desc["tiles"] == exp["tiles"]
    assert multiset_view(desc) == multiset_view(exp)


def test_s16_opening_sniff_example():
    """S16: opening Sniff [4|4] alone 8; [4|6] on a line side 14; [4|1] on the other line side
    opens the side arms, 6+1+4+4 = 15 and credit 15; [4|2] covering one side arm 13."""
    steps = [((4, 4), 0), ((4, 6), 0), ((1, 4), 1), ((2, 4), 2)]
    game = Game(
        num_players=2,
        seed=0,
        target=BIG_TARGET,
        deal={
            "hands": [[(4, 4), (1, 4), (0, 0)], [(4, 6), (2, 4), (0, 1)]],
            "boneyard": [(0, 2), (0, 3)],
            "opener": 0,
        },
    )
    seen = []
    for tile, arm in steps:
        game.apply(encode_action(tile, arm))
        d = game.describe()
        seen.append((d["total"], d["credit"], Counter(d["scored"])))
    assert seen[0] == (8, 0, Counter({((4, 4), 8): 1}))
    assert seen[1] == (14, 0, Counter({((4, 6), 6): 1, ((4, 4), 8): 1}))
    assert seen[2] == (15, 15, Counter({((4, 6), 6): 1, ((1, 4), 1): 1, ((4, 4), 4): 2}))
    assert seen[3] == (13, 0, Counter({((4, 6), 6): 1, ((1, 4), 1): 1, ((2, 4), 2): 1, ((4, 4), 4): 1}))
    assert game.scores == [15, 0]
