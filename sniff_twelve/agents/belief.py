"""Search on beliefs: ``belief[:N[:MODEL]]`` plays ``rollout``'s paired rollouts on worlds drawn
from what the other seats' play reveals (``sniff_twelve.beliefs.infer``) instead of worlds dealt
uniformly.

Each decision infers the seat's beliefs with the other seats modelled as ``MODEL`` (an agent spec
of the game without ``+`` or ``@``; ``none`` for the rules alone; ``learned`` for the game's shipped belief
network, ``sniff_twelve.beliefs.learned``), draws ``N`` worlds from them and scores
every legal move by one rollout per world, all moves on the same worlds and rollout streams.
``belief[:N[:MODEL]]@ppo[:CHECKPOINT]`` (``guide="ppo"``) scores the moves the trained policy
proposes instead, as ``rollout:N@ppo`` does
(``sniff_twelve.agents.guided``: its kept moves, its prior's bonus), a move it is sure of costing
no search.

>>> from sniff_env import Game
>>> from sniff_env.agents import make_agent
>>> agent = make_agent("belief:16:greedy", seed=0)
>>> g = Game(num_players=4, seed=0)
>>> g.apply(agent.act(g))
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np

from sniff_twelve.agents.builtin import GUIDED_NAME, RolloutAgent, count_and_model
from sniff_twelve.beliefs import MIN_ESS, check_min_ess, infer
from sniff_twelve.beliefs.kernels import world_values
from sniff_twelve.beliefs.learned import load as load_learned
from sniff_twelve.beliefs.learned import shipped_path
from sniff_twelve.beliefs.tracker import follow
from sniff_twelve.core.options import check_int, check_seed

if TYPE_CHECKING:
    from sniff_twelve.agents.guided import GuidedSearchAgent
    from sniff_twelve.core.spec import GameSpec
    from sniff_twelve.core.view import SeatView


#: the ``MODEL`` that reads the game's shipped belief network
LEARNED = "learned"


class BeliefAgent(RolloutAgent):
    """``rollout`` on worlds drawn from the seat's beliefs (module docstring).

    Args:
        iterations: worlds drawn from the beliefs per decision, each scoring every legal move (``N``).
        model: the agent spec the other seats are assumed to play as; ``"none"``: the rules only;
            ``"learned"``: the beliefs of the game's shipped belief network (``infer``'s ``learned``).
        worlds: weighted worlds the beliefs keep, which the ``N`` are drawn from (a kept world
            costs about one rollout of every move, so fewer are kept than drawn).
        epsilon: the share of uniform play over the legal moves mixed into the model (``infer``'s
            ``epsilon``): how far the other seats may stray from it.
        greedy_rate: share of rollout moves played by the rule of thumb, 0–1 (default: the
            game's ``rollout`` agent's).
        guide: ``None`` (score every legal move), ``"ppo"`` (the policy proposes the moves,
            ``guided``'s way) or ``"auto"`` (``"ppo"`` at the tables the game ships a policy for,
            ``None`` elsewhere).
        guide_checkpoint: the guiding policy's ``.npz`` (``None``: the checkpoint the game ships).
        unguided_iterations: worlds per decision when no policy guides (default ``iterations``):
            scoring every legal move costs more per world than scoring the two or three proposed.
        particles: ``None`` (each decision infers its beliefs from the start of the deal,
            ``infer``) or how many particles a ``BeliefTracker`` kept from one decision to the
            next carries (``sniff_twelve.beliefs.tracker``; reset with the agent).
        threads: the threads the worlds' rollouts run on (``None``: numba's thread count); the
            choices are the same for every count (``rollout``'s lanes).
        min_ess: ``infer``'s ``min_ess``: the effective sample size its beliefs keep at the least
            (``0``: the plain importance sampler of ``worlds``).

    A bad ``MODEL`` is a ``ValueError`` when the agent is built.
    """

    name = "belief"
    spec_form = "[:N[:MODEL]]"
    reads_past = True
    #: the game's package, whose agents the model is (each game registers its subclass)
    game_spec: ClassVar[GameSpec]  # the game: its agents are the models
    default_model = "greedy"
    default_worlds = 128
    default_epsilon = 0.3
    #: what ``belief`` alone builds: the game's strongest setting within ``rollout:1024``'s time per
    #: decision, as keywords (``None``: the defaults below)
    strongest: ClassVar[dict | None] = None

    def __init__(
        self,
        iterations: int = 768,
        model: str = default_model,
        worlds: int = default_worlds,
        epsilon: float = default_epsilon,
        greedy_rate: float | None = None,
        guide: str | None = None,
        guide_checkpoint: str | None = None,
        unguided_iterations: int | None = None,
        seed: int | None = None,
        particles: int | None = None,
        threads: int | None = None,
        min_ess: float = MIN_ESS,
    ) -> None:
        if not isinstance(model, str) or "+" in model or not model:
            raise ValueError(f"model is an agent spec without '+' (or 'none', 'learned'); got {model!r}")
        self.model = model
        self.worlds = check_int("worlds", worlds, 1, 1 << 20)
        if particles is not None and model == LEARNED:
            raise ValueError(f"particles go with a model the tracker can weigh, not {LEARNED!r}")
        self.particles = None if particles is None else check_int("particles", particles, 1, 1 << 20)
        if isinstance(epsilon, bool) or not isinstance(epsilon, int | float) or not 0 < epsilon <= 1:
            raise ValueError(f"epsilon must be a number in (0, 1]; got {epsilon!r}")
        self.epsilon = float(epsilon)
        self.min_ess = check_min_ess(min_ess)
        agents = self.game_spec.part("agents")
        self._model = None if model in ("none", LEARNED) else agents.make_agent(model)
        rate = agents.AGENTS["rollout"].default_greedy_rate if greedy_rate is None else greedy_rate
        if guide not in (None, "ppo", "auto"):
            raise ValueError(f"guide is None, 'ppo' or 'auto'; got {guide!r}")
        self.guide = guide
        self._guide = None if guide is None else agents.AGENTS[GUIDED_NAME](iterations=1, checkpoint=guide_checkpoint)
        self._guided_tables: dict[int, bool] = {}
        super().__init__(iterations, rate, seed, threads)
        count = self.iterations if unguided_iterations is None else unguided_iterations
        self.unguided_iterations = check_int("unguided_iterations", count, 1, 1_000_000)

    @classmethod
    def parse_argument(cls, agent_spec: str, argument: str) -> dict:
        """The keywords ``belief:N[:MODEL]`` names; ``ValueError`` for a bad count."""
        return count_and_model(agent_spec, argument, "N in belief:N[:MODEL]")

    @staticmethod
    def guide_keywords(checkpoint: str) -> dict:
        """The keywords of ``belief[:N[:MODEL]]@ppo[:CHECKPOINT]``'s guide."""
        return {"guide": "ppo", **({"guide_checkpoint": checkpoint} if checkpoint else {})}

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self._seeds = np.random.default_rng(check_seed(seed))
        self._tracker, self._tracker_seed = None, seed
        if getattr(self, "_model", None) is not None:
            self._model.reset(seed)

    def check_table(self, num_players: int) -> None:
        if self.model == LEARNED and not shipped_path(self.game_spec, num_players).is_file():
            raise ValueError(f"no shipped {self.game_spec.title} belief network for {num_players} players")
        if self._model is not None:
            self._model.check_table(num_players)
        if self.guide == "ppo":
            self._guide.check_table(num_players)

    def _guide_at(self, num_players: int) -> GuidedSearchAgent | None:
        """The policy that proposes the moves at a table of ``num_players``, if any."""
        if self.guide != "auto":
            return self._guide
        if num_players not in self._guided_tables:
            try:
                self._guide.check_table(num_players)
                self._guided_tables[num_players] = True
            except ValueError:  # no policy shipped for this table
                self._guided_tables[num_players] = False
        return self._guide if self._guided_tables[num_players] else None

    def choose(self, view: SeatView) -> int:
        guide = self._guide_at(view.num_players)
        if guide is None:
            legal = np.flatnonzero(view.legal_mask())
            if legal.size == 1:
                return int(legal[0])
            return int(legal[np.argmax(self._means(view, legal, self.unguided_iterations))])
        actions, prior = guide.candidates(view)
        if actions.size == 1:
            return int(actions[0])
        bonus = guide.prior_weight * np.log(np.maximum(prior, 1e-12))
        return int(actions[np.argmax(self.rollout_means(view, actions) + bonus)])

    def rollout_means(self, view: SeatView, actions: np.ndarray) -> np.ndarray:
        return self._means(view, actions, self.iterations)

    def _means(self, view: SeatView, actions: np.ndarray, iterations: int) -> np.ndarray:
        """The mean rollout value of each of ``actions`` over ``iterations`` worlds drawn from the
        seat's beliefs, all actions on the same worlds."""
        seed = int(self._seeds.integers(1 << 62))
        view.past  # noqa: B018 — a view taken without the seat's memory is an error, not a fallback
        learned = load_learned("shipped", view) if self.model == LEARNED else None  # a table it never learned: an error
        try:
            if self.particles is None:
                beliefs = infer(view, self._model, self.worlds, seed, self.epsilon, learned, self.min_ess)
            else:
                self._tracker = follow(
                    self._tracker, view, self._model, self.particles, self._tracker_seed, self.epsilon
                )
                beliefs = self._tracker.update(view)
            states = beliefs.states(iterations, seed=seed + 1)
        except ValueError:  # no consistent deal turned up within infer's budget: the rules' worlds
            states = np.stack([view.sample(seed + 1 + k).state_array for k in range(iterations)])
        moves = actions.astype(np.int64)

        def lane(stream: np.ndarray, first: int, stop: int, values: np.ndarray) -> None:
            world_values(view.spec, states[first:stop], view.params, view.seat, moves, stream, self.greedy_rate, values)

        return self.lane_sums(lane, len(states), actions.size) / iterations

    def __repr__(self) -> str:
        guide = "" if self.guide is None else f", guide={self.guide!r}"
        if self.unguided_iterations != self.iterations:
            guide += f", unguided_iterations={self.unguided_iterations}"
        return f"{type(self).__name__}(iterations={self.iterations}, model={self.model!r}, worlds={self.worlds}{guide})"
