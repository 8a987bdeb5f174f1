"""A single-agent ``gymnasium.Env`` view of either game, for RL libraries that train one policy
against fixed opponents (sb3-contrib's ``MaskablePPO`` and the like).

The learner holds one seat; every other seat (a 4-player Sniff partner included) is played by a
given agent inside ``step``. Observations are the game's seat-relative vector (the same as the
AEC env's); ``action_masks()`` returns the learner's legal actions, as sb3-contrib expects, and
``info["action_mask"]`` carries the same, beside ``info["seat"]`` (the learner's seat) and
``info["illegal_action"]`` — the same keys, numpy values, at ``reset`` and after every step. An
illegal action ends the episode with reward −1 and ``info["illegal_action"] = True`` (PettingZoo's
illegal-move convention); the game is unchanged.
An action that is not an action id at all (a float, a string; an integer outside the action
space) raises instead (``sniff_twelve.core.options``); a 0-d integer array, as ``model.predict`` returns, is
an action id. The learner's observation and mask come from its seat view (``sniff_twelve.core.view``).

``reset`` never returns an episode that is already over: when the other seats end the game
before the learner's first decision (say a tiny ``target`` reached by the opener), the env deals
again from its own random stream, up to ``MAX_REDEALS`` times, and only the final deal counts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import gymnasium
import numpy as np
from gymnasium import spaces

from sniff_twelve.agents.builtin import game_agents
from sniff_twelve.batch.learner import MAX_REDEALS
from sniff_twelve.core.agent import Agent, partner_seat, seat_specs
from sniff_twelve.core.games import GAMES, game_package
from sniff_twelve.core.options import check_choice, check_int, check_seed
from sniff_twelve.core.rewards import LIVE, TERMINATED

if TYPE_CHECKING:
    from sniff_twelve.core.game import BaseGame
    from sniff_twelve.core.spec import GameSpec


class SingleAgentEnv(gymnasium.Env):
    """One learning seat against agents (see the module docstring).

    Args:
        new_game: ``new_game(seed) -> Game`` for a fresh episode.
        spec: the game's ``GameSpec`` (observation, mask and reward kernels, sizes).
        params: the options row the kernels read.
        reward_mode: the reward kernel's mode code.
        num_players: seats at the table.
        seat_agents: ``seat_agents(learner_seat)`` -> one agent per seat (``None`` at the learner's),
            called at every reset.
        seat: the learner's seat, or ``None`` for a random seat each episode.
        forced: ``forced(game) -> action | None``, a move the env makes for the learner (Sniff's
            forced draws and passes), so every step the learner sees is a real decision.
        render_mode: ``"ansi"`` or ``"rgb_array"``.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 1}

    def __init__(
        self,
        new_game: Callable[[int], BaseGame],
        spec: GameSpec,
        params: np.ndarray,
        reward_mode: int,
        num_players: int,
        seat_agents: Callable[[int], list[Agent | None]],
        seat: int | None = 0,
        forced: Callable[[BaseGame], int | None] | None = None,
        render_mode: str | None = None,
    ) -> None:
        self._new_game = new_game
        self._spec = spec
        _, _, num_actions = spec.widths(params)
        self._params = params
        self._reward_mode = reward_mode
        self._num_players = n = num_players
        self._seat_agents = seat_agents
        self._fixed_seat = None if seat is None else check_int("seat", seat, 0, n - 1)
        self._others = seat_agents(0 if seat is None else seat)  # checks the specs now
        self._forced = forced
        if render_mode is not None:
            check_choice("render_mode", render_mode, self.metadata["render_modes"])
        self.render_mode = render_mode
        self.observation_space = spaces.Box(*spec.observation_bounds(params), dtype=np.float32)
        self.action_space = spaces.Discrete(num_actions)
        self._before = np.zeros(spec.SNAPSHOT_SIZE, dtype=np.int32)
        self._rewards = np.zeros(n, dtype=np.float64)
        self.game: BaseGame | None = None
        self.seat = 0
        self._pending = 0.0

    # --- gymnasium API -------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=check_seed(seed))
        if options:
            raise ValueError(f"single-seat env reset takes no options; got {sorted(options)}")
        for _ in range(MAX_REDEALS):
            status = self._deal()
            if status == LIVE:
                return self._observation(), self._info()
        raise ValueError(
            f"in {MAX_REDEALS} deals the game always ended before seat {self.seat} had a decision: "
            "are the options (a tiny target?) leaving the learner no turn?"
        )

    def _deal(self) -> int:
        """A fresh game and seat, played up to the learner's first decision; returns its status."""
        self.game = self._new_game(int(self.np_random.integers(2**63)))
        n = self._num_players
        self.seat = self._fixed_seat if self._fixed_seat is not None else int(self.np_random.integers(n))
        self._others = self._seat_agents(self.seat)
        for agent in self._others:
            if agent is not None:
                agent.reset(int(self.np_random.integers(2**31)))
        self._pending, status = self._advance()  # what happened before the learner's first turn
        return status

    def step(self, action: int):
        game = self.game
        if game is None or game.is_terminal():
            raise ValueError("the episode is over: call reset()")
        action = check_int("action", action, 0, self.action_space.n - 1)
        mask = self.action_masks()
        if not mask[action]:
            return self._observation(), -1.0, True, False, self._info(illegal=True)
        self._spec.snapshot(game._state, self._before)
        game.apply(action)
        status = self._spec.write_rewards(game._state, self._params, self._before, self._reward_mode, self._rewards)
        reward = float(self._rewards[self.seat]) + self._pending
        self._pending = 0.0
        if status == LIVE:
            more, status = self._advance()
            reward += more
        return self._observation(), reward, status == TERMINATED, status not in (LIVE, TERMINATED), self._info()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (all ``False`` when it is not to act or the game is over)."""
        if self.game is None:
            raise ValueError("no game yet: call reset() before action_masks()")
        return self.game.seat_view(self.seat, past=False).legal_mask()

    def render(self):
        if self.render_mode == "rgb_array":
            return self.game.image()
        if self.render_mode == "ansi":
            return str(self.game)
        return None

    # --- internals ---------------------------------------------------------------------------------
    def _info(self, illegal: bool = False) -> dict[str, Any]:
        """The same keys after ``reset`` and every step, numpy values (TorchRL reads the keys at reset)."""
        return {"action_mask": self.action_masks(), "seat": np.int64(self.seat), "illegal_action": np.bool_(illegal)}

    def _observation(self) -> np.ndarray:
        return self.game.seat_view(self.seat, past=False).observation()

    def _advance(self) -> tuple[float, int]:
        """Play the other seats (and the learner's forced moves) until the learner must decide or
        the episode ends; returns the learner's reward on the way and the episode status."""
        game, reward, status = self.game, 0.0, LIVE
        while status == LIVE:
            cur = game.current_player
            action = self._forced(game) if cur == self.seat and self._forced else None
            if cur == self.seat and action is None:
                break
            if action is None:
                action = self._others[cur].act(game)
            self._spec.snapshot(game._state, self._before)
            game.apply(action)
            status = self._spec.write_rewards(game._state, self._params, self._before, self._reward_mode, self._rewards)
            reward += float(self._rewards[self.seat])
        return reward, status


def seat_agents(
    spec: GameSpec,
    num_players: int,
    opponents: str | Sequence[str],
    partner: str | None,
    make_agent: Callable[[str], Agent],
) -> Callable[[int], list[Agent | None]]:
    """For ``SingleAgentEnv`` of ``spec``'s game: given the learner's seat, one fresh agent per other seat."""

    def build(learner: int) -> list[Agent | None]:
        specs = seat_specs(spec, num_players, learner, opponents, partner)
        return [None if seat == learner else make_agent(specs[seat]) for seat in range(num_players)]

    return build


def table_partner(spec: GameSpec, num_players: int, partner: Any) -> Any:
    """``partner`` at a table where the learner has one (``partner_seat``), else ``None``: a
    game's ``partner=`` default applies only where partners sit (Sniff's four seats, S1)."""
    return partner if partner_seat(spec, num_players, 0) is not None else None


def learner_env(
    game_cls: type[BaseGame],
    num_players: int,
    opponents: str | Sequence[str] = "greedy",
    partner: str | None = "greedy",
    seat: int | None = 0,
    reward: str | None = None,
    render_mode: str | None = None,
    **options: Any,
) -> SingleAgentEnv:
    """A game's ``single_agent_env``: the options row and the reward mode from
    ``GameSpec.learner_setup``, the ``opponents`` and, at a table with partners
    (``table_partner``), the learner's ``partner`` from the game's agents (``game_agents``)."""
    spec = game_cls.spec
    params, modes = spec.learner_setup(num_players, reward, **options)
    make_agent = game_agents(spec).make_agent
    agents = seat_agents(spec, num_players, opponents, table_partner(spec, num_players, partner), make_agent)
    return SingleAgentEnv(
        lambda s: game_cls(seed=s, _params=params),
        spec,
        params,
        int(modes[0]),
        num_players,
        agents,
        seat,
        game_cls.forced_action if spec.forced_moves else None,
        render_mode,
    )


def register_gymnasium_envs() -> None:
    """Register every game's single-seat env: the ``gymnasium.envs`` entry point of the
    distribution (gymnasium releases that load plugins call it; importing a game does the same)."""
    for name in GAMES:
        game_package(name)  # a game's package registers its env at import
