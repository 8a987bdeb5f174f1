"""``PolicyAgent``: a trained checkpoint (``sniff_twelve.batch.mlp.MlpPolicy``) as an agent."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

import numba as nb
import numpy as np

from sniff_twelve.batch.mlp import MlpPolicy
from sniff_twelve.core.agent import Agent
from sniff_twelve.core.games import game_package
from sniff_twelve.core.options import check_seed

if TYPE_CHECKING:
    from sniff_twelve.core.game import BaseGame
    from sniff_twelve.core.view import SeatView


def _softmax(logits: np.ndarray) -> np.ndarray:
    """The softmax over the last axis of masked logits (``-inf`` stays 0)."""
    p = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return p / p.sum(axis=-1, keepdims=True)


@nb.njit(cache=True)
def observe(hooks, rows, params, with_features, observations, masks, features):
    """What a policy reads of each view row (its seat to act): observation, legal moves and,
    if ``with_features``, the action features."""
    for i in range(rows.shape[0]):
        hooks.write_observation(rows[i], params, np.int64(rows[i, hooks.CUR]), observations[i])
        hooks.legal_mask_into(rows[i], params, masks[i])
        if with_features:
            hooks.action_features(rows[i], params, features[i])


@functools.lru_cache(maxsize=64)
def _shared(path: str, mtime_ns: int, size: int) -> MlpPolicy:
    policy = MlpPolicy.load(path)
    for array in [a for layer in (*policy.layers, policy.policy_head, policy.value_head or ()) for a in layer]:
        array.flags.writeable = False
    if policy.action_feature_gains is not None:
        policy.action_feature_gains.flags.writeable = False
    return policy


def load_shared(path: str | Path) -> MlpPolicy:
    """The checkpoint at ``path``, loaded once per process and shared, read-only, by every agent
    that plays it (a server seating hundreds of ``ppo`` agents holds one copy); a file changed on
    disk is read again."""
    try:
        stat = Path(path).resolve().stat()
    except OSError:
        return MlpPolicy.load(path)  # says what is wrong with the path, in one line
    return _shared(str(Path(path).resolve()), stat.st_mtime_ns, stat.st_size)


class PolicyAgent(Agent):
    """Plays a checkpoint: ``"ppo"`` uses the checkpoint the package ships for the table's number
    of players, ``"ppo:PATH"`` a checkpoint of your own.

    Args:
        checkpoint: path of a ``.npz`` checkpoint; ``None`` for the shipped one.
        sample: sample from the policy instead of playing its most likely action.
    """

    name = "ppo"
    spec_argument, spec_form = "checkpoint", "[:CHECKPOINT]"
    game_name: str = ""
    checkpoint_dir: Path | None = None  # where the game's package ships ppo_<players>p.npz

    def __init__(self, checkpoint: str | Path | None = None, sample: bool = False, seed: int | None = None) -> None:
        self.checkpoint = checkpoint
        self.sample = sample
        #: the spec that plays a checkpoint of your own, as the error for a table with none shipped
        #: names it (``guided`` names its own)
        self.own_checkpoint_spec = f"{self.name}:PATH"
        self._policies: dict[int, MlpPolicy] = {}
        if checkpoint is not None:
            policy = load_shared(checkpoint)
            self.check_policy(policy, None)
            self._policies[policy.meta["num_players"]] = policy
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(check_seed(seed)) if self.sample else None

    @property
    def plays_probabilities(self) -> bool:
        """Whether ``act`` draws from ``probabilities`` (with ``sample``): what AIVAT's action
        corrections need (``sniff_twelve.tools.evaluation.known_policy``)."""
        return self.sample

    def check_policy(self, policy: MlpPolicy, num_players: int | None, name: str | None = None) -> None:
        """``ValueError`` naming the checkpoint if it was trained for another game, table size or
        set of action features than this agent plays."""
        meta, where = policy.meta, name or f"checkpoint {self.checkpoint or 'shipped'}"
        if meta["game"] != self.game_name:
            raise ValueError(f"{where} is for {meta['game']!r}, not {self.game_name!r}")
        if num_players is not None and meta["num_players"] != num_players:
            raise ValueError(f"{where} is for {meta['num_players']} players, the table has {num_players}")
        names = game_package(self.game_name).Game.spec.action_feature_names
        gains = policy.action_feature_gains
        wrong = {policy.input_features, 0 if gains is None else gains.size} - {0, len(names)}
        if wrong:
            raise ValueError(
                f"{where} reads {min(wrong)} action features; {self.game_name} has {len(names)} ({', '.join(names)})"
            )

    @classmethod
    def shipped(cls) -> dict[int, Path]:
        """The checkpoints the package ships, by number of players."""
        paths = sorted(cls.checkpoint_dir.glob("ppo_*p.npz")) if cls.checkpoint_dir else []
        return {int(path.stem.removeprefix("ppo_").removesuffix("p")): path for path in paths}

    def check_table(self, num_players: int) -> None:
        self.policy_for(num_players)

    def policy_for(self, num_players: int) -> MlpPolicy:
        """The policy that plays a table of ``num_players`` (loaded once)."""
        if num_players not in self._policies:
            if self.checkpoint is not None:
                self.check_policy(next(iter(self._policies.values())), num_players)
            shipped = self.shipped()
            if num_players not in shipped:
                raise ValueError(
                    f"no shipped {self.game_name} checkpoint for {num_players} players (shipped: "
                    f"{sorted(shipped) or 'none'}); pass one as {self.own_checkpoint_spec!r}"
                )
            self._policies[num_players] = load_shared(shipped[num_players])
        return self._policies[num_players]

    def _inputs(self, view: SeatView) -> tuple[MlpPolicy, np.ndarray, np.ndarray | None]:
        policy = self.policy_for(view.num_players)
        observation = view.observation()
        if observation.shape[0] != policy.meta["obs_size"] or view.num_actions != policy.meta["num_actions"]:
            raise ValueError(
                f"checkpoint {self.checkpoint or 'shipped'} maps {policy.meta['obs_size']} inputs to "
                f"{policy.meta['num_actions']} actions; this table has {observation.shape[0]} and {view.num_actions}"
            )
        return policy, observation, view.action_features() if policy.uses_action_features else None

    def choose(self, view: SeatView) -> int:
        policy, observation, features = self._inputs(view)
        return policy.act(observation, view.legal_mask(), features, self._rng)

    def prior(self, view: SeatView) -> np.ndarray:
        """The policy's probability of every action (its masked softmax; 0 for illegal ones)."""
        policy, observation, features = self._inputs(view)
        return _softmax(policy.logits(observation, view.legal_mask(), features))

    def probabilities(self, view: SeatView) -> np.ndarray:
        """The policy's masked softmax (``prior``), also when it plays its most likely move."""
        return self.prior(view)

    def batch_probabilities(self, game_cls: type[BaseGame], rows: np.ndarray, params: np.ndarray) -> np.ndarray:
        """``probabilities`` of many views at once: ``rows[i]`` is a view row of the seat to act
        in it (``SeatView.array``) → ``[N, actions]``, one forward pass of the network."""
        spec = game_cls.spec
        policy = self.policy_for(int(params[0]))
        obs_size, _, num_actions = spec.widths(params)
        observations = np.empty((rows.shape[0], obs_size), dtype=np.float32)
        masks = np.zeros((rows.shape[0], spec.MAX_ACTIONS), dtype=np.bool_)
        features = np.zeros((rows.shape[0], num_actions, len(spec.action_feature_names)), dtype=np.float32)
        observe(spec, rows, params, policy.uses_action_features, observations, masks, features)
        with_features = features if policy.uses_action_features else None
        return _softmax(policy.logits(observations, masks[:, :num_actions], with_features))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(checkpoint={self.checkpoint!r})"
