"""Policies trained with a framework's own API, as agents: ``sb3:PATH`` and ``rllib:PATH``.

``PATH`` is a Stable-Baselines3 / sb3-contrib ``.zip`` (``MaskablePPO``, ``PPO`` or ``DQN``) trained
on ``single_agent_env`` or ``vector_env`` (through ``sniff_twelve.envs.sb3``), with or without the
action features: the saved observation space says which. The agent feeds the policy its seat's
observation (``SeatView.observation()``, followed by the flattened ``action_features()`` when the
policy was trained on them) and plays the most likely *legal* action — ``MaskablePPO`` with its own
action masks, ``PPO`` by its masked logits, ``DQN`` by its masked Q-values. Torch runs on one
thread, on the CPU. Without the ``train`` extra the spec is a one-line error naming it.

``rllib:PATH`` is an RLlib (new API stack) checkpoint: the directory ``algo.save_to_path()`` wrote
(as ``examples/rllib_selfplay.py`` does), its ``learner_group/learner/rl_module`` folder, or one
module's folder inside that. Each seat plays the module its agent id (``player_0``, …) maps to —
the one module if there is only one, else the checkpoint's own ``policy_mapping_fn``. The module
gets the seat's observation as ``sniff_twelve.envs.rllib.RllibEnv`` gives it (a dict with the
float ``action_mask`` when its observation space is one, as for ``ActionMaskingTorchRLModule``)
and the most likely legal action is played. Without the ``rllib`` extra the spec is a one-line
error naming it.
"""

from __future__ import annotations

import logging
import pickle
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from sniff_twelve.core.agent import Agent
from sniff_twelve.core.optional import extra_needed

if TYPE_CHECKING:
    from collections.abc import Iterator

    from sniff_twelve.core.view import SeatView


def _load(path: Path) -> tuple[str, Any, Any]:
    """``(kind, model, torch)``: the algorithm the ``.zip`` was saved by, loaded on the CPU."""
    with extra_needed("train", "the sb3:PATH agent", "sb3_contrib"):
        import torch
        from sb3_contrib import MaskablePPO
        from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
        from stable_baselines3 import DQN, PPO
        from stable_baselines3.common.save_util import load_from_zip_file
        from stable_baselines3.dqn.policies import DQNPolicy

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


class SavedPolicyAgent(Agent):
    """A policy an agent spec names by its ``PATH``: worker processes load it again from the path
    instead of receiving the model pickled."""

    spec_argument, spec_form = "path", ":PATH"
    deterministic = True  # the legal move with the top logit
    path: Path
    saved: str  #: what ``PATH`` names, for the error when it is missing
    folder: bool = False  #: whether ``PATH`` is a folder (else a file)

    def _checked_path(self, path: str | Path | None) -> Path:
        """``path`` if it names an existing file (or folder); else a one-line ``ValueError``."""
        if path is None:
            raise ValueError(f"the {self.name} agent plays {self.saved}: write {self.name}:PATH")
        found = Path(path)
        if not (found.is_dir() if self.folder else found.is_file()):
            raise ValueError(f"{self.name}:{path}: no such {'folder' if self.folder else 'file'}")
        return found

    def __getstate__(self) -> dict[str, Any]:
        return {"path": self.path}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["path"])


class Sb3Agent(SavedPolicyAgent):
    """A Stable-Baselines3 / sb3-contrib policy (see the module docstring); the spec ``sb3:PATH``."""

    name = "sb3"
    saved = "a .zip that model.save wrote"

    def __init__(self, path: str | Path | None = None, seed: int | None = None) -> None:
        self.path = self._checked_path(path)
        self.kind, self.model, self._torch = _load(self.path)
        self.inputs = int(np.prod(self.model.observation_space.shape))
        self.reset(seed)

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
        return _masked_argmax(scores, mask)

    def __repr__(self) -> str:
        return f"Sb3Agent({str(self.path)!r})"


def _masked_argmax(scores: np.ndarray, mask: np.ndarray) -> int:
    """The legal action with the highest score (the first on a tie)."""
    return int(np.flatnonzero(mask)[np.argmax(scores[: mask.size][mask])])


@contextmanager
def _quiet_ray() -> Iterator[None]:
    """Ray and RLlib log deprecation notices while their modules are imported and checkpoints are
    read; keep them to errors for the duration, then give the loggers back their levels."""
    loggers = [logging.getLogger(name) for name in ("ray", "ray.rllib")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def _mapping(checkpoint: Path) -> Any:
    """The ``policy_mapping_fn`` an algorithm checkpoint was trained with, or ``None``."""
    try:
        with open(checkpoint / "class_and_ctor_args.pkl", "rb") as file:
            config = pickle.load(file)["ctor_args_and_kwargs"][0][0]
        return config.get("policy_mapping_fn")
    except Exception:  # not an algorithm checkpoint, or a config that will not load here
        return None


class RllibAgent(SavedPolicyAgent):
    """An RLlib checkpoint's policy (see the module docstring); the spec ``rllib:PATH``."""

    name = "rllib"
    saved, folder = "the checkpoint folder algo.save_to_path wrote", True

    def __init__(self, path: str | Path | None = None, seed: int | None = None) -> None:
        self.path = self._checked_path(path)
        with extra_needed("rllib", "the rllib:PATH agent", "ray"):
            import torch
            from ray.rllib.core.rl_module.multi_rl_module import MultiRLModule
            from ray.rllib.core.rl_module.rl_module import RLModule
        torch.set_num_threads(1)
        self._torch = torch
        folder = self.path / "learner_group" / "learner" / "rl_module"
        folder = folder if folder.is_dir() else self.path
        with _quiet_ray():
            try:
                loaded = RLModule.from_checkpoint(str(folder.resolve()))
            except Exception as error:  # a foreign folder can fail in any way: say which one
                raise ValueError(f"rllib:{path}: not an RLlib checkpoint ({type(error).__name__}: {error})") from None
        self.modules = dict(loaded.items()) if isinstance(loaded, MultiRLModule) else {folder.name: loaded}
        several = len(self.modules) > 1
        self.policy_mapping_fn = _mapping(self.path) if several and folder != self.path else None
        if several and self.policy_mapping_fn is None:
            raise ValueError(
                f"rllib:{path} holds the modules {', '.join(sorted(self.modules))} and no policy_mapping_fn to "
                f"choose among them: give the folder of one (rllib:{folder}/MODULE)"
            )
        self.reset(seed)

    def module_for(self, seat: int) -> Any:
        """The module that plays ``seat`` (agent id ``player_SEAT``)."""
        if self.policy_mapping_fn is None:
            return next(iter(self.modules.values()))
        module_id = self.policy_mapping_fn(f"player_{seat}", None)
        if module_id not in self.modules:
            raise ValueError(f"rllib:{self.path}: player_{seat} maps to {module_id!r}, which the checkpoint lacks")
        return self.modules[module_id]

    def choose(self, view: SeatView) -> int:
        module, torch = self.module_for(view.seat), self._torch
        obs, mask = view.observation().astype(np.float32), view.legal_mask()
        spaces = getattr(module.observation_space, "spaces", {})  # a Dict space: the action-masking module
        size = int(np.prod((spaces["observations"] if "action_mask" in spaces else module.observation_space).shape))
        if size != obs.size:
            raise ValueError(f"rllib:{self.path} was trained on {size} inputs; this table's observation has {obs.size}")
        inputs = torch.from_numpy(obs[None])
        if "action_mask" in spaces:
            inputs = {"observations": inputs, "action_mask": torch.from_numpy(mask[None].astype(np.float32))}
        with torch.no_grad():
            scores = module.forward_inference({"obs": inputs})["action_dist_inputs"][0].numpy()
        return _masked_argmax(scores, mask)

    def __repr__(self) -> str:
        return f"RllibAgent({str(self.path)!r})"
