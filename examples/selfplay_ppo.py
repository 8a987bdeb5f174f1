"""Self-play PPO with invalid-action masking on ``VectorGame`` — one file, PyTorch on the CPU.

    python examples/selfplay_ppo.py --players 4 --minutes 30 --out runs/sniff4
    python examples/selfplay_ppo.py --players 2 --minutes 30 --out runs/sniff2
    python examples/selfplay_ppo.py --game twelve --players 2 --minutes 10 --out runs/twelve2
    python examples/selfplay_ppo.py --game dominoes --players 4 --minutes 20 --out runs/dominoes4

How it learns:

- **One shared policy for every seat.** Observations are seat-relative, so the same network plays
  any seat; every decision the learner makes (all seats in self-play rows) is a training sample.
- **Turn-based credit.** A seat's transition runs from its decision to its next decision: it
  collects the rewards of every step in between (other seats' moves included), and the rollout's
  last pending decision of each seat bootstraps from that seat's own view of the final state
  (``VectorGame.seat_observations``). GAE runs per (game, seat) chain in a numba kernel.
- **Look-ahead features.** The logits add ``action features @ gains`` (``VectorGame.action_features``:
  per action, Sniff's credit, what the next seat could score at once afterwards, and whether it ends
  the hand; "12": the cards it captures; block dominoes: the pips it sheds), so the network learns
  what to play beyond them.
- **Rewards.** Dense and zero-sum: a seat's side score change minus the mean change of the other
  sides (Sniff ``reward="points"``: partners share, S17/S24; "12": cards captured; block dominoes:
  the pips paid at the end, D12), scaled by the game's ``reward_scale``. Matches are the episodes,
  so the observation's score features matter.
- **Opponent pool.** A share of the games (``--pool-rate``) seats the learner on one side against a
  frozen snapshot of itself (every ``--snapshot-every`` updates, the newest ``--pool-size`` kept),
  which keeps self-play from cycling, or against a built-in rule-based agent (``--pool-agents``,
  compiled policies such as ``greedy`` and ``heuristic``). Each rollout draws its opponent: the
  snapshots as one group and each agent count alike.
- **Optional warm start** (``--imitate heuristic --imitate-share 0.2``): for the first share of
  the budget the policy loss is the cross-entropy to a built-in agent's choice in the positions the
  learner itself reaches (DAgger); the critic learns from the same rollouts. PPO then takes over.
- **Where the tiles are** (``--belief-coef C``): an auxiliary head on the trunk predicts, for every
  tile or card the seat cannot see, where it is — each other seat (relative) or the boneyard or
  stock — trained by cross-entropy on the truth the rollouts know (``beliefs.kernels.truth_counts``)
  with weight ``C``. The policy never reads the head: it gives the trunk a reason to track the
  hidden hands. The exported checkpoint is the same format without it.
- **Evaluation.** Every ``--eval-every`` updates the policy plays ``greedy`` and ``heuristic`` in the
  arena on duplicate deals; the best checkpoint by mean score is kept as ``best.npz``.

Writes to ``--out``: ``latest.npz`` and ``best.npz`` (NumPy checkpoints, ``sniff_twelve.agents.policy``; play
them with the agent spec ``ppo:PATH``), ``final.npz`` (whichever of the two wins a larger arena on
fresh deals), ``trainer.pt`` (network, optimizer and pool, for ``--resume``), ``log.json``
(evaluations, throughput) and ``learning_curve.png``. ``--ship`` copies ``final.npz`` to the
package's ``checkpoints/ppo_<players>p.npz``, the checkpoint behind the built-in ``ppo`` agent.
``--save-at 2 5`` also keeps ``at_2min.npz`` and ``at_5min.npz``, the policy once that much
training time is done (``python -m benchmarks.training`` measures time to skill with them).

Needs the ``train`` extra: ``pip install -e ".[train]"`` (``torch==2.13.0`` is the CPU build).
"""

from __future__ import annotations

import argparse
import copy
import itertools
import json
import shlex
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numba as nb
import numpy as np
import torch
from torch import nn
from tqdm import tqdm

from sniff_twelve.batch.mlp import MlpPolicy
from sniff_twelve.beliefs.kernels import truth_counts
from sniff_twelve.core.games import GAMES, game_package
from sniff_twelve.core.optional import MissingExtraError, pyplot
from sniff_twelve.tools import arena
from sniff_twelve.tools.exits import EXIT_INTERRUPTED
from sniff_twelve.tools.interrupt import StopRequest


class ActorCritic(nn.Module):
    """ReLU MLP trunk over the observation with a value head and a policy head; the logits add
    ``action features @ gains`` (each action's one-step look-ahead, ``VectorGame.action_features``:
    Sniff's credit, the next seat's threat, ending the hand), so the network learns what to play
    beyond it. Inputs are divided by fixed scales, folded into the weights on export."""

    def __init__(
        self,
        obs_size: int,
        num_actions: int,
        hidden: list[int],
        obs_scale: np.ndarray,
        feature_scale: np.ndarray,
        belief_shape: tuple[int, int] | None = None,
    ) -> None:
        super().__init__()
        sizes = [obs_size, *hidden]
        self.trunk = nn.ModuleList(nn.Linear(a, b) for a, b in itertools.pairwise(sizes))
        self.policy = nn.Linear(sizes[-1], num_actions)
        self.value = nn.Linear(sizes[-1], 1)
        #: the auxiliary head: logits of where each hidden item is, ``[items, places]``
        self.belief_shape = belief_shape
        self.belief = None if belief_shape is None else nn.Linear(sizes[-1], belief_shape[0] * belief_shape[1])
        nn.init.orthogonal_(self.policy.weight, gain=0.01)
        nn.init.zeros_(self.policy.bias)
        gains = torch.zeros(len(feature_scale))
        gains[0] = 2.0  # start from "prefer what scores now"
        self.gains = nn.Parameter(gains)
        self.register_buffer("obs_scale", torch.as_tensor(obs_scale, dtype=torch.float32))
        self.register_buffer("feature_scale", torch.as_tensor(feature_scale, dtype=torch.float32))

    def forward(
        self, obs: torch.Tensor, action_features: torch.Tensor | None = None, beliefs: bool = False
    ) -> tuple[torch.Tensor, ...]:
        """``(logits, value)``, and the belief head's ``[B, items, places]`` logits last with
        ``beliefs``; without ``action_features`` the logits are the network's part only."""
        x = obs / self.obs_scale
        for layer in self.trunk:
            x = torch.relu(layer(x))
        logits = self.policy(x)
        if action_features is not None:
            logits = logits + (action_features / self.feature_scale) @ self.gains
        out = (logits, self.value(x).squeeze(-1))
        return (*out, self.belief(x).reshape(-1, *self.belief_shape)) if beliefs else out

    def export(self, meta: dict) -> MlpPolicy:
        """The same function as a NumPy ``MlpPolicy`` (weights transposed, input scale folded in)."""
        weights = {}
        for i, layer in enumerate(self.trunk):
            w = layer.weight.detach().numpy().T.copy()
            if i == 0:
                w /= self.obs_scale.numpy()[:, None]
            weights[f"w{i}"], weights[f"b{i}"] = w, layer.bias.detach().numpy().copy()
        weights["policy_w"], weights["policy_b"] = (
            self.policy.weight.detach().numpy().T,
            self.policy.bias.detach().numpy(),
        )
        weights["value_w"], weights["value_b"] = self.value.weight.detach().numpy().T, self.value.bias.detach().numpy()
        weights["action_feature_gains"] = (self.gains / self.feature_scale).detach().numpy()
        return MlpPolicy(weights, meta)


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    return logits.masked_fill(~mask, -1e9)


@nb.njit(cache=True)
def seat_gae(seat, learner, values, rewards, done, boot, gamma, lam, adv, ret):
    """GAE along each (game, seat) chain of decisions. ``rewards[t, i, p]``: seat ``p``'s reward
    from step ``t``; it goes to ``p``'s latest decision at or before ``t`` in the same episode.
    ``boot[i, p]``: value of seat ``p`` after the last step. Writes ``adv``/``ret`` where
    ``learner`` is set."""
    steps, n, players = rewards.shape
    for i in range(n):
        for p in range(players):
            next_value, gae, acc = boot[i, p], 0.0, 0.0
            for t in range(steps - 1, -1, -1):
                if done[t, i]:  # steps after t belong to the next episode
                    next_value, gae, acc = 0.0, 0.0, 0.0
                acc += rewards[t, i, p]
                if seat[t, i] == p:
                    gae = acc + gamma * next_value - values[t, i] + gamma * lam * gae
                    if learner[t, i]:
                        adv[t, i] = gae
                        ret[t, i] = gae + values[t, i]
                    next_value, acc = values[t, i], 0.0


@dataclass
class Rollout:
    obs: np.ndarray
    action_features: np.ndarray
    mask: np.ndarray
    action: np.ndarray
    logp: np.ndarray
    value: np.ndarray
    seat: np.ndarray
    learner: np.ndarray
    reward: np.ndarray
    done: np.ndarray
    teacher: np.ndarray
    truth: np.ndarray  # [steps, n, items, places]: where the seat's hidden items are (belief head)

    @classmethod
    def empty(
        cls, steps: int, n: int, obs_size: int, num_actions: int, features: int, players: int, items: int
    ) -> Rollout:
        return cls(
            np.zeros((steps, n, obs_size), np.float32),
            np.zeros((steps, n, num_actions, features), np.float32),
            np.zeros((steps, n, num_actions), np.bool_),
            np.zeros((steps, n), np.int64),
            np.zeros((steps, n), np.float32),
            np.zeros((steps, n), np.float32),
            np.zeros((steps, n), np.int32),
            np.zeros((steps, n), np.bool_),
            np.zeros((steps, n, players), np.float32),
            np.zeros((steps, n), np.bool_),
            np.zeros((steps, n), np.int64),
            np.zeros((steps, n, items, players), np.float32),
        )


class Trainer:
    """The state of one training run: games, network, optimizer, opponent pool, log."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.package = game_package(args.game)
        self.agents_module = self.package.Game.spec.part("agents")
        if args.reward_scale is None:  # the game's own (GameSpec.reward_scale)
            args.reward_scale = self.package.Game.spec.reward_scale
        self.vec = self.package.VectorGame(args.envs, num_players=args.players, seed=args.seed, **self.vector_options())
        n = args.players
        table = self.agents_module.arena_table(n)
        if not table.two_sided:
            raise ValueError(
                f"the arena evaluation needs a two-sided table (2 players, or two partnerships); got {n} players"
            )
        sides = table.sides
        self.side_of = np.array([next(k for k, side in enumerate(sides) if seat in side) for seat in range(n)])
        self.num_sides = int(self.side_of.max()) + 1
        obs_size, num_actions = self.vec.obs.shape[1], self.vec.mask.shape[1]
        self.meta = {
            "game": args.game,
            "num_players": n,
            "obs_size": obs_size,
            "num_actions": num_actions,
            "action_features": list(self.package.Game.spec.action_feature_names),
        }
        torch.manual_seed(args.seed)
        spec = self.package.Game.spec
        belief_shape = (spec.ITEMS, n) if args.belief_coef > 0 else None
        self.model = ActorCritic(obs_size, num_actions, args.hidden, *self.input_scales(), belief_shape)
        # the few feature gains get a larger step than the network's weights, or Adam's per-step
        # cap keeps them near their start for most of a 30-minute run
        network = [p for name, p in self.model.named_parameters() if name != "gains"]
        self.optimizer = torch.optim.Adam(
            [
                {"params": network, "base_lr": args.lr},
                {"params": [self.model.gains], "base_lr": args.lr * args.gain_lr},
            ],
            lr=args.lr,
            eps=1e-5,
        )
        self.pool: list[ActorCritic] = []
        for name in [*args.pool_agents, *([args.imitate] if args.imitate else [])]:
            if name not in self.vec.rule_agents:
                raise ValueError(f"--pool-agents and --imitate take {', '.join(self.vec.rule_agents)}; got {name!r}")
        self.bots: list[str] = list(args.pool_agents)
        self.teacher: str | None = args.imitate
        self.imitating = False
        self.rng = np.random.default_rng(args.seed)
        self.role = np.full(args.envs, -1)  # -1: self-play row; else the learner's side vs the pool
        features = self.vec.action_features().shape[2]
        items = spec.ITEMS if belief_shape else 0
        self.buf = Rollout.empty(args.rollout, args.envs, obs_size, num_actions, features, n, items)
        self.steps = self.updates = 0
        self.train_seconds = 0.0
        self.evals: list[dict] = []
        self.best_score = -1.0
        self.belief_loss = float("nan")

    def vector_options(self) -> dict:
        """The dense reward whose sum is each seat's points (Sniff's ``points``, "12"'s ``score``)."""
        return {"reward": self.package.Game.spec.points_reward}

    def input_scales(self) -> tuple[np.ndarray, np.ndarray]:
        """The largest magnitude of each observation feature and each action feature in a short
        random run (at least 1)."""
        probe = self.package.VectorGame(256, num_players=self.args.players, seed=self.args.seed + 1)
        top, top_features = np.abs(probe.obs).max(0), np.ones(probe.action_features().shape[2], np.float32)
        for _ in range(200):
            obs = probe.step(probe.sample_actions())[0]
            top = np.maximum(top, np.abs(obs).max(0))
            top_features = np.maximum(top_features, probe.action_features().max((0, 1)))
        return np.maximum(top, 1.0), top_features

    def zero_sum(self, rewards: np.ndarray) -> np.ndarray:
        """Each seat's reward minus the mean reward of the seats on other sides, scaled."""
        n = self.args.players
        out = np.empty_like(rewards)
        for p in range(n):
            others = self.side_of != self.side_of[p]
            out[:, p] = rewards[:, p] - rewards[:, others].mean(1)
        return out * self.args.reward_scale

    def assign_roles(self, rows: np.ndarray) -> None:
        """New games: self-play, or (``--pool-rate``) the learner on a random side against the pool."""
        k = len(rows)
        pooled = self.rng.random(k) < (self.args.pool_rate if self.pool or self.bots else 0.0)
        self.role[rows] = np.where(pooled, self.rng.integers(0, self.num_sides, k), -1)

    @torch.no_grad()
    def collect(self, obs: np.ndarray, mask: np.ndarray, player: np.ndarray) -> tuple:
        """Play ``--rollout`` steps in every game; the learner's decisions are kept for training."""
        buf, args = self.buf, self.args
        groups = [*([self.pool] if self.pool else []), *([bot] for bot in self.bots)]
        group = groups[self.rng.integers(len(groups))] if groups else None
        opponent = group[self.rng.integers(len(group))] if group else None
        is_network = isinstance(opponent, ActorCritic)
        for t in range(args.rollout):
            buf.obs[t], buf.mask[t], buf.seat[t] = obs, mask, player
            buf.action_features[t] = self.vec.action_features()
            if self.model.belief is not None:
                truth_counts(self.vec.game_cls.spec, self.vec.states, self.vec.params, player, buf.truth[t])
            learner = (self.role < 0) | (self.side_of[player] == self.role)
            buf.learner[t] = learner
            obs_t, mask_t = torch.from_numpy(buf.obs[t]), torch.from_numpy(buf.mask[t])
            features_t = torch.from_numpy(buf.action_features[t])
            logits, value = self.model(obs_t, features_t)
            others = np.flatnonzero(~learner)
            if is_network and len(others):
                rows = torch.from_numpy(others)
                logits[rows] = opponent(obs_t[rows], features_t[rows])[0]
            logp_all = torch.log_softmax(masked_logits(logits, mask_t), -1)
            gumbel = -torch.log(-torch.log(torch.rand_like(logp_all).clamp_(1e-12, 1.0)))
            action = torch.argmax(logp_all + gumbel, -1)
            buf.action[t] = action.numpy()
            if self.imitating:
                rows = np.flatnonzero(learner)
                buf.teacher[t, rows] = self.vec.agent_actions(self.teacher, rows)
            if opponent is not None and not is_network and len(others):
                buf.action[t, others] = self.vec.agent_actions(opponent, others)
            buf.logp[t] = logp_all.gather(1, action[:, None])[:, 0].numpy()
            buf.value[t] = value.numpy()
            obs, mask, player, rewards, terminated, truncated = self.vec.step(buf.action[t])
            buf.reward[t] = self.zero_sum(rewards)
            buf.done[t] = terminated | truncated
            if buf.done[t].any():
                self.assign_roles(np.flatnonzero(buf.done[t]))
        seat_views = torch.from_numpy(self.vec.seat_observations())
        boot = self.model(seat_views.reshape(-1, seat_views.shape[-1]))[1].reshape(args.envs, args.players)
        return obs, mask, player, boot.numpy()

    def update(self, boot: np.ndarray, progress: float) -> dict:
        """PPO epochs over the learner's decisions of the last rollout (while imitating, the policy
        loss is the cross-entropy to the teacher's choices)."""
        args, buf = self.args, self.buf
        adv = np.zeros_like(buf.value)
        ret = np.zeros_like(buf.value)
        seat_gae(buf.seat, buf.learner, buf.value, buf.reward, buf.done, boot, args.gamma, args.lam, adv, ret)
        keep = buf.learner
        columns = (buf.obs, buf.action_features, buf.mask, buf.action, buf.logp, adv, ret, buf.teacher, buf.truth)
        data = [torch.from_numpy(np.ascontiguousarray(a[keep])) for a in columns]
        for group in self.optimizer.param_groups:
            group["lr"] = group["base_lr"] * max(1.0 - progress, 0.05)
        total = len(data[0])
        stats = {"policy_loss": 0.0, "value_loss": 0.0, "entropy": 0.0, "belief_loss": 0.0, "samples": total}
        with_beliefs = self.model.belief is not None
        batches = 0
        for _ in range(args.epochs):
            order = torch.randperm(total)
            for start in range(0, total, args.minibatch):
                idx = order[start : start + args.minibatch]
                if len(idx) < 2:  # a lone sample has no advantage std: NaN would poison the weights
                    continue
                obs, action_features, mask, action, old_logp, b_adv, b_ret, teacher, truth = (d[idx] for d in data)
                logits, value, *belief = self.model(obs, action_features, beliefs=with_beliefs)
                logp_all = torch.log_softmax(masked_logits(logits, mask), -1)
                logp = logp_all.gather(1, action[:, None])[:, 0]
                b_adv = (b_adv - b_adv.mean()) / (b_adv.std() + 1e-8)
                ratio = torch.exp(logp - old_logp)
                policy_loss = -torch.min(ratio * b_adv, ratio.clamp(1 - args.clip, 1 + args.clip) * b_adv).mean()
                if self.imitating:
                    policy_loss = -logp_all.gather(1, teacher[:, None]).mean()
                value_loss = 0.5 * ((value - b_ret) ** 2).mean()
                entropy = -(logp_all.exp() * logp_all.masked_fill(~mask, 0.0)).sum(-1).mean()
                loss = policy_loss + args.vf_coef * value_loss - args.ent_coef * entropy
                if with_beliefs:  # cross-entropy of each hidden unit's true place, per decision
                    belief_loss = -(truth * torch.log_softmax(belief[0], -1)).sum((1, 2)).mean()
                    loss = loss + args.belief_coef * belief_loss
                    stats["belief_loss"] += belief_loss.item()
                self.optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.model.parameters(), args.max_grad_norm)
                self.optimizer.step()
                stats["policy_loss"] += policy_loss.item()
                stats["value_loss"] += value_loss.item()
                stats["entropy"] += entropy.item()
                batches += 1
        for key in ("policy_loss", "value_loss", "entropy", "belief_loss"):
            stats[key] /= max(batches, 1)
        return stats

    def snapshot(self) -> None:
        self.pool.append(copy.deepcopy(self.model).requires_grad_(False))
        del self.pool[: -self.args.pool_size]

    def checkpoint_meta(self) -> dict:
        a = self.args
        return {
            **self.meta,
            "algorithm": "self-play PPO (examples/selfplay_ppo.py)",
            "hidden": a.hidden,
            "belief_coef": a.belief_coef,
            "env_steps": self.steps,
            "updates": self.updates,
            "train_seconds": round(self.train_seconds, 1),
            "seed": a.seed,
            "command": " ".join(sys.argv),
            "torch": torch.__version__,
        }

    def save(self, path: Path) -> MlpPolicy:
        policy = self.model.export(self.checkpoint_meta())
        policy.save(path)
        return policy

    def evaluate(self) -> dict:
        """Arena on duplicate deals against each of ``--eval-against``; keeps the best checkpoint."""
        out = Path(self.args.out)
        self.save(out / "latest.npz")
        point = {"env_steps": self.steps, "train_seconds": round(self.train_seconds, 1)}
        if self.model.belief is not None:  # the head's cross-entropy at the last update, nats per decision
            point["belief_loss"] = round(self.belief_loss, 3)
        point.update(self.arena_scores(out / "latest.npz", self.args.eval_deals, seed=10_000 + self.updates))
        mean = point["mean"]
        if mean >= self.best_score:
            self.best_score = mean
            shutil.copyfile(out / "latest.npz", out / "best.npz")
        self.evals.append(point)
        return point

    def arena_scores(self, checkpoint: Path, deals: int, seed: int) -> dict:
        """Arena score (± 95% CI) of ``checkpoint`` against each of ``--eval-against``, and their mean."""
        table = self.agents_module.arena_table(self.args.players)
        scores = {}
        for opponent in self.args.eval_against:
            result = arena.run(table, [f"ppo:{checkpoint}", opponent], deals, seed=seed, progress=False)
            row = result["entries"][0]
            scores[opponent] = {"score": row["score"], "ci95": row["ci95"]}
        scores["mean"] = float(np.mean([scores[o]["score"] for o in self.args.eval_against]))
        return scores

    def choose_final(self) -> dict:
        """``final.npz``: the last policy or the best evaluated one, whichever scores higher on
        ``--final-deals`` fresh deals (seeds no evaluation used)."""
        out = Path(self.args.out)
        candidates = {
            name: self.arena_scores(out / f"{name}.npz", self.args.final_deals, seed=20_000)
            for name in ("latest", "best")
        }
        chosen = max(candidates, key=lambda name: candidates[name]["mean"])
        shutil.copyfile(out / f"{chosen}.npz", out / "final.npz")
        return {"chosen": chosen, **candidates}

    def state_dict(self) -> dict:
        return {
            "model": self.model.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "pool": [m.state_dict() for m in self.pool],
            "steps": self.steps,
            "updates": self.updates,
            "train_seconds": self.train_seconds,
            "evals": self.evals,
            "best_score": self.best_score,
        }

    def load_state_dict(self, state: dict) -> None:
        self.model.load_state_dict(state["model"])
        self.optimizer.load_state_dict(state["optimizer"])
        self.pool = []
        for weights in state["pool"]:
            member = copy.deepcopy(self.model).requires_grad_(False)
            member.load_state_dict(weights)
            self.pool.append(member)
        self.steps, self.updates = state["steps"], state["updates"]
        self.train_seconds, self.evals, self.best_score = state["train_seconds"], state["evals"], state["best_score"]


def learning_curve(evals: list[dict], opponents: list[str], title: str, path: Path) -> None:
    """Arena score against each opponent over training steps, with 95% CIs."""
    plt = pyplot("the learning curve", "train")

    fig, ax = plt.subplots(figsize=(6, 3.5), dpi=100)
    steps = [e["env_steps"] / 1e6 for e in evals]
    for opponent in opponents:
        score = np.array([e[opponent]["score"] for e in evals])
        ci = np.array([e[opponent]["ci95"] for e in evals])
        ax.plot(steps, score, marker="o", label=f"vs {opponent}")
        ax.fill_between(steps, score - ci, score + ci, alpha=0.2)
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set(xlabel="env steps (millions)", ylabel="arena score (duplicate deals)", ylim=(0, 1), title=title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", choices=sorted(GAMES), default="sniff")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--minutes", type=float, default=30.0, help="training time budget (evaluations excluded)")
    p.add_argument("--steps", type=int, default=None, help="env-step budget instead of --minutes")
    p.add_argument(
        "--save-at",
        type=float,
        nargs="*",
        default=[],
        metavar="MINUTES",
        help="also save the policy as at_<M>min.npz once M minutes of training are done (benchmarks.training)",
    )
    p.add_argument("--envs", type=int, default=256, help="games stepped together")
    p.add_argument("--rollout", type=int, default=128, help="steps per game between updates")
    p.add_argument("--hidden", type=int, nargs="+", default=[256, 256])
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--gain-lr", type=float, default=30.0, help="learning-rate multiplier of the feature gains")
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--minibatch", type=int, default=4096)
    p.add_argument("--gamma", type=float, default=0.995)
    p.add_argument("--lam", type=float, default=0.95)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    p.add_argument("--reward-scale", type=float, default=None, help="default: the game's (GameSpec.reward_scale)")
    p.add_argument("--pool-rate", type=float, default=0.3, help="share of games against past snapshots")
    p.add_argument("--pool-size", type=int, default=8)
    p.add_argument("--pool-agents", nargs="*", default=[], help="built-in agents in the pool too (greedy heuristic)")
    p.add_argument("--snapshot-every", type=int, default=10, help="updates between snapshots")
    p.add_argument("--imitate", default=None, help="warm start: imitate this rule-based agent (DAgger) first")
    p.add_argument("--imitate-share", type=float, default=0.2, help="share of the budget spent imitating")
    p.add_argument(
        "--belief-coef",
        type=float,
        default=0.0,
        help="weight of the auxiliary loss predicting where the hidden tiles or cards are (0: no belief head)",
    )
    p.add_argument("--eval-every", type=int, default=20, help="updates between evaluations")
    p.add_argument("--eval-deals", type=int, default=30, help="duplicate deals per opponent")
    p.add_argument("--final-deals", type=int, default=100, help="deals per opponent choosing final.npz")
    p.add_argument("--eval-against", nargs="+", default=["greedy", "heuristic"])
    p.add_argument("--threads", type=int, default=None, help="torch threads (default: all cores)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=Path("runs/selfplay"))
    p.add_argument("--resume", action="store_true", help="continue from --out/trainer.pt")
    p.add_argument(
        "--ship",
        action="store_true",
        help="copy final.npz over the package's shipped checkpoints/ppo_<players>p.npz (for maintainers)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def save_interrupted(trainer: Trainer, args: argparse.Namespace, signal_name: str) -> dict:
    """Keep an interrupted run's work — the latest policy, the trainer state, the log — and say
    how to go on; exits with status 130."""
    trainer.save(args.out / "latest.npz")
    torch.save(trainer.state_dict(), args.out / "trainer.pt")
    summary = {**trainer.checkpoint_meta(), "evals": trainer.evals, "interrupted": signal_name}
    (args.out / "log.json").write_text(json.dumps(summary, indent=1))
    command = [sys.executable, *sys.argv] + ([] if args.resume else ["--resume"])
    print(
        f"interrupted ({signal_name}) after {trainer.train_seconds:.0f} s of training: {args.out / 'latest.npz'} "
        f"and {args.out / 'trainer.pt'} are saved. Resume with:\n  {shlex.join(command)}"
    )
    raise SystemExit(EXIT_INTERRUPTED)


def main(argv: list[str] | None = None) -> dict:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.eval_every < 1:
        parser.error(f"--eval-every is a number of updates (at least 1); got {args.eval_every}")
    if args.threads:
        torch.set_num_threads(args.threads)
    args.out.mkdir(parents=True, exist_ok=True)
    trainer = Trainer(args)
    if args.resume:
        trainer.load_state_dict(torch.load(args.out / "trainer.pt", weights_only=False))
    else:  # a fresh run's --save-at snapshots replace any an earlier run left in --out
        for minutes in args.save_at:
            (args.out / f"at_{minutes:g}min.npz").unlink(missing_ok=True)
    budget = args.steps if args.steps is not None else args.minutes * 60
    if args.steps is not None:
        bar = tqdm(total=budget, unit="step", unit_scale=True, disable=args.quiet, dynamic_ncols=True)
    else:  # a time budget: seconds of training done out of the budget, no rate (it is 1 s/s)
        layout = "{l_bar}{bar}| {n:.0f}/{total:.0f} s of training [{elapsed} elapsed{postfix}]"
        bar = tqdm(total=budget, bar_format=layout, disable=args.quiet, dynamic_ncols=True)
    obs, mask, player = trainer.vec.reset()
    trainer.assign_roles(np.arange(args.envs))
    start_steps, start_seconds = trainer.steps, trainer.train_seconds

    def spent() -> float:
        return trainer.steps if args.steps is not None else trainer.train_seconds

    with StopRequest() as stop:  # Ctrl-C / SIGTERM: stop after this update, save, say how to resume
        while spent() < budget and not stop:
            tick = time.perf_counter()
            trainer.imitating = trainer.teacher is not None and spent() < args.imitate_share * budget
            obs, mask, player, boot = trainer.collect(obs, mask, player)
            stats = trainer.update(boot, spent() / budget)
            trainer.steps += args.rollout * args.envs
            trainer.updates += 1
            trainer.train_seconds += time.perf_counter() - tick
            bar.update(int(min(spent(), budget)) - bar.n)
            if trainer.updates % args.snapshot_every == 0:
                trainer.snapshot()
            for minutes in args.save_at:
                path = args.out / f"at_{minutes:g}min.npz"
                if trainer.train_seconds >= 60 * minutes and not path.exists():
                    trainer.save(path)
            postfix = {
                "steps/s": f"{(trainer.steps - start_steps) / max(trainer.train_seconds - start_seconds, 1e-9):,.0f}",
                "entropy": f"{stats['entropy']:.2f}",
            }
            if trainer.model.belief is not None:
                postfix["belief nats"] = f"{stats['belief_loss']:.1f}"
            trainer.belief_loss = stats["belief_loss"]
            if trainer.updates % args.eval_every == 0 or spent() >= budget:
                point = trainer.evaluate()
                postfix.update({o: f"{point[o]['score']:.2f}" for o in args.eval_against})
                torch.save(trainer.state_dict(), args.out / "trainer.pt")
            bar.set_postfix(postfix)
    bar.close()
    if stop:
        return save_interrupted(trainer, args, stop.signal)
    throughput = (trainer.steps - start_steps) / max(trainer.train_seconds - start_seconds, 1e-9)
    summary = {
        **trainer.checkpoint_meta(),
        "steps_per_second": round(throughput),
        "best_eval_mean": trainer.best_score,
        "evals": trainer.evals,
    }
    summary["final"] = trainer.choose_final()
    if args.ship:
        target = Path(trainer.package.__file__).parent / "checkpoints" / f"ppo_{args.players}p.npz"
        target.parent.mkdir(exist_ok=True)
        shutil.copyfile(args.out / "final.npz", target)
        summary["shipped"] = str(target)
    (args.out / "log.json").write_text(json.dumps(summary, indent=1))
    try:  # the results are written; the picture comes last
        title = f"self-play PPO, {args.game}, {args.players} players"
        learning_curve(trainer.evals, args.eval_against, title, args.out / "learning_curve.png")
    except MissingExtraError as missing:
        print(f"note: no learning_curve.png — {missing}")
    print(json.dumps({k: summary[k] for k in ("env_steps", "train_seconds", "steps_per_second", "best_eval_mean")}))
    return summary


if __name__ == "__main__":
    main()
