"""``SPEC``: block dominoes' one registration with the shared layers (``sniff_twelve.core.spec``)."""

from __future__ import annotations

from sniff_twelve.core.games import register_game
from sniff_twelve.core.options import GameOption
from sniff_twelve.core.spec import GameSpec
from tests.blockdom import kernels as K


class BlockdomSpec(GameSpec, kernels=K):
    """The names, state slots and sizes of block dominoes; its kernels are ``kernels``'s, by name."""

    name, package, title = "blockdom", "tests.blockdom", "block dominoes (double-two)"
    env_id = "tests_blockdom/Blockdom-v0"  # gymnasium.make's id of the single-seat env
    players, default_players = (2, 3), 2
    options = (
        GameOption("target", 1, "Points a seat needs to win the match (1: one deal)", "int", high=99, slot=K.P_TARGET),
    )
    parts = {
        "game": "tests.blockdom.game:Game",
        "agents": "tests.blockdom.agents",
        "outcome": "tests.blockdom.agents:match_outcome",
        "web": "tests.blockdom.web:WEB",
    }
    reward_modes = {"win": K.WIN}
    action_feature_names = K.ACTION_FEATURES
    RNG, STATUS, LIVE, CUR, STEPS, TRUNCATED = K.RNG, K.STATUS, K.LIVE, K.CUR, K.STEPS, -1  # never truncated
    POOL, POOL_HEAD, POOL_LEN = K.BONE, K.BONE_HEAD, K.BONE_LEN
    ROW_SIZE, SNAPSHOT_SIZE, PARAMS_SIZE = K.STATE_SIZE, K.SNAPSHOT_SIZE, K.PARAMS_SIZE
    MAX_ACTIONS, MAX_OBS, MAX_CRITIC = K.NUM_ACTIONS, K.OBS_SIZE, K.CRITIC_SIZE
    HANDS = K.DEALS  # a new deal starts every seat's history afresh
    ITEMS, item_names, pool_name = K.TILES, ("[0|0]", "[0|1]", "[0|2]", "[1|1]", "[1|2]", "[2|2]"), "boneyard"
    action_names = (*(f"{tile} {end}" for tile in item_names for end in ("left", "right")), "draw", "pass")
    observation_bounds = staticmethod(K.observation_bounds)

    @staticmethod
    def sides(num_players: int) -> tuple[tuple[int, ...], ...] | None:
        """Two sides with 2 players, else every seat for itself."""
        return ((0,), (1,)) if num_players == 2 else None


SPEC = register_game(BlockdomSpec())  # not installed: registered when imported
