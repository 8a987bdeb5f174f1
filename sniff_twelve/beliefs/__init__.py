"""Beliefs: where the tiles or cards a seat cannot see are, given what the other seats did.

``infer(view, model)`` weighs every deal consistent with a seat's view (``Game.seat_view``) by
how likely it makes the other seats' actions of the current deal under ``model`` — an agent, or
its spec string, assumed to play every other seat — and returns the posterior as ``Beliefs``:
expected counts of each unseen item at each place, and full games drawn from it for a search to
play on. With ``model=None`` every consistent deal is equally likely: only the rules speak (hand
sizes, known voids, what a forced draw rules out). The view is all it reads; the sampler and
its weights are ``sniff_twelve.beliefs.kernels``. With ``learned=`` a trained network predicts the
marginals from the view instead, and worlds are drawn from them (``sniff_twelve.beliefs.learned``).

>>> import sniff_env
>>> from sniff_twelve.beliefs import infer
>>> game = sniff_env.Game(num_players=4, seed=1)
>>> for _ in range(6):
...     game.apply(game.legal_actions()[0])
>>> beliefs = infer(game.seat_view(0), model="greedy", worlds=64, seed=0)
>>> beliefs.marginals.shape == (len(beliefs.items), len(beliefs.places))
True
>>> bool(abs(beliefs.marginals.sum(axis=1) - 1).max() < 1e-9)  # each tile is somewhere
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from sniff_twelve.beliefs import kernels as BK
from sniff_twelve.core.agent import SOFTENING
from sniff_twelve.core.options import check_int, check_seed
from sniff_twelve.core.rng import stream_state

if TYPE_CHECKING:
    from pathlib import Path

    from sniff_twelve.beliefs.learned import BeliefNet
    from sniff_twelve.core.agent import Agent
    from sniff_twelve.core.game import BaseGame
    from sniff_twelve.core.view import SeatView

#: the compiled models: an agent whose ``belief_kernel`` names one is evaluated inside the sampler
COMPILED_MODELS = {"random": BK.MODEL_RANDOM, "greedy": BK.MODEL_GREEDY, "heuristic": BK.MODEL_HEURISTIC}
#: deals tried per world asked for, at most (a deal the history rules out costs one try), but
#: never fewer than ``MIN_PROPOSALS`` (a long history of forced draws can rule out most deals)
PROPOSALS_PER_WORLD, MIN_PROPOSALS = 64, 100_000
#: the effective sample size ``infer`` keeps at the least (``infer``'s ``min_ess``; chosen in
#: docs/beliefs.md, "Never worse than the rules alone")
MIN_ESS = 32


@dataclass
class Beliefs:
    """A seat's posterior over the unseen items (``infer`` makes it).

    Attributes:
        items: the unseen items in the game's own format (Sniff tiles ``(low, high)``; "12" rank ids).
        places: the other seats, in seat order, then ``"boneyard"`` or ``"stock"``.
        marginals: ``[items, places]``: the expected count of each item at each place (Sniff:
            a probability; "12": up to the rank's hidden count).
        ess: the effective sample size of the weighted worlds, ``(Σw)² / Σw²``.
        worlds: worlds kept (consistent with the history); ``tried``: deals drawn to find them.
        temperature: the power the model's likelihood was raised to (``infer``'s ``min_ess``):
            1, the posterior; below 1, tempered towards the rules alone.
    """

    items: list
    places: list
    marginals: np.ndarray
    ess: float
    worlds: int
    tried: int
    weights: np.ndarray = field(repr=False)
    holdings: np.ndarray = field(repr=False)  # [worlds, places, ITEMS]
    view: SeatView = field(repr=False)
    temperature: float = 1.0

    def sample(self, k: int, seed: int | None = 0) -> list[BaseGame]:
        """``k`` full games drawn from the posterior (worlds picked by weight, each boneyard or
        stock in a fresh random order): positions a search can play on."""
        view = self.view
        return [view._game_cls._from_row(state, view.params) for state in self.states(k, seed)]

    def states(self, k: int, seed: int | None = 0) -> np.ndarray:
        """``sample``'s positions as state rows, ``[k, row]``."""
        k = check_int("k", k, 0, 1 << 30)
        rng = np.random.default_rng(check_seed(seed))
        picks = rng.choice(self.worlds, size=k, p=self.weights)
        view = self.view
        stream = np.array(stream_state(int(rng.integers(1 << 62))), dtype=np.int32)
        states = np.empty((k, view.array.shape[0]), dtype=view.array.dtype)
        BK.world_states(view.spec, view.array, view.params, view.seat, self.holdings, picks, stream, states)
        return states

    def about(self, place: Any) -> np.ndarray:
        """The column of ``marginals`` for ``place`` (a seat, or the boneyard / stock's name)."""
        return self.marginals[:, self.places.index(place)]


def infer(
    view: SeatView,
    model: Agent | str | None = None,
    worlds: int = 256,
    seed: int | None = 0,
    epsilon: float = SOFTENING,
    learned: str | Path | BeliefNet | None = None,
    min_ess: float = MIN_ESS,
    max_worlds: int | None = None,
) -> Beliefs:
    """The posterior of ``view``'s seat over what it cannot see (module docstring).

    Args:
        view: ``Game.seat_view(seat)``; nothing else is read.
        model: how the other seats are assumed to play: an agent (its ``probabilities(view)``),
            an agent spec of the game (``"ppo"``, ``"greedy"``, …), or ``None`` (rules only).
        worlds: weighted worlds to keep (``PROPOSALS_PER_WORLD`` deals tried for each, at most).
        seed: the sampler's stream; the same view and seed give the same beliefs.
        epsilon: the share of uniform play over the legal moves mixed into the model's
            probabilities, ``(1 - ε) p + ε / legal`` — how far the other seats may stray from the
            model. The rules of thumb (``greedy``, ``heuristic``) enter as their one move, so the
            default is their softening in ``Agent.probabilities`` (``SOFTENING``).
        learned: a trained belief network (``sniff_twelve.beliefs.learned``): a path, one
            loaded, or ``"shipped"`` for the game's own. Its marginals replace the replayed
            worlds' and ``worlds`` deals are drawn from them, equally weighted; ``model`` must
            then be ``None`` or the agent spec it was trained on, and ``epsilon`` is not read.
        min_ess: the effective sample size the beliefs keep at the least. Below it, ``worlds``
            more are drawn while ``max_worlds`` allows, and if the weights are still that
            collapsed the model's likelihood is tempered — raised to the power
            ``Beliefs.temperature`` < 1, as adaptive SMC does — until they are not: a few worlds
            that happen to fit the play cannot pull the beliefs further from the deal than the
            rules alone. ``0``: the plain importance sampler.
        max_worlds: the most worlds drawn in all when ``min_ess`` asks for more (default
            ``worlds``: none more; each batch of ``worlds`` costs as much as the first).
    """
    worlds = check_int("worlds", worlds, 1, 1 << 20)
    if isinstance(epsilon, bool) or not isinstance(epsilon, int | float) or not 0 <= epsilon <= 1:
        raise ValueError(f"epsilon must be a number from 0 to 1; got {epsilon!r}")
    check_min_ess(min_ess)
    max_worlds = worlds if max_worlds is None else check_int("max_worlds", max_worlds, worlds, 1 << 24)
    if learned is not None:
        return _learned(view, model, worlds, seed, learned)
    agent = _resolve(model, view)
    kind = (
        BK.MODEL_NONE if agent is None else COMPILED_MODELS.get(getattr(agent, "belief_kernel", ""), BK.MODEL_OUTSIDE)
    )
    rng = np.array(stream_state(seed), dtype=np.int32)
    batches, drawn = [], 0
    while True:
        batches.append(_worlds(view, agent, kind, worlds, epsilon, seed, rng))
        drawn += worlds
        logw = np.concatenate([b[1] for b in batches])
        if drawn + worlds > max_worlds or not logw.size or _ess(logw) >= min_ess:
            break
    holdings, logw, loglik = (np.concatenate([b[k] for b in batches]) for k in range(3))
    if not logw.size:
        raise ValueError("no deal of the hidden items is consistent with this view's history")
    temperature = _temperature(logw - loglik, loglik, min_ess)
    weights = _normalised(logw - (1 - temperature) * loglik)
    hidden = np.flatnonzero(holdings[0].sum(axis=0))
    marginals = np.einsum("w,wpi->ip", weights, holdings)[hidden]
    seats = [s for s in range(view.params[0]) if s != view.seat]
    return Beliefs(
        items=[view.spec.item_names[i] for i in hidden],
        places=[*seats, view.spec.pool_name],
        marginals=marginals,
        ess=float(1.0 / np.square(weights).sum()),
        worlds=int(logw.size),
        tried=int(sum(b[3] for b in batches)),
        weights=weights,
        holdings=holdings,
        view=view,
        temperature=temperature,
    )


def check_min_ess(min_ess: float) -> float:
    """``min_ess`` if it is a number from 0 to 2²⁰, else a ``ValueError`` naming it."""
    if isinstance(min_ess, bool) or not isinstance(min_ess, int | float) or not 0 <= min_ess <= 1 << 20:
        raise ValueError(f"min_ess must be a number from 0 to {1 << 20}; got {min_ess!r}")
    return min_ess


def _worlds(
    view: SeatView, agent: Agent | None, kind: int, worlds: int, epsilon: float, seed: int | None, rng: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """One batch of the importance sampler (``kernels.sample_worlds``) from the stream ``rng``:
    ``(holdings, logw, loglik, tried)`` of the worlds kept, ``loglik`` the model's part of ``logw``."""
    spec, me, params = view.spec, view.seat, view.params
    past, actions, now = view.past, view.past_actions, view.array
    others = [t for t in range(len(actions) - 1, -1, -1) if past[t][spec.CUR] != me]
    decisions = np.empty((worlds if kind == BK.MODEL_OUTSIDE else 1, max(len(others), 1), now.shape[0]), now.dtype)
    holdings = np.empty((worlds, params[0], spec.ITEMS), dtype=np.int64)
    logw, loglik = np.empty(worlds), np.empty(worlds)
    kept, tried = BK.sample_worlds(
        spec, past, actions, now, params, me, kind, epsilon, max(PROPOSALS_PER_WORLD * worlds, MIN_PROPOSALS), rng,
        holdings, logw, loglik, decisions,
    )  # fmt: skip
    holdings, logw, loglik = holdings[:kept], logw[:kept], loglik[:kept]
    if kind == BK.MODEL_OUTSIDE and others and kept:
        loglik = _outside_log_likelihood(agent, view, decisions[:kept], actions[others], seed, epsilon)
        logw = logw + loglik
    return holdings, logw, loglik, int(tried)


def _normalised(logw: np.ndarray) -> np.ndarray:
    weights = np.exp(logw - logw.max())
    return weights / weights.sum()


def _ess(logw: np.ndarray) -> float:
    return float(1.0 / np.square(_normalised(logw)).sum())


def _temperature(logprior: np.ndarray, loglik: np.ndarray, min_ess: float) -> float:
    """The largest ``β`` in [0, 1] (to 1/1024) whose weights ``logprior + β loglik`` keep an
    effective sample size of ``min_ess`` (1 when the untempered ones do; 0 when not even the rules'
    weights do)."""
    if not loglik.any() or _ess(logprior + loglik) >= min_ess:
        return 1.0
    low, high = 0.0, 1.0
    for _ in range(10):
        middle = (low + high) / 2
        low, high = (middle, high) if _ess(logprior + middle * loglik) >= min_ess else (low, middle)
    return low


def _learned(view: SeatView, model: Any, worlds: int, seed: int | None, learned: Any) -> Beliefs:
    """``infer`` with a belief network: its marginals, and worlds drawn from them."""
    from sniff_twelve.beliefs import learned as LB

    net = LB.load(learned, view)
    if model is not None and model != net.meta["model"]:
        raise ValueError(f"the belief network learned the play of {net.meta['model']!r}, not {model!r}")
    spec, me, params = view.spec, view.seat, view.params
    marginals = LB.marginals(view, net)
    hidden = marginals.sum(axis=1)
    weights = np.zeros((params[0], spec.ITEMS))
    shown = np.flatnonzero(hidden > 0)
    weights[:, shown] = (marginals[shown] / hidden[shown, None]).T
    holdings = np.empty((worlds, params[0], spec.ITEMS), dtype=np.int64)
    rng = np.array(stream_state(seed), dtype=np.int32)
    if not BK.deal_from_weights(spec, view.array, params, me, weights, rng, holdings):
        raise ValueError("no deal of the hidden items is consistent with this view")
    seats = [s for s in range(params[0]) if s != me]
    return Beliefs(
        items=[spec.item_names[i] for i in shown],
        places=[*seats, spec.pool_name],
        marginals=marginals[shown],
        ess=float(worlds),
        worlds=worlds,
        tried=worlds,
        weights=np.full(worlds, 1.0 / worlds),
        holdings=holdings,
        view=view,
    )


def _resolve(model: Agent | str | None, view: SeatView) -> Agent | None:
    """The model as an agent (a spec string is built by the game's ``make_agent``)."""
    if model is None:
        return None
    if isinstance(model, str):
        agents = view.spec.part("agents")
        if agents is None:
            raise ValueError(f"{view.spec.title} declares no agents to build the model {model!r} from")
        model = agents.make_agent(model)
    if not callable(getattr(model, "probabilities", None)):
        raise TypeError(f"model must be an agent, an agent spec or None; got {model!r}")
    model.check_table(int(view.params[0]))
    return model


def _outside_log_likelihood(
    agent: Agent, view: SeatView, decisions: np.ndarray, actions: np.ndarray, seed: int | None, epsilon: float
) -> np.ndarray:
    """``Σ_d log P(action_d)`` per world under ``agent`` mixed with ``epsilon`` of uniform play,
    from the views the sampler stored (rows of ``-1`` where the seat had no choice)."""
    worlds, count, _ = decisions.shape
    rows = decisions.reshape(worlds * count, -1)
    chosen = np.tile(actions, worlds)
    live = np.flatnonzero(rows[:, 0] >= 0)
    probabilities = np.ones(rows.shape[0])
    if live.size:
        agent.reset(seed)
        p, inverse = softened_probabilities(agent, view, rows[live], epsilon)
        probabilities[live] = p[inverse, chosen[live]]
    return np.log(np.maximum(probabilities, 1e-300)).reshape(worlds, count).sum(axis=1)


def softened_probabilities(
    agent: Agent, view: SeatView, rows: np.ndarray, epsilon: float
) -> tuple[np.ndarray, np.ndarray]:
    """``(p, inverse)``: ``p[i]`` the probabilities ``agent`` gives in the ``i``-th distinct view of
    ``rows`` (views the sampler rebuilt, each evaluated once, batched where the agent can), mixed
    with ``epsilon`` of uniform play over its legal actions; ``inverse[r]`` the distinct view of
    row ``r`` (worlds often agree on what a seat held at a step)."""
    distinct, inverse = _distinct(rows)
    batch = getattr(agent, "batch_probabilities", None)
    if batch is not None:
        p = batch(view._game_cls, distinct, view.params)
    else:
        p = np.stack([agent.probabilities(_view_of(view, row)) for row in distinct])
    legal = np.empty(distinct.shape[0], dtype=np.int64)
    BK.legal_counts(view.spec, distinct, view.params, legal)
    return (1 - epsilon) * p + epsilon / legal[:, None], inverse


def _distinct(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of ``rows`` and, for each row, the index of its copy among them (by a
    hash of each row, checked; byte comparison should two rows ever share one)."""
    hashes = np.empty(rows.shape[0], dtype=np.uint64)
    BK.row_hashes(rows, hashes)
    _, first, inverse = np.unique(hashes, return_index=True, return_inverse=True)
    if not np.array_equal(rows[first][inverse], rows):
        keys = np.ascontiguousarray(rows).view(np.dtype((np.void, rows.itemsize * rows.shape[1]))).ravel()
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    return rows[first], inverse


def _view_of(view: SeatView, row: np.ndarray) -> SeatView:
    """The seat view whose row is ``row`` (a view the sampler rebuilt; its seat is to act)."""
    from sniff_twelve.core.view import SeatView

    return SeatView(view._game_cls, row.copy(), view.params, int(row[view.spec.CUR]), view.obs_size, view.num_actions)
