"""The worked examples of the German Sniff rule text, replayed through the public ``Game`` API.

docs/rules.md makes every ``Angelegt:`` block of ``seeds/000_f845a6ebb8d4b6b8.txt`` a test vector
(S9–S17). The blocks are parsed out of the seed text at test time, never retyped: each detailed
sentence lists the tiles in placement order, the spinner, every connection, every free
attachment spot with its pip, every scored contribution, their total and the credit of the
placement. Each position is rebuilt by a scripted two-player deal and compared as multisets
with ``Game.describe()``. The S16 example (whose tiles the seed text lost) is played by hand.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from sniff_env import TILES, Game, encode_action

SEED_FILE = "seeds/000_f845a6ebb8d4b6b8.txt"
SIDE_NAMES = {
    "Ende mit kleinerer Augenzahl": "low",
    "Ende mit größerer Augenzahl": "high",
    "Linienseite A": "line_a",
    "Linienseite B": "line_b",
    "Seitenarm A": "arm_a",
    "Seitenarm B": "arm_b",
}
TILE_RE = r"\[(\d)\|(\d)\]"
SIDE_RE = "|".join(re.escape(name) for name in SIDE_NAMES)
BIG_TARGET = 10_000


def _seed_text() -> str:
    """The German rule text, verbatim: the copy in tests/data (so the suite runs anywhere), which
    must equal the project's shared/seeds original wherever that is beside the checkout."""
    here = Path(__file__).resolve()
    text = (here.parent / "data" / Path(SEED_FILE).name).read_text(encoding="utf-8")
    for parent in here.parents:
        original = parent / "shared" / SEED_FILE
        if original.is_file():
            assert original.read_text(encoding="utf-8") == text, "tests/data copy differs from shared/seeds"
    return text


def _tile(a: str, b: str) -> tuple[int, int]:
    x, y = int(a), int(b)
    return (min(x, y), max(x, y))


def _tiles_in(text: str) -> list[tuple[int, int]]:
    return [_tile(a, b) for a, b in re.findall(TILE_RE, text)]


def _items(text: str) -> list[str]:
    text = text.strip()
    return [] if text in ("keine", "") else [part.strip() for part in text.split(";")]


def _section(sentence: str, start: str, end: str) -> str:
    match = re.search(re.escape(start) + r"\s*(.*?)\.\s*" + re.escape(end), sentence)
    assert match, f"no {start!r} … {end!r} in: {sentence}"
    return match.group(1)


def parse_block(placed_line: str, detail: str) -> dict:
    """One ``Angelegt:`` block as the ``describe()`` dict it states, plus the placed tile."""
    head = re.search(r"Gewertete Beiträge: ([\d +]+?) = (\d+)\. Gutschrift für das Anlegen: (\d+) Rohpunkte\.", detail)
    assert head, detail
    summands = [int(x) for x in head.group(1).split("+")]
    tiles = _tiles_in(_section(detail, "Steine:", "Spinner:"))
    spinner_text = _section(detail, "Spinner:", "Verbindungen:")
    spinner = None if spinner_text == "keine" else _tiles_in(spinner_text)[0]
    connections = []
    for item in _items(_section(detail, "Verbindungen:", "Freie Anlegestellen:")):
        m = re.fullmatch(rf"{TILE_RE} \(({SIDE_RE})\) – {TILE_RE} \(({SIDE_RE})\)", item)
        assert m, item
        connections.append(
            ((_tile(m[1], m[2]), SIDE_NAMES[m[3]]), (_tile(m[4], m[5]), SIDE_NAMES[m[6]])),
        )
    open_spots = []
    for item in _items(_section(detail, "Freie Anlegestellen:", "Gewertete Beiträge:")):
        m = re.fullmatch(rf"{TILE_RE} \(({SIDE_RE}), (\d)\)", item)
        assert m, item
        open_spots.append((_tile(m[1], m[2]), SIDE_NAMES[m[3]], int(m[4])))
    tail = detail.rsplit("Gewertete Beiträge:", 1)[1].strip().rstrip(".")
    scored = []
    for item in _items(tail):
        m = re.fullmatch(rf"{TILE_RE}: (\d+)", item)
        assert m, item
        scored.append((_tile(m[1], m[2]), int(m[3])))
    return {
        "placed": _tiles_in(placed_line)[0],
        "summands": summands,
        "expected": {
            "tiles": tiles,
            "spinner": spinner,
            "connections": connections,
            "open_spots": open_spots,
            "scored": scored,
            "total": int(head.group(2)),
            "credit": int(head.group(3)),
        },
    }


def parse_examples() -> list[dict]:
    lines = _seed_text().splitlines()
    blocks = []
    for i, line in enumerate(lines):
        if not line.startswith("Angelegt:"):
            continue
        detail = next((x for x in lines[i + 1 : i + 4] if "Steine:" in x), None)
        assert detail is not None, f"no detailed sentence after line {i + 1}: {line}"
        blocks.append(parse_block(line, detail))
    return blocks


EXAMPLES = parse_examples()


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


def test_seed_text_has_exactly_eleven_worked_examples():
    """docs/rules.md: every ``Angelegt:`` block is a test vector; the German text has 11."""
    assert len(EXAMPLES) == 11


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"{i}-{e['placed']}" for i, e in enumerate(EXAMPLES)])
def test_parsed_example_is_self_consistent(example):
    """S17: the block's summary (summands, total) agrees with its detailed contribution list."""
    exp = example["expected"]
    assert exp["tiles"][-1] == example["placed"]
    assert [c for _, c in exp["scored"]] == example["summands"]
    assert sum(example["summands"]) == exp["total"]
    credit = exp["total"] if exp["total"] > 0 and exp["total"] % 5 == 0 else 0
    assert exp["credit"] == credit


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"{i}-{e['placed']}" for i, e in enumerate(EXAMPLES)])
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
