"""``ludoteca.rl.sb3.SB3VecEnv``: our vector envs as a Stable-Baselines3 ``VecEnv`` (docs/rl.md,
"On the native core"), so MaskablePPO trains on a native batch of matches. SB3's conventions
(observations alone from ``reset``, one info per slot, the last observation of an episode in
``terminal_observation``, masks through ``env_method``) on the native and the Python env."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from native_core import require_native
from training_extra import require_training

require_training()  # stable-baselines3 and sb3-contrib: the rl-train extra
require_native("buttons")

from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported  # noqa: E402

from ludoteca.engine.errors import OptionError  # noqa: E402
from ludoteca.rl.sb3 import SB3VecEnv  # noqa: E402
from ludoteca.rl.vector import make_vec  # noqa: E402


def envs(core: str, **kw: Any) -> SB3VecEnv:
    return SB3VecEnv(make_vec("buttons", 4, players=2, opponents="random", core=core,
                              reward="shaped", **kw))


@pytest.mark.parametrize("core", ["native", "python"])
def test_sb3_conventions(core: str) -> None:
    """Seeded resets reproduce, masks come as MaskablePPO reads them, observations handed out
    are never overwritten, and each finished episode's last observation and reward come with
    the step that ends it, the next episode's first observation in its slot."""
    venv = envs(core)
    assert is_masking_supported(venv)
    venv.seed(3)
    obs = venv.reset()
    again = envs(core)
    again.seed(3)
    assert np.array_equal(obs, again.reset())
    assert obs.shape == (4, *(venv.observation_space.shape or ())) and obs.dtype == np.float32
    rng = np.random.default_rng(0)
    ends = 0
    kept: list[tuple[np.ndarray, np.ndarray]] = []
    for _ in range(300):
        masks = get_action_masks(venv)
        assert masks.shape == (4, 75) and masks.dtype == np.bool_
        assert np.array_equal(np.stack(venv.env_method("action_masks", indices=[2])), masks[2:3])
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        new, rewards, dones, infos = venv.step(actions)
        kept.append((obs, obs.copy()))
        assert rewards.shape == (4,) and rewards.dtype == np.float32
        assert dones.dtype == np.bool_ and len(infos) == 4
        for i in range(4):
            if dones[i]:
                ends += 1
                last = infos[i]["terminal_observation"]
                assert last.shape == obs[i].shape and not infos[i]["TimeLimit.truncated"]
                assert not np.array_equal(last, new[i])  # the next match's first observation
            else:
                assert "terminal_observation" not in infos[i]
        obs = new
    assert ends > 0
    assert all(np.array_equal(a, b) for a, b in kept)
    assert venv.get_attr("num_envs") == [4] * 4
    venv.close()


def test_an_env_that_overwrites_its_observations_is_refused() -> None:
    with pytest.raises(OptionError, match="copy=True"):
        envs("native", copy=False)


def test_maskable_ppo_trains_on_the_native_env() -> None:
    """A few updates run; the policy's actions stay inside the masks (an illegal one would end
    its episode with -1, reported in the info of the step that ends it, as ``final_info``)."""
    venv = envs("native")
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=128, n_epochs=2, seed=1,
                        device="cpu", policy_kwargs={"net_arch": [32]})
    model.learn(512)
    assert model.num_timesteps == 512
    obs = venv.reset()
    ends = 0
    for _ in range(200):
        action, _ = model.predict(obs, action_masks=get_action_masks(venv), deterministic=True)
        obs, _, dones, infos = venv.step(action)
        for i in np.flatnonzero(dones):
            ends += 1
            assert "illegal_action" not in infos[i] and len(infos[i]["scores"]) == 2
    assert ends > 0
