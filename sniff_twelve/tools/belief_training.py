"""Training learned beliefs (``sniff_twelve.beliefs.learned``) by supervision on self-play.

``collect`` plays a table of one agent and keeps, at every decision with a choice, the features
of the seat to act and where its hidden items truly were; ``fit`` (the ``train`` extra: torch)
minimises the log-loss of the network's balanced marginals on them. ``examples/train_beliefs.py``
runs both and writes a network ``infer(view, learned=PATH)`` reads.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from sniff_twelve.beliefs import kernels as BK
from sniff_twelve.beliefs.learned import BeliefNet, balanced, encode, log_loss_bits

if TYPE_CHECKING:
    from sniff_twelve.core.game import BaseGame


def self_play(
    game_cls: type[BaseGame],
    num_players: int,
    model: str,
    seed: int = 0,
    games: int | None = None,
    progress: bool = False,
    **options: Any,
) -> Iterator[BaseGame]:
    """The live game at every decision with a choice while ``model`` (an agent spec) plays every
    seat: game ``g`` is dealt from ``seed + g``, its seat ``s`` agent reset with ``(seed + g) * 8 +
    s``; ``games`` games, or without end. Read the game, do not change it: the agent's move is
    made when the next decision is asked for. ``options`` are the game's."""
    from tqdm import tqdm

    agents = game_cls.spec.part("agents")
    rounds = itertools.count() if games is None else range(games)
    for g in tqdm(rounds, desc="self-play", unit="game", total=games, disable=not progress):
        game = game_cls(num_players=num_players, seed=seed + g, **options)
        lineup = [agents.make_agent(model) for _ in range(num_players)]
        for s, agent in enumerate(lineup):
            agent.reset((seed + g) * 8 + s)
        while not game.is_terminal():
            if len(game.legal_actions()) > 1:
                yield game
            game.apply(lineup[game.current_player].act(game))


def collect(
    game_cls: type[BaseGame], num_players: int, model: str, games: int, seed: int = 0, progress: bool = False
) -> dict[str, np.ndarray]:
    """Self-play of ``model`` (an agent spec) in every seat for ``games`` games: at every decision
    with a choice, the features of the seat to act (``encode``) and where its hidden items truly
    were (``truth``: ``[items, places]`` units, seat-relative, the pool last); ``params`` the
    table's options row, which the network will ask of the views it reads."""
    rows: dict[str, list] = {"x": [], "hidden": [], "room": [], "truth": []}
    truth = np.empty((1, game_cls.spec.ITEMS, num_players))
    for game in self_play(game_cls, num_players, model, seed, games, progress):
        view = game.seat_view()
        x, hidden, room = encode(view)
        BK.truth_counts(game.spec, game.state_array[None], view.params, np.array([view.seat]), truth)
        rows["x"].append(x)
        rows["hidden"].append(hidden)
        rows["room"].append(room)
        rows["truth"].append(truth[0].copy())
    return {k: np.asarray(v, np.float32) for k, v in rows.items()} | {"params": np.asarray(view.params)}


def fit(
    data: dict[str, np.ndarray],
    meta: dict[str, Any],
    hidden_sizes: tuple[int, ...] = (256, 256),
    epochs: int = 20,
    batch: int = 512,
    lr: float = 1e-3,
    seed: int = 0,
    progress: bool = False,
) -> BeliefNet:
    """A network trained on ``collect``'s data by Adam on the balanced marginals' log-loss; the
    last tenth of the data is held out, its loss per epoch is in ``meta["validation_bits"]``, and
    the network returned is the epoch's where that loss was least (early stopping)."""
    import torch
    from tqdm import tqdm

    torch.manual_seed(seed)
    tensors = {k: torch.from_numpy(v) for k, v in data.items() if k != "params"}
    count = tensors["x"].shape[0]
    split = count - max(count // 10, 1)
    items, places = tensors["truth"].shape[1:]
    widths = [tensors["x"].shape[1], *hidden_sizes, items * places]
    modules: list[torch.nn.Module] = []
    for a, b in itertools.pairwise(widths):
        modules += [torch.nn.Linear(a, b), torch.nn.ReLU()]
    net = torch.nn.Sequential(*modules[:-1])
    optimiser = torch.optim.Adam(net.parameters(), lr=lr)

    def loss(rows: slice | torch.Tensor) -> torch.Tensor:
        logits = net(tensors["x"][rows]).reshape(-1, items, places)
        m = balanced(logits, tensors["hidden"][rows], tensors["room"][rows], xp=torch)
        return log_loss_bits(m, tensors["truth"][rows], tensors["hidden"][rows], xp=torch).mean()

    history: list[float] = []
    best = net.state_dict()
    for _ in tqdm(range(epochs), desc="epochs", disable=not progress):
        for rows in torch.randperm(split).split(batch):
            optimiser.zero_grad()
            loss(rows).backward()
            optimiser.step()
        with torch.no_grad():
            history.append(float(loss(slice(split, count))))
        if history[-1] == min(history):
            best = {k: v.clone() for k, v in net.state_dict().items()}
    net.load_state_dict(best)
    linear = [m for m in net if isinstance(m, torch.nn.Linear)]
    layers = [(m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy()) for m in linear]
    meta = meta | {"params": data["params"].tolist(), "inputs": widths[0], "items": items}
    return BeliefNet(layers, meta | {"validation_bits": history})
