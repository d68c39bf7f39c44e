"""Batches of matches stepped together, through Gymnasium's vector API (docs/rl.md, "Vector
environments").

- ``BotVectorEnv`` (``make_vec(game, num_envs, ...)``): ``num_envs`` copies of the
  single-agent ``gym.BotEnv``, one learner seat each against the arena's bots.
- ``SelfPlayVectorEnv`` (``self_play(game, num_envs, ...)``): ``num_envs`` matches where one
  policy plays every seat. Slot ``i`` always holds a decision some seat of match ``i`` must take
  now (the lowest seat first when several decide at once, as in the AEC env), so no slot idles:
  ``infos["seat"][i]`` says whose decision it is.

Both return numpy batches: observations ``(num_envs, size)`` float32, ``action_masks()``
``(num_envs, num_actions)`` bool, rewards ``(num_envs,)`` float, and reset a finished match in
the same step (Gymnasium's ``AutoresetMode.SAME_STEP``): the observation returned with
``terminations[i]`` true is already the next match's first one, the final one being in
``infos["final_obs"][i]`` (and ``infos["final_info"]``), so no step is spent on a reset.
``reset(seed=s)`` seeds slot ``i`` with ``s + i``; later matches of a slot follow from its seed.

``core="native"`` runs either on the native core's batches instead (``native_vector.py``: the
same API, spaces, infos and seeding; self-play the same streams), ``core="auto"`` where it can.

Self-play rewards: ``rewards[i]`` is what the seat that just acted in slot ``i`` earned with
that step; ``infos["rewards"][i]`` gives every seat's reward from that step (``players``
values: the final rewards when the match ends, and with ``reward="shaped"`` each seat's shaping
term when it reaches its next decision), ``infos["acted"][i]`` the seat that acted.
"""

from __future__ import annotations

from typing import Any, Literal, overload

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ludoteca.engine.errors import IllegalAction
from ludoteca.engine.game import Game
from ludoteca.rl.encode import encode_into
from ludoteca.rl.gym import BotEnv, Opponents
from ludoteca.rl.native_vector import NativeBotVectorEnv, NativeSelfPlayVectorEnv, use_native
from ludoteca.rl.pettingzoo import _Table
from ludoteca.rl.rewards import Reward
from ludoteca.rl.slots import slot_count, slot_seeds

Batch = npt.NDArray[np.float32]
Masks = npt.NDArray[np.bool_]


class BotVectorEnv(VectorEnv[Batch, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` single-agent environments against bots, stepped together."""

    def __init__(self, envs: list[BotEnv]) -> None:
        self.envs = envs
        self.num_envs = len(envs)
        first = envs[0]
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(first.observation_space, self.num_envs)
        self.action_space = batch_space(first.action_space, self.num_envs)
        self.metadata = {"autoreset_mode": AutoresetMode.SAME_STEP,
                         "name": first.metadata.get("name")}

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Batch, dict[str, Any]]:
        seeds = slot_seeds(seed, self.num_envs)
        obs = []
        seats = []
        for env, s in zip(self.envs, seeds, strict=True):
            o, info = env.reset(seed=s)
            obs.append(o)
            seats.append(info["seat"])
        return np.stack(obs), {"seat": np.array(seats)}

    def step(self, actions: Any) -> tuple[
        Batch, npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], dict[str, Any]]:
        n = self.num_envs
        obs = np.empty((n, *(self.single_observation_space.shape or ())), np.float32)
        rewards = np.zeros(n, np.float64)
        terminated = np.zeros(n, np.bool_)
        truncated = np.zeros(n, np.bool_)
        seats = np.zeros(n, np.int64)
        final_obs: list[Any] = [None] * n
        final_info: list[Any] = [None] * n
        for i, env in enumerate(self.envs):
            o, r, term, trunc, info = env.step(actions[i])
            rewards[i] = r
            terminated[i] = term
            truncated[i] = trunc
            if term or trunc:
                final_obs[i], final_info[i] = o, info
                o, info = env.reset()
            obs[i] = o
            seats[i] = info["seat"]
        infos: dict[str, Any] = {"seat": seats}
        if terminated.any() or truncated.any():
            done = terminated | truncated
            infos.update(final_obs=np.array(final_obs, dtype=object), _final_obs=done,
                         final_info=np.array(final_info, dtype=object), _final_info=done)
        return obs, rewards, terminated, truncated, infos

    def action_masks(self) -> Masks:
        """Each slot's legal actions now, ``(num_envs, num_actions)`` bool."""
        return np.stack([env.action_masks() for env in self.envs])

    def close_extras(self, **kwargs: Any) -> None:
        for env in self.envs:
            env.close()


class SelfPlayVectorEnv(VectorEnv[Batch, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` matches of one game, every seat played by the caller's one policy."""

    def __init__(
        self, game: str | Game[Any, Any], num_envs: int, *, players: int | None = None,
        reward: str | Reward = "win", **options: object,
    ) -> None:
        self.num_envs = slot_count(num_envs)
        # illegal actions raise: in self-play there is no opponent to hand the game to
        self.tables = [_Table(game, players, "raise", False, options, reward)
                       for _ in range(self.num_envs)]
        first = self.tables[0]
        self.players = first.players
        self.single_observation_space = spaces.Box(0.0, 1.0, first.encoder.shape, np.float32)
        self.single_action_space = spaces.Discrete(first.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.metadata = {"autoreset_mode": AutoresetMode.SAME_STEP,
                         "name": f"ludoteca_{first.game.spec.name}_v0"}
        self._masks = np.zeros((self.num_envs, first.num_actions), np.bool_)

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Batch, dict[str, Any]]:
        seeds = slot_seeds(seed, self.num_envs)
        obs = np.empty((self.num_envs, *(self.single_observation_space.shape or ())), np.float32)
        seats = np.zeros(self.num_envs, np.int64)
        for i, (table, s) in enumerate(zip(self.tables, seeds, strict=True)):
            self._deal(table, s)
            seats[i] = self._seat(table)
            self._observe(i, table, int(seats[i]), obs)
        return obs, {"seat": seats}

    def _deal(self, table: _Table, seed: int | None) -> None:
        table.deal(seed)
        while not table.to_act:  # the deal ended the match at once (Goita): deal again
            table.deal(None)

    @staticmethod
    def _seat(table: _Table) -> int:
        return min(table.to_act)

    def _observe(self, i: int, table: _Table, seat: int, obs: Batch) -> None:
        """Write ``seat``'s observation into row ``i`` of ``obs`` (no copy in between) and its
        mask into the batch of masks."""
        assert table.match is not None
        encode_into(table.encoder, table.match.state, seat, obs[i])
        self._masks[i] = table.mask(seat)

    def step(self, actions: Any) -> tuple[
        Batch, npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], dict[str, Any]]:
        n, players = self.num_envs, self.players
        obs = np.empty((n, *(self.single_observation_space.shape or ())), np.float32)
        rewards = np.zeros(n, np.float64)
        every = np.zeros((n, players), np.float64)
        terminated = np.zeros(n, np.bool_)
        acted = np.zeros(n, np.int64)
        seats = np.zeros(n, np.int64)
        final_obs: list[Any] = [None] * n
        final_info: list[Any] = [None] * n
        for i, table in enumerate(self.tables):
            seat = self._seat(table)
            acted[i] = seat
            if not table.act(seat, actions[i], None):
                raise IllegalAction(f"action {actions[i]} is not legal in slot {i}")
            for s, term in table.shaping_terms().items():
                every[i, s] += term
            if not table.to_act:
                every[i] += table.rewards()
                terminated[i] = True
                match = table.match
                assert match is not None and match.outcome is not None
                final_obs[i] = table.observe(seat)["observation"].copy()
                final_info[i] = {"scores": match.outcome.scores, "rewards": every[i].copy()}
                self._deal(table, None)
            rewards[i] = every[i, seat]
            seats[i] = self._seat(table)
            self._observe(i, table, int(seats[i]), obs)
        infos: dict[str, Any] = {"seat": seats, "acted": acted, "rewards": every}
        if terminated.any():
            infos.update(final_obs=np.array(final_obs, dtype=object), _final_obs=terminated,
                         final_info=np.array(final_info, dtype=object), _final_info=terminated)
        return obs, rewards, terminated, np.zeros(n, np.bool_), infos

    def action_masks(self) -> Masks:
        """The legal actions of the seat to act in each slot, ``(num_envs, num_actions)``."""
        return self._masks.copy()


@overload
def make_vec(
    game: str | Game[Any, Any], num_envs: int, *, players: int | None = None,
    opponents: Opponents = "greedy", seat: str | int = "random", reward: str | Reward = "win",
    core: Literal["python"] = "python", copy: bool = True, **options: object,
) -> BotVectorEnv: ...


@overload
def make_vec(
    game: str | Game[Any, Any], num_envs: int, *, players: int | None = None,
    opponents: Opponents = "greedy", seat: str | int = "random", reward: str | Reward = "win",
    core: str = "python", copy: bool = True, **options: object,
) -> BotVectorEnv | NativeBotVectorEnv: ...


def make_vec(
    game: str | Game[Any, Any], num_envs: int, *, players: int | None = None,
    opponents: Opponents = "greedy", seat: str | int = "random", reward: str | Reward = "win",
    core: str = "python", copy: bool = True, **options: object,
) -> BotVectorEnv | NativeBotVectorEnv:
    """``num_envs`` single-agent environments of ``game`` against ``opponents``, batched (the
    keywords of ``gym.make``). ``core``: ``"python"`` (``BotVectorEnv``), ``"native"``
    (``NativeBotVectorEnv``, or an error saying why not) or ``"auto"`` (native
    where it can play these opponents and reward). ``copy=False``: the native env returns its
    own observation array, overwritten by the next step (the Python envs' are new arrays)."""
    opts: dict[str, Any] = dict(options)  # game options only: BotEnv's keywords are named
    if use_native(core, game, reward, opponents):
        return NativeBotVectorEnv(
            game, num_envs, players=players, opponents=opponents, seat=seat, reward=reward,
            copy=copy, **opts)
    return BotVectorEnv([
        BotEnv(game, players=players, opponents=opponents, seat=seat, reward=reward, **opts)
        for _ in range(slot_count(num_envs))
    ])


@overload
def self_play(
    game: str | Game[Any, Any], num_envs: int, *, players: int | None = None,
    reward: str | Reward = "win", core: Literal["python"] = "python", copy: bool = True,
    **options: object,
) -> SelfPlayVectorEnv: ...


@overload
def self_play(
    game: str | Game[Any, Any], num_envs: int, *, players: int | None = None,
    reward: str | Reward = "win", core: str = "python", copy: bool = True, **options: object,
) -> SelfPlayVectorEnv | NativeSelfPlayVectorEnv: ...


def self_play(
    game: str | Game[Any, Any], num_envs: int, *, players: int | None = None,
    reward: str | Reward = "win", core: str = "python", copy: bool = True, **options: object,
) -> SelfPlayVectorEnv | NativeSelfPlayVectorEnv:
    """``num_envs`` self-play matches of ``game``, batched: every slot a decision to take.
    ``core``: ``"python"`` (``SelfPlayVectorEnv``), ``"native"``
    (``NativeSelfPlayVectorEnv``, the same streams, or an error saying why not)
    or ``"auto"`` (native where it can compute the reward). ``copy``: as ``make_vec``'s."""
    opts: dict[str, Any] = dict(options)  # game options only
    if use_native(core, game, reward):
        return NativeSelfPlayVectorEnv(game, num_envs, players=players, reward=reward,
                                       copy=copy, **opts)
    return SelfPlayVectorEnv(game, num_envs, players=players, reward=reward, **options)
