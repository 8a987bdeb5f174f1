"""Property tests of "12" (hypothesis): invariants that hold in every game, whatever is played.

- cards are conserved, per rank: hands + pile + stock + captured cards = the dealt cards (T1, T5,
  T8, T9, T11), and the observation's ``seen`` counts are exactly the cards played or turned face up;
- the action mask is never empty while the game runs and empty once it is over (T7, T12);
- every hand is non-empty while the game runs (T12: the game ends with the first empty hand);
- ``reward="score"`` sums over an AEC episode to the T15 scores; ``reward="win"`` sums to zero and
  follows the order of the final scores, tied players sharing (env docstring);
- clones are independent; the same seed deals and plays the same game;
- the observation layout (``twelve_env.observation``) is contiguous and agrees with ``Game``.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import twelve_env
from twelve_env import Game
from twelve_env.observation import critic_size, obs_fields, obs_size

pytestmark = pytest.mark.slow

RANKS = {"bridge": 13, "numbers": 11}
SIX = 5
SETTINGS = settings(max_examples=80, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])

players = st.integers(min_value=2, max_value=7)
decks = st.sampled_from(["bridge", "numbers"])
seeds = st.integers(min_value=0, max_value=2**63 - 1)


def random_deal(n: int, deck: str, rng: random.Random) -> dict:
    """A partial deal (docs/api.md): random hand sizes 1–6, random stock length, sixes often in play."""
    cards = [r for r in range(RANKS[deck]) for _ in range(4)]
    rng.shuffle(cards)
    if rng.random() < 0.5:
        cards.sort(key=lambda r: (r != SIX, rng.random()))
        rng.shuffle(cards[: 4 + 2 * n])
    sizes = [rng.randint(1, 6) for _ in range(n)]
    hands, i = [], 0
    for size in sizes:
        hands.append(cards[i : i + size])
        i += size
    rest = cards[i + 1 :]
    return {
        "hands": hands,
        "stock": rest[: rng.randint(0, len(rest))],
        "face_up": cards[i],
        "first_player": rng.randrange(n),
    }


def table_cards(g: Game) -> Counter:
    cards = Counter(g.pile) + Counter(g.stock)
    for s in range(g.num_players):
        cards += Counter(g.hand(s))
    return cards


def fields(obs: np.ndarray, ranks: int) -> dict[str, np.ndarray]:
    return {name: obs[offset : offset + size] for name, offset, size in obs_fields(ranks)}


class Tracker:
    """Follows a game through the public API only: which cards were captured (by rank and seat) and
    which were seen face up (played, or turned up by T5/T10)."""

    def __init__(self, g: Game) -> None:
        self.dealt = table_cards(g)
        self.captured = Counter()
        self.by_seat = [0] * g.num_players
        self.seen = Counter(g.pile)

    def step(self, g: Game, action: int) -> None:
        actor, pile = g.current_player, list(g.pile)
        before = g.captured[actor]
        g.apply(action)
        self.seen[action] += 1
        taken = g.captured[actor] - before
        if taken:  # T8: the whole pile and the played card
            assert taken == len(pile) + 1
            self.captured += Counter([*pile, action])
            self.by_seat[actor] += taken
            if not g.is_terminal():  # T10: a new card was turned face up
                assert len(g.pile) == 1
                self.seen[g.pile[0]] += 1

    def check(self, g: Game) -> None:
        assert table_cards(g) + self.captured == self.dealt
        assert sum(g.captured) == sum(self.captured.values())
        assert g.captured == self.by_seat
        assert len(g.stock) == g.stock_size


def play_checked(g: Game, rng: random.Random) -> Tracker:
    t = Tracker(g)
    t.check(g)
    while not g.is_terminal():
        t.step(g, rng.choice(g.legal_actions()))
        t.check(g)
    return t


# --------------------------------------------------------------------------- conservation
@SETTINGS
@given(n=players, deck=decks, extra=st.booleans(), seed=seeds, rng=st.randoms(use_true_random=False))
def test_cards_conserved_in_seeded_games(n, deck, extra, seed, rng):
    """T1/T5/T8/T9/T11: every card of the deck is always in exactly one place — a hand, the pile,
    the stock or a seat's captured cards — rank by rank."""
    g = Game(num_players=n, deck=deck, seed=seed, capture_extra_turn=extra)
    t = play_checked(g, rng)
    assert t.dealt == Counter({r: 4 for r in range(RANKS[deck])})
    assert sum(g.captured) + sum(len(g.hand(s)) for s in range(n)) + len(g.pile) + g.stock_size == 4 * RANKS[deck]


@SETTINGS
@given(n=players, deck=decks, extra=st.booleans(), rng=st.randoms(use_true_random=False))
def test_cards_conserved_in_partial_deals(n, deck, extra, rng):
    """docs/api.md deal + T8–T14: with a partial deal the cards in play stay exactly the dealt ones."""
    deal = random_deal(n, deck, rng)
    g = Game(num_players=n, deck=deck, deal=deal, capture_extra_turn=extra)
    t = play_checked(g, rng)
    dealt = Counter(deal["stock"]) + Counter([deal["face_up"]])
    for hand in deal["hands"]:
        dealt += Counter(hand)
    assert t.dealt == dealt


@SETTINGS
@given(n=players, deck=decks, extra=st.booleans(), seed=seeds, rng=st.randoms(use_true_random=False))
def test_seen_counts_are_the_cards_played_or_turned(n, deck, extra, seed, rng):
    """Observation ``seen``: per rank, the cards played (T7) plus those turned face up (T5, T10) —
    identical for every seat, never more than 4, and at least what is on the pile."""
    e = twelve_env.raw_env(num_players=n, deck=deck, capture_extra_turn=extra)
    e.reset(seed=seed)
    g = e.game
    ranks = RANKS[deck]
    t = Tracker(g)
    while True:
        want = np.array([t.seen[r] for r in range(ranks)], dtype=np.float32)
        for agent in e.possible_agents:
            seen = fields(e.observe(agent)["observation"], ranks)["seen"]
            assert (seen == want).all()
        assert want.max() <= 4
        assert all(t.seen[r] >= c for r, c in Counter(g.pile).items())
        if g.is_terminal():
            break
        t.step(g, rng.choice(g.legal_actions()))  # played on the env's own Game; observe() reads it


# --------------------------------------------------------------------------- legality
@SETTINGS
@given(n=players, deck=decks, extra=st.booleans(), seed=seeds, rng=st.randoms(use_true_random=False))
def test_mask_never_empty_while_live_and_empty_when_over(n, deck, extra, seed, rng):
    """T7/T12: while the game runs every hand is non-empty and the mask offers exactly the ranks the
    seat to act holds; once over, the mask is empty."""
    g = Game(num_players=n, deck=deck, seed=seed, capture_extra_turn=extra)
    while not g.is_terminal():
        mask = g.legal_mask()
        assert mask.shape == (RANKS[deck],) and mask.any()
        assert g.legal_actions() == sorted(set(g.hand(g.current_player)))
        assert np.flatnonzero(mask).tolist() == g.legal_actions()
        assert all(g.hand(s) for s in range(n))
        g.apply(rng.choice(g.legal_actions()))
    assert not g.legal_mask().any() and g.legal_actions() == []
    assert len(g.history) <= 4 * RANKS[deck]


# --------------------------------------------------------------------------- rewards
def run_aec_episode(e, seed: int, rng: random.Random) -> dict[str, float]:
    """PettingZoo's agent_iter loop; returns each agent's summed rewards (from ``last()``)."""
    e.reset(seed=seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter(max_iter=10_000):
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        e.step(None if terminated or truncated else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    return totals


def expected_win_rewards(scores: list[int]) -> list[float]:
    """Env docstring: +1 first … −1 last, evenly spaced; tied players share the mean of their places."""
    n = len(scores)
    out = []
    for s in scores:
        better = sum(o > s for o in scores)
        tied = sum(o == s for o in scores)
        place = better + (tied - 1) / 2
        out.append(1 - 2 * place / (n - 1))
    return out


@SETTINGS
@given(n=players, deck=decks, extra=st.booleans(), seed=seeds, rng=st.randoms(use_true_random=False))
def test_score_rewards_sum_to_final_scores(n, deck, extra, seed, rng):
    """T15 + reward="score": an agent's dense rewards over an AEC episode sum to its final score."""
    e = twelve_env.env(num_players=n, deck=deck, capture_extra_turn=extra, reward="score")
    totals = run_aec_episode(e, seed, rng)
    game = e.unwrapped.game
    assert game.is_terminal()
    assert [totals[f"player_{s}"] for s in range(n)] == game.scores


@SETTINGS
@given(n=players, deck=decks, extra=st.booleans(), seed=seeds, rng=st.randoms(use_true_random=False))
def test_win_rewards_zero_sum_and_follow_score_order(n, deck, extra, seed, rng):
    """T15 + reward="win": rewards sum to zero, order the agents like their final scores, give tied
    agents the same reward, +1 / −1 to a sole first / last."""
    e = twelve_env.env(num_players=n, deck=deck, capture_extra_turn=extra, reward="win")
    totals = run_aec_episode(e, seed, rng)
    scores = e.unwrapped.game.scores
    got = [totals[f"player_{s}"] for s in range(n)]
    assert sum(got) == pytest.approx(0.0, abs=1e-9)
    assert got == pytest.approx(expected_win_rewards(scores))
    for i in range(n):
        for j in range(n):
            if scores[i] > scores[j]:
                assert got[i] > got[j]
            elif scores[i] == scores[j]:
                assert got[i] == pytest.approx(got[j])
    if scores.count(max(scores)) == 1:
        assert got[scores.index(max(scores))] == pytest.approx(1.0)
    if scores.count(min(scores)) == 1:
        assert got[scores.index(min(scores))] == pytest.approx(-1.0)


@SETTINGS
@given(n=players, deck=decks, seed=seeds, rng=st.randoms(use_true_random=False))
def test_win_rewards_are_zero_until_the_end(n, deck, seed, rng):
    """reward="win": nothing is paid before the game ends."""
    e = twelve_env.raw_env(num_players=n, deck=deck, reward="win")
    e.reset(seed=seed)
    while not e.game.is_terminal():
        assert all(r == 0.0 for r in e.rewards.values())
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(rng.choice(np.flatnonzero(mask).tolist()))
    assert sum(e.rewards.values()) == pytest.approx(0.0, abs=1e-9)


# --------------------------------------------------------------------------- clone, seeding
@SETTINGS
@given(n=players, deck=decks, extra=st.booleans(), seed=seeds, rng=st.randoms(use_true_random=False))
def test_clone_is_independent(n, deck, extra, seed, rng):
    """docs/api.md clone(): playing on a clone never changes the original, and the same moves on both
    give the same state."""
    g = Game(num_players=n, deck=deck, seed=seed, capture_extra_turn=extra)
    for _ in range(rng.randrange(12)):
        if g.is_terminal():
            break
        g.apply(rng.choice(g.legal_actions()))
    state, history = np.array(g.state_array), list(g.history)
    hands = [g.hand(s) for s in range(n)]
    c = g.clone()
    moves = []
    while not c.is_terminal():
        moves.append(rng.choice(c.legal_actions()))
        c.apply(moves[-1])
    assert (g.state_array == state).all()
    assert g.history == history and [g.hand(s) for s in range(n)] == hands
    for a in moves:
        g.apply(a)
    assert (g.state_array == c.state_array).all()
    assert g.history == c.history and g.scores == c.scores


@SETTINGS
@given(n=players, deck=decks, extra=st.booleans(), seed=seeds, rng=st.randoms(use_true_random=False))
def test_same_seed_same_game(n, deck, extra, seed, rng):
    """T5/T6: the same seed deals the same hands, stock and first player; with the same moves the two
    games stay identical to the end."""
    a = Game(num_players=n, deck=deck, seed=seed, capture_extra_turn=extra)
    b = Game(num_players=n, deck=deck, seed=seed, capture_extra_turn=extra)
    assert (a.state_array == b.state_array).all()
    while not a.is_terminal():
        move = rng.choice(a.legal_actions())
        a.apply(move)
        b.apply(move)
        assert (a.state_array == b.state_array).all()
    assert b.is_terminal() and a.scores == b.scores


@pytest.mark.parametrize("deck", ["bridge", "numbers"])
def test_different_seeds_deal_differently(deck):
    """T5: the seed drives the shuffle — 30 seeds give (almost surely) 30 different deals."""
    deals = {tuple(Game(num_players=3, deck=deck, seed=s).stock) for s in range(30)}
    assert len(deals) == 30


# --------------------------------------------------------------------------- observation layout
@pytest.mark.parametrize("ranks", [13, 11])
def test_obs_fields_contiguous_and_cover_obs_size(ranks):
    """Observation table: the fields follow each other without gap or overlap and cover obs_size(R)
    = 4R + 17 entries; the state appends 7R entries (6 hidden hands and the stock)."""
    offset = 0
    names = []
    for name, start, size in obs_fields(ranks):
        assert start == offset, name
        assert size > 0
        offset += size
        names.append(name)
    assert offset == obs_size(ranks) == 4 * ranks + 17
    assert critic_size(ranks) == obs_size(ranks) + 7 * ranks
    assert len(set(names)) == len(names)
    assert {"hand", "top", "pile", "pile_size", "seen", "stock_size", "hand_sizes", "captured"} <= set(names)
    sizes = {name: size for name, _, size in obs_fields(ranks)}
    assert sizes["hand"] == sizes["top"] == sizes["pile"] == sizes["seen"] == ranks
    assert sizes["hand_sizes"] == 6 and sizes["captured"] == 7


@pytest.mark.parametrize(("deck", "ranks"), [("bridge", 13), ("numbers", 11)])
def test_env_spaces_match_layout(deck, ranks):
    """The env's observation and state spaces have the documented sizes (69 / 61 entries)."""
    e = twelve_env.raw_env(num_players=4, deck=deck)
    assert e.observation_space("player_0")["observation"].shape == (obs_size(ranks),)
    assert e.state_space.shape == (critic_size(ranks),)
    e.reset(seed=1)
    assert e.observe("player_2")["observation"].dtype == np.float32
    assert e.state().shape == (critic_size(ranks),)


def check_observation(e, g: Game, ranks: int) -> None:
    n = g.num_players
    for me in range(n):
        agent = f"player_{me}"
        out = e.observe(agent)
        f = fields(out["observation"], ranks)
        assert f["hand"].tolist() == [g.hand(me).count(r) for r in range(ranks)]
        top = np.zeros(ranks)
        if g.pile:
            top[g.pile[-1]] = 1
        assert (f["top"] == top).all()
        assert f["pile"].tolist() == [g.pile.count(r) for r in range(ranks)]
        assert f["pile_size"][0] == len(g.pile)
        assert f["stock_size"][0] == g.stock_size
        assert f["hand_sizes"].tolist() == [len(g.hand((me + r) % n)) if r < n else 0 for r in range(1, 7)]
        assert f["captured"].tolist() == [g.captured[(me + r) % n] if r < n else 0 for r in range(7)]
        if not g.is_terminal():
            assert f["last_round"][0] == float(g.last_round)
            assert f["turns_left"][0] == (g.turns_left or 0)
        mask = out["action_mask"]
        assert mask.dtype == np.int8
        if me == g.current_player and not g.is_terminal():
            assert mask.tolist() == g.legal_mask().astype(np.int8).tolist()
        else:
            assert not mask.any()


def check_state(e, g: Game, ranks: int) -> None:
    """state(): the observation of the seat to act, the hands of relative seats 1–6, the stock."""
    n, me, size = g.num_players, g.current_player, obs_size(ranks)
    st_ = e.state()
    assert (st_[:size] == e.observe(f"player_{me}")["observation"]).all()
    for r in range(1, 7):
        block = st_[size + (r - 1) * ranks : size + r * ranks]
        want = [g.hand((me + r) % n).count(k) for k in range(ranks)] if r < n else [0] * ranks
        assert block.tolist() == want
    assert st_[size + 6 * ranks :].tolist() == [g.stock.count(k) for k in range(ranks)]


@SETTINGS
@given(n=players, deck=decks, extra=st.booleans(), seed=seeds, rng=st.randoms(use_true_random=False))
def test_observation_agrees_with_game(n, deck, extra, seed, rng):
    """Observation table (relative seat r is (me + r) % n): hand, top card, pile, pile size, stock
    size, hand sizes, captured counts, last round and its turns left agree with the Game accessors,
    for every seat at every step; the mask is the seat-to-act's legal mask, zeros for the others."""
    e = twelve_env.raw_env(num_players=n, deck=deck, capture_extra_turn=extra)
    e.reset(seed=seed)
    g, ranks = e.game, RANKS[deck]
    while True:
        check_observation(e, g, ranks)
        if g.is_terminal():
            break
        check_state(e, g, ranks)
        agent = e.agent_selection
        assert agent == f"player_{g.current_player}"
        e.step(rng.choice(np.flatnonzero(e.observe(agent)["action_mask"]).tolist()))
