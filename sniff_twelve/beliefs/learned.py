"""Learned beliefs: a small network that predicts, from a seat's view alone, where the items it
cannot see are — what ``infer`` computes by replaying the deal for every world, at a fraction of
the cost (the idea of Hanabi's Learned Belief Search).

The network reads the seat's observation, what each other seat has shown this deal (the public
history, ``kernels.shown_by_seat``), the hidden count of each item and the known voids, and
writes one logit per item and place (the other seats relative to the seat, then the boneyard or
stock). Its marginals are the masked softmax over the places an item may be, balanced
(Sinkhorn) so that every item's units add up exactly and every hand's size to within
``PLAY_TOLERANCE`` of a unit. Worlds are drawn from them exactly in proportion to the product of
their units' probabilities among the deals that respect the sizes and voids
(``kernels.deal_from_weights``).

A network is trained by supervision on self-play, where the truth is known
(``sniff_twelve.tools.belief_training``); ``examples/train_beliefs.py`` makes the shipped
``beliefs_<players>p.npz`` of each game.

>>> import sniff_env
>>> from sniff_twelve.beliefs import infer
>>> game = sniff_env.Game(num_players=4, seed=1)
>>> for _ in range(6):
...     game.apply(game.legal_actions()[0])
>>> beliefs = infer(game.seat_view(0), learned="shipped", worlds=16)
>>> bool(abs(beliefs.marginals.sum(axis=1) - 1).max() < 1e-6)  # each tile is somewhere
True
"""

from __future__ import annotations

import functools
import importlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from sniff_twelve.beliefs import kernels as BK

if TYPE_CHECKING:
    from sniff_twelve.core.game import BaseGame
    from sniff_twelve.core.view import SeatView

#: balancing rounds of the marginals (rows to the items' units, columns to the places' sizes) in
#: training; at play they go on, up to ``PLAY_BALANCING``, until every size is met to ``PLAY_TOLERANCE``
BALANCING = 32
PLAY_BALANCING, PLAY_TOLERANCE = 20_000, 1e-4
REQUIRED_META = ("game", "params", "model", "inputs", "items")


class BeliefNet:
    """A ReLU MLP from a seat's belief features to ``[items, places]`` logits (module docstring).

    ``meta``: ``game``, ``params`` (the options row of the table it learned, the number of
    players first), ``model`` (the agent spec whose self-play it was trained on: the players it
    assumes), ``inputs`` and ``items``; anything else (training figures) rides along.
    """

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], meta: dict[str, Any]) -> None:
        missing = [k for k in REQUIRED_META if k not in meta]
        if missing:
            raise ValueError(f"belief network meta lacks {', '.join(missing)}")
        self.layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in layers]
        self.meta = dict(meta)
        self.num_players = int(meta["params"][0])
        shapes = [w.shape for w, _ in self.layers]
        if not shapes or shapes[0][0] != meta["inputs"] or shapes[-1][1] != meta["items"] * self.num_players:
            raise ValueError(
                f"belief network weights {shapes} do not map {meta['inputs']} inputs to "
                f"{meta['items']} items × {self.num_players} places"
            )

    @classmethod
    def load(cls, path: str | Path) -> BeliefNet:
        """Read a network ``save`` wrote; anything else is a one-line ``ValueError`` naming the file."""
        path = Path(path)
        if not path.is_file():
            raise ValueError(f"belief network {path}: no such file")
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                layers = [(data[f"w{i}"], data[f"b{i}"]) for i in range(sum(k.startswith("w") for k in data.files))]
        except (OSError, KeyError, EOFError, ValueError) as err:
            raise ValueError(f"belief network {path}: not a belief network ({err})") from None
        return cls(layers, meta)

    def save(self, path: str | Path) -> None:
        """Write the network to ``path`` (``.npz``), its weights in half precision: shipped small."""
        arrays = {f"w{i}": w.astype(np.float16) for i, (w, _) in enumerate(self.layers)}
        arrays |= {f"b{i}": b.astype(np.float16) for i, (_, b) in enumerate(self.layers)}
        np.savez_compressed(Path(path), meta=np.array(json.dumps(self.meta)), **arrays)

    def logits(self, x: np.ndarray) -> np.ndarray:
        """``[B, items, places]`` logits of the features ``x`` (``[B, inputs]``)."""
        for i, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if i < len(self.layers) - 1:
                x = np.maximum(x, 0.0)
        return x.reshape(x.shape[0], self.meta["items"], self.num_players)

    def check_view(self, view: SeatView) -> None:
        """``ValueError`` if the network was trained for another game, table or options than ``view``'s."""
        if self.meta["game"] != view.spec.name or self.num_players != view.num_players:
            raise ValueError(
                f"the belief network is for {self.meta['game']} with {self.num_players} players; "
                f"the view is {view.spec.name} with {view.num_players}"
            )
        learned = rules_row(view._game_cls, view.spec.complete_row(self.meta["params"]))
        table = rules_row(view._game_cls, view.params)
        if learned != table:
            raise ValueError(
                f"the belief network learned a table whose options row is {list(learned)}; this "
                f"one's is {list(table)} (the number of players first; None where a slot holds no rule)"
            )


def rules_row(game_cls: type[BaseGame], params: Any) -> tuple[int | None, ...]:
    """The options row ``params`` with ``None`` in the slots that hold no rule's option (limits,
    ``kind == "limit"``, and episode boundaries: they change no belief within a deal)."""
    kept = _rule_slots(game_cls, len(params))
    return tuple(int(v) if k else None for v, k in zip(params, kept, strict=True))


@functools.lru_cache(maxsize=16)
def _rule_slots(game_cls: type[BaseGame], size: int) -> tuple[bool, ...]:
    rules = {o.name for o in game_cls.spec.options if o.kind != "limit"} | {"num_players"}
    kept = [False] * size
    for what, (start, stop), _, _ in game_cls.param_bounds():
        for slot in range(start, stop):
            kept[slot] |= any(name in rules for name in what.split(", "))
    return tuple(kept)


@functools.lru_cache(maxsize=16)
def _shared(path: str, mtime_ns: int) -> BeliefNet:
    return BeliefNet.load(path)


def shipped_path(spec: Any, num_players: int) -> Path:
    """Where the game's package ships its network for a table of ``num_players``."""
    return _package_dir(spec.package) / "checkpoints" / f"beliefs_{num_players}p.npz"


@functools.lru_cache(maxsize=8)
def _package_dir(package: str) -> Path:
    return Path(importlib.import_module(package).__file__).parent


def load(learned: str | Path | BeliefNet, view: SeatView) -> BeliefNet:
    """The network ``learned`` names for ``view``'s table: one already loaded, a path, or
    ``"shipped"`` (the package's own; ``ValueError`` naming the tables it ships for if none)."""
    if isinstance(learned, BeliefNet):
        net = learned
    else:
        shipped = str(learned) == "shipped"
        path = shipped_path(view.spec, view.num_players) if shipped else Path(learned)
        try:
            mtime = path.stat().st_mtime_ns
        except OSError:
            if shipped:
                tables = sorted(p.stem for p in path.parent.glob("beliefs_*p.npz"))
                raise ValueError(
                    f"no shipped {view.spec.title} belief network for {view.num_players} players "
                    f"(shipped: {', '.join(tables) or 'none'}); pass one as learned=PATH"
                ) from None
            mtime = None
        net = BeliefNet.load(path) if mtime is None else _shared(str(path), mtime)
    net.check_view(view)
    return net


def relative_places(num_players: int, me: int) -> np.ndarray:
    """``order[r - 1]``: the place index (the other seats in seat order) of relative seat ``r``."""
    seats = (me + np.arange(1, num_players)) % num_players
    return np.where(seats < me, seats, seats - 1)


def encode(view: SeatView) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A view's network input and the constraints its marginals meet, all seat-relative:
    ``(x [inputs], hidden [items], room [items, places])`` — ``hidden`` the units of each item
    the seat cannot see, ``room`` the places' sizes where an item may be there (0 elsewhere)."""
    spec, params, me, n = view.spec, view.params, view.seat, view.num_players
    units, sizes, _, allowed = BK.hidden_deal(spec, view.array, params, me)
    hidden = np.bincount(units, minlength=spec.ITEMS).astype(np.float32)
    order = relative_places(n, me)
    shown = np.empty((n - 1, spec.ITEMS))
    BK.shown_by_seat(spec, view.past, view.past_actions, params, me, shown)
    pool = hidden.sum() - sizes.sum()
    room = np.concatenate([(allowed[order] * sizes[order, None]).T, np.full((spec.ITEMS, 1), pool)], axis=1)
    room[hidden == 0] = 0
    x = np.concatenate([view.observation(), shown.ravel(), hidden, allowed[order].ravel()]).astype(np.float32)
    return x, hidden, room.astype(np.float32)


def balanced(logits: Any, hidden: Any, room: Any, xp: Any = np) -> Any:
    """Expected units of each item at each place, ``[B, items, places]``: the softmax of
    ``logits`` over the places with ``room``, scaled so that each item's row adds up to its
    ``hidden`` units and each place's column to its size. ``xp`` is ``torch`` in training
    (``BALANCING`` rounds, differentiable) or ``numpy`` at play (compiled, ``kernels.balance``:
    on until every size is met to ``PLAY_TOLERANCE``)."""
    open_ = room > 0
    logits = xp.where(open_, logits, -1e9)
    p = xp.exp(logits - xp.amax(logits, -1, keepdims=True)) * open_
    m = p / xp.clip(p.sum(-1, keepdims=True), 1e-30, None) * hidden[..., None]
    sizes = xp.amax(room, 1)  # a place's size wherever it has room
    if xp is np:  # play: the same rounds, compiled
        m = np.ascontiguousarray(m, dtype=np.float64)
        BK.balance(m, sizes.astype(np.float64), hidden.astype(np.float64), PLAY_BALANCING, PLAY_TOLERANCE)
        return m
    for _ in range(BALANCING):
        m = m * (sizes / xp.clip(m.sum(1), 1e-30, None))[:, None, :]
        m = m * (hidden / xp.clip(m.sum(-1), 1e-30, None))[..., None]
    return m


def marginals(view: SeatView, net: BeliefNet) -> np.ndarray:
    """``[items, places]`` (every item; the places in ``Beliefs.places`` order): the expected
    units of each item at each place under the network."""
    x, hidden, room = encode(view)
    m = balanced(net.logits(x[None]), hidden[None], room[None])[0]
    order = relative_places(view.num_players, view.seat)
    out = np.empty_like(m)
    out[:, order] = m[:, :-1]
    out[:, -1] = m[:, -1]
    return out


def log_loss_bits(m: Any, truth: Any, hidden: Any, xp: Any = np) -> Any:
    """Bits per decision: ``-Σ truth · log2(m / units)``, each unit's probability of its true place."""
    p = m / xp.clip(hidden[..., None], 1.0, None)
    return -(truth * xp.log2(xp.clip(p, 1e-12, 1.0))).sum((-1, -2))
