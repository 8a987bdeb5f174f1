"""What every game must pass, whatever its rules: the shared layers' contract, as checks.

In the spirit of PettingZoo's ``api_test``: each check takes a game package (``sniff_env``,
``twelve_env``, or a new game built on ``sniff_twelve``) and a table's options, plays seeded
random games, and raises ``AssertionError`` saying what broke. ``CHECKS`` lists them;
``check_game`` runs them all.

>>> import twelve_env
>>> check_game(twelve_env, {"num_players": 3}, games=2)

- ``check_spec``: the ``GameSpec`` declares every kernel (``KERNELS``) and agrees with the state
  object on names, slots and widths.
- ``check_protocol``: legal moves exist exactly while the game is live, observations have the
  declared width, a clone is independent, an illegal action raises ``ValueError`` naming the legal
  ones and changes nothing.
- ``check_determinism``: the same seed and actions give the same rows.
- ``check_record_round_trip``: a finished game's record (through JSON) replays to the same row.
- ``check_no_peek_twins``: a world sampled from a seat's view looks the same to that seat —
  view row, observation, legal moves — and every cheap built-in agent the game declares picks the
  same move in it.
- ``check_vector_matches_game``: ``VectorGame`` rows step exactly as ``Game`` does.
- ``check_bounds``: out-of-range slots in a raw row are refused by ``Game.from_state``, and a
  fuzzed row is either refused or a game whose moves and observation can be computed.
- ``check_observation_bounds``: every seat's observation, all along random games, lies within
  the spec's ``observation_bounds`` — the ``Box`` of the envs.
- ``check_pettingzoo`` / ``check_gymnasium``: the frameworks' own checkers on ``env`` and on the
  single-seat env built by ``gymnasium.make`` (silent: any warning fails); the options must suit
  those constructors.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
from numba.core.dispatcher import Dispatcher

from sniff_twelve.agents.builtin import GUIDED_SEARCHES, game_agents
from sniff_twelve.agents.external import installed_agents
from sniff_twelve.agents.spec import IMPORT, AgentSpec
from sniff_twelve.core.spec import KERNELS, GameSpec

#: agents cheap enough to run on every twin (an agent the game's ``AGENTS`` does not declare, or a
#: table cannot seat, is skipped: ``sniff_twelve.agents.builtin.game_agents``)
TWIN_AGENTS = ("random", "greedy", "heuristic", "rollout:4", "ppo")


def _game_options(package: ModuleType, options: dict[str, Any]) -> dict[str, Any]:
    """The options ``Game`` takes among a table's: the table size and the options row's
    (``GameSpec.row_options``)."""
    takes = {"num_players", *(option.name for option in package.Game.spec.row_options)}
    return {k: v for k, v in options.items() if k in takes}


def _single_seat_options(package: ModuleType, options: dict[str, Any]) -> dict[str, Any]:
    """A table's options as ``single_agent_env`` takes them: without the environments' options
    it sets itself (those not in ``GameSpec.learner_options``, such as the forced moves it makes)."""
    spec = package.Game.spec
    own = {option.name for option in spec.env_options} - {option.name for option in spec.learner_options}
    return {k: v for k, v in options.items() if k not in own}


def _random_game(package: ModuleType, options: dict[str, Any], seed: int, steps: int | None = None):
    """A game of ``options`` after ``steps`` random legal actions (``None``: to the end)."""
    game = package.Game(seed=seed, **_game_options(package, options))
    rnd = random.Random(seed)
    while not game.is_terminal() and (steps is None or len(game.history) < steps):
        game.apply(rnd.choice(game.legal_actions()))
    return game


def check_spec(package: ModuleType, options: dict[str, Any], games: int = 5) -> None:
    spec = package.Game.spec
    assert isinstance(spec, GameSpec) and spec.package == package.__name__, spec
    missing = [name for name in KERNELS if not isinstance(getattr(spec, name, None), Dispatcher)]
    assert not missing, f"the spec declares no compiled {', '.join(missing)}"
    game = package.Game(seed=0, **_game_options(package, options))
    assert game.num_players in spec.players
    obs_size, critic_size, num_actions = spec.widths(game._params)
    assert game.state_array.shape == (spec.ROW_SIZE,) and game.state_array.dtype == np.int32
    assert game.observation().shape == (obs_size,) and game.legal_mask().shape == (num_actions,)
    assert game.num_actions == num_actions <= spec.MAX_ACTIONS and obs_size <= spec.MAX_OBS
    assert critic_size <= spec.MAX_CRITIC and game.action_features().shape[1] == len(spec.action_feature_names)
    assert int(game.state_array[spec.CUR]) == game.current_player
    assert (int(game.state_array[spec.STATUS]) == spec.LIVE) != game.is_terminal()


def check_protocol(package: ModuleType, options: dict[str, Any], games: int = 5) -> None:
    for seed in range(games):
        game = package.Game(seed=seed, **_game_options(package, options))
        rnd = random.Random(seed)
        while True:
            legal = game.legal_actions()
            assert bool(legal) != game.is_terminal(), f"legal moves {legal}, terminal {game.is_terminal()}"
            obs = game.observation()
            assert obs.dtype == np.float32 and np.isfinite(obs).all()
            _check_illegal(game, legal)
            if not legal:
                break
            action = rnd.choice(legal)
            twin = game.clone()
            twin.apply(action)
            assert twin.history != game.history, "a clone shares its history with the original"
            before = game.state_array.copy()
            game.apply(action)
            assert np.array_equal(game.state_array, twin.state_array)
            assert not np.array_equal(before, game.state_array), f"action {action} left the row unchanged"


def _check_illegal(game, legal: list[int]) -> None:
    illegal = [*[a for a in range(game.num_actions) if a not in legal][:2], game.num_actions, -1]
    row, history = game.state_array.copy(), list(game.history)
    for action in illegal:
        try:
            game.apply(action)
        except ValueError as error:
            assert not legal or str(legal[0]) in str(error), f"{error!r} does not name the legal actions"
        else:
            raise AssertionError(f"illegal action {action} was applied (legal: {legal})")
        assert np.array_equal(game.state_array, row) and game.history == history, "a refused action changed the game"


def check_determinism(package: ModuleType, options: dict[str, Any], games: int = 5) -> None:
    for seed in range(games):
        first, again = _random_game(package, options, seed), _random_game(package, options, seed)
        assert np.array_equal(first.state_array, again.state_array) and first.history == again.history
    other = _random_game(package, options, games + 1, steps=0)
    assert not np.array_equal(other.state_array, _random_game(package, options, games + 2, steps=0).state_array)


def check_record_round_trip(package: ModuleType, options: dict[str, Any], games: int = 5) -> None:
    for seed in range(games):
        game = _random_game(package, options, seed)
        replay = package.Game.from_record(json.loads(json.dumps(game.to_record())))
        assert np.array_equal(replay.state_array, game.state_array) and replay.history == game.history


def check_no_peek_twins(package: ModuleType, options: dict[str, Any], games: int = 5) -> list[str]:
    """The twins of the module docstring; returns the agent specs it checked (those the table seats)."""
    module = game_agents(package.Game.spec)
    agents = []
    for agent_spec in TWIN_AGENTS:
        if not _declares(package.Game.spec, agent_spec):
            continue
        try:
            agent = module.make_agent(agent_spec)
            agent.check_table(package.Game(seed=0, **_game_options(package, options)).num_players)
        except ValueError:
            continue
        agents.append((agent_spec, agent))
    checked = 0
    for seed in range(games):
        game = _random_game(package, options, seed, steps=3 + seed)
        if game.is_terminal():  # a short game: the position before its last action
            game = _random_game(package, options, seed, steps=len(game.history) - 1)
        if game.is_terminal():
            continue
        checked += 1
        seat = game.current_player
        view = game.seat_view(seat)
        for k in range(3):
            twin = view.sample(seed=k)
            assert np.array_equal(twin.seat_view(seat).array, view.array), "a sampled world looks different"
            assert np.array_equal(twin.observation(seat), game.observation(seat))
            assert twin.legal_actions() == game.legal_actions()
            for agent_spec, agent in agents:
                agent.reset(seed)
                mine = agent.act(game)
                agent.reset(seed)
                assert agent.act(twin) == mine, f"{agent_spec} moved differently on a twin: it read hidden information"
    assert checked, "no random game had a live position to sample twins from"
    return [agent_spec for agent_spec, _ in agents]


def _declares(spec: GameSpec, agent_spec: str) -> bool:
    """Whether the game's agents (``game_agents``) name ``agent_spec``'s agent: its ``AGENTS`` (a
    guided search: the entry that builds it) or the agents installed for it (the entry-point group
    named as its ``agents`` part), or an agent by import path."""
    agents = game_agents(spec)
    parsed = AgentSpec.parse(agent_spec)
    name = GUIDED_SEARCHES.get(parsed.name) if parsed.guide is not None else parsed.name
    group = spec.parts.get("agents")
    installed = installed_agents(group) if group is not None else {}
    return parsed.name == IMPORT or name in agents.AGENTS or name in installed


def check_vector_matches_game(package: ModuleType, options: dict[str, Any], games: int = 5) -> None:
    rows = max(games, 2)
    vg = package.VectorGame(rows, seed=7, **options)
    spec = package.Game.spec
    rng = np.random.default_rng(0)
    mirror = [vg.game(i) for i in range(rows)]
    for _ in range(60):
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in vg.mask])
        for game, action in zip(mirror, actions, strict=True):
            game.apply(int(action))
            while spec.forced_moves and vg.modes[1] and (forced := game.forced_action()) is not None:
                game.apply(forced)  # forced="auto", as the AEC env makes the moves
        vg.step(actions)
        for i, game in enumerate(mirror):
            if vg.terminated[i] or vg.truncated[i]:
                mirror[i] = vg.game(i)  # the row was dealt again in the same call
                continue
            assert np.array_equal(vg.states[i], game.state_array), f"row {i} left the game it mirrors"
            assert np.array_equal(vg.obs[i], game.observation()) and np.array_equal(vg.mask[i], game.legal_mask())


def check_bounds(package: ModuleType, options: dict[str, Any], games: int = 5) -> None:
    cls = package.Game
    game = _random_game(package, options, 0, steps=5)
    for what, (start, _stop), low, high in cls.row_bounds(game._params):
        for bad in (low - 1, high + 1):
            row = game.state_array.copy()
            row[start] = bad
            try:
                cls.from_state(row, game._params)
            except ValueError as error:
                assert what in str(error), f"{error!r} does not name {what}"
            else:
                raise AssertionError(f"from_state took {what} = {bad} (allowed {low} … {high})")
    for size in (0, cls.spec.ROW_SIZE - 1, cls.spec.ROW_SIZE + 1):
        try:
            cls.from_state(np.zeros(size, dtype=np.int32), game._params)
        except ValueError:
            continue
        raise AssertionError(f"from_state took a row of {size} slots")
    rng = np.random.default_rng(games)
    for _ in range(20 * games):  # fuzz: a row is refused, or it is a game whose moves can be asked for
        row = game.state_array.copy()
        slots = rng.integers(0, row.size, size=rng.integers(1, 4))
        row[slots] = rng.integers(-3, 300, size=slots.size)
        try:
            fuzzed = cls.from_state(row, game._params)
        except ValueError:
            continue
        fuzzed.legal_actions()
        fuzzed.observation()


def check_pettingzoo(package: ModuleType, options: dict[str, Any], games: int = 5) -> None:
    from pettingzoo.test import api_test, seed_test

    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):  # its progress lines
        warnings.simplefilter("ignore")  # PettingZoo's notes on dict observations and unbounded boxes
        api_test(package.env(**options), num_cycles=60 * games)
        seed_test(lambda: package.env(**options), num_cycles=60 * games)


def check_gymnasium(package: ModuleType, options: dict[str, Any], games: int = 5) -> None:
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(package.Game.spec.env_id, **_single_seat_options(package, options))
    assert env.spec.id == package.Game.spec.env_id, env.spec
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # silent: a warning of gymnasium's checker fails the check
        check_env(env.unwrapped, skip_render_check=True)


def check_observation_bounds(package: ModuleType, options: dict[str, Any], games: int = 5) -> None:
    spec = package.Game.spec
    for seed in range(games):
        game = package.Game(seed=seed, **_game_options(package, options))
        low, high = spec.observation_bounds(game._params)
        assert low.shape == high.shape == (game.observation(0).size,) and (low <= high).all()
        rnd = random.Random(seed)
        while True:
            for seat in range(game.num_players):
                observation = game.observation(seat)
                outside = np.flatnonzero((observation < low) | (observation > high))
                assert not outside.size, (
                    f"entries {outside.tolist()} = {observation[outside]} outside {low[outside]}…{high[outside]}"
                )
            if game.is_terminal():
                break
            game.apply(rnd.choice(game.legal_actions()))
    space = package.single_agent_env(**_single_seat_options(package, options)).observation_space
    assert np.array_equal(space.low, low) and np.array_equal(space.high, high), "the env's Box is not the bounds"


CHECKS: dict[str, Callable[..., None]] = {
    "spec": check_spec,
    "protocol": check_protocol,
    "determinism": check_determinism,
    "record_round_trip": check_record_round_trip,
    "no_peek_twins": check_no_peek_twins,
    "vector_matches_game": check_vector_matches_game,
    "bounds": check_bounds,
    "observation_bounds": check_observation_bounds,
    "pettingzoo": check_pettingzoo,
    "gymnasium": check_gymnasium,
}


def check_game(package: ModuleType, options: dict[str, Any] | None = None, games: int = 5) -> None:
    """Every check of ``CHECKS`` on ``package`` with ``options`` (default: its smallest table)."""
    options = options or {"num_players": package.Game.spec.players[0]}
    for check in CHECKS.values():
        check(package, options, games)
