"""Golden ANSI renderings of scripted positions, written out by hand from the renderers' rules
(sniff_env.render: the main line left to right, crosswise doubles upright over three rows;
twelve_env.render: pile, stock, one line per seat, the hand to act)."""

from __future__ import annotations

import sniff_env
import twelve_env
from sniff_env import encode_action

SNIFF_AFTER_TWO = """\
4
─[4|6]
4

free spots: west 4, east 6   Sniff [4|4]
ends: 8 + 6 = 14   last credit: 0
scores (seats) 0: 0  1: 0   target 250
hand sizes 0: 1, 1: 1   boneyard 1   hand #1
seat 0 to act, holding [1|4]
legal: 40: [1|4] west"""

TWELVE_START = """\
face-up pile: 1 card(s), top Q (value 11)
stock: 2
> seat 0: 2 in hand, 0 captured, score -2
  seat 1: 1 in hand, 0 captured, score -1
seat 0 holds A 10; legal: 0: A, 9: 10"""

TWELVE_AFTER_CAPTURE = """\
face-up pile: 1 card(s), top 4 (value 4)
stock: 1
  seat 0: 1 in hand, 2 captured, score 1
> seat 1: 1 in hand, 0 captured, score -1
seat 1 holds 6; legal: 5: 6"""


def test_sniff_opening_double_and_one_tile():
    """[4|4] opens (the Sniff, S12; an end double, 8), [4|6] goes east: 8 + 6 = 14, no credit."""
    deal = {"hands": [[(4, 4), (1, 4)], [(4, 6), (0, 0)]], "boneyard": [(2, 3)], "opener": 0}
    env = sniff_env.env(num_players=2, render_mode="ansi")
    env.reset(seed=0, options={"deal": deal})
    env.step(encode_action((4, 4), 0))
    env.step(encode_action((4, 6), 1))
    assert env.render() == SNIFF_AFTER_TWO


def test_twelve_start_and_capture():
    """A on Q is 12 (T8): seat 0 takes both cards and the 4 is turned up (T10)."""
    deal = {"hands": [[0, 9], [5]], "stock": [3, 4], "face_up": 11, "first_player": 0}
    env = twelve_env.env(num_players=2, render_mode="ansi")
    env.reset(seed=0, options={"deal": deal})
    assert env.render() == TWELVE_START
    env.step(0)
    assert env.render() == TWELVE_AFTER_CAPTURE
