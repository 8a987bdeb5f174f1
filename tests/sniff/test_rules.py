"""One or more scripted tests per rule S1–S27 of docs/rules.md Part S, through the public ``Game`` API.

Every expectation below is worked out by hand from the rule it cites (the docstrings show the
arithmetic), never copied from the engine's output. Deals are fixed with ``Game(deal=…)``;
tiles not dealt are out of play.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pytest

import sniff_env
from sniff_env import DRAW, NUM_ACTIONS, PASS, TILES, Game, decode_action, encode_action
from sniff_env.render import render_text, tally

BIG = 10_000  # a target nobody reaches in a scripted hand


def make(hands, boneyard=(), opener=0, seed=0, target=BIG, **options) -> Game:
    deal = {"hands": [list(h) for h in hands], "boneyard": list(boneyard), "opener": opener}
    return Game(num_players=len(hands), seed=seed, target=target, deal=deal, **options)


def play(game: Game, *moves) -> None:
    for tile, arm in moves:
        game.apply(encode_action(tile, arm))


def enc(*pairs) -> list[int]:
    return sorted(encode_action(tile, arm) for tile, arm in pairs)


def scored(game: Game) -> Counter:
    return Counter(game.describe()["scored"])


def spots(game: Game) -> Counter:
    return Counter(game.describe()["open_spots"])


# --------------------------------------------------------------------------- S1 players, sides
def test_s1_three_players_score_alone():
    """S1: with 3 players everyone plays alone: [0|0] opens (0), [0|5] makes 5+0 = 5 for seat 1 only."""
    g = make([[(0, 0), (6, 6)], [(0, 5), (1, 6)], [(2, 6), (3, 6)]], boneyard=[(1, 1)])
    assert g.scores == [0, 0, 0]
    play(g, ((0, 0), 0), ((0, 5), 0))
    assert g.scores == [0, 5, 0]


def test_s1_two_players_have_two_scores():
    """S1: with 2 players each seat has its own score."""
    assert Game(num_players=2, seed=1).scores == [0, 0]


def test_s1_four_players_partners_share_one_score():
    """S1: seats 0+2 and 1+3 share a score. [0|0] (0); seat 1 [0|5] → 5+0 = 5 for side 1;
    seat 2 [5|5] on it → 10+0 = 10 for side 0 (seat 0's partner)."""
    g = make(
        [[(0, 0), (6, 6)], [(0, 5), (1, 6)], [(5, 5), (2, 6)], [(3, 6), (4, 6)]],
        boneyard=[(1, 1)],
    )
    play(g, ((0, 0), 0), ((0, 5), 0), ((5, 5), 0))
    assert g.scores == [10, 5]


@pytest.mark.parametrize("n", [0, 1, 5])
def test_s1_player_count_outside_two_to_four_rejected(n):
    """S1: only 2, 3 or 4 players."""
    with pytest.raises(ValueError, match="num_players"):
        Game(num_players=n, seed=0)


# --------------------------------------------------------------------------- S2 tiles, actions
def test_s2_double_six_set_in_api_order():
    """S2 / docs/api.md: 28 tiles (a, b), 0 <= a <= b <= 6, enumerated (0,0), (0,1), … (0,6), (1,1), … (6,6)."""
    expected = []
    for a in range(7):
        for b in range(a, 7):
            expected.append((a, b))
    assert list(TILES) == expected
    assert len(TILES) == 28 and TILES[7] == (1, 1) and TILES[20] == (3, 5)


def test_action_encoding_round_trip():
    """docs/api.md: place = tile_index * 4 + arm (0–111), DRAW 112, PASS 113, Discrete(114)."""
    for index, tile in enumerate(TILES):
        for arm in range(4):
            action = encode_action(tile, arm)
            assert action == index * 4 + arm
            assert decode_action(action) == ("place", tile, arm)
    assert (DRAW, PASS, NUM_ACTIONS) == (112, 113, 114)
    assert decode_action(112) == ("draw", None, None)
    assert decode_action(113) == ("pass", None, None)
    assert encode_action((3, 5), 1) == 81  # (3,5) is tile 20: 7 + 6 + 5 tiles precede (3,3)


@pytest.mark.parametrize("bad", [(lambda: encode_action((1, 2), 4)), (lambda: decode_action(114))])
def test_action_encoding_rejects_out_of_range(bad):
    """docs/api.md: arms are 0–3 and ids 0–113."""
    with pytest.raises(ValueError):
        bad()


# --------------------------------------------------------------------------- S3 target
@pytest.mark.parametrize(("n", "target"), [(2, 250), (3, 200), (4, 200)])
def test_s3_default_targets(n, target):
    """S3: 250 with 2 players, 200 with 3, 200 with 4."""
    assert Game(num_players=n, seed=0).target == target


def test_s3_reaching_target_exactly_wins():
    """S3: reaching means score >= target: opening [1|4] scores 4+1 = 5 against target 5."""
    g = make([[(1, 4), (6, 6)], [(5, 5), (5, 6)]], boneyard=[(0, 0)], target=5)
    play(g, ((1, 4), 0))
    assert g.is_terminal() and g.winner == 0 and g.scores == [5, 0]


def test_s3_below_target_does_not_win():
    """S3: 5 points against target 6 is not a win."""
    g = make([[(1, 4), (6, 6)], [(5, 5), (5, 6)]], boneyard=[(0, 0)], target=6)
    play(g, ((1, 4), 0))
    assert not g.is_terminal() and g.winner is None and g.scores == [5, 0]


# --------------------------------------------------------------------------- S4 negative scores
def test_s4_scores_go_negative_without_floor():
    """S4/S24: [2|3] opens (2+3 = 5, credit 5) and goes out; seat 1 holds 12+10 = 22 → 20 deducted: -20."""
    g = make([[(2, 3)], [(6, 6), (5, 5)]])
    play(g, ((2, 3), 0))
    assert g.scores == [5, -20]


# --------------------------------------------------------------------------- S5 dealing
@pytest.mark.parametrize(("n", "size", "bone"), [(2, 7, 14), (3, 6, 10), (4, 5, 8)])
def test_s5_hand_and_boneyard_sizes(n, size, bone):
    """S5: 7/6/5 tiles each with 2/3/4 players; the rest (14/10/8) is the boneyard; all 28 distinct."""
    for seed in range(5):
        g = Game(num_players=n, seed=seed)
        hands = [g.hand(s) for s in range(n)]
        assert [len(h) for h in hands] == [size] * n
        assert g.boneyard_size == bone and len(g.boneyard) == bone
        everything = [t for h in hands for t in h] + g.boneyard
        assert sorted(everything) == sorted(TILES)


# --------------------------------------------------------------------------- S6 openers
@pytest.mark.parametrize("n", [2, 3, 4])
def test_s6_first_opener_by_uniform_lot(n):
    """S6: the first opener is chosen uniformly: over 600 seeds every seat opens roughly 1/n of the time."""
    counts = Counter(Game(num_players=n, seed=seed).current_player for seed in range(600))
    assert set(counts) == set(range(n))
    for seat in range(n):
        assert abs(counts[seat] - 600 / n) < 0.25 * 600 / n, counts


def test_s6_domino_maker_opens_next_hand():
    """S6/S22: seat 2 goes out with [2|3] ([0|1], [1|2], [2|3]), so seat 2 opens hand 2 — whatever the seed."""
    for seed in range(25):
        g = make([[(0, 1), (6, 6)], [(1, 2), (5, 5)], [(2, 3)]], boneyard=[(4, 4)], seed=seed)
        play(g, ((0, 1), 0), ((1, 2), 1), ((2, 3), 1))
        assert g.hands_played == 1
        assert g.current_player == 2 and g.opener == 2
        assert g.describe()["tiles"] == []


def test_s6_after_blocked_hand_opener_by_lot():
    """S6/S21: [0|0] opens and nobody holds a 0 with an empty boneyard: blocked; the next opener is
    drawn by lot again, so over 60 seeds every seat opens hand 2 sometimes."""
    openers = set()
    for seed in range(60):
        g = make([[(0, 0), (5, 6)], [(1, 2)], [(3, 4)]], seed=seed)
        play(g, ((0, 0), 0))
        assert g.hands_played == 1
        openers.add(g.current_player)
    assert openers == {0, 1, 2}


# --------------------------------------------------------------------------- S7 turn order
def test_s7_turns_pass_clockwise():
    """S7: seat i is followed by (i+1) mod n; opener 2 of 4 gives 2, 3, 0, 1, 2."""
    g = make(
        [[(3, 5), (6, 6)], [(3, 6), (5, 5)], [(3, 3), (0, 3), (1, 1)], [(3, 4), (2, 2)]],
        boneyard=[(0, 0)],
        opener=2,
    )
    seen = []
    for tile, arm in [((3, 3), 0), ((3, 4), 0), ((3, 5), 1), ((3, 6), 2), ((0, 3), 3)]:
        seen.append(g.current_player)
        play(g, (tile, arm))
    assert seen == [2, 3, 0, 1, 2]
    assert g.current_player == 3


# --------------------------------------------------------------------------- S8 opening
def test_s8_any_tile_of_the_hand_opens():
    """S8: every tile of the opener's hand may open, on arm 0."""
    hand = [(0, 1), (2, 5), (6, 6)]
    g = make([hand, [(3, 4)]], boneyard=[(0, 0)])
    assert g.legal_actions() == enc(*((t, 0) for t in hand))
    play(g, ((2, 5), 0))
    assert g.describe()["tiles"] == [(2, 5)]
    assert spots(g) == Counter({((2, 5), "low", 2): 1, ((2, 5), "high", 5): 1})


# --------------------------------------------------------------------------- S9 matching
def test_s9_only_matching_halves_attach():
    """S9: after [2|5] (spots 2 west, 5 east) a hand [5|6], [1|2], [3|4] may play [5|6] east or [1|2] west."""
    g = make([[(2, 5), (6, 6)], [(5, 6), (1, 2), (3, 4)]], boneyard=[(0, 0)])
    play(g, ((2, 5), 0))
    assert g.legal_actions() == enc(((5, 6), 1), ((1, 2), 0))
    play(g, ((1, 2), 0))
    d = g.describe()
    assert d["connections"] == [(((2, 5), "low"), ((1, 2), "high"))]
    assert spots(g) == Counter({((1, 2), "low", 1): 1, ((2, 5), "high", 5): 1})


def test_s9_non_matching_placement_is_illegal():
    """S9: [3|4] has no half matching 2 or 5."""
    g = make([[(2, 5), (6, 6)], [(5, 6), (3, 4)]], boneyard=[(0, 0)])
    play(g, ((2, 5), 0))
    with pytest.raises(ValueError):
        g.apply(encode_action((3, 4), 0))


# --------------------------------------------------------------------------- S10/S11 doubles
def _later_double_game() -> Game:
    return make([[(1, 1), (3, 3), (6, 6)], [(1, 3), (3, 5), (0, 6)]], boneyard=[(0, 2)])


def test_s10_end_double_counts_both_halves():
    """S10: [1|1] (Sniff), [1|3] on it, [3|3] on [1|3]: the end double [3|3] counts 6, the Sniff's
    free line side is still an end double (2): 6 + 2 = 8."""
    g = _later_double_game()
    play(g, ((1, 1), 0), ((1, 3), 0), ((3, 3), 0))
    assert scored(g) == Counter({((3, 3), 6): 1, ((1, 1), 2): 1})
    assert g.describe()["total"] == 8


def test_s10_interior_double_counts_nothing():
    """S10: after [3|5] is attached beyond [3|3], [3|3] is interior: 5 + 2 = 7, no [3|3] entry."""
    g = _later_double_game()
    play(g, ((1, 1), 0), ((1, 3), 0), ((3, 3), 0), ((3, 5), 0))
    assert scored(g) == Counter({((3, 5), 5): 1, ((1, 1), 2): 1})
    assert all(tile != (3, 3) for tile, _ in g.describe()["scored"])
    assert g.scores == [0, 5]  # only [1|3]'s 3 + 2 = 5 was a multiple of 5


def test_s11_later_double_has_one_onward_spot_and_no_side_arms():
    """S11: [3|3] (not the Sniff) offers only its far line side, even once the Sniff's arms open."""
    g = make([[(1, 1), (3, 3), (3, 6), (1, 6)], [(1, 3), (1, 4), (0, 0)]], boneyard=[(0, 2)])
    play(g, ((1, 1), 0), ((1, 3), 0), ((3, 3), 0))
    assert spots(g) == Counter({((3, 3), "line_b", 3): 1, ((1, 1), "line_b", 1): 1})
    play(g, ((1, 4), 1))  # both Sniff line sides taken: its side arms (pip 1) open
    assert spots(g) == Counter(
        {((3, 3), "line_b", 3): 1, ((1, 4), "high", 4): 1, ((1, 1), "arm_a", 1): 1, ((1, 1), "arm_b", 1): 1}
    )
    assert g.legal_actions() == enc(((3, 6), 0), ((1, 6), 2), ((1, 6), 3))
    assert g.describe()["total"] == 6 + 4 + 1 + 1


# --------------------------------------------------------------------------- S12 the Sniff
def test_s12_opening_double_is_the_sniff():
    """S12: a double that opens the hand is the Sniff."""
    g = make([[(5, 5), (6, 6)], [(0, 5)]], boneyard=[(0, 0)])
    assert g.describe()["spinner"] is None
    play(g, ((5, 5), 0))
    assert g.describe()["spinner"] == (5, 5)


def test_s12_first_later_double_is_the_only_sniff():
    """S12: [1|4] opens (no spinner); [4|4] is the first double, the Sniff; [1|1] after it is not."""
    g = make([[(1, 4), (1, 1), (6, 6)], [(4, 4), (0, 6)]], boneyard=[(0, 0)])
    play(g, ((1, 4), 0))
    assert g.describe()["spinner"] is None
    play(g, ((4, 4), 1))
    assert g.describe()["spinner"] == (4, 4)
    play(g, ((1, 1), 0))
    assert g.describe()["spinner"] == (4, 4)
    assert spots(g) == Counter({((1, 1), "line_b", 1): 1, ((4, 4), "line_b", 4): 1})


# --------------------------------------------------------------------------- S13 side arms
def test_s13_no_side_arm_before_both_line_sides_of_opening_sniff():
    """S13: [4|4] opens, [4|6] west: [2|4]/[1|4] may only go east (B), not on the side arms."""
    g = make([[(4, 4), (2, 4), (1, 4)], [(4, 6), (0, 4), (5, 5)]], boneyard=[(0, 0)])
    play(g, ((4, 4), 0), ((4, 6), 0))
    assert g.legal_actions() == enc(((2, 4), 1), ((1, 4), 1))
    play(g, ((1, 4), 1))
    assert g.legal_actions() == enc(((0, 4), 2), ((0, 4), 3))


def test_s13_later_sniff_opens_side_arms_after_its_line_side_b():
    """S13: [1|4], [4|4] east (A toward [1|4]): 4s go only on B; after [4|5] on B the arms (pip 4) open."""
    g = make([[(1, 4), (4, 5), (6, 6)], [(4, 4), (4, 6), (0, 0)]], boneyard=[(2, 2)])
    play(g, ((1, 4), 0), ((4, 4), 1))
    assert g.legal_actions() == enc(((4, 5), 1))
    play(g, ((4, 5), 1))
    assert g.legal_actions() == enc(((4, 6), 2), ((4, 6), 3))
    assert spots(g)[((4, 4), "arm_a", 4)] == 1 and spots(g)[((4, 4), "arm_b", 4)] == 1


# --------------------------------------------------------------------------- S14 Sniff scoring
SNIFF_33 = [((3, 3), 0), ((3, 5), 0), ((1, 3), 1), ((3, 6), 2), ((0, 3), 3)]


def _sniff_33(moves: int) -> Game:
    g = make([[(3, 3), (1, 3), (0, 3), (6, 6)], [(3, 5), (3, 6), (0, 0)]], boneyard=[(1, 1)])
    play(g, *SNIFF_33[:moves])
    return g


def test_s14_opening_sniff_alone_counts_both_halves_once():
    """S14: [3|3] alone is one end double: 6, not 12."""
    g = _sniff_33(1)
    assert scored(g) == Counter({((3, 3), 6): 1}) and g.describe()["total"] == 6


def test_s14_one_line_side_continued_still_end_double():
    """S14: with [3|5] on one line side the Sniff counts 2v = 6: 5 + 6 = 11."""
    g = _sniff_33(2)
    assert scored(g) == Counter({((3, 5), 5): 1, ((3, 3), 6): 1}) and g.describe()["total"] == 11


def test_s14_both_line_sides_continued_each_uncovered_arm_counts_half():
    """S14: with [1|3] on the other line side: 5 + 1 + 3 + 3 = 12."""
    g = _sniff_33(3)
    assert scored(g) == Counter({((3, 5), 5): 1, ((1, 3), 1): 1, ((3, 3), 3): 2})
    assert g.describe()["total"] == 12


def test_s14_covering_one_side_arm_removes_only_its_half():
    """S14: [3|6] on arm A: 5 + 1 + 6 + 3 = 15, credited 15."""
    g = _sniff_33(4)
    assert scored(g) == Counter({((3, 5), 5): 1, ((1, 3), 1): 1, ((3, 6), 6): 1, ((3, 3), 3): 1})
    assert g.describe()["total"] == 15 and g.describe()["credit"] == 15
    assert g.scores == [0, 15]


def test_s14_both_side_arms_covered_sniff_counts_nothing():
    """S14: [0|3] on arm B too: the four arm ends 5 + 1 + 6 + 0 = 12, nothing from [3|3]."""
    g = _sniff_33(5)
    assert scored(g) == Counter({((3, 5), 5): 1, ((1, 3), 1): 1, ((3, 6), 6): 1, ((0, 3), 0): 1})
    assert g.describe()["total"] == 12
    assert all(tile != (3, 3) for tile, _ in g.describe()["scored"])


# --------------------------------------------------------------------------- S16 worked example
def test_s16_example_with_line_sides_in_the_other_order():
    """S16 (mirrored; the original order is in test_worked_examples.py): [4|4] alone 8; [4|6] on line
    side B: 6 + 8 = 14; [1|4] on line side A opens the arms: 6 + 1 + 4 + 4 = 15, credit 15;
    [2|4] on side arm B: 6 + 1 + 2 + 4 = 13."""
    g = make([[(4, 4), (1, 4), (0, 0)], [(4, 6), (2, 4), (0, 1)]], boneyard=[(0, 2)])
    totals = []
    for move in [((4, 4), 0), ((4, 6), 1), ((1, 4), 0), ((2, 4), 3)]:
        play(g, move)
        totals.append((g.describe()["total"], g.describe()["credit"]))
    assert totals == [(8, 0), (14, 0), (15, 15), (13, 0)]
    assert scored(g) == Counter({((4, 6), 6): 1, ((1, 4), 1): 1, ((2, 4), 2): 1, ((4, 4), 4): 1})
    assert g.scores == [15, 0]


# --------------------------------------------------------------------------- S15 spots vs ends
def test_s15_opening_double_two_spots_one_scored_end():
    """S15: an opening double has two free spots but one scored contribution ([5|5]: 10)."""
    g = make([[(5, 5), (6, 6)], [(0, 1)]], boneyard=[(0, 0)])
    play(g, ((5, 5), 0))
    assert spots(g) == Counter({((5, 5), "line_a", 5): 1, ((5, 5), "line_b", 5): 1})
    assert scored(g) == Counter({((5, 5), 10): 1})


def test_s15_end_double_one_spot_contributes_2v():
    """S15: [3|6] then [6|6]: [6|6] has one spot (B, 6) and contributes 12."""
    g = make([[(3, 6), (0, 0)], [(6, 6), (0, 1)]], boneyard=[(1, 1)])
    play(g, ((3, 6), 0), ((6, 6), 1))
    assert [s for s in g.describe()["open_spots"] if s[0] == (6, 6)] == [((6, 6), "line_b", 6)]
    assert [s for s in g.describe()["scored"] if s[0] == (6, 6)] == [((6, 6), 12)]


# --------------------------------------------------------------------------- S17 credits
def test_s17_opening_is_credited():
    """S17: the opening is scored: [2|3] makes 2 + 3 = 5."""
    g = make([[(2, 3), (6, 6)], [(0, 1)]], boneyard=[(0, 0)])
    play(g, ((2, 3), 0))
    assert g.scores == [5, 0] and g.last_credit == 5 and g.events == [("credit", 0, 5)]


@pytest.mark.parametrize(("tile", "total"), [((0, 0), 0), ((1, 1), 2), ((2, 4), 6), ((3, 4), 7)])
def test_s17_non_multiple_of_five_or_zero_credits_nothing(tile, total):
    """S17: a sum that is zero or not a multiple of 5 credits nothing."""
    g = make([[tile, (6, 6)], [(5, 6)]], boneyard=[(1, 5)])
    play(g, (tile, 0))
    assert g.describe()["total"] == total
    assert g.describe()["credit"] == 0 and g.last_credit == 0 and g.scores == [0, 0] and g.events == []


def test_s17_multiple_of_five_credits_exactly_that():
    """S17: [5|5] opens (10, credit 10); [0|5] on A → 0 + 10 (B end double) = 10 again."""
    g = make([[(5, 5), (6, 6)], [(0, 5), (1, 6)]], boneyard=[(1, 1)])
    play(g, ((5, 5), 0))
    assert g.scores == [10, 0]
    play(g, ((0, 5), 0))
    assert g.describe()["total"] == 10 and g.scores == [10, 10]


def test_s17_last_tile_of_a_hand_is_credited():
    """S17/S22/S24: [1|4] (4 + 1 = 5) is seat 0's last tile: +5; seat 1's [6|6] = 12 → 10 deducted."""
    g = make([[(1, 4)], [(6, 6)]])
    play(g, ((1, 4), 0))
    assert g.hands_played == 1
    assert g.scores == [5, -10]


def test_s17_last_tile_credit_is_recorded():
    """S17: the last tile's credit of 5 is a scoring event like any other (events, last_credit)."""
    g = make([[(1, 4)], [(6, 6)]])
    play(g, ((1, 4), 0))
    assert ("credit", 0, 5) in g.events
    assert g.last_credit == 5


# --------------------------------------------------------------------------- S18–S21 draw, pass, block
def test_s18_must_play_when_a_placement_exists():
    """S18: holding [5|6] after [2|5] with a non-empty boneyard, DRAW is not allowed."""
    g = make([[(2, 5), (6, 6)], [(5, 6), (0, 0)]], boneyard=[(1, 1)])
    play(g, ((2, 5), 0))
    assert g.legal_actions() == enc(((5, 6), 1))
    assert not g.legal_mask()[DRAW]
    with pytest.raises(ValueError):
        g.apply(DRAW)


def test_s19_draws_one_tile_at_a_time():
    """S19: no placement → only DRAW; each DRAW takes the front tile, the same seat keeps drawing."""
    g = make([[(2, 5), (6, 6)], [(0, 0)]], boneyard=[(1, 1), (3, 3), (5, 6)])
    play(g, ((2, 5), 0))
    for expected_rest in ([(3, 3), (5, 6)], [(5, 6)]):
        assert g.legal_actions() == [DRAW]
        g.apply(DRAW)
        assert g.boneyard == expected_rest and g.current_player == 1
    assert g.hand(1) == [(0, 0), (1, 1), (3, 3)]
    g.apply(DRAW)
    assert g.boneyard == [] and (5, 6) in g.hand(1)
    assert g.legal_actions() == enc(((5, 6), 1))


def test_s20_drawn_playable_tile_is_the_one_played():
    """S20: after [3|3] (3 on both line sides) seat 1 draws [1|2] (no fit), then [3|5]: only [3|5]'s
    two spots are legal, not another draw although [4|4] is left."""
    g = make([[(3, 3), (6, 6)], [(6, 5), (0, 1)]], boneyard=[(1, 2), (3, 5), (4, 4)])
    play(g, ((3, 3), 0))
    g.apply(DRAW)
    assert g.legal_actions() == [DRAW]
    g.apply(DRAW)
    assert g.legal_actions() == enc(((3, 5), 0), ((3, 5), 1))
    assert g.boneyard_size == 1


def test_s21_pass_only_with_empty_boneyard():
    """S21: 3 players, [0|0] opens, seat 1 has no 0 and the boneyard is empty: PASS only; seat 2 then plays."""
    g = make([[(0, 0), (6, 6)], [(1, 2), (3, 4)], [(0, 5), (1, 1)]])
    play(g, ((0, 0), 0))
    assert g.hands_played == 0  # not blocked: seat 2 can place
    assert g.legal_actions() == [PASS]
    g.apply(PASS)
    assert g.current_player == 2
    assert g.legal_actions() == enc(((0, 5), 0), ((0, 5), 1))


def test_s21_pass_not_allowed_with_boneyard():
    """S19/S21: with tiles in the boneyard the only move is DRAW, never PASS."""
    g = make([[(0, 0), (6, 6)], [(1, 2)]], boneyard=[(3, 4)])
    play(g, ((0, 0), 0))
    assert g.legal_actions() == [DRAW]
    with pytest.raises(ValueError):
        g.apply(PASS)


def test_s21_block_declared_at_once_after_placement():
    """S21 Decision: [0|0] opens, nobody holds a 0, boneyard empty: blocked immediately.
    S23/S24: seat 0 keeps [5|6] = 11 → 10, seat 1 [1|2]+[3|4] = 10 → 10."""
    g = make([[(0, 0), (5, 6)], [(1, 2), (3, 4)]])
    play(g, ((0, 0), 0))
    assert g.hands_played == 1
    assert g.scores == [-10, -10]
    assert Counter(g.events) == Counter({("deduct", 0, 10): 1, ("deduct", 1, 10): 1})
    assert g.winner is None


def test_s21_block_declared_when_last_draw_fits_nowhere():
    """S21: seat 1 draws the last boneyard tile [3|4], which fits nowhere: blocked without any PASS."""
    g = make([[(0, 0), (5, 6)], [(1, 2)]], boneyard=[(3, 4)])
    play(g, ((0, 0), 0))
    assert g.hands_played == 0
    g.apply(DRAW)
    assert g.hands_played == 1
    assert g.scores == [-10, -10]  # 11 → 10 and 3 + 7 = 10 → 10


# --------------------------------------------------------------------------- S22 domino
def test_s22_domino_ends_the_hand_and_deals_the_next():
    """S22: placing the last tile ends the hand; the next hand is dealt at once (S5: 7 each, 14 left)."""
    g = make([[(2, 3)], [(6, 6), (5, 5)]])
    play(g, ((2, 3), 0))
    assert g.hands_played == 1 and not g.is_terminal()
    assert [len(g.hand(s)) for s in range(2)] == [7, 7] and g.boneyard_size == 14
    assert g.describe()["tiles"] == []


def test_s22_s23_the_hand_as_it_ended_is_kept_apart_from_the_next_deal():
    """S22–S24 (the browser's end-of-hand screen): [0|1] opens, seat 1 plays [0|5] on the 0 end,
    [1|2] is seat 0's last tile. The copy stops at the settlement: the layout [5|0][0|1][1|2],
    seat 1 still holding [6|6][3|4] (12 + 7 = 19 → 20 deducted), the boneyard [0|0][4|4] as it
    was; the game itself has dealt hand 2 (S5). A move that ends nothing gives ``None``."""
    g = make([[(0, 1), (1, 2)], [(6, 6), (3, 4), (0, 5)]], boneyard=[(0, 0), (4, 4)])
    placing = lambda tile: next(a for a in g.legal_actions() if decode_action(a)[1] == tile)  # noqa: E731
    assert g.hand_as_ended(placing((0, 1))) is None
    play(g, ((0, 1), 0))
    g.apply(placing((0, 5)))
    last = placing((1, 2))
    ended = g.hand_as_ended(last)
    assert g.hands_played == 0 and g.hand(0) == [(1, 2)]  # asking changes nothing
    g.apply(last)
    assert ended.hands_played == 1 and ended.is_terminal() and not g.is_terminal()
    assert sorted(ended.describe()["tiles"]) == [(0, 1), (0, 5), (1, 2)]
    assert ended.hand(0) == [] and ended.hand(1) == [(3, 4), (6, 6)] and ended.boneyard == [(0, 0), (4, 4)]
    assert ended.scores == g.scores == [0, -20]
    assert [len(g.hand(s)) for s in range(2)] == [7, 7] and g.describe()["tiles"] == []
    with pytest.raises(ValueError, match="illegal"):
        g.hand_as_ended(PASS)


# --------------------------------------------------------------------------- S23/S24 settlement
@pytest.mark.parametrize(
    ("hand", "deducted"),
    [
        ([(0, 1)], 0),  # 1 → 0
        ([(0, 2)], 0),  # 2 → 0
        ([(0, 3)], 5),  # 3 → 5
        ([(0, 4)], 5),  # 4 → 5
        ([(2, 6)], 10),  # 8 → 10
        ([(6, 6)], 10),  # 12 → 10
        ([(6, 6), (0, 1)], 15),  # 13 → 15
        ([(6, 6), (0, 5)], 15),  # 17 → 15
        ([(6, 6), (0, 6)], 20),  # 18 → 20
    ],
)
def test_s23_each_hand_rounded_to_nearest_five(hand, deducted):
    """S23: remainders 1, 2 round down, 3, 4 round up. [0|0] opens (0 points) and goes out."""
    g = make([[(0, 0)], hand])
    play(g, ((0, 0), 0))
    assert g.scores == [0, -deducted]
    assert [e for e in g.events if e[0] == "deduct"] == ([("deduct", 1, deducted)] if deducted else [])


def test_s23_three_players_each_hand_on_its_own():
    """S23/S24: seats 1 and 2 hold 3 pips each: 5 and 5 deducted separately."""
    g = make([[(0, 0)], [(1, 2)], [(0, 3)]])
    play(g, ((0, 0), 0))
    assert g.scores == [0, -5, -5]


def test_s24_partners_rounded_separately_not_pooled():
    """S24: partners 1 and 3 hold 3 pips each: 5 + 5 = 10 off side 1 (pooling 6 → 5 would be wrong);
    seat 2's 2 pips round to 0; the side that went out gains nothing."""
    g = make([[(0, 0)], [(1, 2)], [(0, 2)], [(0, 3)]])
    play(g, ((0, 0), 0))
    assert g.scores == [0, -10]
    assert Counter(e for e in g.events if e[0] == "deduct") == Counter({("deduct", 1, 5): 1, ("deduct", 3, 5): 1})


def test_s24_nobody_receives_opponents_pips():
    """S24: the player who went out scores only placement credits ([0|1]: 1, nothing), not 20."""
    g = make([[(0, 1)], [(6, 6), (4, 4)]])
    play(g, ((0, 1), 0))
    assert g.scores == [0, -20]


# --------------------------------------------------------------------------- S25 winning
def test_s25_win_mid_hand_ends_match_without_settlement():
    """S25: [1|4] (5) reaches target 5: the match ends at once; seat 1's 22 pips are not deducted."""
    g = make([[(1, 4), (6, 6)], [(5, 5), (5, 6)]], boneyard=[(0, 0)], target=5)
    play(g, ((1, 4), 0))
    assert g.is_terminal() and g.winner == 0 and not g.is_truncated()
    assert g.scores == [5, 0] and g.hands_played == 0
    assert g.legal_actions() == [] and not g.legal_mask().any()
    with pytest.raises(ValueError, match="over"):
        g.apply(DRAW)


def test_s25_win_with_last_tile_is_not_settled():
    """S25: the domino tile [1|4] reaches target 5; the hand is not settled (seat 1 keeps 0)."""
    g = make([[(1, 4)], [(6, 6)]], target=5)
    play(g, ((1, 4), 0))
    assert g.is_terminal() and g.winner == 0 and g.scores == [5, 0] and g.hands_played == 0
    assert not any(e[0] == "deduct" for e in g.events)


def test_s25_partnership_wins_by_partners_credit():
    """S1/S25: seat 2's [5|5] (10 + 0) takes side 0 to target 10."""
    g = make(
        [[(0, 0), (6, 6)], [(0, 5), (1, 6)], [(5, 5), (2, 6)], [(3, 6), (4, 6)]],
        boneyard=[(1, 1)],
        target=10,
    )
    play(g, ((0, 0), 0), ((0, 5), 0), ((5, 5), 0))
    assert g.is_terminal() and g.winner == 0 and g.scores == [10, 5]


# --------------------------------------------------------------------------- S26 truncation
def test_s26_truncated_after_max_hands():
    """S26: max_hands=1: the match stops, truncated, after the first hand is settled."""
    g = make([[(2, 3)], [(6, 6)]], max_hands=1)
    play(g, ((2, 3), 0))
    assert g.is_terminal() and g.is_truncated() and g.winner is None
    assert g.hands_played == 1 and g.legal_actions() == []


def test_s26_truncated_after_max_steps():
    """S26: max_steps=2: after two actions the match is truncated mid-hand."""
    g = make([[(2, 5), (6, 6)], [(0, 0)]], boneyard=[(1, 1), (3, 3)], max_steps=2)
    play(g, ((2, 5), 0))
    assert not g.is_terminal()
    g.apply(DRAW)
    assert g.is_terminal() and g.is_truncated() and g.winner is None and g.hands_played == 0


def test_s26_random_match_truncated_by_hand_limit():
    """S26: with an unreachable target a match always ends, truncated after max_hands hands."""
    import random

    rng = random.Random(5)
    for seed in range(4):
        g = Game(num_players=2 + seed % 3, seed=seed, target=BIG, max_hands=3)
        steps = 0
        while not g.is_terminal():
            g.apply(rng.choice(g.legal_actions()))
            steps += 1
            assert steps < 10_000
        assert g.is_truncated() and g.hands_played == 3 and g.winner is None


# --------------------------------------------------------------------------- S27 tally
@pytest.mark.parametrize(
    ("points", "text"),
    [(0, ""), (5, "/"), (20, "////"), (45, "/////////"), (50, "X"), (65, "X///"), (120, "XX////"), (-15, "-///")],
)
def test_s27_tally(points, text):
    """S27: one stroke per 5 points, one X per 50 (negative scores get a minus)."""
    assert tally(points) == text


def test_s27_tally_is_display_only():
    """S27: the tally renderer changes no rule: rendering leaves the state as it was."""
    g = make([[(2, 3), (6, 6)], [(0, 1)]], boneyard=[(0, 0)])
    play(g, ((2, 3), 0))
    before = np.array(g.state_array)
    text = render_text(g, show_tally=True)
    assert "/" in text  # seat 0's 5 points as one stroke
    assert np.array_equal(before, g.state_array) and g.scores == [5, 0]


# --------------------------------------------------------------------------- illegal actions
def _midgame(seed=3) -> Game:
    g = Game(num_players=3, seed=seed)
    for _ in range(4):
        g.apply(g.legal_actions()[0])
    return g


@pytest.mark.parametrize("kind", ["not_in_mask", "draw", "pass", "negative", "too_big"])
def test_illegal_action_raises_naming_legal_moves_and_changes_nothing(kind):
    """docs/api.md: an illegal action raises ValueError naming the legal actions; the state is unchanged."""
    g = _midgame()
    legal = g.legal_actions()
    action = {
        "not_in_mask": next(a for a in range(DRAW) if a not in legal),
        "draw": DRAW,
        "pass": PASS,
        "negative": -1,
        "too_big": NUM_ACTIONS,
    }[kind]
    if action in legal:
        pytest.fail(f"scripted position unexpectedly allows {action}")
    state, history, events = np.array(g.state_array), list(g.history), list(g.events)
    with pytest.raises(ValueError) as info:
        g.apply(action)
    for a in legal:
        assert str(a) in str(info.value)
    assert np.array_equal(g.state_array, state) and g.history == history and g.events == events


@pytest.mark.parametrize("action", ["12", 3.0, None])
def test_non_integer_action_rejected(action):
    """docs/api.md: actions are integer ids."""
    g = _midgame()
    state = np.array(g.state_array)
    with pytest.raises(ValueError):
        g.apply(action)
    assert np.array_equal(g.state_array, state)


def test_numpy_integer_action_accepted():
    """docs/api.md: an action id may be any integer type (environments pass numpy integers)."""
    g = make([[(2, 3), (6, 6)], [(0, 1)]], boneyard=[(0, 0)])
    g.apply(np.int64(encode_action((2, 3), 0)))
    assert g.describe()["tiles"] == [(2, 3)]


# --------------------------------------------------------------------------- invalid deals / options
@pytest.mark.parametrize(
    ("deal", "message"),
    [
        ({"hands": [[(0, 1)], [(1, 0)]], "boneyard": [], "opener": 0}, "twice"),
        ({"hands": [[(0, 1)], [(2, 3)]], "boneyard": [(3, 2)], "opener": 0}, "twice"),
        ({"hands": [[(0, 1)], [(2, 3)], [(4, 4)]], "boneyard": [], "opener": 0}, "hands"),
        ({"hands": [[(0, 1)]], "boneyard": [], "opener": 0}, "hands"),
        ({"hands": [[(0, 7)], [(2, 3)]], "boneyard": [], "opener": 0}, "between 0 and 6"),
        ({"hands": [[(0, 1)], [(2, 3)]], "boneyard": [(-1, 2)], "opener": 0}, "between 0 and 6"),
        ({"hands": [[(0, 1, 2)], [(2, 3)]], "boneyard": [], "opener": 0}, "pair"),
        ({"hands": [[], [(2, 3)]], "boneyard": [], "opener": 0}, "empty"),
        ({"hands": [[(0, 1)], [(2, 3)]], "boneyard": [], "opener": 2}, "opener"),
        ({"hands": [[(0, 1)], [(2, 3)]], "boneyard": [], "opener": -1}, "opener"),
        ({"hands": [[(0, 1)], [(2, 3)]], "boneyard": [], "opener": "0"}, "opener"),
        ({"hands": [[(0, 1)], [(2, 3)]], "dealer": 0}, "deal"),
        ([[(0, 1)], [(2, 3)]], "deal"),
    ],
)
def test_invalid_deal_rejected_with_reason(deal, message):
    """docs/api.md/S2/S5: a deal with a duplicate tile, wrong hand count, bad pip, empty hand or bad opener
    is refused with a ValueError saying what is wrong."""
    with pytest.raises(ValueError, match=re.escape(message)):
        Game(num_players=2, seed=0, deal=deal)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"num_players": "4"}, "num_players"),
        ({"target": 0}, "target"),
        ({"target": -5}, "target"),
        ({"max_hands": 0}, "max_hands"),
        ({"max_steps": 0}, "max_steps"),
    ],
)
def test_invalid_game_options_rejected(options, message):
    """S1/S3/S26: bad options raise a ValueError naming the option."""
    with pytest.raises(ValueError, match=message):
        Game(seed=0, **options)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"num_players": 5}, "num_players"),
        ({"episode": "game"}, "episode"),
        ({"reward": "score"}, "reward"),
        ({"forced": "never"}, "forced"),
        ({"render_mode": "opengl"}, "render_mode"),
        ({"episode": "hand", "reward": "win"}, "win"),
        ({"target": 0}, "target"),
    ],
)
def test_invalid_env_options_rejected(options, message):
    """docs/api.md: the env's options are checked with a helpful ValueError."""
    with pytest.raises(ValueError, match=message):
        sniff_env.raw_env(**options)


def test_redeal_replaces_a_hand_that_has_not_begun():
    """API: ``redeal`` sets the next hand's deal (S5, S6) before its opening; refused afterwards."""
    g = Game(2, seed=0)
    deal = {"hands": [[(0, 0), (1, 1)], [(2, 2), (3, 3)]], "boneyard": [(4, 4)], "opener": 1}
    g.redeal(deal)
    assert (g.hand(0), g.hand(1), g.boneyard, g.current_player) == ([(0, 0), (1, 1)], [(2, 2), (3, 3)], [(4, 4)], 1)
    before = g.state_array.tobytes()
    with pytest.raises(ValueError, match="dealt twice"):
        g.redeal({"hands": [[(0, 0)], [(0, 0)]]})
    assert g.state_array.tobytes() == before
    g.apply(g.legal_actions()[0])
    with pytest.raises(ValueError, match="has not begun"):
        g.redeal(deal)
