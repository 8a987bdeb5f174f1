"""Self-checks of the pure-Python American Sniff reference on its own (no engine involved)."""

import random
from collections import Counter

import pytest

from .sniff_ref import DRAW, PASS, TILES, deal, encode, episode_of, hand_size_of, is_small_table, round5, tile_set
from .sniff_ref import SniffHandReference as S

BIG = 10**6
SPARE = [(0, 6), (2, 6), (2, 5)]  # tiles nobody uses in the sequences below


def play(seq, spare_hand=((6, 6),), boneyard=SPARE):
    """2-player hand in which the players alternately place the (tile, arm) pairs of seq."""
    hands = [[t for t, _ in seq[0::2]], [t for t, _ in seq[1::2]]]
    hands[0].append(spare_hand[0])  # nobody goes out
    hands[1].append((3, 3) if (3, 3) not in [t for t, _ in seq] else (0, 0))
    g = S(2, hands, list(boneyard), opener=0, scores=[0, 0], target=BIG)
    for tile, arm in seq:
        g.apply(encode(tile, arm))
    return g


def same(desc, **expected):
    for key, value in expected.items():
        if isinstance(value, list):
            assert Counter(desc[key]) == Counter(value), key
        else:
            assert desc[key] == value, key


def test_tiles_and_ids():
    assert len(TILES) == 28 and TILES[0] == (0, 0) and TILES[6] == (0, 6) and TILES[7] == (1, 1)
    assert TILES[-1] == (6, 6) and encode((6, 6), 3) == 111 and (DRAW, PASS) == (112, 113)


def test_round5():
    assert [round5(p) for p in (0, 1, 2, 3, 4, 5, 12, 13, 17, 18)] == [0, 0, 0, 5, 5, 5, 10, 15, 15, 20]


def test_empty_describe():
    g = S(2, [[(1, 2)], [(3, 4)]], [], 0, [0, 0], 250)
    assert g.describe() == {
        "tiles": [],
        "spinner": None,
        "connections": [],
        "open_spots": [],
        "scored": [],
        "total": 0,
        "credit": 0,
    }
    assert g.legal_actions() == [encode((1, 2), 0)]


# ---------------------------------------------------------------- German worked examples
EX_A = [
    ((1, 4), 0),
    ((1, 1), 0),
    ((4, 4), 1),
    ((3, 4), 1),
    ((1, 2), 0),
    ((1, 5), 2),
    ((5, 5), 2),
    ((0, 5), 2),
    ((1, 3), 3),
]
C = [
    (((1, 4), "low"), ((1, 1), "line_a")),
    (((1, 4), "high"), ((4, 4), "line_a")),
    (((4, 4), "line_b"), ((3, 4), "high")),
    (((1, 1), "line_b"), ((1, 2), "low")),
    (((1, 1), "arm_a"), ((1, 5), "low")),
    (((1, 5), "high"), ((5, 5), "line_a")),
    (((5, 5), "line_b"), ((0, 5), "high")),
    (((1, 1), "arm_b"), ((1, 3), "low")),
]


def test_example_opening_non_double():
    d = play(EX_A[:1]).describe()
    same(
        d,
        tiles=[(1, 4)],
        spinner=None,
        connections=[],
        open_spots=[((1, 4), "high", 4), ((1, 4), "low", 1)],
        scored=[((1, 4), 4), ((1, 4), 1)],
        total=5,
        credit=5,
    )
    d = play(EX_A[:2]).describe()
    same(
        d,
        tiles=[(1, 4), (1, 1)],
        spinner=(1, 1),
        connections=C[:1],
        open_spots=[((1, 1), "line_b", 1), ((1, 4), "high", 4)],
        scored=[((1, 1), 2), ((1, 4), 4)],
        total=6,
        credit=0,
    )


def test_example_end_doubles_and_side_arms():
    g = play(EX_A[:3])
    same(
        g.describe(),
        tiles=[(1, 4), (1, 1), (4, 4)],
        spinner=(1, 1),
        connections=C[:2],
        open_spots=[((1, 1), "line_b", 1), ((4, 4), "line_b", 4)],
        scored=[((1, 1), 2), ((4, 4), 8)],
        total=10,
        credit=10,
    )
    same(
        play(EX_A[:4]).describe(),
        connections=C[:3],
        open_spots=[((1, 1), "line_b", 1), ((3, 4), "low", 3)],
        scored=[((1, 1), 2), ((3, 4), 3)],
        total=5,
        credit=5,
    )
    same(
        play(EX_A[:5]).describe(),
        connections=C[:4],
        open_spots=[((1, 1), "arm_a", 1), ((1, 1), "arm_b", 1), ((1, 2), "high", 2), ((3, 4), "low", 3)],
        scored=[((1, 1), 1), ((1, 1), 1), ((1, 2), 2), ((3, 4), 3)],
        total=7,
        credit=0,
    )
    same(
        play(EX_A[:6]).describe(),
        connections=C[:5],
        open_spots=[((1, 1), "arm_b", 1), ((1, 2), "high", 2), ((1, 5), "high", 5), ((3, 4), "low", 3)],
        scored=[((1, 1), 1), ((1, 2), 2), ((1, 5), 5), ((3, 4), 3)],
        total=11,
        credit=0,
    )
    same(
        play(EX_A[:8]).describe(),
        tiles=[(1, 4), (1, 1), (4, 4), (3, 4), (1, 2), (1, 5), (5, 5), (0, 5)],
        connections=C[:7],
        open_spots=[((0, 5), "low", 0), ((1, 1), "arm_b", 1), ((1, 2), "high", 2), ((3, 4), "low", 3)],
        scored=[((0, 5), 0), ((1, 1), 1), ((1, 2), 2), ((3, 4), 3)],
        total=6,
        credit=0,
    )
    g = play(EX_A)
    same(
        g.describe(),
        spinner=(1, 1),
        connections=C,
        open_spots=[((0, 5), "low", 0), ((1, 2), "high", 2), ((1, 3), "high", 3), ((3, 4), "low", 3)],
        scored=[((0, 5), 0), ((1, 2), 2), ((1, 3), 3), ((3, 4), 3)],
        total=8,
        credit=0,
    )
    assert g.scores == [15, 5]


def test_example_opening_doubles():
    d = play([((2, 2), 0)]).describe()
    same(
        d,
        tiles=[(2, 2)],
        spinner=(2, 2),
        connections=[],
        open_spots=[((2, 2), "line_a", 2), ((2, 2), "line_b", 2)],
        scored=[((2, 2), 4)],
        total=4,
        credit=0,
    )
    d = play([((0, 0), 0)], spare_hand=((1, 1),)).describe()
    same(
        d,
        tiles=[(0, 0)],
        spinner=(0, 0),
        open_spots=[((0, 0), "line_a", 0), ((0, 0), "line_b", 0)],
        scored=[((0, 0), 0)],
        total=0,
        credit=0,
    )
    d = play([((3, 6), 0), ((6, 6), 1)], spare_hand=((1, 1),), boneyard=[(2, 5)]).describe()
    same(
        d,
        tiles=[(3, 6), (6, 6)],
        spinner=(6, 6),
        connections=[(((3, 6), "high"), ((6, 6), "line_a"))],
        open_spots=[((3, 6), "low", 3), ((6, 6), "line_b", 6)],
        scored=[((3, 6), 3), ((6, 6), 12)],
        total=15,
        credit=15,
    )


def test_s16_example():
    seq = [((4, 4), 0), ((4, 6), 0), ((1, 4), 1), ((2, 4), 2)]
    totals = [play(seq[:k]).describe()["total"] for k in range(1, 5)]
    assert totals == [8, 14, 15, 13]
    g = play(seq[:3])
    assert g.describe()["credit"] == 15 and g.scores == [15, 0]  # third tile: seat 0
    assert Counter(g.describe()["scored"]) == Counter([((4, 6), 6), ((1, 4), 1), ((4, 4), 4), ((4, 4), 4)])
    assert Counter(play(seq).describe()["scored"]) == Counter([((4, 6), 6), ((1, 4), 1), ((2, 4), 2), ((4, 4), 4)])


def test_side_arms_closed_until_both_line_sides():
    g = play([((4, 4), 0), ((4, 6), 0)])
    # (2, 4) fits only the free line side B (arm 1), not a side arm yet
    assert g.placements_of((2, 4)) == [encode((2, 4), 1)]
    g = play([((4, 4), 0), ((4, 6), 0), ((1, 4), 1)])
    assert g.placements_of((2, 4)) == [encode((2, 4), 2), encode((2, 4), 3)]


def test_later_double_is_not_spinner():
    g = play([((4, 4), 0), ((4, 5), 0), ((5, 5), 0), ((0, 5), 0)])
    d = g.describe()
    assert d["spinner"] == (4, 4)
    # (5,5) interior scores nothing; (4,4) one line side free -> 8; (0,5) low end 0
    same(d, scored=[((4, 4), 8), ((0, 5), 0)], open_spots=[((4, 4), "line_b", 4), ((0, 5), "low", 0)])


# ---------------------------------------------------------------- flow and settlement
def test_domino_partners_round_separately():
    hands = [[(0, 0)], [(1, 2)], [(0, 2)], [(0, 3)]]
    g = S(4, hands, [], opener=0, scores=[50, 50], target=200)
    g.apply(encode((0, 0), 0))
    assert g.over and g.result == "domino" and g.out_player == 0 and g.winner is None
    assert g.deductions == [0, 5, 0, 5]
    assert g.scores == [50, 40]  # 3 and 3 pips: 5 + 5, not round5(6) = 5
    assert g.legal_actions() == []


def test_draw_until_playable_then_forced():
    hands = [[(6, 6), (1, 1)], [(0, 1), (1, 2)]]
    g = S(2, hands, [(0, 2), (5, 6), (1, 3)], opener=0, scores=[0, 0], target=250)
    g.apply(encode((6, 6), 0))
    assert g.current_player == 1 and g.legal_actions() == [DRAW]
    with pytest.raises(ValueError):
        g.apply(PASS)
    g.apply(DRAW)  # (0,2) does not fit
    assert g.current_player == 1 and g.legal_actions() == [DRAW]
    g.apply(DRAW)  # (5,6) fits both line sides of the opening Sniff
    assert g.legal_actions() == [encode((5, 6), 0), encode((5, 6), 1)]
    assert g.boneyard == [(1, 3)]
    g.apply(encode((5, 6), 1))
    assert g.current_player == 0 and g.describe()["total"] == 17


def test_pass_only_with_empty_boneyard():
    hands = [[(6, 6), (4, 6), (0, 0)], [(0, 1), (1, 2)]]
    g = S(2, hands, [], opener=0, scores=[0, 0], target=250)
    g.apply(encode((6, 6), 0))
    assert not g.over and g.legal_actions() == [PASS]
    with pytest.raises(ValueError):
        g.apply(DRAW)
    g.apply(PASS)
    assert g.current_player == 0 and not g.over
    assert g.legal_actions() == [encode((4, 6), 0), encode((4, 6), 1)]


def test_block_after_placement():
    hands = [[(6, 6), (1, 2)], [(0, 4)]]
    g = S(2, hands, [], opener=0, scores=[20, 20], target=250)
    g.apply(encode((6, 6), 0))
    assert g.over and g.result == "blocked" and g.out_player is None
    assert g.deductions == [5, 5] and g.scores == [15, 15] and g.last_credit == 0


def test_block_after_draw():
    hands = [[(6, 6), (1, 2)], [(0, 4)]]
    g = S(2, hands, [(0, 1)], opener=0, scores=[0, 0], target=250)
    g.apply(encode((6, 6), 0))
    assert not g.over and g.legal_actions() == [DRAW]
    g.apply(DRAW)
    assert g.over and g.result == "blocked" and g.deductions == [5, 5] and g.scores == [-5, -5]


def test_win_is_immediate():
    hands = [[(5, 5)], [(0, 4)]]
    g = S(2, hands, [], opener=0, scores=[240, 0], target=250)
    g.apply(encode((5, 5), 0))
    assert g.over and g.result == "won" and g.winner == 0 and g.scores == [250, 0]
    assert g.deductions == [0, 0] and g.out_player is None


def test_four_player_credit_to_partnership_then_block():
    hands = [[(6, 6), (1, 1)], [(0, 5), (2, 2)], [(5, 5), (3, 3)], [(1, 6), (4, 4)]]
    g = S(4, hands, [], opener=1, scores=[0, 0], target=200)
    with pytest.raises(ValueError):
        g.apply(encode((0, 5), 1))  # the opening uses arm 0
    g.apply(encode((0, 5), 0))  # 0 + 5 = 5 to side 1
    assert g.scores == [0, 5] and g.current_player == 2
    assert g.legal_actions() == [encode((5, 5), 1)]
    g.apply(encode((5, 5), 1))  # Sniff at an end: 0 + 10 = 10 to side 0 (seat 2)
    assert g.describe()["spinner"] == (5, 5)
    # nobody can place on 0 / 5 and the boneyard is empty: blocked at once (S21)
    assert g.over and g.result == "blocked"
    assert g.deductions == [15, 5, 5, 15]
    assert g.scores == [10 - 15 - 5, 5 - 5 - 15]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_playouts_consistent(n):
    rng = random.Random(n)
    deal = {2: 7, 3: 6, 4: 5}[n]
    for _ in range(300):
        tiles = list(TILES)
        rng.shuffle(tiles)
        hands = [tiles[i * deal : (i + 1) * deal] for i in range(n)]
        g = S(n, hands, tiles[n * deal :], rng.randrange(n), [0] * (2 if n == 4 else n), 10**6)
        while not g.over:
            g.apply(rng.choice(g.legal_actions()))
            d = g.describe()
            arms = [(t, s, t[0] if s != "high" else t[1]) for t, s in (spot for spot in g.arms if spot is not None)]
            assert Counter(arms) == Counter(d["open_spots"])
            assert sum(map(len, g.hands)) + len(g.boneyard) + len(d["tiles"]) == 28
            assert len(d["connections"]) == max(0, len(d["tiles"]) - 1)
        assert g.result in ("domino", "blocked")
        if g.result == "domino":
            assert g.hands[g.out_player] == []
        else:
            assert not g.boneyard and not any(g.can_place(s) for s in range(n))


# ---------------------------------------------------------------- S4a variants
def test_variant_options_are_checked():
    with pytest.raises(ValueError, match="settlement"):
        S(2, [[(1, 4)], [(6, 6)]], [], 0, [0, 0], BIG, settlement="allsixes")
    with pytest.raises(ValueError, match="undrawn"):
        S(2, [[(1, 4)], [(6, 6)]], [], 0, [0, 0], BIG, undrawn=3)


def test_deduct_settlement_records_non_zero_deductions():
    g = S(3, [[(2, 3)], [(0, 3)], [(0, 1)]], [], 0, [0, 0, 0], BIG)
    g.apply(encode((2, 3), 0))  # 2 + 3 = 5, domino; 3 -> 5 and 1 -> 0 (S23)
    assert g.result == "domino" and g.deductions == [0, 5, 0] and g.scores == [5, -5, 0]
    assert g.events == [("credit", 0, 5), ("deduct", 1, 5)]
    assert g.settled_side is None and g.settled_points == 0


def test_all_fives_domino_scores_opponents_rounded_pips():
    g = S(2, [[(1, 4)], [(6, 6)]], [], 0, [0, 0], BIG, settlement="allfives")
    g.apply(encode((1, 4), 0))  # credit 5; the opponent's 12 rounds to 10
    assert g.over and g.result == "domino" and g.winner is None
    assert g.scores == [15, 0] and g.deductions == [0, 0]
    assert (g.settled_side, g.settled_points) == (0, 10)
    assert g.events == [("credit", 0, 5), ("credit", 0, 10)]


def test_all_fives_rounds_each_opponent_separately():
    """3 players: 3 and 3 pips give 5 + 5 = 10, not round5(6) = 5 (S23)."""
    g = S(3, [[(2, 3)], [(0, 3)], [(1, 2)]], [], 0, [0, 0, 0], BIG, settlement="allfives")
    g.apply(encode((2, 3), 0))
    assert g.scores == [15, 0, 0] and g.settled_points == 10


def test_all_fives_partner_pips_count_for_nobody():
    hands = [[(2, 3)], [(0, 3)], [(6, 6), (5, 6)], [(1, 2)]]
    g = S(4, hands, [], 0, [0, 0], BIG, settlement="allfives")
    g.apply(encode((2, 3), 0))  # seats 1 and 3: 5 + 5; seat 2's 23 pips ignored
    assert g.scores == [15, 0] and (g.settled_side, g.settled_points) == (0, 10)


def test_all_fives_zero_settlement_credits_nothing():
    g = S(2, [[(1, 4)], [(0, 1)]], [], 0, [0, 0], BIG, settlement="allfives")
    g.apply(encode((1, 4), 0))  # the opponent's 1 pip rounds to 0
    assert g.scores == [5, 0] and g.events == [("credit", 0, 5)]
    assert (g.settled_side, g.settled_points) == (0, 0)


def test_all_fives_block_goes_to_the_lowest_hand():
    g = S(2, [[(0, 0), (4, 6)], [(1, 2)]], [], 0, [0, 0], BIG, settlement="allfives")
    g.apply(encode((0, 0), 0))  # nobody holds a 0: blocked; 10 pips against 3
    assert g.result == "blocked" and g.out_player is None
    assert g.scores == [0, 10] and g.events == [("credit", 1, 10)]


@pytest.mark.parametrize(
    ("hands", "scores"),
    [
        ([[(0, 0), (1, 3)], [(2, 2)], [(4, 6)]], [0, 0, 0]),  # seats 0 and 1 tie on 4: nobody
        ([[(0, 0), (1, 3)], [(2, 2)], [(1, 1)]], [0, 0, 10]),  # seat 2 alone lowest: 5 + 5
        ([[(0, 0), (1, 3)], [(2, 2)], [(5, 6)], [(1, 4)]], [0, 0]),  # seats 0 and 1 (two sides) tie
        ([[(0, 0), (1, 3)], [(1, 4)], [(2, 2)], [(2, 3)]], [10, 0]),  # partners 0 and 2 tie: 5 + 5
    ],
)
def test_all_fives_block_ties(hands, scores):
    n = len(hands)
    g = S(n, hands, [], 0, [0] * len(scores), BIG, settlement="allfives")
    g.apply(encode((0, 0), 0))
    assert g.result == "blocked" and g.scores == scores
    assert g.events == [("credit", side, p) for side, p in enumerate(scores) if p]


def test_all_fives_settlement_can_win():
    g = S(2, [[(1, 4)], [(6, 6)]], [], 0, [0, 0], 14, settlement="allfives")
    g.apply(encode((1, 4), 0))  # 5 < 14, then 5 + 10 = 15 >= 14 (S25)
    assert g.over and g.result == "domino" and g.winner == 0 and g.scores == [15, 0]
    g = S(2, [[(1, 4)], [(6, 6)]], [], 0, [0, 0], 5, settlement="allfives")
    g.apply(encode((1, 4), 0))  # the placement credit already wins: no settlement
    assert g.result == "won" and g.winner == 0 and g.scores == [5, 0] and g.settled_side is None


@pytest.mark.parametrize("undrawn", [1, 2])
@pytest.mark.parametrize("settlement", ["deduct", "allfives"])
def test_undrawn_tiles_block_the_hand(undrawn, settlement):
    """One drawable tile, then ``undrawn`` tiles that count as an empty boneyard (S4a)."""
    left = [(2, 3), (2, 4)][:undrawn]
    hands = [[(0, 0), (0, 5), (4, 4)], [(6, 6), (1, 2)]]
    g = S(2, hands, [(3, 4), *left], 0, [0, 0], BIG, settlement=settlement, undrawn=undrawn)
    g.apply(encode((0, 0), 0))
    assert g.current_player == 1 and g.legal_actions() == [DRAW]
    g.apply(DRAW)  # [3|4] does not fit the 0s; only undrawn tiles are left
    assert g.boneyard == left and not g.over and g.legal_actions() == [PASS]  # seat 0 can still play
    with pytest.raises(ValueError):
        g.apply(DRAW)
    g.apply(PASS)
    g.apply(encode((0, 5), 0))  # 0 + 5 = 5 for seat 0; nobody holds a 0 or a 5 any more
    assert g.over and g.result == "blocked" and g.boneyard == left
    # seat 0 keeps [4|4] = 8, seat 1 [6|6][1|2][3|4] = 22
    if settlement == "deduct":
        assert g.scores == [5 - 10, -20] and g.deductions == [10, 20]
    else:
        assert g.scores == [5 + 20, 0] and (g.settled_side, g.settled_points) == (0, 20)


def test_without_undrawn_every_tile_is_drawn():
    hands = [[(0, 0), (0, 5), (4, 4)], [(6, 6), (1, 2)]]
    g = S(2, hands, [(3, 4), (2, 3), (2, 4)], 0, [0, 0], BIG)
    g.apply(encode((0, 0), 0))
    for _ in range(3):
        assert g.legal_actions() == [DRAW]
        g.apply(DRAW)
    assert g.boneyard == [] and g.legal_actions() == [PASS]


# ---------------------------------------------------------------- the size dial (double-N set, hand size)
def test_tile_sets_keep_the_double_six_ids():
    """S2 with the size dial: the double-N set, in the tile order (and ids) of the double six."""
    assert [len(tile_set(p)) for p in (2, 3, 4, 5, 6)] == [6, 10, 15, 21, 28] and tile_set() == TILES
    assert tile_set(2) == [(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)]
    assert [TILES.index(t) for t in tile_set(2)] == [0, 1, 2, 7, 8, 13]
    for bad in (1, 7):
        with pytest.raises(ValueError):
            tile_set(bad)


def test_small_tables_are_one_hand():
    """S5's hand sizes, and which tables are small (a smaller set or another hand size)."""
    assert [hand_size_of(n) for n in (2, 3, 4)] == [7, 6, 5] and hand_size_of(3, 2) == 2
    assert not is_small_table(2) and not is_small_table(4, 6, 5)
    assert is_small_table(2, 5) and is_small_table(3, 6, 5) and is_small_table(4, 2, 1)
    assert episode_of(2) == "match" and episode_of(3, 6, 6) == "match" and episode_of(2, 3, 2) == "hand"
    assert episode_of(2, 3, 2, "match") == "match" and episode_of(2, 6, None, "hand") == "hand"


@pytest.mark.parametrize(("n", "set_pips", "size", "bone"), [(2, 2, 3, 0), (3, 3, 3, 1), (4, 4, 2, 7), (3, 5, 7, 0)])
def test_deal_of_a_small_table(n, set_pips, size, bone):
    """S5 on the double-N set: ``size`` tiles each, the rest of the set in the boneyard."""
    d = deal(n, random.Random(n * set_pips), set_pips, size)
    assert [len(h) for h in d["hands"]] == [size] * n and len(d["boneyard"]) == bone
    assert sorted([t for h in d["hands"] for t in h] + d["boneyard"]) == tile_set(set_pips)
    assert 0 <= d["opener"] < n
    with pytest.raises(ValueError):
        deal(n, random.Random(0), set_pips, len(tile_set(set_pips)) // n + 1)


def test_tiles_outside_the_set_are_refused():
    """S2: a double-N hand holds only tiles with both halves at most N."""
    S(2, [[(0, 3)], [(1, 1)]], [(3, 3)], 0, [0, 0], 100, pips=3)
    with pytest.raises(ValueError):
        S(2, [[(0, 3)], [(1, 1)]], [], 0, [0, 0], 100, pips=2)
    with pytest.raises(ValueError):
        S(2, [[(0, 1)], [(1, 1)]], [(2, 4)], 0, [0, 0], 100, pips=3)


def test_a_double_two_hand():
    """Every rule unchanged on the double-two set: the opening Sniff [2|2] counts 4 (S14), the side
    arms open once both line sides are continued (S13) and score one half each, credits (S17),
    the domino (S22) and the settlement of what is left (S23, S24: [1|1] = 2 rounds to 0)."""
    hands = [[(2, 2), (1, 2), (0, 1)], [(0, 2), (0, 0), (1, 1)]]
    g = S(2, hands, [], 0, [0, 0], BIG, pips=2)
    g.apply(encode((2, 2), 0))
    assert g.spinner == (2, 2) and g.describe()["total"] == 4 and g.scores == [0, 0]
    assert g.legal_actions() == [encode((0, 2), 0), encode((0, 2), 1)]
    g.apply(encode((0, 2), 0))  # one line side continued: 0 + 4
    assert g.describe()["total"] == 4 and g.arms[2] is None
    g.apply(encode((1, 2), 1))  # both: 0 + 1 + 2 + 2 = 5
    assert g.describe()["total"] == 5 and g.scores == [5, 0] and g.arms[2] == ((2, 2), "arm_a")
    g.apply(encode((0, 0), 0))  # end double [0|0] counts 0: 0 + 1 + 2 + 2 = 5
    assert g.scores == [5, 5]
    g.apply(encode((0, 1), 1))  # [0|1] on the 1: 0 + 0 + 2 + 2 = 4, seat 0 is out
    assert g.over and g.result == "domino" and g.out_player == 0
    assert g.hands[1] == [(1, 1)] and g.deductions == [0, 0] and g.scores == [5, 5]


def test_a_small_table_blocks_at_once():
    """S21 Decision on a double-two deal with no boneyard: after the opening [0|0] nobody holds a
    0, so the hand is blocked at once and both hands are deducted (S23: 4 -> 5, 5 -> 5)."""
    g = S(2, [[(0, 0), (2, 2)], [(1, 1), (1, 2)]], [], 0, [0, 0], BIG, pips=2)
    g.apply(encode((0, 0), 0))
    assert g.over and g.result == "blocked" and g.deductions == [5, 5] and g.scores == [-5, -5]
