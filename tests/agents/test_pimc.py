"""The ``pimc`` agent: an agent like the others (specs, arena), and it never peeks — twins that
differ only in what the seat cannot see (the other hands, the boneyard or stock order) get the
same worlds, the same action values and the same choice."""

from __future__ import annotations

import random

import numpy as np
import pytest

import sniff_env
import twelve_env
from sniff_env import kernels as SK
from sniff_env.agents import make_agent as sniff_agent
from sniff_env.solver import solve as solve_sniff
from sniff_twelve.tools import arena
from tests.search.test_solver import random_position
from twelve_env import kernels as TK
from twelve_env.agents import make_agent as twelve_agent
from twelve_env.cards import MAX_RANKS
from twelve_env.solver import solve as solve_twelve


def late_position(game, small, seed):
    """``game`` played at random until ``small(game)`` and the seat to act has a choice."""
    return random_position(lambda _: game, lambda g: small(g) and len(g.legal_actions()) > 1, seed)


def sniff_twin(game: sniff_env.Game, seed: int) -> sniff_env.Game:
    """The same position with the tiles the seat to act cannot see (other hands, boneyard) dealt
    again at random, every hand and the boneyard keeping its size."""
    s, n, me = game.state_array.copy(), game.num_players, game.current_player
    others = [seat for seat in range(n) if seat != me]
    bone = list(range(s[SK.BONE_HEAD], s[SK.BONE_LEN]))
    hidden = [t for seat in others for t in range(28) if (int(s[SK.HAND + seat]) >> t) & 1]
    hidden += [int(s[SK.BONE + i]) for i in bone]
    random.Random(seed).shuffle(hidden)
    for seat in others:
        size = bin(int(s[SK.HAND + seat])).count("1")
        s[SK.HAND + seat] = sum(1 << t for t in hidden[:size])
        hidden = hidden[size:]
    for i, t in zip(bone, hidden, strict=True):
        s[SK.BONE + i] = t
    return sniff_env.Game.from_state(s, game._params)


def twelve_twin(game: twelve_env.Game, seed: int) -> twelve_env.Game:
    """The same with the other hands and the stock order dealt again, sizes kept."""
    s, n, me = game.state_array.copy(), game.num_players, game.current_player
    others = [seat for seat in range(n) if seat != me]
    stock = list(range(s[TK.STOCK_HEAD], s[TK.STOCK_LEN]))
    hidden = [r for seat in others for r in range(MAX_RANKS) for _ in range(s[TK.HAND + MAX_RANKS * seat + r])]
    hidden += [int(s[TK.STOCK + i]) for i in stock]
    random.Random(seed).shuffle(hidden)
    for seat in others:
        base = TK.HAND + MAX_RANKS * seat
        size = int(s[base : base + MAX_RANKS].sum())
        s[base : base + MAX_RANKS] = np.bincount(hidden[:size], minlength=MAX_RANKS)
        hidden = hidden[size:]
    for i, r in zip(stock, hidden, strict=True):
        s[TK.STOCK + i] = r
    return twelve_env.Game.from_state(s, game._params)


CASES = [
    (
        "sniff",
        lambda seed: sniff_env.Game(
            num_players=(2, 3, 4)[seed % 3], seed=seed, settlement=("deduct", "allfives")[seed % 2]
        ),
        lambda g: sum(g.hand_sizes) + g.boneyard_size <= 14,
        sniff_twin,
        sniff_agent,
        solve_sniff,
    ),
    (
        "twelve",
        lambda seed: twelve_env.Game(
            num_players=(2, 3)[seed % 2], seed=seed, deck=("bridge", "numbers")[seed // 2 % 2]
        ),
        lambda g: g.stock_size <= 6,
        twelve_twin,
        twelve_agent,
        solve_twelve,
    ),
]


@pytest.mark.parametrize(("name", "make", "small", "twin_of", "make_agent", "solve"), CASES, ids=[c[0] for c in CASES])
def test_pimc_twins_get_the_same_values_and_choice(name, make, small, twin_of, make_agent, solve):
    """No peeking, on twins: identical views (checked), so identical worlds, values and choice.
    The twins are real: the true deal's solved values differ between them for most pairs."""
    a, b = make_agent("pimc:3"), make_agent("pimc:3")
    checked = truths_differ = 0
    for seed in range(40):
        game = late_position(make(seed), small, seed)
        twin = twin_of(game, seed + 1000)
        me = game.current_player
        assert game.seat_view(me).array.tobytes() == twin.seat_view(me).array.tobytes()
        if len(game.legal_actions()) < 2:
            continue
        a.reset(seed)
        b.reset(seed)
        assert a.action_values(game.seat_view()) == b.action_values(twin.seat_view()), f"{name} seed {seed}"
        a.reset(seed)
        b.reset(seed)
        assert a.act(game) == b.act(twin), f"{name} seed {seed}"
        checked += 1
        truths_differ += solve(game).action_values != solve(twin).action_values
    assert checked >= 25 and truths_differ >= checked // 2, (checked, truths_differ)


@pytest.mark.parametrize("make_agent", [sniff_agent, twelve_agent])
def test_pimc_specs(make_agent):
    assert make_agent("pimc").iterations == make_agent("pimc").default_worlds
    assert make_agent("pimc:5").iterations == 5
    for bad in ("pimc:0", "pimc:-1", "pimc:x", "pimc:1.5"):
        with pytest.raises(ValueError, match="pimc"):
            make_agent(bad)


def test_pimc_is_reproducible():
    """The same seed gives the same values, and the choice has the top mean."""
    game = late_position(sniff_env.Game(num_players=4, seed=3), lambda g: sum(g.hand_sizes) + g.boneyard_size <= 16, 3)
    agent = sniff_agent("pimc:4", seed=9)
    values = agent.action_values(game.seat_view())
    agent.reset(9)
    assert agent.action_values(game.seat_view()) == values
    agent.reset(9)
    choice = agent.act(game)
    assert values[choice] == max(values.values())


def test_pimc_beats_random_in_the_arena():
    """An agent like the others: the arena runs it (duplicate deals, worker processes)."""
    table = sniff_env.agents.arena_table(4, target=30)
    result = arena.run(table, ["pimc:2", "random"], deals=4, seed=5, workers=2, progress=False)
    pimc = next(row for row in result["entries"] if row["entry"] == "pimc:2")
    assert result["games_played"] == 8 and pimc["score"] > 0.5, result["entries"]


@pytest.mark.parametrize(("package", "make_agent"), [(sniff_env, sniff_agent), (twelve_env, twelve_agent)])
def test_pimc_drops_worlds_over_its_budget(package, make_agent):
    """A world whose solve exceeds ``max_nodes`` counts for nothing; with no world solved, the
    move is the ``greedy`` agent's. A budget every world fits changes nothing."""
    for seed in range(6):
        game = random_position(
            lambda _, s=seed: package.Game(num_players=2, seed=s), lambda g: len(g.legal_actions()) > 1, seed
        )
        starved = make_agent("pimc:3", seed=seed, max_nodes=1)
        assert starved.action_values(game.seat_view()) is None
        assert starved.act(game) == make_agent("greedy").act(game)
    game = late_position(sniff_env.Game(num_players=4, seed=3), lambda g: sum(g.hand_sizes) + g.boneyard_size <= 16, 3)
    roomy = sniff_agent("pimc:4", seed=9, max_nodes=1 << 40).action_values(game.seat_view())
    assert roomy == sniff_agent("pimc:4", seed=9).action_values(game.seat_view())


def test_pimc_budget_is_checked():
    with pytest.raises(ValueError, match="max_nodes"):
        sniff_agent("pimc:2", max_nodes=0)
