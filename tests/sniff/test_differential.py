"""Differential test: the compiled engine (``sniff_env.Game``) against the independent pure-Python
reference of one hand (``tests/reference/sniff_ref.py``, written from docs/rules.md Part S only).

Random matches (actions drawn by a seeded ``random.Random``) are played in both. At every hand start
a fresh ``SniffHandReference`` is built from the ``Game``'s hands, boneyard, opener, scores, target
and S4a variant options; at every step the legal actions (the mask and the solver's list), the
layout (``describe()``, lists as multisets), the seat to act, the scores, the hidden hands/boneyard
and the score events of the hand (``("credit", side, points)``, ``("deduct", seat, points)``) must
agree; at every hand end the settlement (S23/S24, or the S4a All Fives credit), the result (S22/S25:
domino → the out player opens next, S6; won → the match is over with that winner; blocked) and the
hand count must agree.

The match-level limits are tracked here, the reference models one hand: S26 truncation after
``max_steps`` applied actions (DRAW and PASS count) or after ``max_hands`` settled hands — the match
is then over, truncated, without a winner, unless the step or hand that hit the limit won it (S25) —
and ``episode="hand"``, which ends (not truncated) after the first hand, settled.

Cases (CPU seconds measured on the 2-core machine):
  * default options (S3 targets and a short target of 100): 1,050 matches, 350 per player count,
    as before (~47 s);
  * S4a variants: ``settlement`` ∈ {deduct, allfives} × ``undrawn`` ∈ {0, 1, 2} for 2, 3 and 4
    players, to a target of 100 (more match ends per second): 120 matches per deduct case, 240 per
    (shorter) allfives case (~41 s);
  * limits, per player count, cycling through the six variant combinations match by match:
    ``max_steps`` (chosen from a fast engine-only dry run of the same action stream: mid-hand, at
    exactly a hand end, or exactly the winning step), ``max_hands`` ∈ {1, 2, 3}, and ``episode="hand"``
    with targets 100 and 20 (so that the first hand can win the match) (~12 s);
  * small partial deals, one-hand episodes, picked for blocked hands with tied lowest hands, which
    random full deals rarely reach (All Fives ties between sides, partners tied) (~4 s);
  * the size dial (S2's set as the double-N set, S5's hand size as any other, every other rule
    unchanged): for pips 2, 3, 4, 5 and 6 (the last with other hand sizes than S5's) and 2, 3 and 4
    players, every hand size from 1 to the most the set deals (a boneyard left to draw from, or none
    when the players divide the set), the S4a variants in turn, a few games to a target of 5 (won
    within the hand, S25) and a few three-hand matches (``episode="match"``, the redeals); half dealt
    by the engine's seed, each such deal checked to be exactly the set in hands of the size, half
    from the reference's own deal given as ``deal=``; an unset episode must resolve to one hand on a
    small table: 18,300 games (~14 s). A broken dial (the engine given another set, hand size or
    episode than the harness) must make the comparison fail, and S2/S5's own table set through the
    dial must still be a match.
Every case asserts that it exercised what it claims (blocks with undrawn tiles left, All Fives
credits, settlement wins, truncations, ...).
"""

from __future__ import annotations

import random
import sys
from collections import Counter

import numpy as np
import pytest

from sniff_env import Game
from sniff_env import kernels as K
from sniff_env.solver import HOOKS
from tests.reference.sniff_ref import (
    DRAW,
    MAX_PIPS,
    PASS,
    TILES,
    SniffHandReference,
    episode_of,
    hand_size_of,
    pips,
    tile_set,
)
from tests.reference.sniff_ref import deal as ref_deal

pytestmark = pytest.mark.slow

LIST_KEYS = ("connections", "open_spots", "scored")
DEFAULT_MAX_HANDS = 200  # the Game's default S26 limit
SHORT_TARGET = 100
VARIANTS = [(settlement, undrawn) for settlement in ("deduct", "allfives") for undrawn in (0, 1, 2)]

# default options: (players, target or None for the S3 default, number of matches, chunk index)
FULL_MATCHES, FULL_CHUNKS = 170, 5
SHORT_MATCHES, SHORT_CHUNKS = 180, 3
CASES = [(n, None, FULL_MATCHES // FULL_CHUNKS, c) for n in (2, 3, 4) for c in range(FULL_CHUNKS)] + [
    (n, SHORT_TARGET, SHORT_MATCHES // SHORT_CHUNKS, c) for n in (2, 3, 4) for c in range(SHORT_CHUNKS)
]
VARIANT_MATCHES = {"deduct": 120, "allfives": 240}
VARIANT_CASES = [(n, settlement, undrawn) for n in (2, 3, 4) for settlement, undrawn in VARIANTS]
LIMIT_MATCHES = {"max_steps": 120, "max_hands": 120, "hand_episode": 480}
LIMIT_CASES = [(n, limit) for n in (2, 3, 4) for limit in LIMIT_MATCHES]
SMALL_DEALS, SMALL_OTHERS = {2: 3000, 3: 3000, 4: 12000}, 150
DIAL_GAMES = {2: 1000, 3: 1500, 4: 1500, 5: 1500, 6: 600}  # per player count


def as_multisets(desc: dict) -> dict:
    return {k: Counter(v) if k in LIST_KEYS else v for k, v in desc.items()}


def check_same(game: Game, ref: SniffHandReference, where: str) -> None:
    assert game.current_player == ref.current_player, where
    assert game.scores == ref.scores, where
    assert game.legal_actions() == ref.legal_actions(), where
    listed = np.empty(HOOKS.MAX_CHILDREN, dtype=np.int32)  # the solver's list of the legal actions
    count = K.legal_actions_into(np.array(game.state_array), game._params, listed)
    assert listed[:count].tolist() == ref.legal_actions(), where
    got, want = game.describe(), ref.describe()
    assert got["tiles"] == want["tiles"], where
    assert as_multisets(got) == as_multisets(want), where
    assert game.boneyard == ref.boneyard, where
    for seat in range(game.num_players):
        assert game.hand(seat) == sorted(ref.hands[seat]), where


def check_dealt(game: Game, set_pips: int, hand_size: int | None, where: str) -> None:
    """S2/S5 with the size dial: every seat holds ``hand_size`` tiles (S5's count when ``None``),
    and the hands and the boneyard together are exactly the double-``set_pips`` set."""
    n = game.num_players
    assert [len(game.hand(s)) for s in range(n)] == [hand_size_of(n, hand_size)] * n, where
    dealt = [t for s in range(n) for t in game.hand(s)] + game.boneyard
    assert sorted(dealt) == tile_set(set_pips), where


def play_match(
    n: int, seed: int, rng: random.Random, target: int | None = None, deal: dict | None = None, **options
) -> Counter:
    """Play one match in lockstep with the reference; returns counts of what happened in it.

    Every hand the engine deals itself (all but a first hand given by ``deal``) is checked to be
    a full deal of the table's set and hand size (``check_dealt``); the episode unset resolves to
    one hand on a small table (``episode_of``)."""
    settlement = options.get("settlement", "deduct")
    undrawn = options.get("undrawn", 0)
    max_hands = options.get("max_hands", DEFAULT_MAX_HANDS)
    max_steps = options.get("max_steps")
    set_pips, hand_size = options.get("pips", MAX_PIPS), options.get("hand_size")
    episode = episode_of(n, set_pips, hand_size, options.get("episode"))
    hand_episode = episode == "hand"
    game = Game(num_players=n, seed=seed, target=target, deal=deal, **options)
    match = f"players={n} seed={seed} target={game.target} options={options} deal={deal}"
    assert game.episode == episode and game.pips == set_pips, match
    assert game.hand_size == hand_size_of(n, hand_size), match
    stats: Counter = Counter()
    steps = 0  # S26: every applied action is a step
    while True:
        hands_before = game.hands_played
        assert hands_before == stats["hands"]
        assert game.describe()["tiles"] == [] and game.current_player == game.opener
        if deal is None or hands_before > 0:
            check_dealt(game, set_pips, hand_size, f"{match} hand={hands_before}")
        if not game.boneyard:
            stats["hands dealt without a boneyard"] += 1
        ref = SniffHandReference(
            n,
            [game.hand(s) for s in range(n)],
            game.boneyard,
            game.current_player,
            game.scores,
            game.target,
            settlement=settlement,
            undrawn=undrawn,
            pips=set_pips,
        )
        events_before = len(game.events)
        hand_steps = 0
        while True:
            where = f"{match} hand={hands_before} step={hand_steps} history={game.history[-8:]}"
            check_same(game, ref, where)
            action = rng.choice(ref.legal_actions())
            if action == PASS and ref.boneyard:
                stats["pass with undrawn tiles"] += 1
            stats["draws"] += action == DRAW
            game.apply(action)
            ref.apply(action)
            steps += 1
            hand_steps += 1
            assert game.events[events_before:] == ref.events, where
            assert game.scores == ref.scores, where
            if ref.over:
                break
            assert game.hands_played == hands_before, where
            if max_steps is not None and steps >= max_steps:  # S26: truncated in the middle of a hand
                assert game.is_terminal() and game.is_truncated() and game.winner is None, where
                assert game.legal_actions() == [], where
                stats["truncated mid-hand"] += 1
                return stats
            assert not game.is_terminal(), where
        stats[ref.result] += 1
        if ref.result == "won":  # S25: over at once, not settled, never truncated
            assert game.is_terminal() and not game.is_truncated(), where
            assert game.winner == ref.winner, where
            assert game.hands_played == hands_before and game.legal_actions() == [], where
            return stats
        # S22: settled (S23/S24 or S4a, checked through the events above) and counted
        stats["hands"] += 1
        assert game.hands_played == hands_before + 1, where
        if ref.result == "blocked" and ref.boneyard:
            assert len(ref.boneyard) <= undrawn, where
            stats["blocked with undrawn tiles"] += 1
        if settlement == "allfives":
            if ref.settled_side is None:
                stats["allfives tie"] += 1
            elif ref.settled_points:
                stats[f"allfives credit after {ref.result}"] += 1
            if ref.result == "blocked" and ref.settled_side is not None and lowest_seats(ref.hands) > 1:
                stats["allfives partners tied"] += 1
        elif any(ref.deductions):
            stats["deducted"] += 1
        if ref.winner is not None:  # S4a + S25: the All Fives settlement credit reached the target
            assert settlement == "allfives", where
            assert game.is_terminal() and not game.is_truncated() and game.winner == ref.winner, where
            stats["won by settlement"] += 1
            return stats
        if hand_episode:  # the first hand, settled, is the whole episode
            assert game.is_terminal() and not game.is_truncated() and game.winner is None, where
            stats["hand episode over"] += 1
            return stats
        if game.hands_played >= max_hands or (max_steps is not None and steps >= max_steps):  # S26
            assert game.is_terminal() and game.is_truncated() and game.winner is None, where
            assert game.legal_actions() == [], where
            stats["truncated at hand end"] += 1
            return stats
        assert not game.is_terminal() and not game.is_truncated(), where
        if ref.result == "domino":  # S6: the domino-maker opens the next hand
            assert game.current_player == ref.out_player == game.opener, where
    raise AssertionError("unreachable")


def lowest_seats(hands: list[list[tuple[int, int]]]) -> int:
    """How many seats hold the fewest pips."""
    counts = [pips(hand) for hand in hands]
    return counts.count(min(counts))


def small_deal(n: int, rng: random.Random) -> dict:
    """A partial first hand: 1-3 tiles per seat, 0-4 in the boneyard, the rest out of play."""
    tiles = list(TILES)
    rng.shuffle(tiles)
    hands = []
    for _ in range(n):
        k = rng.randint(1, 3)
        hands.append(tiles[:k])
        del tiles[:k]
    return {"hands": hands, "boneyard": tiles[: rng.randint(0, 4)], "opener": rng.randrange(n)}


def dry_run(n: int, seed: int, rng_seed: int, target: int | None, **options) -> tuple[list[int], int, bool]:
    """The engine alone on the action stream ``play_match`` would draw (its legal actions are
    the reference's, checked there): the steps that end a hand, the last step, whether it won."""
    rng = random.Random(rng_seed)
    game = Game(num_players=n, seed=seed, target=target, **options)
    hand_ends, steps = [], 0
    while not game.is_terminal():
        hands = game.hands_played
        game.apply(rng.choice(game.legal_actions()))
        steps += 1
        if game.hands_played != hands:
            hand_ends.append(steps)
    return hand_ends, steps, game.winner is not None


@pytest.mark.parametrize(("n", "target", "matches", "chunk"), CASES)
def test_engine_matches_reference(n, target, matches, chunk):
    """S1–S26: random matches with the default options agree step by step with the reference."""
    base = 10_000_000 * n + 10_000 * (target or 0) + matches * chunk
    rng = random.Random(base)
    results: Counter = Counter()
    for seed in range(base, base + matches):
        results += play_match(n, seed, rng, target)
    assert results["domino"] + results["blocked"] > 0 and results["won"] > 0


@pytest.mark.parametrize(("n", "settlement", "undrawn"), VARIANT_CASES)
def test_variants_match_reference(n, settlement, undrawn):
    """S4a: the All Fives settlement and undrawn boneyard tiles, in every combination."""
    base = 20_000_000 + 1_000_000 * n + 100_000 * VARIANTS.index((settlement, undrawn))
    rng = random.Random(base)
    stats: Counter = Counter()
    for seed in range(base, base + VARIANT_MATCHES[settlement]):
        stats += play_match(n, seed, rng, SHORT_TARGET, settlement=settlement, undrawn=undrawn)
    assert stats["domino"] > 0 and stats["blocked"] > 0 and stats["won"] > 0, stats
    if undrawn:
        assert stats["blocked with undrawn tiles"] > 0 and stats["pass with undrawn tiles"] > 0, stats
    else:
        assert stats["blocked with undrawn tiles"] == 0 == stats["pass with undrawn tiles"], stats
    if settlement == "allfives":
        assert stats["allfives credit after domino"] > 0 and stats["allfives credit after blocked"] > 0, stats
        assert stats["won by settlement"] > 0 and stats["deducted"] == 0, stats
    else:
        assert stats["deducted"] > 0 and stats["won by settlement"] == 0, stats


@pytest.mark.parametrize(("n", "limit"), LIMIT_CASES)
def test_limits_match_reference(n, limit):
    """S26 truncation by steps and by hands, and one-hand episodes, under every S4a variant."""
    base = 30_000_000 + 1_000_000 * n + 100_000 * list(LIMIT_MATCHES).index(limit)
    stats: Counter = Counter()
    for i, seed in enumerate(range(base, base + LIMIT_MATCHES[limit])):
        settlement, undrawn = VARIANTS[i % len(VARIANTS)]
        options = {"settlement": settlement, "undrawn": undrawn}
        target = SHORT_TARGET
        if limit == "max_steps":
            hand_ends, last, won = dry_run(n, seed, seed, target, **options)
            choice = (i // len(VARIANTS)) % 3
            if choice == 0:  # somewhere inside a hand (or at a hand end by chance)
                options["max_steps"] = random.Random(seed).randint(1, last)
            elif choice == 1 and hand_ends:  # exactly the step that ends a hand: settled, then truncated
                options["max_steps"] = hand_ends[len(hand_ends) // 2]
            else:  # exactly the last step of the unlimited match: a win there is no truncation
                options["max_steps"] = last
                stats["limit at the winning step"] += won
        elif limit == "max_hands":
            options["max_hands"] = 1 + i % 3
        else:
            options["episode"] = "hand"
            target = (SHORT_TARGET, 20)[i % 2]  # a low target lets the first hand win the match
        stats += play_match(n, seed, random.Random(seed), target, **options)
    truncated = stats["truncated mid-hand"] + stats["truncated at hand end"]
    if limit == "max_steps":
        assert stats["truncated mid-hand"] > 0 and stats["truncated at hand end"] > 0, stats
        assert stats["limit at the winning step"] > 0 and stats["won"] + stats["won by settlement"] > 0, stats
    elif limit == "max_hands":
        assert stats["truncated at hand end"] > 0 and stats["truncated mid-hand"] == 0, stats
        assert stats["won"] + stats["won by settlement"] > 0, stats
    else:
        assert truncated == 0 and stats["hands"] == stats["hand episode over"] + stats["won by settlement"], stats
        assert stats["hand episode over"] > 0 and stats["won"] > 0 and stats["won by settlement"] > 0, stats


@pytest.mark.parametrize("n", [2, 3, 4])
def test_small_deals_match_reference(n):
    """S4a on blocked hands, which random full deals rarely reach: one-hand episodes from small
    partial deals. A fast engine-only pass picks every deal whose hand ends blocked with tied
    lowest hands (S4a ties between sides, or partners tied), plus the first others; those are
    then played in lockstep with the reference under the variant the deal was dealt with."""
    base = 40_000_000 + 1_000_000 * n
    picked, others = [], 0
    for i, seed in enumerate(range(base, base + SMALL_DEALS[n])):
        deal = small_deal(n, random.Random(seed))
        settlement, undrawn = VARIANTS[i % len(VARIANTS)]
        options = {"settlement": settlement, "undrawn": undrawn, "episode": "hand"}
        game = Game(n, seed=seed, target=SHORT_TARGET, deal=deal, **options)
        rng = random.Random(seed)
        while not game.is_terminal():
            game.apply(rng.choice(game.legal_actions()))
        hands = [game.hand(s) for s in range(n)]
        tied = settlement == "allfives" and game.hands_played == 1 and all(hands) and lowest_seats(hands) > 1
        if tied or others < SMALL_OTHERS:
            others += not tied
            picked.append((seed, deal, options))
    stats: Counter = Counter()
    for seed, deal, options in picked:
        stats += play_match(n, seed, random.Random(seed), SHORT_TARGET, deal=deal, **options)
    assert stats["domino"] > 0 and stats["blocked with undrawn tiles"] > 0, stats
    assert stats["allfives tie"] > 0 and stats["allfives credit after blocked"] > 0, stats
    if n == 4:
        assert stats["allfives partners tied"] > 0, stats


def dial_options(n: int, set_pips: int, i: int) -> tuple[int | None, dict]:
    """The target and options of the ``i``-th game on the double-``set_pips`` table: the hand sizes
    1 … (the set's tiles // n) in turn (a boneyard left to draw from, or none when n divides the
    set), the S4a variants in turn, every seventh game to a target of 10 (a placement can win the
    one hand, S25) and every eleventh a match of up to three hands to 30 (the redeals, S5)."""
    top = len(tile_set(set_pips)) // n
    settlement, undrawn = VARIANTS[i % len(VARIANTS)]
    options = {"pips": set_pips, "hand_size": 1 + i % top, "settlement": settlement, "undrawn": undrawn}
    if set_pips == MAX_PIPS and options["hand_size"] == hand_size_of(n):
        options["hand_size"] = top  # S5's own count is no small table; the full hand split instead
    target = None
    if i % 7 == 3:
        target = 5
    elif i % 11 == 5:
        target, options["episode"], options["max_hands"] = 30, "match", 3
    return target, options


@pytest.mark.parametrize("set_pips", [2, 3, 4, 5, 6])
def test_small_tables_match_reference(set_pips):
    """S2/S5 with the size dial: the double-N set and any hand size, every other rule unchanged
    (S1-S25), one hand per episode unless asked otherwise. Random games with 2, 3 and 4 players,
    half dealt by the engine's seed (checked to be a full deal of the set, ``check_dealt``), half
    from the reference's deal of the same table given as ``deal=``."""
    base = 50_000_000 + 1_000_000 * set_pips
    stats: Counter = Counter()
    for n in (2, 3, 4):
        for i in range(DIAL_GAMES[set_pips]):
            seed = base + 10_000 * n + i
            target, options = dial_options(n, set_pips, i)
            rng = random.Random(seed)
            given = ref_deal(n, rng, set_pips, options["hand_size"]) if i % 2 else None
            stats += play_match(n, seed, rng, target, deal=given, **options)
            stats["games"] += 1
    assert stats["domino"] > 0 and stats["blocked"] > 0 and stats["won"] > 0, stats
    assert stats["draws"] > 0 and stats["hands dealt without a boneyard"] > 0, stats
    assert stats["blocked with undrawn tiles"] > 0 and stats["hand episode over"] > 0, stats
    assert stats["truncated at hand end"] > 0, stats


BROKEN_DIALS = {  # (the table the harness and the reference use, what the engine is given instead)
    "engine deals the double six": ({"pips": 3, "hand_size": 3}, {"pips": MAX_PIPS}),
    "engine deals a smaller set": ({"pips": MAX_PIPS, "hand_size": 3}, {"pips": 3}),
    "engine deals S5's hand size": ({"pips": 4, "hand_size": 3}, {"hand_size": None}),
    "engine deals another hand size": ({"pips": 4, "hand_size": 3}, {"hand_size": 4}),
    "small table plays a match": ({"pips": 4, "hand_size": 3}, {"episode": "match"}),
}


@pytest.mark.parametrize("broken", BROKEN_DIALS)
def test_a_broken_dial_is_detected(monkeypatch, broken):
    """The comparison would catch an engine that ignored the dial (S2, S5, the one-hand episode):
    the engine is built with one setting changed while the harness and the reference keep the
    table's; every such game must fail (and passes with the engine given the table)."""
    table, engine = BROKEN_DIALS[broken]
    for seed in range(5):
        play_match(2, seed, random.Random(seed), **table)
    module, real = sys.modules[__name__], Game
    monkeypatch.setattr(module, "Game", lambda *args, **options: real(*args, **{**options, **engine}))
    for seed in range(5):
        with pytest.raises(AssertionError):
            play_match(2, seed, random.Random(seed), **table)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_dial_settings_of_the_rules_and_deals_outside_the_set(n):
    """The dial set to S2 and S5's own table is no small table: a match (S3, S25) that agrees with
    the reference; and a ``deal=`` holding a tile outside the double-N set is refused by the engine
    and by the reference alike (S2)."""
    stats: Counter = Counter()
    for seed in range(60_000_000 + n, 60_000_000 + n + 3):
        stats += play_match(n, seed, random.Random(seed), pips=MAX_PIPS, hand_size=hand_size_of(n))
    assert stats["won"] + stats["won by settlement"] + stats["truncated at hand end"] == 3, stats
    bad = ref_deal(n, random.Random(n), 3, 2)
    bad["hands"][n - 1][-1] = (1, 4)  # the double-three set holds no 4
    with pytest.raises(ValueError):
        Game(num_players=n, seed=0, pips=3, hand_size=2, deal=bad)
    with pytest.raises(ValueError):
        SniffHandReference(n, bad["hands"], bad["boneyard"], bad["opener"], [0] * (2 if n == 4 else n), 200, pips=3)
