"""The agents every game builds on its own kernels, and the agent specs that name them.

``RandomAgent``, ``SpecGreedyAgent`` and ``SpecHeuristicAgent`` (the spec's compiled rules of
thumb), ``RolloutAgent`` (determinized rollouts) and ``PimcAgent`` (exact solving of sampled
worlds) choose from the seat's view only (the interface: ``sniff_twelve.core.agent``);
``build_agent`` builds one from an agent spec (``sniff_twelve.agents.spec``). A game's whole
table of agents is ``sniff_twelve.agents.registry.builtin_agents``.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from types import ModuleType, SimpleNamespace
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from sniff_twelve.agents.external import FORM, import_agent, installed_agents
from sniff_twelve.agents.spec import GUIDE, GUIDE_POLICY, IMPORT, OLD_NAMES, AgentSpec
from sniff_twelve.batch.threads import check_threads
from sniff_twelve.core.agent import Agent
from sniff_twelve.core.options import check_int
from sniff_twelve.core.rng import stream_state
from sniff_twelve.search.rollouts import lane_values, resampled_rollouts
from sniff_twelve.search.solver import draw_worlds
from sniff_twelve.search.worlds import WorldValues, resolve_threads, world_values

if TYPE_CHECKING:
    from sniff_twelve.core.spec import GameSpec
    from sniff_twelve.core.view import SeatView


class RandomAgent(Agent):
    """A uniformly random legal action."""

    name = "random"
    belief_kernel = "random"  # compiled inside the beliefs' sampler (sniff_twelve.beliefs)

    def __init__(self, seed: int | None = None) -> None:
        self.reset(seed)

    def probabilities(self, view: SeatView) -> np.ndarray:
        mask = view.legal_mask()
        return mask / mask.sum()

    def choose(self, view: SeatView) -> int:
        legal = view.legal_actions()
        return legal[self.rng.randrange(len(legal))]


class RolloutAgent(Agent):
    """Determinized rollouts from the game's spec (``sniff_twelve.search.rollouts``): samples the
    hidden information consistently with what is public (its ``resample``) and scores every legal
    action by compiled rollouts on the same samples (its ``rollout``: mostly the game's
    rule-of-thumb moves, partly random); plays the best mean (ties: the lowest action id). The
    spec is ``rollout[:N]``; ``rollout[:N]@ppo`` searches the moves a policy proposes
    (``sniff_twelve.agents.guided``). A decision's determinizations run in lanes of their own
    streams, on ``threads`` threads (``sniff_twelve.search.rollouts``).

    Args:
        iterations: determinizations per move (strength and time per move scale with it).
        greedy_rate: share of rollout moves played by the rule of thumb, 0–1.
        seed: the stream the lanes' streams are drawn from.
        threads: the threads the lanes run on (``None``: numba's thread count); the choices and
            values are the same for every count.
    """

    name = "rollout"
    spec_argument, spec_form = "iterations", "[:N]"
    deterministic = True
    #: the share of rule-of-thumb moves in a rollout unless ``greedy_rate`` says otherwise
    default_greedy_rate = 0.8

    def __init__(
        self,
        iterations: int = 64,
        greedy_rate: float | None = None,
        seed: int | None = None,
        threads: int | None = None,
    ) -> None:
        self.threads = check_threads(threads)
        self.iterations = check_int("iterations", iterations, 1, 1_000_000)
        rate = self.default_greedy_rate if greedy_rate is None else greedy_rate
        if isinstance(rate, bool) or not isinstance(rate, int | float) or not 0 <= rate <= 1:
            raise ValueError(f"greedy_rate must be a number between 0 and 1; got {rate!r}")
        self.greedy_rate = round(rate * 1000)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self._rng = np.array(stream_state(seed), dtype=np.int32)

    def rollout_means(self, view: SeatView, actions: np.ndarray) -> np.ndarray:
        """The mean rollout value of each of ``actions`` (legal ones), on shared determinizations."""
        moves = actions.astype(np.int64)

        def lane(stream: np.ndarray, first: int, stop: int, values: np.ndarray) -> None:
            view.run(resampled_rollouts, view.spec, moves, stop - first, stream, self.greedy_rate, values)

        return self.lane_sums(lane, self.iterations, actions.size) / self.iterations

    def lane_sums(self, lane: Callable, iterations: int, size: int) -> np.ndarray:
        """``iterations`` split into lanes (``sniff_twelve.search.rollouts.lane_values``) from this
        decision's draw of the agent's stream, on the agent's threads; the lanes' sums added up."""
        return lane_values(lane, iterations, self._rng, size, resolve_threads(self.threads)).sum(axis=0)

    def choose(self, view: SeatView) -> int:
        legal = np.flatnonzero(view.legal_mask())
        if legal.size == 1:
            return int(legal[0])
        return int(legal[np.argmax(self.rollout_means(view, legal))])

    def __repr__(self) -> str:
        return f"{type(self).__name__}(iterations={self.iterations})"


class PimcAgent(Agent):
    """Perfect-Information Monte Carlo (GIB's method in bridge): sample ``iterations`` worlds
    consistent with the seat's view (``SeatView.sample``'s compiled resampler: hand sizes and known
    voids kept), solve them exactly (``sniff_twelve.search.worlds``: each action only as far as
    telling the best mean needs), play the best mean value (ties: the lowest action id). Only the
    view is read; the worlds are its guesses.

    A world whose solve needs more than ``max_nodes`` nodes is replaced by another draw (at most
    ``2 * iterations`` draws), so a move's time is bounded; the rare move none of whose worlds
    fits plays the game's rule of thumb (its spec's ``greedy_action``, the ``greedy`` agent's policy).

    With a ``model`` (``pimc:K:MODEL``, an agent spec of the game without ``+`` or ``@``, or ``none``) the
    worlds are drawn from the seat's beliefs instead (``sniff_twelve.beliefs.infer``: the other
    seats assumed to play as ``MODEL``, softened by ``epsilon``; ``belief_worlds`` weighted worlds
    kept), as the ``belief`` search draws them.

    Args:
        iterations: worlds per move (``pimc:K``; ``pimc`` alone = ``default_worlds``).
        seed: the stream the worlds are drawn from.
        max_nodes: the node budget of one world's solve.
        model: ``None`` (worlds by the rules: sizes and known voids) or the model of the beliefs.
        epsilon: the beliefs' softening of the model (``infer``'s ``epsilon``).
        belief_worlds: the weighted worlds the beliefs keep.
        particles: ``None`` (``infer`` at every decision) or the particles of a ``BeliefTracker``
            kept from one decision to the next (``sniff_twelve.beliefs.tracker``; reset with the agent).
        threads: the threads the worlds are solved on (``None``: numba's thread count); the
            choices are the same for every count.
    """

    name = "pimc"
    spec_argument, spec_form = "iterations", "[:K[:MODEL]]"
    deterministic = True
    solver_hooks: ClassVar[GameSpec]
    default_worlds = 8
    default_max_nodes = 500_000
    #: cards of the draw pile each world keeps (0: all of them, an exact solve of every world)
    horizon = 0

    def __init__(
        self,
        iterations: int | None = None,
        seed: int | None = None,
        max_nodes: int | None = None,
        model: str | None = None,
        epsilon: float = 0.3,
        belief_worlds: int = 128,
        particles: int | None = None,
        threads: int | None = None,
    ) -> None:
        self.threads = check_threads(threads)
        self.iterations = check_int("iterations", self.default_worlds if iterations is None else iterations, 1, 100_000)
        self.max_nodes = check_int("max_nodes", self.default_max_nodes if max_nodes is None else max_nodes, 1, 1 << 62)
        if model is not None and (not isinstance(model, str) or "+" in model or not model):
            raise ValueError(f"model is an agent spec without '+' (or 'none'); got {model!r}")
        if isinstance(epsilon, bool) or not isinstance(epsilon, int | float) or not 0 < epsilon <= 1:
            raise ValueError(f"epsilon must be a number in (0, 1]; got {epsilon!r}")
        self.model, self.epsilon = model, float(epsilon)
        self.belief_worlds = check_int("belief_worlds", belief_worlds, 1, 1 << 20)
        self.particles = None if particles is None else check_int("particles", particles, 1, 1 << 20)
        self.reads_past = model is not None  # the beliefs read the seat's memory of the deal
        agents = game_agents(self.solver_hooks) if model not in (None, "none") else None
        self._model = None if agents is None else agents.make_agent(model)
        self.reset(seed)

    @classmethod
    def parse_argument(cls, agent_spec: str, argument: str) -> dict:
        """The keywords ``pimc:K[:MODEL]`` names; ``ValueError`` for a bad count."""
        return count_and_model(agent_spec, argument, "K in pimc:K[:MODEL]")

    def reset(self, seed: int | None = None) -> None:
        self._rng = np.array(stream_state(seed), dtype=np.int32)
        self._seeds = np.random.default_rng(None if seed is None else check_int("seed", seed, 0))
        self._tracker, self._tracker_seed = None, seed
        if getattr(self, "_model", None) is not None:
            self._model.reset(seed)

    def check_table(self, num_players: int) -> None:
        if self._model is not None:
            self._model.check_table(num_players)

    def action_values(self, view: SeatView) -> dict[int, float] | None:
        """Every legal action's mean solved value over the sampled worlds (the seat's side's
        points minus the others', from now to the end of the hand or game); ``None`` when no
        world was solved within the budget."""
        legal = view.legal_actions()
        found = self._world_values(view, legal, refine=False)
        return {a: float(found.totals[a] / found.worlds) for a in legal} if found.worlds else None

    def _world_values(self, view: SeatView, legal: list[int], refine: bool) -> WorldValues:
        """The worlds' sums (``sniff_twelve.search.worlds``): every action exact, or with ``refine``
        only as far as ranking the first one needs."""
        hooks = self.solver_hooks
        wanted = np.full(hooks.MAX_ACTIONS, not refine, dtype=np.bool_)
        if self.model is None:

            def rows(count: int) -> np.ndarray:
                worlds = np.empty((count, hooks.ROW_SIZE), dtype=np.int32)
                view.run(draw_worlds, hooks, view.seat, self._rng, worlds)
                return worlds

        else:
            states, taken = self._belief_worlds(view, 2 * self.iterations), 0

            def rows(count: int) -> np.ndarray:
                nonlocal taken
                taken += count
                return states[taken - count : taken]

        limit, threads = 2 * self.iterations, resolve_threads(self.threads)
        return world_values(
            hooks, view.params, view.seat, legal, rows, self.iterations, limit, self.max_nodes, wanted,
            self.horizon, refine, threads,
        )  # fmt: skip

    def _belief_worlds(self, view: SeatView, count: int) -> np.ndarray:
        """``count`` full positions drawn from the seat's beliefs (the rules' worlds when ``infer``
        finds no consistent deal within its budget)."""
        from sniff_twelve.beliefs import infer
        from sniff_twelve.beliefs.tracker import follow

        seed = int(self._seeds.integers(1 << 62))
        try:
            if self.particles is None:
                beliefs = infer(view, self._model, worlds=self.belief_worlds, seed=seed, epsilon=self.epsilon)
            else:
                self._tracker = follow(
                    self._tracker, view, self._model, self.particles, self._tracker_seed, self.epsilon
                )
                beliefs = self._tracker.update(view)
            return beliefs.states(count, seed=seed + 1)
        except ValueError:
            return np.stack([view.sample(seed + 1 + k).state_array for k in range(count)])

    def choose(self, view: SeatView) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        found = self._world_values(view, legal, refine=True)
        if not found.worlds:
            return int(view.run(view.spec.greedy_action))
        return found.ranked_first(legal)

    def __repr__(self) -> str:
        model = "" if self.model is None else f", model={self.model!r}"
        return f"{type(self).__name__}(iterations={self.iterations}, max_nodes={self.max_nodes}{model})"


class SpecPolicyAgent(Agent):
    """A rule of thumb every ``GameSpec`` declares, run on the seat's view: ``kernel`` names it."""

    deterministic = True
    kernel: ClassVar[str]

    def choose(self, view: SeatView) -> int:
        return int(view.run(getattr(view.spec, self.kernel)))


class SpecGreedyAgent(SpecPolicyAgent):
    """The spec's ``greedy_action``."""

    name, kernel, belief_kernel = "greedy", "greedy_action", "greedy"


class SpecHeuristicAgent(SpecPolicyAgent):
    """The spec's ``heuristic_action``."""

    name, kernel, belief_kernel = "heuristic", "heuristic_action", "heuristic"


#: the agents a game gets from its ``GameSpec`` alone (``spec_make_agent``)
SPEC_AGENTS: dict[str, type[Agent]] = {
    "random": RandomAgent,
    "greedy": SpecGreedyAgent,
    "heuristic": SpecHeuristicAgent,
    "rollout": RolloutAgent,
}


def spec_make_agent(agent_spec: str, **kwargs) -> Agent:
    """``make_agent`` of a game that writes no agents of its own: ``SPEC_AGENTS`` (and ``py:`` specs)."""
    return build_agent(SPEC_AGENTS, agent_spec, **kwargs)


def game_agents(spec: GameSpec) -> ModuleType | SimpleNamespace:
    """The agents of ``spec``'s game: its ``agents`` part (``make_agent``, ``AGENTS``,
    the entry-point group named after it), or for a game that declares none the spec's own (``SPEC_AGENTS``)."""
    return spec.part("agents") or SimpleNamespace(AGENTS=SPEC_AGENTS, make_agent=spec_make_agent)


def count_and_model(agent_spec: str, argument: str, what: str, then: str = "model") -> dict:
    """``N[:MODEL]`` after a search's name (``belief:N[:MODEL]``, ``pimc:K[:MODEL]``,
    ``guided:N[:CHECKPOINT]``) as keywords: ``iterations`` and, if given, the keyword ``then``
    (``model``, ``checkpoint``); ``ValueError`` naming ``what`` for a bad count."""
    count, _, rest = argument.partition(":")
    if not count.isdigit() or int(count) < 1:
        raise ValueError(f"agent spec {agent_spec!r}: {what} is a number of worlds, at least 1")
    return {"iterations": int(count), **({then: rest} if rest else {})}


#: the policy-guided rollout search (``sniff_twelve.agents.guided``): the preset ``rollout:N@ppo``
GUIDED_NAME = "guided"
#: the searches a policy guides (``SEARCH[:ARG]@ppo[:CHECKPOINT]``), each with the entry that builds
#: it so guided (its ``guide_keywords`` read the checkpoint)
GUIDED_SEARCHES = {"rollout": GUIDED_NAME, "belief": "belief"}


def build_agent(
    registry: dict[str, type[Agent]], agent_spec: str | AgentSpec, group: str | None = None, **kwargs
) -> Agent:
    """The agent ``agent_spec`` names (the grammar: docs/agents.md) from ``registry`` (name →
    class), the agents installed packages register in the entry-point ``group``, or an import path
    (``sniff_twelve.agents.external``); ``kwargs`` go to the agent. ``ValueError`` for a bad spec,
    an unknown name with the names there are."""
    if not isinstance(agent_spec, AgentSpec):
        agent_spec = AgentSpec.parse(agent_spec)
    name, argument = agent_spec.name, agent_spec.argument
    if name == IMPORT:
        return import_agent(str(agent_spec), **kwargs)
    if agent_spec == AgentSpec("belief") and (strongest := getattr(registry.get("belief"), "strongest", None)):
        return registry["belief"](**{**strongest, **kwargs})  # the game's best belief setting
    if name not in registry:
        installed = installed_agents(group) if group else {}
        if name in installed and agent_spec.guide is None:
            return import_agent(f"{IMPORT}:{installed[name]}" + (f":{argument}" if argument else ""), **kwargs)
        if name not in installed:
            listed = f"built-in agents: {', '.join(registry)}"
            if installed:
                listed += f"; installed: {', '.join(installed)}"
            close = difflib.get_close_matches(name, [*registry, *installed, *OLD_NAMES], n=1)
            hint = f" (did you mean {OLD_NAMES.get(close[0], close[0])!r}?)" if close else ""
            raise ValueError(f"unknown agent {name!r}{hint}; {listed}; or {FORM}")
    guided = None if agent_spec.guide is None else guided_search(registry, agent_spec)
    if argument:
        kwargs.update(argument_keywords(registry[name], agent_spec))
    if guided is None:
        return registry[name](**kwargs)
    return guided(**{**kwargs, **guided.guide_keywords(agent_spec.guide.argument)})


def argument_keywords(cls: type[Agent], agent_spec: AgentSpec) -> dict:
    """The keywords ``agent_spec``'s argument gives ``cls``: its ``parse_argument``, else a count of
    iterations or the one keyword ``spec_argument`` names; ``ValueError`` for a bad one."""
    text, name, argument = str(agent_spec), agent_spec.name, agent_spec.argument
    keyword = getattr(cls, "spec_argument", None)
    if hasattr(cls, "parse_argument"):
        return cls.parse_argument(text, argument)
    if keyword == "iterations":
        if not argument.isdigit() or int(argument) < 1:
            raise ValueError(f"agent spec {text!r}: what follows ':' is a number of iterations, at least 1")
        return {"iterations": int(argument)}
    if keyword is None:
        raise ValueError(f"agent spec {text!r}: {name!r} takes no argument after ':'")
    return {keyword: argument}


def guided_search(registry: dict[str, type[Agent]], agent_spec: AgentSpec) -> type[Agent]:
    """The class of the search ``agent_spec`` names with its guide (``GUIDED_SEARCHES``);
    ``ValueError`` for a search no policy guides, or a guide that is not the trained policy."""
    text, guide = str(agent_spec), agent_spec.guide
    searches = [search for search, entry in GUIDED_SEARCHES.items() if entry in registry]
    if agent_spec.name not in searches:
        guided = f"a policy guides {', '.join(searches)}" if searches else "this game has no guided search"
        raise ValueError(f"agent spec {text!r}: {agent_spec.name!r} takes no {GUIDE}POLICY ({guided})")
    if guide.name != GUIDE_POLICY:
        raise ValueError(
            f"agent spec {text!r}: a search is guided by the trained policy, {GUIDE}{GUIDE_POLICY}[:CHECKPOINT]; "
            f"got {GUIDE}{guide}"
        )
    return registry[GUIDED_SEARCHES[agent_spec.name]]
