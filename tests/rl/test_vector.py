"""The vector environments (``ludoteca.rl.vector``, issue 26): Gymnasium's vector API, no idle
slot in self-play, same-step autoreset, determinism from a seed, masks that are always the
legal actions of the seat asked."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, VectorEnv

from ludoteca.engine.errors import IllegalAction
from ludoteca.engine.match import Match
from ludoteca.rl.rewards import final_rewards
from ludoteca.rl.vector import BotVectorEnv, SelfPlayVectorEnv, make_vec, self_play

CASES = [("buttons", 2, {}), ("buttons", 3, {}), ("kami", 4, {}), ("goita", 4, {}),
         ("kingdomino", 2, {})]


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_self_play_slots_are_all_decisions(name: str, players: int,
                                           options: dict[str, Any]) -> None:
    """Every slot at every step is a decision of a seat to act now in its match, with that
    seat's observation and its legal actions as mask; finished matches restart in the same
    step, and their final rewards are the outcome's."""
    envs = self_play(name, 6, players=players, **options)
    assert isinstance(envs, VectorEnv)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    obs, info = envs.reset(seed=np.int64(5))
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(400):
        masks = envs.action_masks()
        assert masks.shape == (6, envs.single_action_space.n) and masks.dtype == np.bool_
        assert obs.shape == (6, *envs.single_observation_space.shape)
        assert envs.observation_space.contains(obs)
        for i, table in enumerate(envs.tables):
            match = table.match
            assert match is not None
            seat = int(info["seat"][i])
            assert seat in match.to_act()  # no idle slot
            assert sorted(np.flatnonzero(masks[i])) == sorted(a.index for a in match.legal(seat))
            assert np.array_equal(obs[i], table.encoder.encode(match.state, seat))
        before = [len(t.match.actions) for t in envs.tables]  # type: ignore[union-attr]
        obs, rewards, terminated, truncated, info = envs.step(random_actions(masks, rng))
        assert not truncated.any()
        for i in np.flatnonzero(terminated):
            episodes += 1
            final = info["final_info"][i]
            assert info["_final_obs"][i] and info["final_obs"][i].shape == obs[i].shape
            match = envs.tables[i].match
            assert match is not None and len(match.actions) == 0  # a new match, same step
            assert list(final["rewards"]) == pytest.approx(list(info["rewards"][i]))
            assert rewards[i] == info["rewards"][i][info["acted"][i]]
        for i in np.flatnonzero(~terminated):
            assert len(envs.tables[i].match.actions) == before[i] + 1  # type: ignore[union-attr]
    assert episodes > 0


def test_self_play_final_rewards_are_the_outcomes() -> None:
    envs = self_play("kami", 3, players=2)
    envs.reset(seed=1)
    rng = np.random.default_rng(1)
    ended = 0
    while ended < 4:
        tables = list(envs.tables)
        matches = [t.match for t in tables]
        _, _, terminated, _, info = envs.step(random_actions(envs.action_masks(), rng))
        for i in np.flatnonzero(terminated):
            outcome = matches[i].outcome  # type: ignore[union-attr]
            assert outcome is not None
            assert list(info["final_info"][i]["rewards"]) == final_rewards(outcome)
            assert info["final_info"][i]["scores"] == outcome.scores
            Match.from_record(matches[i].game, matches[i].record)  # type: ignore[union-attr]
            ended += 1


def stream(envs: Any, seed: Any, steps: int) -> list[tuple[Any, ...]]:
    obs, info = envs.reset(seed=seed)
    rng = np.random.default_rng(7)
    out = [(obs.copy(), info["seat"].copy())]
    for _ in range(steps):
        obs, rewards, terminated, _, info = envs.step(random_actions(envs.action_masks(), rng))
        out.append((obs.copy(), rewards.copy(), terminated.copy(), info["seat"].copy()))
    return out


def same(a: list[tuple[Any, ...]], b: list[tuple[Any, ...]]) -> bool:
    return all(all(np.array_equal(x, y) for x, y in zip(p, q, strict=True))
               for p, q in zip(a, b, strict=True))


def test_self_play_is_deterministic_from_a_seed() -> None:
    a = stream(self_play("buttons", 4, players=2, reward="shaped"), np.int64(3), 300)
    b = stream(self_play("buttons", 4, players=2, reward="shaped"), 3, 300)
    c = stream(self_play("buttons", 4, players=2, reward="shaped"), 4, 300)
    assert same(a, b) and not same(a, c)
    assert any(t[2].any() for t in a[1:])  # the streams crossed autoresets


def test_bot_vector_env() -> None:
    """Slots against bots: the learner's observation and mask, same-step autoreset with the
    final reward, and the same stream, bots' choices included, from the same seed."""
    envs = make_vec("kami", 4, players=2, opponents={"random": 1, "greedy": 1})
    assert isinstance(envs, BotVectorEnv) and isinstance(envs, VectorEnv)
    obs, info = envs.reset(seed=2)
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(300):
        masks = envs.action_masks()
        for i, env in enumerate(envs.envs):
            match = env.table.match
            assert match is not None and int(info["seat"][i]) == env.seat
            assert sorted(np.flatnonzero(masks[i])) == sorted(
                a.index for a in match.legal(env.seat))
            assert np.array_equal(obs[i], env.table.encoder.encode(match.state, env.seat))
        obs, rewards, terminated, _, info = envs.step(random_actions(masks, rng))
        for i in np.flatnonzero(terminated):
            ended += 1
            assert rewards[i] in (-1.0, 1.0)
            assert info["final_info"][i]["won"] == (rewards[i] == 1.0)
            assert len(envs.envs[i].table.match.actions) < 4  # type: ignore[union-attr]
        assert not rewards[~terminated].any()
    assert ended > 0
    make = lambda: make_vec("kami", 3, players=2, opponents="greedy")  # noqa: E731
    assert same(stream(make(), 9, 200), stream(make(), np.int64(9), 200))


def test_an_illegal_self_play_action_raises() -> None:
    envs: SelfPlayVectorEnv = self_play("kami", 2, players=2)
    envs.reset(seed=1)
    masks = envs.action_masks()
    actions = np.array([np.flatnonzero(~m)[0] for m in masks])
    with pytest.raises(IllegalAction):
        envs.step(actions)
