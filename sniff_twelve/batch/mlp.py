"""Trained policies as agents: a small MLP checkpoint run with NumPy (no torch needed to play).

A checkpoint is one ``.npz`` file: the weight matrices ``w0, b0, w1, b1, …`` of a ReLU MLP from
the observation to the trunk, ``policy_w, policy_b`` (trunk → action logits), optionally
``action_feature_gains`` (a vector: the logits then add ``Game.action_features() @ gains``, the
one-step look-ahead of each action), optionally ``value_w, value_b``, and ``meta``, a JSON string
with at least ``game``, ``num_players``, ``obs_size`` and ``num_actions``. A ``meta`` with
``input_features: F`` (the game's number of action features) feeds the network the observation
followed by the flattened ``[A, F]`` action features — the observation of ``vector_env(...,
action_features=True)``, as ``examples/sb3_maskable_ppo.py`` trains on it.
``examples/selfplay_ppo.py`` and ``examples/rllib_selfplay.py`` write them; anything else that
follows this layout works too.

>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> policy = MlpPolicy({"w0": rng.normal(size=(4, 8)), "b0": np.zeros(8),
...                     "policy_w": rng.normal(size=(8, 3)), "policy_b": np.zeros(3)},
...                    {"game": "demo", "num_players": 2, "obs_size": 4, "num_actions": 3})
>>> obs, mask = np.ones(4, dtype=np.float32), np.array([False, True, True])
>>> logits = policy.logits(obs, mask)
>>> bool(np.isneginf(logits[0])), policy.act(obs, mask) == int(np.argmax(logits))
(True, True)
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

REQUIRED_META = ("game", "num_players", "obs_size", "num_actions")


class MlpPolicy:
    """A masked-softmax MLP policy: ``logits = policy_head(relu(… relu(obs @ w0 + b0) …))``, plus
    ``action_features @ gains`` when the checkpoint has ``action_feature_gains``."""

    def __init__(self, weights: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
        missing = [k for k in REQUIRED_META if k not in meta]
        if missing:
            raise ValueError(f"checkpoint meta lacks {', '.join(missing)}")
        layers = sum(1 for k in weights if k.startswith("w") and k[1:].isdigit())
        try:
            self.layers = [
                (np.asarray(weights[f"w{i}"], np.float32), np.asarray(weights[f"b{i}"], np.float32))
                for i in range(layers)
            ]
            self.policy_head = (
                np.asarray(weights["policy_w"], np.float32),
                np.asarray(weights["policy_b"], np.float32),
            )
        except KeyError as e:
            raise ValueError(f"checkpoint lacks weight array {e.args[0]!r}") from None
        gains = weights.get("action_feature_gains")
        self.action_feature_gains = None if gains is None else np.asarray(gains, np.float32).reshape(-1)
        self.value_head = None
        if "value_w" in weights:
            self.value_head = (np.asarray(weights["value_w"], np.float32), np.asarray(weights["value_b"], np.float32))
        self.meta = dict(meta)
        self.input_features = int(meta.get("input_features", 0))
        inputs = meta["obs_size"] + self.input_features * meta["num_actions"]
        shapes = [w.shape for w, _ in self.layers] + [self.policy_head[0].shape]
        if shapes[0][0] != inputs or shapes[-1][1] != meta["num_actions"]:
            raise ValueError(f"checkpoint weights {shapes} do not map {inputs} inputs to {meta['num_actions']} actions")

    @classmethod
    def load(cls, path: str | Path) -> MlpPolicy:
        """Read a checkpoint written by ``save`` (or ``examples/selfplay_ppo.py``). Anything else
        is a one-line ``ValueError`` naming the file and what is wrong with it: missing, not a
        checkpoint, truncated or damaged, incomplete, or weights that do not fit together."""
        path = Path(path)
        if not path.is_file():
            raise ValueError(f"checkpoint {path}: no such file")
        try:
            data = np.load(path, allow_pickle=False)
            if not isinstance(data, np.lib.npyio.NpzFile):
                raise ValueError("not a policy checkpoint (a single array, not an .npz archive)")
            with data:
                if "meta" not in data:
                    raise ValueError("not a policy checkpoint (no 'meta' entry)")
                meta = json.loads(str(data["meta"]))
                if not isinstance(meta, dict):
                    raise ValueError("not a policy checkpoint ('meta' is not a JSON object)")
                return cls({k: data[k] for k in data.files if k != "meta"}, meta)
        except (zipfile.BadZipFile, EOFError, OSError) as error:
            raise ValueError(f"checkpoint {path}: truncated or damaged ({error})") from None
        except (ValueError, json.JSONDecodeError, KeyError) as error:
            if "allow_pickle" in str(error) or "Cannot load file containing pickled data" in str(error):
                error = "not a policy checkpoint (it is not an .npz archive of plain arrays)"
            raise ValueError(f"checkpoint {path}: {error}") from None

    def save(self, path: str | Path) -> None:
        arrays = {f"{name}{i}": a for i, (w, b) in enumerate(self.layers) for name, a in (("w", w), ("b", b))}
        arrays["policy_w"], arrays["policy_b"] = self.policy_head
        if self.action_feature_gains is not None:
            arrays["action_feature_gains"] = self.action_feature_gains
        if self.value_head is not None:
            arrays["value_w"], arrays["value_b"] = self.value_head
        np.savez_compressed(Path(path), meta=np.array(json.dumps(self.meta)), **arrays)

    def _trunk(self, obs: np.ndarray, action_features: np.ndarray | None) -> np.ndarray:
        x = np.asarray(obs, np.float32)
        if self.input_features:
            features = self._features(action_features)
            x = np.concatenate([x, features.reshape(*features.shape[:-2], -1)], axis=-1)
        for w, b in self.layers:
            x = np.maximum(x @ w + b, 0.0)
        return x

    def fits(self, obs_size: int, num_actions: int, features: int) -> bool:
        """Whether this policy reads an observation of ``obs_size``, scores ``num_actions`` and adds
        a gain per each of ``features`` action features (none as inputs): the form a learned
        response takes (``sniff_twelve.tools.response``)."""
        gains = self.action_feature_gains
        return (
            self.meta["obs_size"] == obs_size
            and self.meta["num_actions"] == num_actions
            and not self.input_features
            and gains is not None
            and gains.size == features
        )

    @property
    def uses_action_features(self) -> bool:
        """Whether the policy reads ``Game.action_features()`` (as gains or as input)."""
        return self.action_feature_gains is not None or self.input_features > 0

    @staticmethod
    def _features(action_features: np.ndarray | None) -> np.ndarray:
        if action_features is None:
            raise ValueError("this policy reads the action features (Game.action_features()) too")
        return np.asarray(action_features, np.float32)

    def logits(self, obs: np.ndarray, mask: np.ndarray, action_features: np.ndarray | None = None) -> np.ndarray:
        """Action logits with illegal actions at ``-inf`` (``obs`` ``[D]`` or ``[B, D]``; the
        features ``[A, F]`` or ``[B, A, F]``)."""
        w, b = self.policy_head
        logits = self._trunk(obs, action_features) @ w + b
        if self.action_feature_gains is not None:
            logits = logits + self._features(action_features) @ self.action_feature_gains
        return np.where(np.asarray(mask, bool), logits, -np.inf)

    def value(self, obs: np.ndarray, action_features: np.ndarray | None = None) -> np.ndarray:
        """The critic's estimate of the return from ``obs`` (needs a checkpoint with a value head)."""
        if self.value_head is None:
            raise ValueError("this checkpoint has no value head")
        w, b = self.value_head
        return (self._trunk(obs, action_features) @ w + b)[..., 0]

    def act(
        self,
        obs: np.ndarray,
        mask: np.ndarray,
        action_features: np.ndarray | None = None,
        rng: np.random.Generator | None = None,
    ) -> int:
        """The most likely legal action, or (with ``rng``) one sampled from the masked softmax."""
        logits = self.logits(obs, mask, action_features)
        if rng is None:
            return int(np.argmax(logits))
        p = np.exp(logits - logits.max())
        return int(rng.choice(len(p), p=p / p.sum()))
