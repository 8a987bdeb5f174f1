"""Train sb3-contrib's ``MaskablePPO`` on one seat of American Sniff (or "12") against ``greedy``.

    python examples/sb3_maskable_ppo.py --game sniff --timesteps 200000 --out runs/sniff_ppo
    python examples/sb3_maskable_ppo.py --game twelve --timesteps 100000 --out runs/twelve_ppo

Needs the ``train`` extra (``pip install -e ".[train]"``; ``torch==2.13.0`` is the CPU build on
these machines). The learner holds seat 0 of a 2-player table (``single_agent_env``); opponents
are built-in agents. Every ``--eval-every`` steps the policy's win rate is measured; at the end
it is evaluated with sb3-contrib's maskable ``evaluate_policy`` and in our arena (duplicate deals:
the policy is exported to ``policy.npz``, an ``envkit.policy`` checkpoint that plays as
``ppo:PATH``), and the model, ``summary.json`` and a learning-curve PNG (win rate against
timesteps) are saved.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.evaluation import evaluate_policy
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.monitor import Monitor

from envkit import arena
from envkit.interrupt import EXIT_INTERRUPTED, StopRequest
from envkit.optional import MissingExtraError, pyplot
from envkit.policy import MlpPolicy
from sniff_env.agents import arena_table as sniff_arena_table
from sniff_env.env import single_agent_env as sniff_env
from twelve_env.agents import arena_table as twelve_arena_table
from twelve_env.env import single_agent_env as twelve_env


def make_env(game: str, opponent: str, seed: int):
    """The learner's seat against ``opponent``, with dense rewards to learn from (Sniff: points
    of short matches; "12": cards) — the win rate is what is reported."""
    if game == "sniff":
        return sniff_env(num_players=2, opponents=opponent, reward="points", target=100, max_hands=20)
    return twelve_env(num_players=2, opponents=opponent, reward="score")


def export_policy(model: MaskablePPO, game: str) -> MlpPolicy:
    """The model's actor (ReLU MLP + action head) as an ``envkit.policy`` checkpoint."""
    layers = [m for m in model.policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    weights = {}
    for i, layer in enumerate(layers):
        weights[f"w{i}"] = layer.weight.detach().numpy().T
        weights[f"b{i}"] = layer.bias.detach().numpy()
    weights["policy_w"] = model.policy.action_net.weight.detach().numpy().T
    weights["policy_b"] = model.policy.action_net.bias.detach().numpy()
    meta = {
        "game": game,
        "num_players": 2,
        "obs_size": int(model.observation_space.shape[0]),
        "num_actions": int(model.action_space.n),
        "algorithm": "sb3-contrib MaskablePPO (examples/sb3_maskable_ppo.py)",
        "env_steps": int(model.num_timesteps),
    }
    return MlpPolicy(weights, meta)


def win_rate(model: MaskablePPO, game: str, opponent: str, games: int, seed: int) -> float:
    """Share of ``games`` fresh games the policy wins (ties count half)."""
    env = make_env(game, opponent, seed)
    results = []
    for g in range(games):
        obs, _ = env.reset(seed=seed + g)
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, _, terminated, truncated, _ = env.step(int(action))
            done = terminated or truncated
        mine = env.game.scores[0]
        other = env.game.scores[1]
        results.append(1.0 if mine > other else 0.5 if mine == other else 0.0)
    return float(np.mean(results))


class WinRateCurve(BaseCallback):
    """Evaluates the win rate every ``every`` steps, for the learning curve; stops the training
    when ``stop`` (an ``envkit.interrupt.StopRequest``) says so."""

    def __init__(self, game: str, opponent: str, every: int, games: int, stop: StopRequest) -> None:
        super().__init__()
        self.game, self.opponent, self.every, self.games, self.stop = game, opponent, every, games, stop
        self.points: list[tuple[int, float]] = []

    def _on_step(self) -> bool:
        if self.num_timesteps % self.every == 0:
            self.points.append((self.num_timesteps, win_rate(self.model, self.game, self.opponent, self.games, 10_000)))
        return not self.stop


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=("sniff", "twelve"), default="sniff")
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument("--timesteps", type=int, default=100_000)
    parser.add_argument("--eval-every", type=int, default=10_000)
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--arena-deals", type=int, default=50, help="duplicate deals of the final arena evaluation")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("runs/ppo"))
    parser.add_argument("--resume", action="store_true", help="continue the model in --out/model.zip")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)

    env = make_env(args.game, args.opponent, args.seed)
    if args.resume:
        model = MaskablePPO.load(args.out / "model.zip", env=env, device="cpu")
    else:
        model = MaskablePPO(
            "MlpPolicy",
            env,
            seed=args.seed,
            n_steps=min(2048, max(64, args.timesteps // 4)),
            batch_size=64,
            verbose=0,
            device="cpu",
            # ReLU, so that the actor exports to an envkit.policy checkpoint for the arena
            policy_kwargs={"activation_fn": torch.nn.ReLU, "net_arch": {"pi": [64, 64], "vf": [64, 64]}},
        )
    with StopRequest() as stop:  # Ctrl-C / SIGTERM: stop at the next step, save the model, say how to resume
        curve = WinRateCurve(args.game, args.opponent, args.eval_every, max(4, args.eval_games // 5), stop)
        left = max(0, args.timesteps - model.num_timesteps)
        print(f"training MaskablePPO on {args.game} against {args.opponent}: {left} timesteps", flush=True)
        model.learn(total_timesteps=left, callback=curve, reset_num_timesteps=not args.resume)
    model.save(args.out / "model.zip")
    if stop:
        command = [sys.executable, *sys.argv] + ([] if args.resume else ["--resume"])
        print(
            f"interrupted ({stop.signal}) at {model.num_timesteps} of {args.timesteps} timesteps: "
            f"{args.out / 'model.zip'} is saved. Resume with:\n  {shlex.join(command)}"
        )
        raise SystemExit(EXIT_INTERRUPTED)

    eval_env = Monitor(make_env(args.game, args.opponent, args.seed + 1))
    mean_reward, std_reward = evaluate_policy(model, eval_env, n_eval_episodes=max(4, args.eval_games // 5))
    final = win_rate(model, args.game, args.opponent, args.eval_games, 20_000)
    export_policy(model, args.game).save(args.out / "policy.npz")
    table = (sniff_arena_table if args.game == "sniff" else twelve_arena_table)(2)
    result = arena.run(table, [f"ppo:{args.out / 'policy.npz'}", args.opponent], args.arena_deals, progress=False)
    summary = {
        "game": args.game,
        "opponent": args.opponent,
        "timesteps": args.timesteps,
        "mean_reward": float(mean_reward),
        "std_reward": float(std_reward),
        "win_rate": final,
        "arena": {
            "score": result["entries"][0]["score"],
            "ci95": result["entries"][0]["ci95"],
            "deals": args.arena_deals,
        },
        "curve": curve.points,
    }
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1))
    try:
        plt = pyplot("the learning curve", "train")
        fig, ax = plt.subplots(figsize=(6, 4))
        if curve.points:
            ax.plot(*zip(*curve.points, strict=True), "o-")
        ax.axhline(0.5, color="grey", linestyle="--", linewidth=1)
        ax.set(xlabel="timesteps", ylabel=f"win rate vs {args.opponent}", ylim=(0, 1))
        ax.set_title(f"MaskablePPO, {args.game}")
        fig.tight_layout()
        fig.savefig(args.out / "learning_curve.png", dpi=100)
        plt.close(fig)
    except MissingExtraError as missing:
        print(f"note: no learning_curve.png — {missing}")
    print(json.dumps({k: v for k, v in summary.items() if k != "curve"}))
    return summary


if __name__ == "__main__":
    main()
