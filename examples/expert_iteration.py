"""Expert iteration: the policy-guided search labels positions, the policy learns the labels — one
file, PyTorch on the CPU, in rounds (as AlphaZero and its card-game descendants distil search).

    python examples/expert_iteration.py --players 4 --minutes 60 --out runs/exit4
    python examples/expert_iteration.py --players 4 --minutes 60 --address auto --out runs/exit4

Each round:

1. **Self-play with labels.** ``--games`` matches of the current policy against itself, every move
   sampled from it. At a share of the decisions (``--label-share``) the policy-guided search
   (``guided:N``, ``sniff_twelve.agents.guided``, with the current policy as its prior)
   scores the moves the policy proposes; a softmax of its scores at ``--temperature`` points is
   the label. Each labelled position also gets its side's match outcome (1 won, 0 lost, ½
   truncated) for the value head. The matches are spread over local processes (``--workers``) or a
   Ray cluster (``--address``, ``sniff_twelve.tools.cluster``); each is a pure function of its
   seed and the round's policy, so the labels are the same wherever they are made.
2. **Distillation.** The network (the ``ppo`` checkpoint layout, ``sniff_twelve.batch.mlp``: ReLU
   MLP, policy head plus action-feature gains, value head) learns the labels by cross-entropy and
   the outcomes by squared error, ``--epochs`` passes over the newest ``--buffer`` labels. With
   ``--belief-coef C`` an auxiliary head on the trunk also learns, with weight ``C``, where each
   tile or card the labelled seat could not see truly was (each other seat, relative, or the
   boneyard or stock; ``beliefs.kernels.truth_counts``), as in ``selfplay_ppo.py``: the policy
   never reads the head, which gives the trunk a reason to track the hidden hands, and the
   exported checkpoint is the ``ppo`` layout without it.
3. **Evaluation.** Every ``--eval-every`` rounds the raw policy — no search — plays
   ``--eval-against`` in the arena on duplicate deals; the best by mean score is kept as ``best.npz``.

It starts from ``--init`` (default: the checkpoint the game ships for the table), so the search
has a prior from the first round. Writes to ``--out``: ``latest.npz``, ``best.npz`` (play them as
``ppo:PATH``), ``trainer.pt`` and ``buffer.npz`` (``--resume``), ``log.json``; ``--save-at 5 10``
also keeps ``at_5min.npz`` and ``at_10min.npz``, the policy after the first round that ends past
that much labelling and training (``python -m benchmarks.training`` measures time to skill with
them). Ctrl-C / SIGTERM stops after the current round's step, saves, and prints the command that
resumes.

Needs the ``train`` extra (``--address`` also the ``rllib`` extra, which brings Ray).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import shutil
import sys
import tempfile
import time
from multiprocessing import get_context
from pathlib import Path

import numpy as np
import torch
from torch import nn

from sniff_twelve.batch.mlp import MlpPolicy
from sniff_twelve.beliefs.kernels import truth_counts
from sniff_twelve.core.games import game_package
from sniff_twelve.tools import arena
from sniff_twelve.tools.cluster import ADDRESS_HELP, map_on_ray
from sniff_twelve.tools.exits import EXIT_INTERRUPTED
from sniff_twelve.tools.interrupt import StopRequest, ignore_interrupts


class Net(nn.Module):
    """An ``MlpPolicy`` as a trainable module: the same layers, heads and gains, and with
    ``belief_shape = (items, places)`` a belief head on the trunk that the export leaves out."""

    def __init__(self, policy: MlpPolicy, belief_shape: tuple[int, int] | None = None) -> None:
        super().__init__()
        self.trunk = nn.ModuleList(_linear(w, b) for w, b in policy.layers)
        self.policy = _linear(*policy.policy_head)
        width = policy.policy_head[0].shape[0]
        self.value = _linear(*policy.value_head) if policy.value_head else nn.Linear(width, 1)
        gains = policy.action_feature_gains
        self.gains = nn.Parameter(torch.as_tensor(np.zeros(0) if gains is None else gains, dtype=torch.float32))
        self.meta = dict(policy.meta)
        self.belief_shape = belief_shape
        self.belief = None if belief_shape is None else nn.Linear(width, belief_shape[0] * belief_shape[1])

    def forward(self, obs: torch.Tensor, features: torch.Tensor, beliefs: bool = False) -> tuple[torch.Tensor, ...]:
        """``(logits, value)``, and the belief head's ``[B, items, places]`` logits last with ``beliefs``."""
        x = obs
        for layer in self.trunk:
            x = torch.relu(layer(x))
        logits = self.policy(x)
        if self.gains.numel():
            logits = logits + features @ self.gains
        out = (logits, self.value(x).squeeze(-1))
        return (*out, self.belief(x).reshape(-1, *self.belief_shape)) if beliefs else out

    def export(self, **meta) -> MlpPolicy:
        def numpy(layer: nn.Linear) -> tuple[np.ndarray, np.ndarray]:
            return layer.weight.detach().numpy().T.copy(), layer.bias.detach().numpy().copy()

        weights = {}
        for i, layer in enumerate(self.trunk):
            weights[f"w{i}"], weights[f"b{i}"] = numpy(layer)
        weights["policy_w"], weights["policy_b"] = numpy(self.policy)
        weights["value_w"], weights["value_b"] = numpy(self.value)
        if self.gains.numel():
            weights["action_feature_gains"] = self.gains.detach().numpy().copy()
        return MlpPolicy(weights, {**self.meta, **meta})


def _linear(w: np.ndarray, b: np.ndarray) -> nn.Linear:
    layer = nn.Linear(*w.shape)
    with torch.no_grad():
        layer.weight.copy_(torch.as_tensor(np.asarray(w).T))
        layer.bias.copy_(torch.as_tensor(np.asarray(b)))
    return layer


def label_games(job: dict) -> list[dict]:
    """Play ``job["seeds"]`` matches with the policy ``job["policy"]`` and label a share of their
    decisions by search (see the module docstring): per match, the arrays of its labels, with
    ``job["beliefs"]`` also ``truth``, where the labelled seat's hidden items were."""
    package = game_package(job["game"])
    spec = package.Game.spec
    agents = spec.part("agents")
    truth = np.empty((1, spec.ITEMS, job["players"]))
    torch.set_num_threads(1)
    out = []
    with tempfile.TemporaryDirectory() as scratch:  # the agents read a checkpoint file
        path = Path(scratch) / "policy.npz"
        job["policy"].save(path)
        for seed in job["seeds"]:
            rng = random.Random(seed)
            player = agents.make_agent(f"ppo:{path}", sample=True, seed=seed)
            search = agents.make_agent(f"guided:{job['iterations']}:{path}", seed=seed)
            game = package.Game(num_players=job["players"], seed=seed)
            rows: dict[str, list] = {"obs": [], "features": [], "mask": [], "target": [], "seat": []}
            while not game.is_terminal():
                if len(game.legal_actions()) > 1 and rng.random() < job["label_share"]:
                    view = game.seat_view()
                    actions, scores = search.scores(view)
                    target = np.zeros(game.num_actions, np.float32)
                    weights = np.exp((scores - scores.max()) / job["temperature"])
                    target[actions] = weights / weights.sum()
                    rows["obs"].append(view.observation())
                    rows["features"].append(view.action_features())
                    rows["mask"].append(view.legal_mask())
                    rows["target"].append(target)
                    rows["seat"].append(game.current_player)
                    if job["beliefs"]:
                        truth_counts(spec, game.state_array[None], view.params, np.array([view.seat]), truth)
                        rows.setdefault("truth", []).append(truth[0].astype(np.float32))
                game.apply(player.act(game))
            outcome = agents.match_outcome(game)["outcome"]  # 1 won, 0 lost, 1/2 truncated, per seat
            if rows["obs"]:
                arrays = {key: np.asarray(value) for key, value in rows.items() if key != "seat"}
                out.append({**arrays, "outcome": np.asarray([outcome[seat] for seat in rows["seat"]], np.float32)})
    return out


class Trainer:
    """One run: the network, its optimizer, the label buffer, the log."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.package = game_package(args.game)
        self.agents = self.package.Game.spec.part("agents")
        init = args.init or self.agents.PpoAgent.shipped().get(args.players)
        if init is None:
            raise SystemExit(f"error: no shipped {args.game} checkpoint for {args.players} players: pass --init PATH")
        self.start = Path(init)
        belief_shape = (self.package.Game.spec.ITEMS, args.players) if args.belief_coef > 0 else None
        self.net = Net(MlpPolicy.load(self.start), belief_shape)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=args.lr)
        self.buffer: dict[str, np.ndarray] = {}
        self.round = 0
        self.labels = 0
        self.seconds = 0.0
        self.evals: list[dict] = []
        self.best = -1.0

    def policy(self) -> MlpPolicy:
        """The network as a ``ppo`` checkpoint; its value head now gives the logit of the side's win."""
        return self.net.export(
            algorithm="expert iteration (examples/expert_iteration.py)",
            rounds=self.round,
            labels=self.labels,
            train_seconds=round(self.seconds, 1),
            belief_coef=self.args.belief_coef,
            command=shlex.join(sys.argv),
        )

    def generate(self, stop: StopRequest) -> list[dict]:
        """This round's labelled matches, on local processes or the Ray cluster."""
        a = self.args
        seeds = [a.seed * 1_000_003 + self.round * a.games + k for k in range(a.games)]
        common = {"game": a.game, "players": a.players, "policy": self.policy(), "iterations": a.iterations}
        common.update(label_share=a.label_share, temperature=a.temperature, beliefs=self.net.belief is not None)
        chunks = [{**common, "seeds": [seed]} for seed in seeds]  # one match a task
        if a.address:
            return map_on_ray(label_games, chunks, a.address, stopped=lambda: bool(stop))
        if a.workers == 1:
            return [match for chunk in chunks for match in label_games(chunk)]
        with get_context("spawn").Pool(a.workers, initializer=ignore_interrupts) as pool:
            return [match for batch in pool.map(label_games, chunks) for match in batch]

    def add(self, matches: list[dict]) -> None:
        for key in matches[0] if matches else ():
            new = [match[key] for match in matches]
            self.buffer[key] = np.concatenate([*([self.buffer[key]] if key in self.buffer else []), *new])[
                -self.args.buffer :
            ]
        self.labels += sum(len(match["outcome"]) for match in matches)

    def train(self) -> dict:
        """``--epochs`` passes over the buffer: cross-entropy to the labels, squared error to the
        outcomes, and with a belief head the cross-entropy of each hidden unit's true place."""
        a, data = self.args, {key: torch.from_numpy(value) for key, value in self.buffer.items()}
        total, losses, with_beliefs = len(data["outcome"]), [], self.net.belief is not None
        for _ in range(a.epochs):
            order = torch.randperm(total)
            for start in range(0, total, a.minibatch):
                idx = order[start : start + a.minibatch]
                logits, value, *belief = self.net(data["obs"][idx], data["features"][idx], beliefs=with_beliefs)
                logp = torch.log_softmax(logits.masked_fill(~data["mask"][idx], -1e9), -1)
                policy_loss = -(data["target"][idx] * logp.masked_fill(~data["mask"][idx], 0.0)).sum(-1).mean()
                value_loss = ((torch.sigmoid(value) - data["outcome"][idx]) ** 2).mean()
                loss = policy_loss + a.value_coef * value_loss
                belief_loss = torch.zeros(())
                if with_beliefs:
                    belief_loss = -(data["truth"][idx] * torch.log_softmax(belief[0], -1)).sum((1, 2)).mean()
                    loss = loss + a.belief_coef * belief_loss
                self.optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.net.parameters(), 1.0)
                self.optimizer.step()
                losses.append((policy_loss.item(), value_loss.item(), belief_loss.item()))
        means = np.mean(losses, axis=0) if losses else np.full(3, np.nan)
        stats = {"policy_loss": float(means[0]), "value_loss": float(means[1]), "samples": total}
        return stats | ({"belief_loss": float(means[2])} if with_beliefs else {})

    def evaluate(self) -> dict:
        """The raw policy against each of ``--eval-against`` on duplicate deals; keeps the best."""
        a, out = self.args, self.args.out
        self.policy().save(out / "latest.npz")
        table = self.agents.arena_table(a.players)
        point: dict = {"round": self.round, "labels": self.labels, "train_seconds": round(self.seconds, 1)}
        for opponent in a.eval_against:
            opponent = opponent.replace("START", f"ppo:{self.start}")
            lineup = [f"ppo:{out / 'latest.npz'}", opponent]
            result = arena.run(table, lineup, a.eval_deals, 10_000 + self.round, progress=False)
            point[opponent] = {"score": result["entries"][0]["score"], "ci95": result["entries"][0]["ci95"]}
        point["mean"] = float(np.mean([v["score"] for k, v in point.items() if isinstance(v, dict)]))
        if point["mean"] >= self.best:
            self.best = point["mean"]
            shutil.copyfile(out / "latest.npz", out / "best.npz")
        self.evals.append(point)
        return point

    def save_state(self) -> None:
        out = self.args.out
        state = {"net": self.net.state_dict(), "optimizer": self.optimizer.state_dict(), "round": self.round}
        state.update(labels=self.labels, seconds=self.seconds, evals=self.evals, best=self.best)
        state["belief_coef"] = self.args.belief_coef
        torch.save(state, out / "trainer.pt")
        np.savez(out / "buffer.npz", **self.buffer)

    def load_state(self) -> None:
        out = self.args.out
        state = torch.load(out / "trainer.pt", weights_only=False)
        trained = state.get("belief_coef", 0.0)
        if (trained > 0) != (self.args.belief_coef > 0):
            raise SystemExit(f"error: {out} was trained with --belief-coef {trained:g}: resume with it")
        self.net.load_state_dict(state["net"])
        self.optimizer.load_state_dict(state["optimizer"])
        self.round, self.labels, self.seconds = state["round"], state["labels"], state["seconds"]
        self.evals, self.best = state["evals"], state["best"]
        with np.load(out / "buffer.npz") as buffer:
            self.buffer = {key: buffer[key] for key in buffer.files}


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="examples/expert_iteration.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--game", choices=["sniff", "twelve"], default="sniff")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--init", type=Path, help="the checkpoint to start from (default: the shipped one)")
    p.add_argument("--minutes", type=float, default=60.0, help="time budget: labelling and training (not evaluating)")
    p.add_argument("--rounds", type=int, default=None, help="a number of rounds instead of --minutes")
    p.add_argument(
        "--save-at",
        type=float,
        nargs="*",
        default=[],
        metavar="MINUTES",
        help="also save the policy as at_<M>min.npz once M minutes of labelling and training are done",
    )
    p.add_argument("--games", type=int, default=64, help="self-play matches a round")
    p.add_argument("--label-share", type=float, default=0.25, help="share of decisions labelled by search")
    p.add_argument("--iterations", type=int, default=128, help="the search's N (guided:N)")
    p.add_argument("--temperature", type=float, default=2.0, help="points: the label's softmax temperature")
    p.add_argument("--buffer", type=int, default=200_000, help="newest labels trained on")
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--minibatch", type=int, default=1024)
    p.add_argument("--lr", type=float, default=1e-4)
    p.add_argument("--value-coef", type=float, default=0.5)
    p.add_argument(
        "--belief-coef",
        type=float,
        default=0.0,
        help="weight of the auxiliary loss predicting where the hidden tiles or cards are (0: no belief head)",
    )
    p.add_argument("--eval-deals", type=int, default=30, help="duplicate deals per opponent an evaluation")
    p.add_argument("--eval-every", type=int, default=1, help="rounds between evaluations (and after the last)")
    p.add_argument("--eval-against", nargs="+", default=["greedy", "heuristic", "START"], help="START: --init")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="local processes making labels")
    p.add_argument("--address", help=ADDRESS_HELP.replace("the games", "the labelling"))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=Path("runs/expert_iteration"))
    p.add_argument("--resume", action="store_true", help="continue from --out/trainer.pt")
    return p


def main(argv: list[str] | None = None) -> dict:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.eval_every < 1:
        parser.error(f"--eval-every is a number of rounds (at least 1); got {args.eval_every}")
    args.out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(args.seed)
    trainer = Trainer(args)
    if args.resume:
        trainer.load_state()
    budget_seconds = args.minutes * 60

    def finished() -> bool:
        return trainer.round >= args.rounds if args.rounds is not None else trainer.seconds >= budget_seconds

    if not args.resume:  # a fresh run's --save-at snapshots replace any an earlier run left in --out
        for minutes in args.save_at:
            (args.out / f"at_{minutes:g}min.npz").unlink(missing_ok=True)
    with StopRequest() as stop:
        while not stop and not finished():
            tick = time.perf_counter()
            matches = trainer.generate(stop)
            if stop:
                break
            made = sum(len(match["outcome"]) for match in matches)
            rate = {"labels_per_second": round(made / (time.perf_counter() - tick), 1)}
            trainer.add(matches)
            stats = trainer.train()
            trainer.round += 1
            trainer.seconds += time.perf_counter() - tick
            for minutes in args.save_at:
                path = args.out / f"at_{minutes:g}min.npz"
                if trainer.seconds >= 60 * minutes and not path.exists():
                    trainer.policy().save(path)
            line = {"round": trainer.round, "labels": trainer.labels, **rate, **stats}
            if trainer.round % args.eval_every == 0 or finished():
                point = trainer.evaluate()
                point.update(rate)
                line.update({k: round(v["score"], 3) for k, v in point.items() if isinstance(v, dict)})
            else:
                trainer.policy().save(args.out / "latest.npz")
            print(json.dumps(line), flush=True)
            trainer.save_state()
    summary = {"rounds": trainer.round, "labels": trainer.labels, "train_seconds": round(trainer.seconds, 1)}
    summary.update(best_mean=trainer.best, evals=trainer.evals)
    (args.out / "log.json").write_text(json.dumps({**summary, "interrupted": stop.signal if stop else None}, indent=1))
    if stop:
        trainer.save_state()
        command = [sys.executable, *sys.argv] + ([] if args.resume else ["--resume"])
        print(f"interrupted ({stop.signal}) after round {trainer.round}: resume with\n  {shlex.join(command)}")
        raise SystemExit(EXIT_INTERRUPTED)
    return summary


if __name__ == "__main__":
    main()
