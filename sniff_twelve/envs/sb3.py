"""A stable-baselines3 ``VecEnv`` over a ``LearnerVectorEnv`` (``sniff_env.vector_env`` /
``twelve_env.vector_env``), so sb3 and sb3-contrib's ``MaskablePPO`` train on the compiled
batch directly — no per-game Python loop, no subprocesses.

>>> import sniff_env
>>> from sb3_contrib import MaskablePPO
>>> venv = SB3VecEnv(sniff_env.vector_env(16, opponents="greedy", seed=0))
>>> model = MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=64, seed=0).learn(256)
>>> model.num_timesteps
256

stable-baselines3 is imported when this module is (the ``train`` extra). Finished games are
reset in the same step, their last observation in ``infos[i]["terminal_observation"]`` (sb3's
convention); ``env_method("action_masks")`` and ``action_masks()`` give the learner's masks,
which is how ``MaskablePPO`` (``sb3_contrib.common.maskable.utils.get_action_masks``) reads them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import VecEnv

from sniff_twelve.core.options import check_seed


class SB3VecEnv(VecEnv):
    """sb3's ``VecEnv`` interface over a ``LearnerVectorEnv`` (see the module docstring)."""

    def __init__(self, venv) -> None:
        self.venv = venv
        super().__init__(venv.num_envs, venv.single_observation_space, venv.single_action_space)
        self._actions: np.ndarray | None = None
        self._seed: int | None = None

    # --- VecEnv API --------------------------------------------------------------------------------
    def reset(self) -> np.ndarray:
        obs, _ = self.venv.reset(seed=self._seed)
        self._seed = None
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs).astype(np.int64)

    def step_wait(self):
        if self._actions is None:
            raise ValueError("step_wait() without step_async()")
        obs, rewards, terminated, truncated, infos = self.venv.step(self._actions)
        self._actions = None
        dones = terminated | truncated
        out: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            out[i]["terminal_observation"] = infos["final_obs"][i]
            out[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return obs, rewards.astype(np.float32), dones, out

    def action_masks(self) -> np.ndarray:
        return self.venv.action_masks()

    def seed(self, seed: int | None = None) -> Sequence[None]:
        """Seed the next ``reset()`` (sb3 calls ``reset`` after ``seed``)."""
        self._seed = check_seed(seed)
        return [None] * self.num_envs

    def close(self) -> None:
        self.venv.close()

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        if attr_name == "render_mode":
            return [None] * len(self._indices(indices))
        value = getattr(self.venv, attr_name)
        return [value] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        setattr(self.venv, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list[Any]:
        rows = self._indices(indices)
        if method_name == "action_masks":
            masks = self.venv.action_masks()
            return [masks[i] for i in rows]
        result = getattr(self.venv, method_name)(*method_args, **method_kwargs)
        return [result] * len(rows)

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None] * self.num_envs

    def _indices(self, indices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int | np.integer):
            return [int(indices)]
        return list(indices)
