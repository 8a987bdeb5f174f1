"""Train a learned belief network on self-play — the shipped ``beliefs_<players>p.npz`` of each game.

    python examples/train_beliefs.py --players 4 --out sniff4_beliefs.npz
    python examples/train_beliefs.py --players 2 --out sniff2_beliefs.npz
    python examples/train_beliefs.py --game twelve --players 2 --model greedy --games 40000 --out twelve2_beliefs.npz

(the shipped networks: these commands, 7 to 14 minutes each on one core).

Plays ``--games`` games of ``--model`` in every seat, keeps every decision's features and where
the hidden tiles or cards truly were (``sniff_twelve.tools.belief_training.collect``), and fits the
network to the truth (``belief_training.fit``: the log-loss of its balanced marginals; the last
tenth of the decisions held out, the network kept from the epoch where they score best). Prints
the held-out bits per decision after each epoch, and beside them the rules' own log-loss on the
same decisions (every consistent deal alike), the baseline any belief must beat. ``--ship``
writes to the package's ``checkpoints/`` instead of ``--out``.

Use it: ``infer(view, learned=PATH)``, the agent ``belief:N:learned`` (the shipped network), or
``python -m sniff_env beliefs games.jsonl --model learned``. Needs the ``train`` extra (torch).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from sniff_twelve.beliefs import learned
from sniff_twelve.core.games import game_package
from sniff_twelve.tools import belief_training


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="sniff", choices=("sniff", "twelve"))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--model", default="ppo", help="the agent whose self-play it learns (default ppo)")
    parser.add_argument("--games", type=int, default=6000, help="self-play games (default 6000)")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--hidden", type=int, nargs="+", default=[256, 256], help="hidden layer widths")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="beliefs.npz")
    parser.add_argument("--ship", action="store_true", help="write the package's shipped network")
    args = parser.parse_args(argv)

    game_cls = game_package(args.game).Game
    start = time.perf_counter()
    data = belief_training.collect(game_cls, args.players, args.model, args.games, args.seed, progress=True)
    print(f"{len(data['x']):,} decisions from {args.games} games in {time.perf_counter() - start:.0f} s")
    meta = {"game": game_cls.spec.name, "model": args.model, "games": args.games}
    start = time.perf_counter()
    net = belief_training.fit(data, meta, tuple(args.hidden), args.epochs, seed=args.seed, progress=True)
    held = slice(len(data["x"]) - max(len(data["x"]) // 10, 1), None)
    rules = learned.balanced(np.zeros_like(data["room"][held]), data["hidden"][held], data["room"][held])
    rules_bits = float(learned.log_loss_bits(rules, data["truth"][held], data["hidden"][held]).mean())
    net.meta["rules_bits"] = rules_bits
    bits = net.meta["validation_bits"]
    print(f"trained in {time.perf_counter() - start:.0f} s; held-out bits per decision by epoch:")
    print(" ".join(f"{b:.3f}" for b in bits))
    best = bits.index(min(bits))
    print(f"held out: {bits[best]:.3f} bits learned (epoch {best + 1}), {rules_bits:.3f} with every place alike")
    out = learned.shipped_path(game_cls.spec, args.players) if args.ship else args.out
    net.save(out)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
