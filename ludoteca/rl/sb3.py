"""Our Gymnasium vector environments as one Stable-Baselines3 ``VecEnv`` (docs/rl.md, "On the
native core"): ``SB3VecEnv(make_vec(..., core="native"))`` lets sb3-contrib's ``MaskablePPO``
train on a native batch of matches, with no process per environment and no Python engine in
the loop. Needs the ``rl-train`` extra.

SB3's ``VecEnv`` has its own conventions, which this class translates: ``reset()`` returns the
observations alone (seeded by ``seed()``, as SB3 seeds: slot ``i`` from ``s + i``), ``step``
returns ``(obs, rewards, dones, infos)`` with one info dict per slot, a finished episode's last
observation in ``infos[i]["terminal_observation"]`` with its ``final_info`` (``scores``,
``won``...; our envs reset in the same step, as SB3's do), and the action masks come through
``env_method("action_masks")``, which is how ``MaskablePPO`` asks for them.

SB3 keeps each observation until the step after it (its rollout buffer stores the observation
an action was chosen from once the step has returned the next), so an env made with
``copy=False``, whose next step overwrites the array it returned, is refused: it would pair
every action with the following observation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices, VecEnvStepReturn

from ludoteca.engine.errors import OptionError


class SB3VecEnv(VecEnv):
    """A Gymnasium vector env of ours with ``action_masks()`` (``make_vec``: the native
    ``NativeBotVectorEnv`` or the Python ``BotVectorEnv``) seen by Stable-Baselines3 as a
    ``VecEnv`` of its slots."""

    def __init__(self, envs: Any) -> None:
        if getattr(envs, "copy", True) is False:
            raise OptionError("SB3 keeps each observation past the next step: make the "
                              "vector env with copy=True")
        self.envs = envs
        super().__init__(envs.num_envs, envs.single_observation_space,
                         envs.single_action_space)
        self._actions = np.zeros(envs.num_envs, np.int64)

    def reset(self) -> npt.NDArray[np.float32]:
        first = self._seeds[0] if self._seeds else None
        obs, _ = self.envs.reset(seed=first)
        self._reset_seeds()
        return np.asarray(obs, dtype=np.float32)

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> VecEnvStepReturn:
        obs, rewards, terminated, truncated, info = self.envs.step(self._actions)
        dones = np.logical_or(terminated, truncated)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        finals = info.get("final_info")
        for i in np.flatnonzero(dones):
            infos[i] = dict(finals[i] or {}) if finals is not None else {}
            infos[i].update(terminal_observation=info["final_obs"][i],
                            **{"TimeLimit.truncated": bool(truncated[i] and not terminated[i])})
        return obs, np.asarray(rewards, dtype=np.float32), dones, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Every slot's legal actions, ``(num_envs, num_actions)``."""
        masks: npt.NDArray[np.bool_] = self.envs.action_masks()
        return masks

    def close(self) -> None:
        self.envs.close()

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks" or hasattr(self.envs, attr_name)

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """The vector env's attribute, once per slot asked (the slots share it)."""
        return [getattr(self.envs, attr_name) for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        setattr(self.envs, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> list[Any]:
        """``action_masks``: one mask per slot asked (what ``MaskablePPO`` calls); any other
        method of the vector env is called once and its answer given to every slot."""
        picked = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in picked]
        answer = getattr(self.envs, method_name)(*method_args, **method_kwargs)
        return [answer for _ in picked]

    def env_is_wrapped(self, wrapper_class: type[gymnasium.Wrapper[Any, Any, Any, Any]],
                       indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None for _ in range(self.num_envs)]
