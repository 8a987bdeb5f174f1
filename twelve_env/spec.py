"""``SPEC``: the one registration of "12" with the shared layers (``sniff_twelve.core.spec``).

>>> SPEC.name, SPEC.players, SPEC.ROW_SIZE, SPEC.MAX_ACTIONS, SPEC.MAX_OBS
('twelve', (2, 3, 4, 5, 6, 7), 225, 13, 69)
>>> SPEC.sides(2), SPEC.sides(3)
(((0,), (1,)), None)
>>> [option.name for option in SPEC.options]
['deck', 'capture_extra_turn', 'hand_size']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numba as nb

from sniff_twelve.core.options import GameOption
from sniff_twelve.core.spec import GameSpec
from twelve_env import heuristics, observation, rewards, view
from twelve_env import kernels as K
from twelve_env.cards import COPIES, DECKS, MAX_RANKS

if TYPE_CHECKING:
    import numpy as np

_OBS_END, _CRITIC_END = observation.OBS.end(), observation.CRITIC.end()  # (a, b): a * ranks + b


class TwelveSpec(GameSpec, kernels=(view, observation, rewards, heuristics, K)):
    """The names, state slots, sizes and kernels of "12"."""

    name, package, title = "twelve", "twelve_env", '"12"'
    rules_part = "T"
    env_id = "twelve_env/Twelve-v0"  # gymnasium.make's id of the single-seat env
    players = (2, 3, 4, 5, 6, 7)  # T4
    parts = {
        "game": "twelve_env.game:Game",
        "infos": "twelve_env.infos",
        "agents": "twelve_env.agents",
        "ui": "twelve_env.ui:PLAY_UI",
        "narrate": "twelve_env.ui:narrate",
        "web": "twelve_env.web:WEB",
        "solve": "twelve_env.solver:solve",
        "text": "twelve_env.render:render_text",
    }
    default_players = 2
    options = (
        GameOption(
            "deck",
            "bridge",
            "Deck (or the size dial's list of values)",
            "choice",
            DECKS,
            rule="T1",
            slot=K.P_DECK,
            after="num_players",
            values=(1, 11, COPIES),
            counts_slot=K.P_COUNTS,
        ),
        GameOption(
            "capture_extra_turn", False, "The capturer plays again (a variant)", "bool", rule="T10", slot=K.P_EXTRA_TURN
        ),
        GameOption(
            "hand_size",
            K.HAND_SIZE,
            "Cards dealt to each seat (the size dial)",
            "int",
            low=1,
            high=25,
            rule="T5",
            web=False,
            slot=K.P_HAND_SIZE,
        ),
    )
    PARAMS_SIZE = K.PARAMS_SIZE
    action_feature_names = heuristics.ACTION_FEATURES
    RNG, STATUS, LIVE, CUR, STEPS = K.RNG, K.STATUS, K.LIVE, K.CUR, K.STEPS
    TRUNCATED = -1  # a game of "12" always ends by its rules (T12-T14)
    ROW_SIZE = K.STATE_SIZE
    MAX_ACTIONS, MAX_OBS, MAX_CRITIC = MAX_RANKS, observation.obs_size(MAX_RANKS), observation.critic_size(MAX_RANKS)
    SNAPSHOT_SIZE = rewards.SNAPSHOT_SIZE
    reward_modes, default_reward = rewards.REWARD_MODES, "score"
    reward_scale = 0.1  # a point a card (T15)
    num_actions = K.num_ranks  # an action per rank of the deck (T1)

    observation_bounds = staticmethod(observation.observation_bounds)
    HANDS = -1  # one game is one deal (T15)
    ITEMS = view.ITEMS
    item_names, pool_name = tuple(range(MAX_RANKS)), "stock"  # rank ids, as ``Game.hand`` gives them
    POOL, POOL_HEAD, POOL_LEN = K.STOCK, K.STOCK_HEAD, K.STOCK_LEN  # the stock, drawn front first (T5)

    def check_table(self, params: np.ndarray) -> None:
        """The size dial (``deck``, ``hand_size``): the deck must deal every hand and a face-up card (T5)."""
        n, size = int(params[K.P_PLAYERS]), int(params[K.P_HAND_SIZE])
        cards = sum(int(K.copies(params, r)) for r in range(K.num_ranks(params)))
        if n * size + 1 > cards:
            raise ValueError(
                f"hand_size={size} deals {n * size} cards to {n} players and one face up; the deck has {cards}"
            )

    @staticmethod
    def sides(num_players: int) -> tuple[tuple[int, ...], ...] | None:
        """Two sides with 2 players, else ``None``: every seat for itself."""
        return ((0,), (1,)) if num_players == 2 else None

    @nb.njit(cache=True)
    def obs_size(params):
        a, b = _OBS_END
        return a * K.num_ranks(params) + b

    @nb.njit(cache=True)
    def critic_size(params):
        a, b = _CRITIC_END
        return a * K.num_ranks(params) + b


SPEC = TwelveSpec()
