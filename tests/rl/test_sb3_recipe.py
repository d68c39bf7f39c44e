"""PettingZoo's "SB3 action masking" tutorial recipe on our AEC env under gymnasium 1.x
(docs/rl.md, "PettingZoo's SB3 masking recipe"): one MaskablePPO learns from every seat's
decisions through a wrapper that makes the AEC env look like a Gymnasium env, with
sb3-contrib's ``ActionMasker`` reading the mask.

The tutorial's wrapper subclasses only ``pettingzoo.utils.BaseWrapper``; gymnasium 1.x's
``Wrapper`` (which ``ActionMasker`` is) refuses anything that is not a ``gymnasium.Env``, so the
tutorial stops itself on gymnasium > 0.29.1. The same wrapper with ``gymnasium.Env`` as a second
base runs."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pettingzoo.utils
import pytest
from training_extra import require_training

require_training()  # torch and sb3-contrib: skipped without the rl-train extra, unless required

import torch  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.wrappers import ActionMasker  # noqa: E402

from ludoteca.games import entry, game_names, get_game  # noqa: E402
from ludoteca.rl.pettingzoo import env  # noqa: E402


class TurnsAsGym(pettingzoo.utils.BaseWrapper, gymnasium.Env):  # type: ignore[misc]
    """The AEC env as one Gymnasium env: the observation is the next agent's (without its
    mask), the reward, termination and info the agent's that just acted."""

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        super().reset(seed, options)
        first = self.possible_agents[0]
        self.observation_space = super().observation_space(first)["observation"]
        self.action_space = super().action_space(first)
        return self.observe(self.agent_selection), {}

    def step(self, action: Any) -> Any:
        acting = self.agent_selection
        super().step(action)
        return (self.observe(self.agent_selection), self._cumulative_rewards[acting],
                self.terminations[acting], self.truncations[acting], self.infos[acting])

    def observe(self, agent: str) -> Any:
        return super().observe(agent)["observation"]

    def action_mask(self) -> Any:
        return super().observe(self.agent_selection)["action_mask"]


class OnlyPettingZoo(pettingzoo.utils.BaseWrapper):  # type: ignore[misc]
    """The tutorial's base class alone."""


def masks(wrapped: TurnsAsGym) -> Any:
    return wrapped.action_mask()


@pytest.mark.parametrize("name", [n for n in game_names() if entry(n).rl_observation])
def test_the_recipe_trains_maskable_ppo_on_the_aec_env(name: str) -> None:
    """Every game with an encoder (the test game too), at its fewest players."""
    torch.set_num_threads(1)
    players = get_game(name).spec.min_players
    aec = env(name, players=players, illegal="raise")  # a step outside the mask would raise
    wrapped = TurnsAsGym(aec)
    wrapped.reset(seed=0)
    assert wrapped.observation_space.shape == aec.table.encoder.shape
    masked = ActionMasker(wrapped, masks)
    seen: list[int] = []
    real_step = aec.step

    def counting(action: Any) -> None:
        if action is not None:
            mask = aec.action_mask(aec.agent_selection)
            assert mask[action] == 1
            seen.append(int(action))
        real_step(action)

    aec.step = counting  # type: ignore[method-assign]
    model = MaskablePPO("MlpPolicy", masked, n_steps=128, batch_size=64, n_epochs=1,
                        seed=0, device="cpu", policy_kwargs={"net_arch": [32]})
    model.learn(total_timesteps=300)
    assert model.num_timesteps >= 300
    assert len(seen) >= 300  # every step was a legal action of the agent to act
    assert len(set(seen)) >= min(4, get_game(name).spec.num_actions)  # not one move only
    assert np.asarray(masked.action_masks()).any()


def test_the_tutorial_wrapper_alone_is_refused_by_gymnasium_1() -> None:
    assert int(gymnasium.__version__.split(".")[0]) >= 1
    with pytest.raises(TypeError, match=r"Expected env to be a `gymnasium\.Env`"):
        ActionMasker(OnlyPettingZoo(env("kami", players=2)), masks)
