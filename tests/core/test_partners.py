"""Partners come from each game's ``GameSpec.sides``; the shared seating code knows no game's rule."""

from __future__ import annotations

import pytest

from sniff_env.spec import SPEC as SNIFF
from sniff_twelve.core.agent import partner_seat, seat_specs
from twelve_env.spec import SPEC as TWELVE


class NeighbourPairs:
    """A spec whose 4-player sides are neighbours (0+1 / 2+3): no game of ours seats them so."""

    @staticmethod
    def sides(num_players: int) -> tuple[tuple[int, ...], ...] | None:
        return ((0, 1), (2, 3)) if num_players == 4 else None


def test_partner_seat_reads_the_sides():
    assert [partner_seat(SNIFF, 4, seat) for seat in range(4)] == [2, 3, 0, 1]  # S1: 0+2 / 1+3
    assert {partner_seat(SNIFF, n, seat) for n in (2, 3) for seat in range(n)} == {None}
    assert {partner_seat(TWELVE, n, seat) for n in TWELVE.players for seat in range(n)} == {None}
    assert [partner_seat(NeighbourPairs(), 4, seat) for seat in range(4)] == [1, 0, 3, 2]


def test_seat_specs_seats_the_partner_where_the_spec_says():
    assert seat_specs(SNIFF, 4, 1, "greedy", "heuristic") == {0: "greedy", 2: "greedy", 3: "heuristic"}
    assert seat_specs(NeighbourPairs(), 4, 2, ["a", "b"], "p") == {0: "a", 1: "b", 3: "p"}
    assert seat_specs(TWELVE, 3, 0, "greedy") == {1: "greedy", 2: "greedy"}


@pytest.mark.parametrize(("spec", "players"), [(SNIFF, 2), (SNIFF, 3), (TWELVE, 4)])
def test_a_partner_at_a_table_without_partners_is_refused(spec, players):
    with pytest.raises(ValueError, match=f"a {players}-player table has no partner seat"):
        seat_specs(spec, players, 0, "greedy", "heuristic")


def test_a_game_scores_each_seat_for_its_side():
    import sniff_env
    import twelve_env

    sides = {n: [sniff_env.Game(n).side_of(seat) for seat in range(n)] for n in (2, 3, 4)}
    assert sides == {2: [0, 1], 3: [0, 1, 2], 4: [0, 1, 0, 1]}  # S1: partnerships 0+2 / 1+3 with four
    assert [twelve_env.Game(5).side_of(seat) for seat in range(5)] == [0, 1, 2, 3, 4]  # T4: each for itself
    with pytest.raises(ValueError, match="seat"):
        sniff_env.Game(4).side_of(4)
