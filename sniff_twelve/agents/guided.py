"""Policy-guided rollout search: a trained policy chooses which moves the determinized rollouts score.

``rollout:N@ppo`` (the shipped ``ppo`` checkpoint) or ``rollout:N@ppo:CHECKPOINT``, the preset
``guided:N[:CHECKPOINT]``: the policy's masked softmax over the legal moves is the prior. The search
keeps the fewest moves whose prior mass reaches ``coverage`` (at most ``width``), scores each by
``N`` paired rollouts on sampled deals — the rollouts ``rollout:N`` runs, on the seat's view only —
and plays the best mean value, the prior adding ``prior_weight × log prior`` points, so a move the
policy all but rules out needs a clear margin to be chosen. It spends ``N`` determinizations on two
or three moves where ``rollout:N`` spends them on every legal one, and a move the policy is sure of
costs no search at all.

>>> from sniff_env import Game
>>> from sniff_env.agents import make_agent
>>> game = Game(num_players=4, seed=0)
>>> moves, prior = make_agent("guided:16").candidates(game.seat_view(game.current_player))
>>> 1 <= moves.size <= 3 and bool(prior.sum() <= 1)
True
>>> make_agent("rollout:16@ppo", seed=1).act(game) == make_agent("guided:16", seed=1).act(game)
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from sniff_twelve.agents.builtin import GUIDED_NAME, RolloutAgent, count_and_model
from sniff_twelve.core.options import check_int

if TYPE_CHECKING:
    from sniff_twelve.agents.policy import PolicyAgent
    from sniff_twelve.core.view import SeatView


class GuidedSearchAgent(RolloutAgent):
    """Determinized search over the moves a policy proposes (see the module docstring): ``rollout``'s
    search, on the kept moves only.

    Args:
        iterations: determinizations per move, each scoring every kept move (``N``).
        checkpoint: the policy's ``.npz`` (``None``: the checkpoint the game ships for the table).
        coverage: prior mass the kept moves reach, 0–1.
        width: most moves kept.
        prior_weight: points a factor *e* of prior is worth in the final choice.
        seed: the stream the rollouts draw from.
        threads: the threads the rollouts run on (``None``: numba's thread count); the choices
            are the same for every count (``rollout``'s lanes).
    """

    name = GUIDED_NAME
    spec_form = "[:N[:CHECKPOINT]]"
    #: the game's policy agent (``ppo``)
    policy_agent: type[PolicyAgent]

    def __init__(
        self,
        iterations: int = 64,
        checkpoint: str | None = None,
        coverage: float = 0.95,
        width: int = 3,
        prior_weight: float = 1.0,
        seed: int | None = None,
        threads: int | None = None,
    ) -> None:
        super().__init__(iterations, seed=seed, threads=threads)
        self.width = check_int("width", width, 1, 1000)
        for name, value, high in (("coverage", coverage, 1), ("prior_weight", prior_weight, 1e6)):
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= high:
                raise ValueError(f"{name} must be a number from 0 to {high}; got {value!r}")
        self.coverage, self.prior_weight = float(coverage), float(prior_weight)
        self.policy = self.policy_agent(checkpoint)
        self.policy.own_checkpoint_spec = f"{self.name}:{self.iterations}:PATH"

    @classmethod
    def parse_argument(cls, agent_spec: str, argument: str) -> dict:
        """The keywords ``guided:N[:CHECKPOINT]`` names; ``ValueError`` for a bad count."""
        return count_and_model(agent_spec, argument, "N in guided:N[:CHECKPOINT]", then="checkpoint")

    @staticmethod
    def guide_keywords(checkpoint: str) -> dict:
        """The keywords of ``rollout:N@ppo[:CHECKPOINT]``'s guide (``""``: the shipped checkpoint)."""
        return {"checkpoint": checkpoint} if checkpoint else {}

    def check_table(self, num_players: int) -> None:
        self.policy.check_table(num_players)

    def candidates(self, view: SeatView) -> tuple[np.ndarray, np.ndarray]:
        """The moves the search keeps, most likely first, and their prior."""
        prior = self.policy.prior(view)
        legal = np.flatnonzero(view.legal_mask())
        order = legal[np.argsort(-prior[legal], kind="stable")]
        reached = np.cumsum(prior[order])
        kept = min(self.width, int(np.searchsorted(reached, self.coverage - 1e-9)) + 1, order.size)
        return order[:kept], prior[order[:kept]]

    def scores(self, view: SeatView) -> tuple[np.ndarray, np.ndarray]:
        """The kept moves and what the search makes of each: the mean rollout value plus the
        prior's ``prior_weight × log prior`` (a lone kept move is not searched: score 0)."""
        actions, prior = self.candidates(view)
        if actions.size == 1:
            return actions, np.zeros(1)
        return actions, self.rollout_means(view, actions) + self.prior_weight * np.log(np.maximum(prior, 1e-12))

    def choose(self, view: SeatView) -> int:
        actions, scores = self.scores(view)
        return int(actions[np.argmax(scores)])

    def __repr__(self) -> str:
        return f"{type(self).__name__}(iterations={self.iterations}, checkpoint={self.policy.checkpoint!r})"
