"""``SPEC``: American Sniff's one registration with the shared layers (``sniff_twelve.core.spec``).

>>> SPEC.name, SPEC.players, SPEC.ROW_SIZE, SPEC.MAX_ACTIONS, SPEC.MAX_OBS
('sniff', (2, 3, 4), 108, 114, 135)
>>> SPEC.sides(4)
((0, 2), (1, 3))
>>> [option.name for option in SPEC.options]
['target', 'max_hands', 'max_steps', 'settlement', 'undrawn', 'pips', 'hand_size']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sniff_env import heuristics, observation, rewards, view
from sniff_env import kernels as K
from sniff_env.tiles import NUM_ACTIONS, NUM_TILES, TILES, action_name, set_size
from sniff_twelve.core.options import GameOption
from sniff_twelve.core.spec import GameSpec

if TYPE_CHECKING:
    import numpy as np


class SniffSpec(GameSpec, kernels=(K, observation, view, rewards, heuristics)):
    """Sniff's names, state slots, sizes and kernels."""

    name, package, title = "sniff", "sniff_env", "American Sniff"
    rules_part = "S"
    env_id = "sniff_env/Sniff-v0"  # gymnasium.make's id of the single-seat env
    players = (2, 3, 4)  # S1
    parts = {
        "game": "sniff_env.game:Game",
        "infos": "sniff_env.infos",
        "agents": "sniff_env.agents",
        "outcome": "sniff_env.agents:match_outcome",
        "ui": "sniff_env.ui:PLAY_UI",
        "narrate": "sniff_env.ui:narrate",
        "web": "sniff_env.web:WEB",
        "solve": "sniff_env.solver:solve",
        "text": "sniff_env.render:render_text",
    }
    default_players = 4
    options = (
        GameOption(
            "target",
            None,
            "Target score (empty: 250 / 200 / 200)",
            "int",
            rule="S3",
            slot=K.P_TARGET,
            by_players=K.DEFAULT_TARGET,
            after="seed",
        ),
        GameOption(
            "max_hands", 200, "Hands before a match is cut short", "limit", rule="S26", web=False, slot=K.P_MAX_HANDS
        ),
        GameOption(
            "max_steps", None, "Actions before a match is cut short", "limit", rule="S26", web=False, slot=K.P_MAX_STEPS
        ),
        GameOption(
            "settlement",
            "deduct",
            "Settlement (allfives: the variant)",
            "choice",
            ("deduct", "allfives"),
            rule="S4a",
            slot=K.P_ALL_FIVES,
        ),
        GameOption(
            "undrawn", 0, "Boneyard tiles left undrawn (a variant)", "choice", (0, 1, 2), rule="S4a", slot=K.P_UNDRAWN
        ),
        GameOption(
            "pips",
            K.MAX_PIPS,
            "The double-N set (the size dial)",
            "int",
            low=2,
            high=K.MAX_PIPS,
            rule="S2",
            web=False,
            slot=K.P_PIPS,
        ),
        GameOption(
            "hand_size",
            None,
            "Tiles dealt to each seat (the size dial; empty: 7 / 6 / 5)",
            "int",
            low=1,
            high=NUM_TILES // 2,
            rule="S5",
            web=False,
            slot=K.P_HAND_SIZE,
            by_players=K.HAND_SIZE,
        ),
    )
    env_options = (
        GameOption(
            "episode",
            None,
            "An episode: the whole match, or its first hand settled (empty: one hand on a small table)",
            "choice",
            ("match", "hand"),
            slot=K.P_HAND_EPISODE,
        ),
        GameOption(
            "forced",
            "explicit",
            "Draws and passes: the agent's actions, or made for it",
            "choice",
            ("explicit", "auto"),
        ),
    )
    PARAMS_SIZE = K.PARAMS_SIZE
    action_feature_names = heuristics.ACTION_FEATURES
    RNG, STATUS, LIVE, TRUNCATED, CUR, STEPS = K.RNG, K.STATUS, K.LIVE, K.TRUNCATED, K.CUR, K.STEPS
    ROW_SIZE = K.STATE_SIZE
    MAX_ACTIONS, MAX_OBS, MAX_CRITIC = NUM_ACTIONS, observation.OBS_SIZE, observation.CRITIC_SIZE
    SNAPSHOT_SIZE = rewards.SNAPSHOT_SIZE
    reward_modes = rewards.REWARD_MODES
    reward_scale = 0.05  # points come in fives (S17)

    new_game = K.new_match  # a new match always opens with a placement
    observation_bounds = staticmethod(observation.observation_bounds)
    HANDS = K.HANDS_DONE  # a new hand is a new deal: beliefs start again (S5)
    ITEMS = view.ITEMS
    item_names, pool_name = TILES, "boneyard"
    action_names = tuple(action_name(action) for action in range(NUM_ACTIONS))  # "[3|5] east", "draw"
    POOL, POOL_HEAD, POOL_LEN = K.BONE, K.BONE_HEAD, K.BONE_LEN  # the boneyard, drawn front first (S19)

    @staticmethod
    def sides(num_players: int) -> tuple[tuple[int, ...], ...] | None:
        """The seats of each side: two sides (partnerships 0+2 / 1+3 with 4, S1), or ``None``
        with 3 players (every seat for itself)."""
        return {2: ((0,), (1,)), 3: None, 4: ((0, 2), (1, 3))}[num_players]

    def check_table(self, params: np.ndarray) -> None:
        """The size dial (``pips``, ``hand_size``): the set must deal every seat its hand; a small
        table (a smaller set or hand than S2 and S5's) plays one hand unless ``episode`` says otherwise."""
        n, pips, size = int(params[K.P_PLAYERS]), int(params[K.P_PIPS]), int(params[K.P_HAND_SIZE])
        if n * size > set_size(pips):
            raise ValueError(
                f"hand_size={size} deals {n * size} tiles to {n} players; the double-{pips} set has {set_size(pips)}"
            )
        if params[K.P_HAND_EPISODE] < 0:  # episode=None: one hand on a small table, else the match
            params[K.P_HAND_EPISODE] = pips < K.MAX_PIPS or size != K.HAND_SIZE[n]

    def reward_choices(self, options: dict) -> tuple[str, ...]:
        """``"win"`` first for a whole match; ``"points"`` only for one hand, which has no match winner."""
        return ("win", "points") if options["episode"] == "match" else ("points",)


SPEC = SniffSpec()
