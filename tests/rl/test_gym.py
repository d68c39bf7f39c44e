"""The single-agent environment against the arena's bots (``ludoteca.rl.gym``, issue 26):
Gymnasium's own ``check_env`` on every case, the opponents played inside ``step`` by our bots
(or a policy), Buttons' simultaneous answers, seeding, illegal actions and deals that end at
once."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from ludoteca.bots import make_bot
from ludoteca.engine.errors import IllegalAction, OptionError
from ludoteca.engine.match import Match
from ludoteca.rl.gym import BotEnv, make
from ludoteca.rl.rewards import final_rewards

sys.path.insert(0, str(Path(__file__).parent))
from cases import CASES, case_id


def play(env: BotEnv, seed: Any, pick: int = 0) -> tuple[list[float], dict[str, Any]]:
    """One episode choosing the ``pick``-th legal action (mod the count); its rewards."""
    env.reset(seed=seed)
    rewards = []
    while True:
        legal = np.flatnonzero(env.action_masks())
        _, reward, over, truncated, info = env.step(int(legal[pick % len(legal)]))
        assert not truncated
        rewards.append(reward)
        if over:
            return rewards, info


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_gymnasium_check_env(case: tuple[str, int, dict[str, Any]]) -> None:
    name, players, options = case
    env = make(name, players=players, opponents={"random": 0.5, "greedy": 0.5}, **options)
    check_env(env, skip_render_check=True)  # rendering: test_rendering (check_env needs a spec)
    obs, _ = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    mask = env.action_masks()
    assert mask.dtype == np.bool_ and mask.shape == (env.action_space.n,) and mask.any()
    match = env.table.match
    assert match is not None
    assert sorted(np.flatnonzero(mask)) == sorted(a.index for a in match.legal(env.seat))


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_an_episode_is_the_learner_against_the_bots(case: tuple[str, int, dict[str, Any]]) -> None:
    """Every seat but the learner's is played by the bot the env names; the episode's record
    replays with every check; the learner's only reward is its side's final one."""
    name, players, options = case
    env = make(name, players=players, opponents="greedy", **options)
    rewards, info = play(env, seed=8, pick=1)
    match = env.table.match
    assert match is not None and match.outcome is not None
    assert set(env.opponents) == set(range(players)) - {env.seat}
    assert set(env.opponents.values()) == {"greedy"}
    assert rewards[-1] == final_rewards(match.outcome)[env.seat]
    assert not any(rewards[:-1])
    assert info["scores"] == match.outcome.scores
    assert {s for s, _ in match.actions} == set(range(players))
    Match.from_record(match.game, match.record)  # RecordError if any action was not legal


def test_the_opponents_are_our_bots_choosing_from_their_views() -> None:
    """Each opponent move is what our ``greedy`` bot, seeded as the env seeded it, chooses
    from its seat's view at that moment."""
    env = make("kami", players=2, opponents="greedy", seat=0)
    play(env, seed=4, pick=2)
    match = env.table.match
    assert match is not None
    replay = Match.new(match.game, match.options, 2, match.seed, narrate=False)
    bot = make_bot("greedy", "kami", env.bot_seeds[1])
    checked = 0
    for seat, action in match.actions:
        if seat == 1:
            assert bot.choose(match.game, replay.view(1), 1) == action
            checked += 1
        replay.step(seat, action)
    assert checked > 10


def test_a_callable_opponent_gets_its_own_observation_and_mask() -> None:
    seen: list[tuple[int, int]] = []
    env = make("buttons", players=3, seat=0, opponents=lambda obs, mask: seen.append(
        (obs.shape[0], int(mask.sum()))) or int(np.flatnonzero(mask)[-1]))
    play(env, seed=2)
    assert seen and all(size == env.observation_space.shape[0] and n > 0 for size, n in seen)
    match = env.table.match
    assert match is not None and match.is_over()


def test_buttons_simultaneous_answers() -> None:
    """After a roll the learner and its opponents may all have to answer: the opponents answer
    first, from views that show no pending answer, and the learner is asked its own decision
    (the record replays with the ``seq`` checks of the match driver)."""
    env = make("buttons", players=3, opponents="random", seat=1)
    together = 0
    for seed in range(4):
        env.reset(seed=seed)
        while True:
            match = env.table.match
            assert match is not None
            assert match.to_act() == frozenset({env.seat})  # asked alone, the others answered
            began, now = match.decision(env.seat), match.seq
            assert began is not None
            together += began < now  # others acted since this decision began: they answered
            legal = np.flatnonzero(env.action_masks())
            _, _, over, _, _ = env.step(int(legal[-1]))
            if over:
                break
        Match.from_record(match.game, match.record)
    assert together > 0  # some decisions were shared with opponents who answered first


def test_the_same_seed_gives_the_same_episode_bots_included() -> None:
    a = make("buttons", players=2, opponents={"random": 1, "greedy": 1})
    b = make("buttons", players=2, opponents={"random": 1, "greedy": 1})
    ra, _ = play(a, seed=np.int64(12), pick=3)
    rb, _ = play(b, seed=12, pick=3)
    assert a.table.match is not None and b.table.match is not None
    assert a.table.match.actions == b.table.match.actions and ra == rb
    assert (a.seat, a.opponents) == (b.seat, b.opponents)
    play(b, seed=13, pick=3)
    assert a.table.match.actions != b.table.match.actions
    seats = set()
    for seed in range(12):
        a.reset(seed=seed)
        seats.add(a.seat)
    assert seats == {0, 1}


def test_a_fixed_seat_and_a_list_of_opponents() -> None:
    env = make("kami", players=3, seat=2, opponents=["random", "greedy"])
    env.reset(seed=1)
    assert env.seat == 2 and env.opponents == {0: "random", 1: "greedy"}
    with pytest.raises(OptionError):
        make("kami", players=3, opponents=["random"])
    with pytest.raises(OptionError):
        make("kami", players=3, seat=3)
    with pytest.raises(OptionError):
        make("kami", opponents="grandmaster")
    with pytest.raises(OptionError):
        make("kami", opponents={"random": 0})


def test_an_illegal_action_loses_or_raises() -> None:
    env = make("kami", players=2, opponents="random")
    env.reset(seed=1)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, over, _, info = env.step(illegal)
    assert over and reward == -1.0 and info["illegal_action"] == illegal
    strict = make("kami", players=2, opponents="random", illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalAction):
        strict.step(illegal)


def test_a_goita_deal_that_ends_at_once_is_dealt_again() -> None:
    env = make("goita", players=4, opponents="random")
    for seed in (4013, 8636, 19190):
        env.reset(seed=seed)
        match = env.table.match
        assert match is not None and env.seat in match.to_act()
        assert match.seed != seed  # the deal of ``seed`` ended the match before anyone played


def test_rendering() -> None:
    env = make("kami", players=2, opponents="random", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and text.strip()
    pictures = make("buttons", players=2, opponents="random", render_mode="rgb_array")
    pictures.reset(seed=1)
    image = pictures.render()
    assert isinstance(image, np.ndarray) and image.dtype == np.uint8 and image.shape[2] == 3
    assert make("kami", opponents="random").render() is None
    with pytest.raises(OptionError):
        make("kami", opponents="random", render_mode="svg")
