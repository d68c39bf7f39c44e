"""The vector environments on the native core (``core="native"``, issue 37): self-play equal
to the Python env step for step from the same seed and actions; against bots, every step
equal to the Python engine replaying the native env's actions (the opponents' choices draw from
the native generator, so the Python env's bots cannot coincide with them); the same Gymnasium
API and spaces; clear refusals for what the native core cannot play."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.wrappers.vector import RecordEpisodeStatistics
from native_core import require_native

from ludoteca.engine.errors import IllegalAction, OptionError
from ludoteca.games import get_game
from ludoteca.rl.encode import encoder
from ludoteca.rl.native_vector import NativeBotVectorEnv, NativeSelfPlayVectorEnv, use_native
from ludoteca.rl.rewards import Reward, Rewarder, final_rewards, sides_of
from ludoteca.rl.vector import BotVectorEnv, SelfPlayVectorEnv, make_vec, self_play

require_native()

CASES = [("kingdomino", 2, {}), ("kingdomino", 4, {}), ("kingdomino", 3, {"harmony": True}),
         ("kingdomino", 2, {"mighty_duel": True, "dynasty": True}), ("queendomino", 2, {}),
         ("queendomino", 6, {"teams": True}), ("kami", 2, {}), ("kami", 3, {"end_mode": "lord"}),
         ("goita", 4, {}), ("buttons", 2, {}), ("buttons", 4, {})]


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


@pytest.mark.parametrize(("name", "players", "options"), CASES)
@pytest.mark.parametrize("seed", [0, 7])
def test_self_play_equals_the_python_env(name: str, players: int, options: dict[str, Any],
                                         seed: int) -> None:
    """Observations, masks, rewards (the acting seat's and every seat's), episode ends, the
    final observations and scores, and the seat asked: equal at every step, across autoresets."""
    py = self_play(name, 5, players=players, **options)
    nat = self_play(name, 5, players=players, core="native", **options)
    assert isinstance(py, SelfPlayVectorEnv) and isinstance(nat, NativeSelfPlayVectorEnv)
    assert nat.single_observation_space == py.single_observation_space
    assert nat.single_action_space == py.single_action_space
    assert nat.observation_space == py.observation_space and nat.action_space == py.action_space
    a, b = py.reset(seed=seed), nat.reset(seed=seed)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1]["seat"], b[1]["seat"])
    rng = np.random.default_rng(seed)
    ends = 0
    for _ in range(250):
        masks = py.action_masks()
        assert np.array_equal(masks, nat.action_masks())
        actions = random_actions(masks, rng)
        a, b = py.step(actions), nat.step(actions)
        for x, y in zip(a[:4], b[:4], strict=True):
            assert x.dtype == y.dtype and np.array_equal(x, y)
        for key in ("seat", "acted", "rewards"):
            assert np.array_equal(a[4][key], b[4][key])
        for i in np.flatnonzero(a[2]):
            ends += 1
            assert np.array_equal(a[4]["final_obs"][i], b[4]["final_obs"][i])
            assert a[4]["final_info"][i]["scores"] == b[4]["final_info"][i]["scores"]
            assert np.array_equal(a[4]["final_info"][i]["rewards"],
                                  b[4]["final_info"][i]["rewards"])
    # long matches (in 250 steps of 5 slots) need not end; the others must cross autoresets
    assert ends > 0 or name in ("queendomino", "kami") or options.get("dynasty")


def test_self_play_later_matches_follow_their_seed() -> None:
    """Unseeded resets continue each slot's generator, as the Python env's do."""
    py = self_play("goita", 3, players=4)
    nat = self_play("goita", 3, players=4, core="native")
    py.reset(seed=4)
    nat.reset(seed=4)
    a, b = py.reset(), nat.reset()
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1]["seat"], b[1]["seat"])
    assert np.array_equal(py.action_masks(), nat.action_masks())


class Replay:
    """One slot's match on the Python engine, replaying the native env's actions."""

    def __init__(self, name: str, players: int, options: dict[str, Any]) -> None:
        self.game = get_game(name)
        self.players = players
        self.options = self.game.validate(options, players)
        self.encoder = encoder(self.game, self.options, players)
        self.state: Any = None
        self.applied = 0

    def follow(self, deal: int, trace: list[tuple[int, int]], new: bool) -> None:
        if new:
            self.state = self.game.start(self.options, self.players, deal)
            self.applied = 0
        for seat, index in trace[self.applied:]:
            assert index in self.game.legal_indices(self.state, seat)
            self.game.apply_index(self.state, seat, index)
        self.applied = len(trace)

    def check(self, seat: int, obs: np.ndarray, mask: np.ndarray) -> None:
        assert seat in self.game.to_act(self.state)
        assert np.array_equal(obs, self.encoder.encode(self.state, seat))
        assert sorted(np.flatnonzero(mask)) == sorted(self.game.legal_indices(self.state, seat))


BOT_CASES = [("kingdomino", 2, "greedy", {}), ("kingdomino", 4, {"random": 1, "greedy": 2}, {}),
             ("queendomino", 2, "random", {}), ("kami", 2, "greedy", {}),
             ("kami", 3, ["random", "greedy"], {"end_mode": "kami"}),
             ("goita", 4, {"random": 1, "greedy": 1}, {}), ("buttons", 3, "random", {})]


@pytest.mark.parametrize(("name", "players", "opponents", "options"), BOT_CASES)
def test_bot_env_equals_the_engine_replaying_it(name: str, players: int, opponents: Any,
                                                options: dict[str, Any]) -> None:
    """Against native opponents: at every step each slot's observation and mask are the
    learner's on the Python engine replaying every action the slot applied (the learner's and
    the opponents'), and an episode ends exactly when that match is over, with its outcome's
    reward, scores and final observation. The deal, the learner's seat and the opponents drawn
    are the Python env's from the same seed."""
    envs = make_vec(name, 4, players=players, opponents=opponents, core="native", trace=True,
                    **options)
    assert isinstance(envs, NativeBotVectorEnv) and envs.traces is not None
    py = make_vec(name, 4, players=players, opponents=opponents, **options)
    obs, info = envs.reset(seed=3)
    _, py_info = py.reset(seed=3)
    assert np.array_equal(info["seat"], py_info["seat"])
    assert envs.opponents == [env.opponents for env in py.envs]
    assert [env.table.match.seed for env in py.envs] == envs.deals  # type: ignore[union-attr]
    replays = [Replay(name, players, options) for _ in range(4)]
    for i, r in enumerate(replays):
        r.follow(envs.deals[i], envs.traces[i], True)
        r.check(int(info["seat"][i]), obs[i], envs.action_masks()[i])
    rng = np.random.default_rng(1)
    ends = 0
    for _ in range(150):
        actions = random_actions(envs.action_masks(), rng)
        seats = envs.seat.copy()
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert not truncated.any()
        masks = envs.action_masks()
        for i, r in enumerate(replays):
            if terminated[i]:
                ends += 1
                final = info["final_info"][i]
                r.follow(0, final["trace"], False)
                outcome = r.game.outcome(r.state)
                assert outcome is not None
                me = int(seats[i])
                assert rewards[i] == final_rewards(outcome)[me]
                assert final["scores"] == outcome.scores
                assert final["won"] == (outcome.ranks[me] == 1)  # BotEnv's: ties too
                assert np.array_equal(info["final_obs"][i], r.encoder.encode(r.state, me))
            else:
                assert rewards[i] == 0
            r.follow(envs.deals[i], envs.traces[i], bool(terminated[i]))
            r.check(int(info["seat"][i]), obs[i], masks[i])
    assert ends > 0


@pytest.mark.parametrize(("name", "players", "options"),
                         [("buttons", 2, {}), ("kami", 2, {}), ("goita", 4, {}),
                          ("kingdomino", 2, {"dynasty": True})])
@pytest.mark.parametrize("kind", ["shaped", "margin"])
def test_bot_env_pays_the_python_rewards(name: str, players: int, options: dict[str, Any],
                                         kind: str) -> None:
    """``margin`` and ``shaped`` against bots: every step's reward is what ``rewards.py``
    computes on the Python engine replaying the slot's actions (the shaping term from the
    learner's last decision to this one, its side's margin in the partners' games; at the end
    the win reward, or the clipped final margin)."""
    reward = Reward(kind, 0.9)
    envs = make_vec(name, 3, players=players, opponents="random", core="native", trace=True,
                    reward=reward, **options)
    assert isinstance(envs, NativeBotVectorEnv) and envs.traces is not None
    replays = [Replay(name, players, options) for _ in range(3)]
    rewarder = Rewarder(replays[0].game, reward)
    envs.reset(seed=5)

    def phi(r: Replay, me: int) -> float:
        return rewarder.potentials(r.state, sides_of(r.game, r.state, players))[me]

    for i, r in enumerate(replays):
        r.follow(envs.deals[i], envs.traces[i], True)
    last = [phi(r, int(envs.seat[i])) for i, r in enumerate(replays)]
    rng = np.random.default_rng(2)
    ends = moved = 0
    for _ in range(300):
        seats = envs.seat.copy()
        _, rewards, terminated, _, info = envs.step(random_actions(envs.action_masks(), rng))
        for i, r in enumerate(replays):
            me = int(seats[i])
            if not terminated[i]:
                r.follow(envs.deals[i], envs.traces[i], False)
                expected = reward.gamma * phi(r, me) - last[i] if kind == "shaped" else 0.0
                assert rewards[i] == pytest.approx(expected, abs=1e-12)
                moved += expected != 0.0
                last[i] = phi(r, me)
                continue
            ends += 1
            r.follow(0, info["final_info"][i]["trace"], False)
            outcome = r.game.outcome(r.state)
            assert outcome is not None
            final = rewarder.final(outcome, r.state)[me]
            if kind == "shaped":
                assert final == final_rewards(outcome)[me]
                assert rewards[i] == pytest.approx(final - last[i], abs=1e-12)
            else:
                assert -1.0 <= final <= 1.0 and rewards[i] == pytest.approx(final, abs=1e-12)
            r.follow(envs.deals[i], envs.traces[i], True)
            last[i] = phi(r, int(envs.seat[i]))
    assert ends > 0 and (moved > 0) == (kind == "shaped")


def test_bot_env_is_deterministic_and_loses_on_an_illegal_action() -> None:
    def stream(seed: int) -> list[Any]:
        envs = make_vec("kami", 3, players=2, opponents={"random": 1, "greedy": 1},
                        core="native")
        out: list[Any] = [envs.reset(seed=seed)[0]]
        rng = np.random.default_rng(5)
        for _ in range(100):
            o, r, t, _, _ = envs.step(random_actions(envs.action_masks(), rng))
            out += [o, r, t]
        return out

    a, b, c = stream(8), stream(8), stream(9)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))
    envs = make_vec("kingdomino", 2, players=2, opponents="random", core="native")
    obs, _ = envs.reset(seed=1)
    masks = envs.action_masks()
    actions = random_actions(masks, np.random.default_rng(0))
    actions[1] = np.flatnonzero(~masks[1])[0]
    _, rewards, terminated, _, info = envs.step(actions)
    assert list(terminated) == [False, True] and rewards[1] == -1.0
    assert info["final_info"][1]["illegal_action"] == actions[1]
    assert np.array_equal(info["final_obs"][1], obs[1])


@pytest.mark.parametrize("make", [
    lambda: self_play("kingdomino", 4, players=3, core="native"),
    lambda: self_play("goita", 3, players=4, core="native"),
    lambda: make_vec("kami", 3, players=2, opponents="random", core="native"),
])
def test_the_gymnasium_vector_api(make: Any) -> None:
    """What Gymnasium's checkers ask of an env, for a vector env: spaces that hold every
    observation, reset and step signatures and dtypes, same-step autoreset, seeds that
    reproduce, returned arrays that the next step does not overwrite, and a Gymnasium vector
    wrapper that counts episodes."""
    envs = make()
    assert isinstance(envs, VectorEnv) and envs.metadata["autoreset_mode"] == \
        AutoresetMode.SAME_STEP
    n = envs.num_envs
    obs, info = envs.reset(seed=2)
    again, _ = make().reset(seed=2)
    assert np.array_equal(obs, again)
    assert obs.dtype == np.float32 and envs.observation_space.contains(obs)
    assert info["seat"].shape == (n,)
    rng = np.random.default_rng(3)
    kept = obs.copy()
    for _ in range(40):
        masks = envs.action_masks()
        assert masks.dtype == np.bool_ and masks.shape == (n, envs.single_action_space.n)
        actions = random_actions(masks, rng)
        assert envs.action_space.contains(actions)
        new, rewards, terminated, truncated, info = envs.step(actions)
        assert np.array_equal(obs, kept)  # the previous observation was a copy
        assert envs.observation_space.contains(new)
        assert rewards.dtype == np.float64 and rewards.shape == (n,)
        assert terminated.dtype == truncated.dtype == np.bool_
        obs, kept = new, new.copy()
    envs.close()
    counted = RecordEpisodeStatistics(make())
    counted.reset(seed=0)
    episodes = 0
    for _ in range(400):
        _, _, terminated, _, info = counted.step(random_actions(counted.env.action_masks(), rng))
        episodes += int(terminated.sum())
        if "episode" in info:
            assert np.all(info["episode"]["l"][info["_episode"]] > 0)
    assert episodes > 0


def test_what_the_native_core_cannot_play_is_refused_or_left_to_python(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LUDOTECA_CORE", "auto")
    with pytest.raises(OptionError, match="'win' reward only"):
        self_play("kami", 2, players=2, reward="margin", core="native")
    assert isinstance(make_vec("kami", 2, opponents="random", reward="shaped", core="auto"),
                      NativeBotVectorEnv)
    with pytest.raises(OptionError, match="not 'medium'"):
        make_vec("kami", 2, players=2, opponents="medium", core="native")
    with pytest.raises(OptionError, match="not 'greedy'"):  # no native greedy Queendomino
        make_vec("queendomino", 2, players=2, opponents="greedy", core="native")
    with pytest.raises(OptionError, match="not 'greedy'"):  # native GREEDY is not the bot's
        make_vec("buttons", 2, players=2, opponents="greedy", core="native")
    with pytest.raises(OptionError, match="core must be one of"):
        self_play("kami", 2, core="fast")
    assert isinstance(self_play("kami", 2, reward="shaped", core="auto"), SelfPlayVectorEnv)
    assert isinstance(make_vec("kami", 2, opponents=lambda o, m: 0, core="auto"),
                      BotVectorEnv)
    assert use_native("auto", "kami", "win", "random")
    with pytest.raises(IllegalAction, match="not legal"):
        envs = self_play("kami", 2, players=2, core="native")
        envs.reset(seed=1)
        envs.step(np.array([np.flatnonzero(~m)[0] for m in envs.action_masks()]))
