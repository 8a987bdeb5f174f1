"""Policies trained with a framework's own API, as agents: ``sb3:PATH``.

``PATH`` is a Stable-Baselines3 / sb3-contrib ``.zip`` (``MaskablePPO``, ``PPO`` or ``DQN``) trained
on ``single_agent_env`` or ``vector_env`` (through ``sniff_twelve.envs.sb3``), with or without the
action features: the saved observation space says which. The agent feeds the policy its seat's
observation (``SeatView.observation()``, followed by the flattened ``action_features()`` when the
policy was trained on them) and plays the most likely *legal* action — ``MaskablePPO`` with its own
action masks, ``PPO`` by its masked logits, ``DQN`` by its masked Q-values. Torch runs on one
thread, on the CPU. Without the ``train`` extra the spec is a one-line error naming it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from sniff_twelve.core.agent import Agent
from sniff_twelve.core.optional import optional_import

if TYPE_CHECKING:
    from sniff_twelve.core.view import SeatView


def _load(path: Path) -> tuple[str, Any, Any]:
    """``(kind, model, torch)``: the algorithm the ``.zip`` was saved by, loaded on the CPU."""
    try:
        import torch
        from sb3_contrib import MaskablePPO
        from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
        from stable_baselines3 import DQN, PPO
        from stable_baselines3.common.save_util import load_from_zip_file
        from stable_baselines3.dqn.policies import DQNPolicy
    except ImportError as error:  # the train extra: say so in one line
        optional_import(error.name or "sb3_contrib", "train", "the sb3:PATH agent")
        raise

    torch.set_num_threads(1)
    try:
        data, _, _ = load_from_zip_file(path, device="cpu")
    except Exception as error:  # a damaged or foreign file can fail in any way: say which file
        raise ValueError(f"sb3:{path}: not a Stable-Baselines3 model ({type(error).__name__}: {error})") from None
    policy = (data or {}).get("policy_class")
    if not isinstance(policy, type):
        raise ValueError(f"sb3:{path}: the file names no policy class")
    if issubclass(policy, MaskableActorCriticPolicy):
        return "maskable", MaskablePPO.load(path, device="cpu"), torch
    if issubclass(policy, DQNPolicy):
        return "dqn", DQN.load(path, device="cpu"), torch
    return "ppo", PPO.load(path, device="cpu"), torch


class Sb3Agent(Agent):
    """A Stable-Baselines3 / sb3-contrib policy (see the module docstring); the spec ``sb3:PATH``."""

    name = "sb3"
    spec_argument = "path"

    def __init__(self, path: str | Path | None = None, seed: int | None = None) -> None:
        if path is None:
            raise ValueError("the sb3 agent plays a saved model: write sb3:PATH (a .zip saved by model.save)")
        self.path = Path(path)
        if not self.path.is_file():
            raise ValueError(f"sb3:{path}: no such file")
        self.kind, self.model, self._torch = _load(self.path)
        self.inputs = int(np.prod(self.model.observation_space.shape))
        self.reset(seed)

    def __getstate__(self) -> dict[str, Any]:  # worker processes load the model again
        return {"path": self.path}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["path"])

    def _input(self, view: SeatView) -> np.ndarray:
        obs = view.observation()
        if self.inputs == obs.size:
            return obs
        features = view.action_features()
        if self.inputs == obs.size + features.size:
            return np.concatenate([obs, features.reshape(-1)])
        raise ValueError(
            f"sb3:{self.path} was trained on {self.inputs} inputs; this table's observation has {obs.size} "
            f"({obs.size + features.size} with the action features)"
        )

    def choose(self, view: SeatView) -> int:
        obs, mask = self._input(view), view.legal_mask()
        if self.kind == "maskable":
            action, _ = self.model.predict(obs, action_masks=mask, deterministic=True)
            return int(action)
        torch = self._torch
        with torch.no_grad():
            tensor = torch.as_tensor(obs[None], dtype=torch.float32)
            if self.kind == "dqn":
                scores = self.model.q_net(tensor)[0].numpy()
            else:
                scores = self.model.policy.get_distribution(tensor).distribution.logits[0].numpy()
        return int(np.flatnonzero(mask)[np.argmax(scores[: mask.size][mask])])

    def __repr__(self) -> str:
        return f"Sb3Agent({str(self.path)!r})"
