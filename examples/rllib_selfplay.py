"""RLlib multi-agent PPO with action masking, by self-play, on our AEC env (new API stack).

    python examples/rllib_selfplay.py --players 4 --iterations 50 --out runs/rllib_sniff4
    python examples/rllib_selfplay.py --game twelve --players 2 --iterations 20
    python examples/rllib_selfplay.py --address auto --env-runners 16 ...   # an existing Ray cluster

Every seat maps to the one module ``"main"`` (parameter sharing: the policy plays itself; the
observations are seat-relative, and partners in 4-player Sniff share their side's reward). The
module is RLlib's ``ActionMaskingTorchRLModule``; ``sniff_twelve.envs.rllib.RllibEnv`` gives it what it
expects (an ``"observations"`` key and a float mask).

``--address`` connects to a running Ray cluster (``auto``, or ``ray://head:10001``) instead of
starting Ray on this machine; ``--env-runners`` then spreads sampling over the cluster. The cluster's
Python environment needs this package installed on every node.

The environment is named by its registered name (``import sniff_twelve.envs.rllib`` registers ``"sniff"`` and
``"twelve"``) and passes RLlib's default environment check (random unmasked actions end the
episode with −1 for the actor, PettingZoo's illegal-move convention). Ray is quiet unless
``--verbose``: the driver's Ray and RLlib loggers report only errors (set before RLlib is
imported, so its import-time deprecation notices — two are about its own example module — stay
silent; ``ray.init(logging_level=ERROR)`` and ``config.debugging(log_level="ERROR")`` keep it so),
workers' output is not forwarded (``log_to_driver=False``), and on this machine failed env runners
are not restarted (``restart_failed_env_runners=False``: a crash is a bug to see, and it spares
Ray's ``core_worker.cc`` error about restarting actors whose arguments live in the object store;
on a cluster, ``--address``, RLlib's restarts stay on). ``--help`` does not load Ray at all.

At the end the script saves the RLlib checkpoint to ``--out/checkpoint``, exports the trained
policy to ``--out/policy.npz`` (``sniff_twelve.agents.policy`` format: play it with the agent spec
``ppo:PATH`` in the arena, the ladder or ``play``) and scores it against ``--eval-against`` in the
arena on duplicate deals.

Needs the ``rllib`` extra: ``pip install -e ".[rllib]"`` (``ray[rllib]``, which pins gymnasium 1.2.2).
"""

from __future__ import annotations

import argparse
import json
import logging
import shlex
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from sniff_twelve.batch.mlp import MlpPolicy
from sniff_twelve.core.games import GAMES, game_spec
from sniff_twelve.tools import arena
from sniff_twelve.tools.exits import EXIT_INTERRUPTED
from sniff_twelve.tools.interrupt import StopRequest

if TYPE_CHECKING:  # Ray is imported only when training starts: --help and a bad argument never load it
    from ray.rllib.algorithms.ppo import PPOConfig


def import_ray(verbose: bool = False):
    """Import Ray; unless ``verbose``, the driver's Ray and RLlib loggers report errors only (RLlib
    logs its deprecation notices while its modules are imported, so the level is set before that)."""
    import ray

    if not verbose:
        logging.getLogger("ray").setLevel(logging.ERROR)
        logging.getLogger("ray.rllib").setLevel(logging.ERROR)  # Ray gives RLlib's logger a level of its own
    import sniff_twelve.envs.rllib  # noqa: F401  (registers the envs "sniff" and "twelve")

    return ray


def env_config(args: argparse.Namespace) -> dict:
    """Dense zero-sum-ish rewards to learn from (Sniff: side points; "12": cards), forced draws
    and passes played automatically so every step is a real decision."""
    if args.game == "sniff":
        return {"game": "sniff", "num_players": args.players, "reward": "points", "forced": "auto"}
    return {"game": "twelve", "num_players": args.players, "reward": "score"}


def build_config(args: argparse.Namespace) -> PPOConfig:
    import_ray(args.verbose)
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    return (
        PPOConfig()
        .environment(args.game, env_config=env_config(args))  # the name sniff_twelve.envs.rllib registered
        .env_runners(num_env_runners=args.env_runners, num_envs_per_env_runner=args.envs_per_runner)
        # on one machine a dead env runner is a bug to see; a cluster keeps RLlib's restarts
        .fault_tolerance(restart_failed_env_runners=bool(args.address))
        .multi_agent(policies={"main"}, policy_mapping_fn=lambda agent_id, episode, **kwargs: "main")
        .rl_module(
            rl_module_spec=RLModuleSpec(
                module_class=ActionMaskingTorchRLModule,
                model_config=DefaultModelConfig(
                    fcnet_hiddens=args.hidden, fcnet_activation="relu", vf_share_layers=False, head_fcnet_hiddens=[]
                ),
            )
        )
        .training(
            lr=args.lr,
            gamma=0.995,
            train_batch_size_per_learner=args.batch,
            minibatch_size=min(512, args.batch),
            num_epochs=args.epochs,
            entropy_coeff=0.01,
        )
        .debugging(seed=args.seed, log_level="WARN" if args.verbose else "ERROR")  # WARN: RLlib's default
    )


def export_policy(module, meta: dict) -> MlpPolicy:
    """The trained module's actor (encoder MLP + policy head, ReLU) as an ``sniff_twelve.agents.policy`` checkpoint."""
    state = {k: v.detach().cpu().numpy() for k, v in module.state_dict().items()}
    weights, i = {}, 0
    while f"encoder.actor_encoder.net.mlp.{2 * i}.weight" in state:
        weights[f"w{i}"] = state[f"encoder.actor_encoder.net.mlp.{2 * i}.weight"].T
        weights[f"b{i}"] = state[f"encoder.actor_encoder.net.mlp.{2 * i}.bias"]
        i += 1
    weights["policy_w"] = state["pi.net.mlp.0.weight"].T
    weights["policy_b"] = state["pi.net.mlp.0.bias"]
    return MlpPolicy(weights, meta)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", choices=sorted(GAMES), default="sniff")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--iterations", type=int, default=50, help="PPO training iterations")
    p.add_argument("--batch", type=int, default=8000, help="env steps per iteration (train_batch_size_per_learner)")
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--hidden", type=int, nargs="+", default=[256, 256])
    p.add_argument("--env-runners", type=int, default=1, help="sampling workers (processes, or cluster nodes)")
    p.add_argument("--envs-per-runner", type=int, default=4)
    p.add_argument("--address", default=None, help="an existing Ray cluster ('auto', 'ray://host:10001')")
    p.add_argument("--eval-deals", type=int, default=20, help="duplicate deals per arena opponent (0: skip)")
    p.add_argument("--eval-against", nargs="+", default=["random", "greedy"])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=Path("runs/rllib"))
    p.add_argument("--resume", action="store_true", help="continue from --out/checkpoint")
    p.add_argument("--verbose", action="store_true", help="Ray's and RLlib's default logging, workers' output too")
    return p


def main(argv: list[str] | None = None) -> dict:
    args = build_parser().parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    ray = import_ray(args.verbose)
    from sniff_twelve.envs.rllib import RllibEnv

    quiet = {} if args.verbose else {"log_to_driver": False, "logging_level": logging.ERROR}
    if args.address:
        ray.init(address=args.address, **quiet)
    else:
        ray.init(num_cpus=max(2, args.env_runners + 1), include_dashboard=False, **quiet)
    algo = build_config(args).build_algo()
    history, start = [], time.perf_counter()
    if args.resume:
        algo.restore_from_path(str((args.out / "checkpoint").resolve()))
        history = json.loads((args.out / "summary.json").read_text()).get("history", [])
    with StopRequest() as stop:  # Ctrl-C / SIGTERM: stop after this iteration, save, say how to resume
        for iteration in range(algo.iteration + 1, args.iterations + 1):
            result = algo.train()
            runners = result.get("env_runners", {})
            history.append(
                {
                    "iteration": iteration,
                    "env_steps": int(runners.get("num_env_steps_sampled_lifetime", 0)),
                    "episode_return_mean": runners.get("episode_return_mean"),
                }
            )
            print(json.dumps(history[-1]), flush=True)
            if stop:
                break
    seconds = time.perf_counter() - start
    checkpoint = algo.save_to_path(str((args.out / "checkpoint").resolve()))
    module = algo.get_module("main")
    probe = RllibEnv(env_config(args))
    meta = {
        "game": args.game,
        "num_players": args.players,
        "obs_size": probe.observation_spaces["player_0"]["observations"].shape[0],
        "num_actions": int(probe.action_spaces["player_0"].n),
        "algorithm": "RLlib PPO, self-play (examples/rllib_selfplay.py)",
        "env_steps": history[-1]["env_steps"] if history else 0,
        "train_seconds": round(seconds, 1),
    }
    export_policy(module, meta).save(args.out / "policy.npz")
    algo.stop()
    ray.shutdown()
    summary = {**meta, "checkpoint": str(checkpoint), "history": history}
    summary["steps_per_second"] = round(meta["env_steps"] / max(seconds, 1e-9))
    if stop:
        (args.out / "summary.json").write_text(json.dumps({**summary, "interrupted": stop.signal}, indent=1))
        command = [sys.executable, *sys.argv] + ([] if args.resume else ["--resume"])
        print(
            f"interrupted ({stop.signal}) after iteration {len(history)} of {args.iterations}: the checkpoint "
            f"and {args.out / 'policy.npz'} are saved. Resume with:\n  {shlex.join(command)}"
        )
        raise SystemExit(EXIT_INTERRUPTED)
    if args.eval_deals:
        table = game_spec(args.game).part("agents").arena_table(args.players)
        for opponent in args.eval_against:
            result = arena.run(table, [f"ppo:{args.out / 'policy.npz'}", opponent], args.eval_deals, progress=False)
            row = result["entries"][0]
            summary[f"vs_{opponent}"] = {"score": row["score"], "ci95": row["ci95"]}
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1))
    print(json.dumps({k: v for k, v in summary.items() if k != "history"}))
    return summary


if __name__ == "__main__":
    main()
