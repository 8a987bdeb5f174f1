"""``SPEC``: block dominoes' one registration with the shared layers (``sniff_twelve.core.spec``).

>>> SPEC.name, SPEC.players, SPEC.MAX_ACTIONS, SPEC.sides(4)
('dominoes', (2, 4), 77, ((0, 2), (1, 3)))
"""

from __future__ import annotations

from dominoes_env import kernels as K
from sniff_twelve.core.spec import GameSpec
from sniff_twelve.core.tiles import TILES, tile_name


def action_name(action: int) -> str:
    """``"[3|5] lead"`` or ``"[3|5] on 3"``: the tile and the open end's pip it goes against (D6)."""
    tile, pip = TILES[K.ACTION_TILE[action]], int(K.ACTION_PIP[action])
    return f"{tile_name(tile)} {'lead' if pip < 0 else f'on {pip}'}"


class DominoesSpec(GameSpec, kernels=K):
    """The names, state slots and sizes of block dominoes; its kernels are ``kernels``'s, by name."""

    name, package, title = "dominoes", "dominoes_env", "block dominoes"
    rules_part, rules_page = "D", "dominoes_rules"
    env_id = "dominoes_env/Dominoes-v0"  # gymnasium.make's id of the single-seat env
    players, default_players = (2, 4), 4  # D1
    options = ()
    parts = {
        "game": "dominoes_env.game:Game",
        "agents": "dominoes_env.agents",
        "web": "dominoes_env.web:WEB",
        "solve": "dominoes_env.solver:solve",
    }
    reward_modes = {"points": K.POINTS, "win": K.WIN}  # D12: OpenSpiel's returns, or their signs
    reward_scale = 0.05  # the pips left in the losing hands, tens of them (D12)
    action_feature_names = K.ACTION_FEATURES
    RNG, STATUS, LIVE, CUR, STEPS = K.RNG, K.STATUS, K.LIVE, K.CUR, K.STEPS
    HANDS = -1  # one deal is the whole game (D9, D10)
    POOL, POOL_HEAD, POOL_LEN = K.BONE, K.BONE_HEAD, K.BONE_LEN  # the undealt tiles (D3)
    ROW_SIZE, SNAPSHOT_SIZE, PARAMS_SIZE = K.STATE_SIZE, K.SNAPSHOT_SIZE, K.PARAMS_SIZE
    MAX_ACTIONS, MAX_OBS, MAX_CRITIC = K.NUM_ACTIONS, K.OBS_SIZE, K.CRITIC_SIZE
    ITEMS, item_names, pool_name = len(TILES), TILES, "undealt tiles"
    action_names = tuple(action_name(a) for a in range(K.NUM_ACTIONS))
    observation_bounds = staticmethod(K.observation_bounds)

    @staticmethod
    def sides(num_players: int) -> tuple[tuple[int, ...], ...] | None:
        """Seat against seat with 2 players; partners 0+2 against 1+3 with 4 (D1)."""
        return {2: ((0,), (1,)), 4: ((0, 2), (1, 3))}[num_players]


SPEC = DominoesSpec()
