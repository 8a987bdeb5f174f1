"""Move by move against OpenSpiel's own ``python_block_dominoes`` and ``python_team_dominoes``
(D1–D12): the same deal from the same chance outcomes, then at every step the same seat to act,
the same legal moves mapped both ways, the same open ends after the same move, and the same
returns at the end. A rule changed on purpose breaks it; no seat's observation holds more than
OpenSpiel's information state for that seat."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import dominoes_env.openspiel  # noqa: F401  (registers python_dominoes)
from dominoes_env import Game, encode_action
from dominoes_env.kernels import NUM_ACTIONS
from sniff_twelve.core.tiles import TILES
from tests.dominoes.openspiel_twin import SPIEL_NAMES, deal_from_outcomes, play_twins

SMOKE, FULL = 300, 10_000


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize(
    "games", [pytest.param(SMOKE, id="smoke"), pytest.param(FULL, id="full", marks=pytest.mark.heavy)]
)
def test_every_move_of_random_games_matches_openspiel(players, games):
    tally = play_twins(games, players, seed=players * 1000 + games)
    assert tally.games == games
    assert tally.moves >= games * (8 if players == 2 else 16)
    # both endings and ties were met (D9, D10, D12)
    assert 0 < tally.blocked < games and tally.ties > 0


class HighestDoubleLeads(Game):
    """A rule changed on purpose: the lead must be the highest double held, where D5 allows any tile."""

    def legal_actions(self) -> list[int]:
        legal = super().legal_actions()
        doubles = [TILES.index(t) for t in self.hand(self.current_player) if t[0] == t[1]]
        if not self.open_ends() and doubles:
            return [encode_action(TILES[max(doubles)])]
        return legal


@pytest.mark.parametrize("players", [2, 4])
def test_a_rule_changed_on_purpose_breaks_the_differential(players):
    with pytest.raises(AssertionError, match="legal"):
        play_twins(50, players, seed=7, make_game=lambda deal: HighestDoubleLeads(num_players=players, deal=deal))


def test_a_returns_rule_changed_on_purpose_breaks_the_differential(monkeypatch):
    """The difference of the pips instead of the loser's pips (D12)."""
    original = Game.returns

    def difference(self):
        out = original(self)
        if not any(out):
            return out
        hands = [sum(a + b for a, b in self.hand(s)) for s in range(self.num_players)]
        margin = abs(sum(hands[0::2]) - sum(hands[1::2]))
        return [float(margin if r > 0 else -margin) for r in out]

    monkeypatch.setattr(Game, "returns", difference)
    with pytest.raises(AssertionError, match="returns"):
        play_twins(100, 2, seed=3)


def test_our_openspiel_adapter_deals_and_plays_as_openspiel():
    """``python_dominoes`` takes OpenSpiel's chance outcomes and its action ids less ``seat * 77``."""
    rng = np.random.default_rng(5)
    for players in (2, 4):
        theirs, ours = (
            pyspiel.load_game(SPIEL_NAMES[players]),
            pyspiel.load_game("python_dominoes", {"players": players}),
        )
        for _ in range(40):
            a, b = theirs.new_initial_state(), ours.new_initial_state()
            while a.is_chance_node():
                assert sorted(o for o, _ in a.chance_outcomes()) == sorted(o for o, _ in b.chance_outcomes())
                tile = int(rng.choice([o for o, _ in a.chance_outcomes()]))
                a.apply_action(tile)
                b.apply_action(tile)
            assert not b.is_chance_node()
            while not a.is_terminal():
                seat = a.current_player()
                assert b.current_player() == seat
                assert [seat * NUM_ACTIONS + x for x in b.legal_actions()] == a.legal_actions()
                action = int(rng.choice(b.legal_actions()))
                a.apply_action(seat * NUM_ACTIONS + action)
                b.apply_action(action)
            assert b.is_terminal() and b.returns() == list(np.sign(a.returns()))


# --- what a seat sees: nothing beyond OpenSpiel's information state ---------------------------------------------
def _swap_unseen(outcomes: list[int], players: int, seat: int, rng: np.random.Generator) -> list[int]:
    """A deal differing from ``outcomes`` only in tiles ``seat`` cannot see (the other hands and,
    with 2 players, the undealt tiles): those shuffled among their places."""
    hands = deal_from_outcomes(outcomes, players)["hands"]
    mine = {TILES.index(t) for t in hands[seat]}
    others = [t for t in range(28) if t not in mine]
    shuffled = list(rng.permutation(others))
    mapping = dict(zip(others, shuffled, strict=True))
    return [t if t in mine else int(mapping[t]) for t in outcomes]


def check_observations_hold_no_more_than_openspiel(players: int, games: int, seed: int, observe=None) -> int:
    """Twin deals differing only in what one seat cannot see, played with the same moves while
    OpenSpiel's information state for that seat (perfect recall) and the seat to act stay the same
    in both: our observation of that seat must be the same too. Returns the positions compared."""
    observe = observe or (lambda game, seat: game.observation(seat))
    spiel = pyspiel.load_game(SPIEL_NAMES[players])
    observer = spiel.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    rng, compared = np.random.default_rng(seed), 0
    for _ in range(games):
        seat = int(rng.integers(players))
        outcomes = list(rng.permutation(28)[: 7 * players])
        twin = _swap_unseen([int(t) for t in outcomes], players, seat, rng)
        states, ours = [], []
        for dealt in (outcomes, twin):
            state = spiel.new_initial_state()
            for tile in dealt:
                state.apply_action(int(tile))
            states.append(state)
            ours.append(Game(num_players=players, deal=deal_from_outcomes([int(t) for t in dealt], players)))
        while not states[0].is_terminal() and not states[1].is_terminal():
            # what the seat knows: its information state, and whose turn it is (public in OpenSpiel)
            if observer.string_from(states[0], seat) != observer.string_from(states[1], seat):
                break
            if states[0].current_player() != states[1].current_player():
                break
            assert np.array_equal(observe(ours[0], seat), observe(ours[1], seat)), (outcomes, twin, seat)
            compared += 1
            legal = [set(state.legal_actions()) for state in states]
            if not legal[0] & legal[1]:
                break
            action = int(rng.choice(sorted(legal[0] & legal[1])))
            for state, game in zip(states, ours, strict=True):
                state.apply_action(action)
                game.apply(action % NUM_ACTIONS)
    return compared


@pytest.mark.parametrize("players", [2, 4])
def test_no_observation_holds_more_than_openspiels_information_state(players):
    assert check_observations_hold_no_more_than_openspiel(players, 150, seed=players) > 400


def test_the_observation_check_catches_an_observation_that_peeks():
    """An observation with the next seat's hand in it differs on twins OpenSpiel cannot tell apart."""

    def peeking(game, seat):
        return np.concatenate([game.observation(seat), _hand_flags(game, (seat + 1) % 4)])

    with pytest.raises(AssertionError):
        check_observations_hold_no_more_than_openspiel(4, 50, seed=1, observe=peeking)


def _hand_flags(game: Game, seat: int) -> np.ndarray:
    flags = np.zeros(28)
    flags[[TILES.index(t) for t in game.hand(seat)]] = 1
    return flags
