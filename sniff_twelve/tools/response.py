"""Learning a best response to a frozen agent: PPO on the batched ``vector_env`` rows.

``train_response`` seats the learner at every seat of the table in turn (one ``vector_env`` per
seat, its rows stepped in one compiled call) with the frozen agent at the others, and pays it
its margin (``vector_env(margin=True)``: its side's points minus the other side's), so what it
learns to maximise is exactly what ``compare`` measures. With partners (4-player Sniff) the
learning side plays both its seats, each from its own view, with one network: the partner seat
is a frozen copy of the learner, renewed after every update. With ``partner=True`` the learner
sits beside the agent instead, the agent at the three other seats: a partner adapted to it.

The network is a ReLU MLP over the seat's observation whose logits add ``action features @
gains`` (each action's one-step look-ahead, ``GameSpec.action_feature_names``), the form of the
shipped ``ppo`` checkpoints: it exports to an ``MlpPolicy`` that plays as ``ppo:PATH`` and that
the compiled drivers run. It may start from a checkpoint (``start``) of the same sizes — the
table's shipped ``ppo`` is a strong opening — and then trains its value head alone for a few
updates, so the first policy steps follow a critic that knows the margin.

Needs the ``train`` extra (PyTorch).
"""

from __future__ import annotations

import itertools
import math
import time
import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import torch
from torch import nn
from tqdm import tqdm

from sniff_twelve.batch.mlp import MlpPolicy
from sniff_twelve.core.games import game_package

if TYPE_CHECKING:
    from sniff_twelve.batch.learner import ViewPolicy
    from sniff_twelve.core.seats import Table


@dataclass(frozen=True)
class Settings:
    """PPO's settings for a best response, fixed before any bound was settled (none is tuned on a
    settling seed)."""

    rows: int = 128  # games per learner seat, stepped together
    rollout: int = 32  # learner decisions per row between updates
    hidden: tuple[int, ...] = (256, 256)
    lr: float = 3e-4
    gain_lr: float = 10.0  # the feature gains' learning-rate multiplier
    epochs: int = 4
    minibatch: int = 4096
    lam: float = 0.95  # GAE's λ; γ is 1: the margin of the whole game counts
    clip: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    critic_warmup: int = 5  # updates that train only the critic after a warm start


class ResponseNet(nn.Module):
    """The response's actor-critic: ``logits = head(trunk(obs / scale)) + features @ gains``."""

    def __init__(self, obs_size: int, num_actions: int, features: int, hidden: tuple[int, ...], scale: np.ndarray):
        super().__init__()
        sizes = [obs_size, *hidden]
        self.trunk = nn.ModuleList(nn.Linear(a, b) for a, b in itertools.pairwise(sizes))
        self.policy = nn.Linear(sizes[-1], num_actions)
        self.value = nn.Linear(sizes[-1], 1)
        nn.init.orthogonal_(self.policy.weight, gain=0.01)
        nn.init.zeros_(self.policy.bias)
        self.gains = nn.Parameter(torch.zeros(features))
        self.register_buffer("scale", torch.as_tensor(scale, dtype=torch.float32))

    def forward(self, obs: torch.Tensor, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``(logits [B, A], value [B])`` of observations ``[B, D]`` and action features ``[B, A, F]``."""
        x = obs / self.scale
        for layer in self.trunk:
            x = torch.relu(layer(x))
        return self.policy(x) + features @ self.gains, self.value(x).squeeze(-1)

    def load_policy(self, policy: MlpPolicy) -> None:
        """Start from ``policy``'s weights (same sizes; its value head too if it has one)."""
        layers = [*policy.layers, policy.policy_head]
        with torch.no_grad():
            for i, (module, (w, b)) in enumerate(zip([*self.trunk, self.policy], layers, strict=True)):
                w = torch.tensor(w).T
                if i == 0:  # the checkpoint reads raw inputs; this network divides them by ``scale`` first
                    w *= self.scale[None, :]
                module.weight.copy_(w)
                module.bias.copy_(torch.tensor(b))
            if policy.action_feature_gains is not None:
                self.gains.copy_(torch.tensor(policy.action_feature_gains))

    def export(self, meta: dict[str, Any]) -> MlpPolicy:
        """The policy as an ``MlpPolicy`` (the input scale folded into the first layer)."""
        weights: dict[str, np.ndarray] = {}
        for i, layer in enumerate(self.trunk):
            w = layer.weight.detach().numpy().T.copy()
            if i == 0:
                w /= self.scale.numpy()[:, None]
            weights[f"w{i}"], weights[f"b{i}"] = w, layer.bias.detach().numpy().copy()
        weights["policy_w"] = self.policy.weight.detach().numpy().T.copy()
        weights["policy_b"] = self.policy.bias.detach().numpy().copy()
        weights["action_feature_gains"] = self.gains.detach().numpy().copy()
        return MlpPolicy(weights, meta)


@dataclass
class Response:
    """A trained response: its ``policy`` and what the training cost and saw."""

    policy: MlpPolicy
    steps: int = 0  # learner decisions trained on
    updates: int = 0
    seconds: float = 0.0
    curve: list[list[float]] = field(default_factory=list)  # [decisions, mean margin of the games ended since]
    unknown_views: int = 0  # views a ``ViewPolicy`` opponent lacked (it played at random there)


def train_response(
    table: Table,
    against: str | ViewPolicy,
    *,
    minutes: float | None = 5.0,
    steps: int | None = None,
    seed: int = 0,
    partner: bool = False,
    start: MlpPolicy | None = None,
    settings: Settings = Settings(),
    progress: bool = True,
) -> Response:
    """Train a response to ``against`` (an agent the compiled drivers play: ``random``, ``greedy``,
    ``heuristic``, ``ppo``, ``ppo:PATH``, a ``ViewPolicy``) at ``table`` (module docstring) for ``minutes`` of
    training, or until ``steps`` learner decisions, whichever comes first (``None``: no such
    limit); with ``partner`` the learner partners ``against`` instead. Seeded: with a ``steps``
    budget the same call gives the same response on the same machine (a time budget stops
    wherever the clock says)."""
    spec = table.spec
    package = game_package(spec.name)
    sides = table.sides
    if partner and not (sides and all(len(side) == 2 for side in sides)):
        raise ValueError(f"a partner needs partnerships; {spec.title} with {table.num_players} players has none")
    seats = [side[0] for side in sides] if partner else list(range(table.num_players))
    mates = {seat: next((s for side in sides or () if seat in side for s in side if s != seat), None) for seat in seats}
    torch.manual_seed(seed)
    envs = [
        package.vector_env(
            settings.rows,
            num_players=table.num_players,
            opponents=against,
            partner=against if mates[seat] is not None else None,
            seat=seat,
            seed=seed * len(seats) + k,
            action_features=True,
            reward=spec.points_reward,
            margin=True,
            **table.options,
        )
        for k, seat in enumerate(seats)
    ]
    params = spec.make_params(table.num_players, **table.options)
    obs_size, _, num_actions = spec.widths(params)
    features = len(spec.action_feature_names)
    low, high = spec.observation_bounds(params)
    scale = np.maximum(np.maximum(np.abs(low), np.abs(high)), 1.0)
    scale[~np.isfinite(scale)] = 1.0
    net = ResponseNet(obs_size, num_actions, features, tuple(settings.hidden), scale)
    warm = start is not None
    if warm:
        if not start.fits(obs_size, num_actions, features):
            raise ValueError("the start checkpoint does not fit this table's observation, actions and features")
        net = ResponseNet(obs_size, num_actions, features, tuple(w.shape[1] for w, _ in start.layers), scale)
        net.load_policy(start)
    meta = {
        "game": spec.name,
        "num_players": table.num_players,
        "obs_size": obs_size,
        "num_actions": num_actions,
        "action_features": list(spec.action_feature_names),
        "algorithm": "learned best response (sniff_twelve.tools.response)",
        "against": str(against),
        "partner": partner,
        "options": table.options,
        "seed": seed,
    }
    self_partner = not partner and any(mate is not None for mate in mates.values())
    trainer = _Trainer(net, settings, envs, meta, self_partner, against)
    obs = [env.reset(seed=seed * len(seats) + k)[0] for k, env in enumerate(envs)]
    response = Response(net.export(meta))
    seconds = math.inf if minutes is None else minutes * 60.0
    ended = [0.0, 0]
    if steps is None:  # the bar counts what ends the training: seconds, or decisions
        total, unit = seconds, "s of training"
    else:
        total, unit = steps, "decisions"
    layout = "{l_bar}{bar}| {n:,.0f}/{total:,.0f} " + unit + " [{elapsed} elapsed{postfix}]"
    with tqdm(total=total, bar_format=layout, disable=not progress, dynamic_ncols=True) as bar:
        while response.seconds < seconds and (steps is None or response.steps < steps):
            tick = time.perf_counter()
            obs = trainer.collect(obs, ended)
            trainer.update(value_only=warm and response.updates < settings.critic_warmup)
            trainer.refresh_partners()
            response.updates += 1
            response.steps += settings.rollout * settings.rows * len(envs)
            response.seconds += time.perf_counter() - tick
            if ended[1]:
                response.curve.append([response.steps, ended[0] / ended[1]])
                bar.set_postfix({"margin": f"{ended[0] / ended[1]:+.2f}"})
                ended[:] = [0.0, 0]
            bar.update(min(response.seconds if steps is None else response.steps, total) - bar.n)
    response.unknown_views = sum(env.unknown_views for env in envs)
    if response.unknown_views:
        warnings.warn(
            f"the tabulated opponent met {response.unknown_views} views its table lacks and played at random there",
            stacklevel=2,
        )
    meta.update(decisions=response.steps, updates=response.updates, train_seconds=round(response.seconds, 1))
    response.policy = net.export(meta)
    return response


class _Trainer:
    """One PPO learner over several ``vector_env`` (one per learner seat)."""

    def __init__(
        self,
        net: ResponseNet,
        settings: Settings,
        envs: list,
        meta: dict[str, Any],
        self_partner: bool,
        against: str,
    ) -> None:
        self.net, self.settings, self.envs, self.meta = net, settings, envs, meta
        self.num_actions, self.features = meta["num_actions"], len(meta["action_features"])
        self.self_partner, self.against = self_partner, against
        params = [p for name, p in net.named_parameters() if name != "gains"]
        self.optimizer = torch.optim.Adam(
            [{"params": params}, {"params": [net.gains], "lr": settings.lr * settings.gain_lr}],
            lr=settings.lr,
            eps=1e-5,
        )
        self.value_scale = 1.0  # running RMS of the returns: the critic predicts returns / value_scale
        self.batch: dict[str, list] = {}
        self.refresh_partners()

    def refresh_partners(self) -> None:
        """A learning side's partner seat plays the learner's newest weights (frozen)."""
        if self.self_partner:
            snapshot = self.net.export(self.meta)
            for env in self.envs:
                env.set_opponents(self.against, snapshot)

    def _split(self, obs: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
        width = obs.shape[1] - self.num_actions * self.features
        x = torch.as_tensor(obs)
        return x[:, :width], x[:, width:].reshape(-1, self.num_actions, self.features)

    @torch.no_grad()
    def collect(self, obs: list[np.ndarray], ended: list) -> list[np.ndarray]:
        """Play ``rollout`` learner decisions in every row; keep what PPO needs; add each game that
        ends to ``ended`` (its margin's sum, the count)."""
        s, n = self.settings, len(self.envs)
        keys = ("obs", "feats", "mask", "action", "logp", "value", "reward", "done")
        trace: dict[str, list] = {key: [] for key in keys}
        running = [np.zeros(env.num_envs) for env in self.envs]
        for _ in range(s.rollout):
            step_obs, step_feats, step_mask, step_action, step_logp, step_value = [], [], [], [], [], []
            step_reward, step_done = [], []
            for k in range(n):
                env = self.envs[k]
                x, feats = self._split(obs[k])
                mask = torch.as_tensor(env.action_masks())
                logits, value = self.net(x, feats)
                dist = torch.distributions.Categorical(logits=logits.masked_fill(~mask, -1e9))
                action = dist.sample()
                obs[k], reward, terminated, truncated, _ = env.step(action.numpy())
                done = terminated | truncated
                running[k] += reward
                ended[0] += running[k][done].sum()
                ended[1] += int(done.sum())
                running[k][done] = 0.0
                step_obs.append(x)
                step_feats.append(feats)
                step_mask.append(mask)
                step_action.append(action)
                step_logp.append(dist.log_prob(action))
                step_value.append(value * self.value_scale)
                step_reward.append(torch.as_tensor(reward, dtype=torch.float32))
                step_done.append(torch.as_tensor(done))
            for key, parts in zip(
                keys,
                (step_obs, step_feats, step_mask, step_action, step_logp, step_value, step_reward, step_done),
                strict=True,
            ):
                trace[key].append(torch.cat(parts))
        last = torch.cat([self.net(*self._split(o))[1] * self.value_scale for o in obs])
        batch = {key: torch.stack(values) for key, values in trace.items()}  # [T, rows]
        advantages = torch.zeros_like(batch["reward"])
        gae = torch.zeros_like(last)
        for t in reversed(range(s.rollout)):
            following = last if t == s.rollout - 1 else batch["value"][t + 1]
            live = (~batch["done"][t]).float()
            delta = batch["reward"][t] + live * following - batch["value"][t]
            gae = delta + s.lam * live * gae
            advantages[t] = gae
        returns = advantages + batch["value"]
        self.value_scale = float(max(0.99 * self.value_scale + 0.01 * returns.std().item(), 1e-3))
        self.batch = {key: value.flatten(0, 1) for key, value in batch.items()}
        self.batch.update(advantage=advantages.flatten(), ret=returns.flatten())
        return obs

    def update(self, value_only: bool) -> None:
        """PPO's clipped update over the last rollout (``value_only``: the critic alone)."""
        s, b = self.settings, self.batch
        size = b["action"].shape[0]
        for _ in range(s.epochs):
            for chunk in torch.randperm(size).split(s.minibatch):
                logits, value = self.net(b["obs"][chunk], b["feats"][chunk])
                logp_all = torch.log_softmax(logits.masked_fill(~b["mask"][chunk], -1e9), -1)
                logp = logp_all.gather(1, b["action"][chunk, None])[:, 0]
                adv = b["advantage"][chunk]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                ratio = torch.exp(logp - b["logp"][chunk])
                policy_loss = -torch.min(ratio * adv, ratio.clamp(1 - s.clip, 1 + s.clip) * adv).mean()
                entropy = -(logp_all.exp() * logp_all.masked_fill(~b["mask"][chunk], 0.0)).sum(-1).mean()
                value_loss = 0.5 * ((value - b["ret"][chunk] / self.value_scale) ** 2).mean()
                loss = s.vf_coef * value_loss
                if not value_only:
                    loss = loss + policy_loss - s.ent_coef * entropy
                self.optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.net.parameters(), s.max_grad_norm)
                self.optimizer.step()
