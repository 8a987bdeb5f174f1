"""Play our ``dominoes_env.Game`` and OpenSpiel's own ``python_block_dominoes`` /
``python_team_dominoes`` side by side, move by move (docs/dominoes_rules.md, D1–D12).

OpenSpiel's chance outcomes are tile indexes in the same set order as ours (D2); its deal gives
them to the seats in the order of D3, which ``deal_from_outcomes`` replays as our ``deal=``. Its
player action ids are ``seat * 77 + ours`` (D6).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import open_spiel.python.games  # noqa: F401  (registers OpenSpiel's python games)
import pyspiel

from dominoes_env import Game
from dominoes_env.kernels import HAND_SIZE, NUM_ACTIONS
from sniff_twelve.core.tiles import TILES

SPIEL_NAMES = {2: "python_block_dominoes", 4: "python_team_dominoes"}


def deal_from_outcomes(outcomes: list[int], num_players: int) -> dict:
    """Our ``deal=`` of OpenSpiel's chance outcomes: 2 players get 7 tiles each in a row, 4 players
    one tile each in turn (D3)."""
    hands: list[list[int]] = [[] for _ in range(num_players)]
    for i, tile in enumerate(outcomes):
        hands[i // HAND_SIZE if num_players == 2 else i % num_players].append(tile)
    return {"hands": [[TILES[t] for t in hand] for hand in hands]}


@dataclass
class Tally:
    games: int = 0
    moves: int = 0
    blocked: int = 0
    ties: int = 0


def play_twins(games: int, num_players: int, seed: int, make_game: Callable[[dict], Game] | None = None) -> Tally:
    """``games`` random games, each dealt the same by OpenSpiel's chance nodes and ours, then played
    with the same random legal moves; ``AssertionError`` at the first difference in the seat to
    act, the legal moves (mapped both ways), the open ends after a move or the returns."""
    spiel_game = pyspiel.load_game(SPIEL_NAMES[num_players])
    make_game = make_game or (lambda deal: Game(num_players=num_players, deal=deal))
    rng, tally = np.random.default_rng(seed), Tally()
    for g in range(games):
        state = spiel_game.new_initial_state()
        outcomes = []
        while state.is_chance_node():
            tiles = [tile for tile, _ in state.chance_outcomes()]
            outcomes.append(int(rng.choice(tiles)))
            state.apply_action(outcomes[-1])
        ours = make_game(deal_from_outcomes(outcomes, num_players))
        where = f"game {g} (seed {seed}), deal {outcomes}"
        while not state.is_terminal():
            seat = state.current_player()
            assert ours.current_player == seat, f"{where}, move {tally.moves}: seat {ours.current_player} vs {seat}"
            theirs = state.legal_actions()
            mine = ours.legal_actions()
            assert [seat * NUM_ACTIONS + a for a in mine] == theirs, f"{where}: legal {mine} vs {theirs}"
            assert [a - seat * NUM_ACTIONS for a in theirs] == mine, f"{where}: legal {theirs} vs {mine}"
            action = int(rng.choice(mine))
            ours.apply(action)
            state.apply_action(seat * NUM_ACTIONS + action)
            tally.moves += 1
            assert ours.open_ends() == [int(e) for e in state.open_edges], f"{where}: ends after {action}"
            assert ours.is_terminal() == state.is_terminal(), f"{where}: the end after {action}"
        assert ours.returns() == [float(r) for r in state.returns()], f"{where}: returns"
        tally.games += 1
        tally.blocked += any(ours.hand_sizes) and min(ours.hand_sizes) > 0
        tally.ties += ours.returns()[0] == 0
    return tally
