"""Train sb3-contrib's ``MaskablePPO`` on one seat of American Sniff (or "12") against ``greedy``.

    python examples/sb3_maskable_ppo.py --game sniff --minutes 30 --out runs/sniff_ppo
    python examples/sb3_maskable_ppo.py --game twelve --minutes 10 --out runs/twelve_ppo
    python examples/sb3_maskable_ppo.py --env single --timesteps 100000   # one Python step at a time

Needs the ``train`` extra (``pip install -e ".[train]"``; ``torch==2.13.0`` is the CPU build on
these machines). The learner holds seat 0 of a 2-player table; the opponents are built-in agents.
By default it trains on ``--envs`` games of ``vector_env`` at once (``sniff_twelve.envs.sb3.SB3VecEnv``:
the opponents play inside compiled code, ``MaskablePPO`` sees a plain sb3 ``VecEnv``), with the
action features appended to the observation (``--no-features`` to leave them out); ``--env
single`` uses the single-seat gymnasium env instead. Every ``--eval-every`` steps the policy's
win rate is measured on fresh games; at the end it is evaluated with sb3-contrib's maskable
``evaluate_policy`` and in our arena (full matches on duplicate deals: the actor is exported to
``policy.npz``, an ``sniff_twelve.agents.policy`` checkpoint that plays as ``ppo:PATH``), and the model,
``summary.json`` and a learning-curve PNG (win rate against timesteps) are saved.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.evaluation import evaluate_policy
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.monitor import Monitor

from sniff_twelve.batch.mlp import MlpPolicy
from sniff_twelve.core.games import game_package
from sniff_twelve.core.optional import MissingExtraError, pyplot
from sniff_twelve.envs.sb3 import SB3VecEnv
from sniff_twelve.tools import arena
from sniff_twelve.tools.exits import EXIT_INTERRUPTED, fail
from sniff_twelve.tools.interrupt import StopRequest


def game_options(game: str) -> dict:
    """Dense rewards to learn from (Sniff: points of short matches; "12": cards) — the win rate
    is what is reported."""
    if game == "sniff":
        return {"num_players": 2, "reward": "points", "target": 100, "max_hands": 20}
    return {"num_players": 2, "reward": "score"}


def make_env(game: str, opponent: str):
    """The learner's seat as a single gymnasium env (``--env single``; seeded by sb3's reset)."""
    return game_package(game).single_agent_env(opponents=opponent, **game_options(game))


def make_vec_env(game: str, opponent: str, envs: int, seed: int, features: bool) -> SB3VecEnv:
    """``envs`` games of the learner's seat, stepped together in compiled code (``--env vector``)."""
    options = game_options(game)
    return SB3VecEnv(
        game_package(game).vector_env(envs, opponents=opponent, seed=seed, action_features=features, **options)
    )


def export_policy(model: MaskablePPO, game: str, features: bool) -> MlpPolicy:
    """The model's actor (ReLU MLP + action head) as an ``sniff_twelve.agents.policy`` checkpoint; with
    ``features`` it reads the action features as input (``meta["input_features"]``)."""
    layers = [m for m in model.policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    weights = {}
    for i, layer in enumerate(layers):
        weights[f"w{i}"] = layer.weight.detach().numpy().T
        weights[f"b{i}"] = layer.bias.detach().numpy()
    weights["policy_w"] = model.policy.action_net.weight.detach().numpy().T
    weights["policy_b"] = model.policy.action_net.bias.detach().numpy()
    num_actions = int(model.action_space.n)
    feature_count = len(game_package(game).Game.spec.action_feature_names) if features else 0
    meta = {
        "game": game,
        "num_players": 2,
        "obs_size": int(model.observation_space.shape[0]) - num_actions * feature_count,
        "num_actions": num_actions,
        "algorithm": "sb3-contrib MaskablePPO (examples/sb3_maskable_ppo.py)",
        "env_steps": int(model.num_timesteps),
    }
    if features:
        meta["input_features"] = feature_count
    return MlpPolicy(weights, meta)


def win_rate(model: MaskablePPO, game: str, opponent: str, games: int, seed: int, features: bool) -> float:
    """Share of ``games`` fresh games (one per row of a ``vector_env``) the policy wins, ties half."""
    options = game_options(game) | {"reward": "win"}
    venv = game_package(game).vector_env(games, opponents=opponent, seed=seed, action_features=features, **options)
    obs, _ = venv.reset()
    outcome = np.full(games, np.nan)
    while np.isnan(outcome).any():
        actions, _ = model.predict(obs, action_masks=venv.action_masks(), deterministic=True)
        obs, rewards, terminated, truncated, _ = venv.step(actions)
        ended = (terminated | truncated) & np.isnan(outcome)
        outcome[ended] = rewards[ended]
    return float(np.mean((outcome > 0) + 0.5 * (outcome == 0)))


class Budget(BaseCallback):
    """Measures the win rate every ``every`` steps for the learning curve, and stops the training
    after ``seconds`` of it or when ``stop`` (an ``sniff_twelve.tools.interrupt.StopRequest``) says so."""

    def __init__(self, args: argparse.Namespace, features: bool, stop: StopRequest) -> None:
        super().__init__()
        self.args, self.features, self.stop = args, features, stop
        self.points: list[tuple[int, float]] = []
        self.next_eval = 0
        self.seconds = 0.0  # training time, evaluations excluded
        self.started = time.perf_counter()

    def _on_training_start(self) -> None:
        self.next_eval = self.num_timesteps + self.args.eval_every
        self.started = time.perf_counter()

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_eval:
            self.seconds += time.perf_counter() - self.started
            games = max(4, self.args.eval_games // 5)
            rate = win_rate(self.model, self.args.game, self.args.opponent, games, 10_000, self.features)
            self.points.append((self.num_timesteps, rate))
            self.next_eval += self.args.eval_every
            self.started = time.perf_counter()
        spent = self.seconds + time.perf_counter() - self.started
        return not self.stop and (self.args.minutes is None or spent < 60 * self.args.minutes)

    def _on_training_end(self) -> None:
        self.seconds += time.perf_counter() - self.started
        self.started = time.perf_counter()


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=("sniff", "twelve"), default="sniff")
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument(
        "--env", choices=("vector", "single"), default="vector", help="vector_env (default) or single_agent_env"
    )
    parser.add_argument("--envs", type=int, default=64, help="games stepped together (--env vector)")
    parser.add_argument(
        "--features",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="append the action features to the observation (default: on with --env vector; single has none)",
    )
    parser.add_argument(
        "--timesteps", type=int, default=None, help="step budget (default: 100000, or none with --minutes)"
    )
    parser.add_argument("--minutes", type=float, default=None, help="training time budget, evaluations excluded")
    parser.add_argument("--eval-every", type=int, default=10_000)
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--arena-deals", type=int, default=50, help="duplicate deals of the final arena evaluation")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("runs/ppo"))
    parser.add_argument("--resume", action="store_true", help="continue the model in --out/model.zip")
    args = parser.parse_args(argv)
    step_limit = args.timesteps is not None or args.minutes is None
    if args.timesteps is None:
        args.timesteps = 100_000 if args.minutes is None else 1 << 62
    features = args.env == "vector" if args.features is None else args.features
    if features and args.env == "single":
        fail("--features needs --env vector (the single-seat env has no action features)")
    if args.envs < 1:
        fail(f"--envs must be at least 1; got {args.envs}")
    args.out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(1)  # the env's compiled opponents use the other core

    if args.env == "vector":
        env = make_vec_env(args.game, args.opponent, args.envs, args.seed, features)
        n_steps = max(16, min(128, args.timesteps // (4 * args.envs)))
        batch_size = min(1024, n_steps * args.envs)
    else:
        env = make_env(args.game, args.opponent)
        n_steps, batch_size = min(2048, max(64, args.timesteps // 4)), 64
    if args.resume:
        model = MaskablePPO.load(args.out / "model.zip", env=env, device="cpu")
    else:
        model = MaskablePPO(
            "MlpPolicy",
            env,
            seed=args.seed,
            n_steps=n_steps,
            batch_size=batch_size,
            n_epochs=4,
            verbose=0,
            device="cpu",
            # ReLU, so that the actor exports to an sniff_twelve.agents.policy checkpoint for the arena
            policy_kwargs={"activation_fn": torch.nn.ReLU, "net_arch": {"pi": [128, 128], "vf": [128, 128]}},
        )
    with StopRequest() as stop:  # Ctrl-C / SIGTERM: stop at the next step, save the model, say how to resume
        budget = Budget(args, features, stop)
        left = max(0, args.timesteps - model.num_timesteps)
        limits = ([f"{left} timesteps"] if step_limit else []) + ([f"{args.minutes:g} minutes"] if args.minutes else [])
        limit = " or ".join(limits)
        print(f"training MaskablePPO on {args.game} against {args.opponent} ({args.env} env): {limit}", flush=True)
        model.learn(total_timesteps=left, callback=budget, reset_num_timesteps=not args.resume)
    model.save(args.out / "model.zip")
    if stop:
        command = [sys.executable, *sys.argv] + ([] if args.resume else ["--resume"])
        print(
            f"interrupted ({stop.signal}) at {model.num_timesteps}"
            + (f" of {args.timesteps}" if step_limit else "")
            + f" timesteps: "
            f"{args.out / 'model.zip'} is saved. Resume with:\n  {shlex.join(command)}"
        )
        raise SystemExit(EXIT_INTERRUPTED)

    export_policy(model, args.game, features).save(args.out / "policy.npz")
    final = win_rate(model, args.game, args.opponent, args.eval_games, 20_000, features)
    summary = {
        "game": args.game,
        "opponent": args.opponent,
        "env": args.env,
        "envs": args.envs if args.env == "vector" else 1,
        "features": features,
        "timesteps": int(model.num_timesteps),
        "training_seconds": round(budget.seconds, 1),
        "steps_per_second": round(model.num_timesteps / max(budget.seconds, 1e-9)),
        "win_rate": final,
    }
    if not features:  # sb3-contrib's own evaluation runs on the single-seat env
        eval_env = Monitor(make_env(args.game, args.opponent))
        mean_reward, std_reward = evaluate_policy(model, eval_env, n_eval_episodes=max(4, args.eval_games // 5))
        summary |= {"mean_reward": float(mean_reward), "std_reward": float(std_reward)}
    table = game_package(args.game).agents.arena_table(2)
    result = arena.run(table, [f"ppo:{args.out / 'policy.npz'}", args.opponent], args.arena_deals, progress=False)
    entry = result["entries"][0]
    summary["arena"] = {"score": entry["score"], "ci95": entry["ci95"], "deals": args.arena_deals}
    summary["curve"] = budget.points
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1))
    try:
        plt = pyplot("the learning curve", "train")
        fig, ax = plt.subplots(figsize=(6, 4))
        if budget.points:
            ax.plot(*zip(*budget.points, strict=True), "o-")
        ax.axhline(0.5, color="grey", linestyle="--", linewidth=1)
        ax.set(xlabel="timesteps", ylabel=f"win rate vs {args.opponent}", ylim=(0, 1))
        ax.set_title(f"MaskablePPO, {args.game} ({args.env} env)")
        fig.tight_layout()
        fig.savefig(args.out / "learning_curve.png", dpi=100)
        plt.close(fig)
    except MissingExtraError as missing:
        print(f"note: no learning_curve.png — {missing}")
    print(json.dumps({k: v for k, v in summary.items() if k != "curve"}))
    return summary


if __name__ == "__main__":
    main()
