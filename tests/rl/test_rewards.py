"""The reward options (``ludoteca.rl.rewards``, issue 26): the games' scores during play, the
final margin, and potential-based shaping whose terms telescope, so the shaped return is the
win return (with gamma = 1) and the win reward itself is unchanged."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test

from ludoteca.engine.errors import OptionError
from ludoteca.engine.registry import resolve
from ludoteca.games import entry, get_game
from ludoteca.rl.gym import make
from ludoteca.rl.pettingzoo import env, parallel_env
from ludoteca.rl.rewards import Reward, final_rewards, margins

sys.path.insert(0, str(Path(__file__).parent))
from cases import CASES, case_id
from test_pettingzoo_suites import DICT_OBSERVATION_WARNINGS

SCORED = [c for c in CASES if entry(c[0]).rl_score]
"""The cases of games with a score for the shaped rewards (the others refuse those rewards)."""


@pytest.mark.parametrize("case", SCORED, ids=[case_id(c) for c in SCORED])
def test_the_scores_now_end_as_the_outcomes(case: tuple[str, int, dict[str, Any]]) -> None:
    """``scores_now`` (``GameEntry.rl_score``) gives every seat a score and a positive scale
    all along, and ends as the outcome's scores."""
    name, players, options = case
    game = get_game(name)
    ref = entry(name).rl_score
    assert ref is not None
    scores_now = resolve(ref)
    for seed in range(3):
        state = game.setup(options, players, seed)
        rng = random.Random(seed)
        while seats := game.to_act(state):
            scores, scale = scores_now(state)
            assert len(scores) == players and scale > 0
            seat = min(seats)
            game.apply_legal(state, seat, rng.choice(game.legal_actions(state, seat)))
        outcome = game.outcome(state)
        assert outcome is not None
        assert scores_now(state)[0] == outcome.scores


def test_margins() -> None:
    assert margins((30, 20), (0, 1), 10.0) == [1.0, -1.0]
    assert margins((9, 3, 6), (0, 1, 2), 3.0) == [1.5, -1.5, 0.0]
    assert margins((15, 6, 15, 6), (0, 1, 0, 1), 15.0) == [0.6, -0.6, 0.6, -0.6]


def play_aec(aec: Any, seed: int) -> dict[str, list[float]]:
    """An episode of random legal moves; every reward each agent collected, in order."""
    aec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    got: dict[str, list[float]] = {a: [] for a in aec.possible_agents}
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, _ = aec.last()
        got[agent].append(reward)
        if terminated or truncated:
            aec.step(None)
        else:
            aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return got


@pytest.mark.parametrize(("name", "players"), [("buttons", 2), ("kami", 4), ("kingdomino", 3)])
def test_aec_shaping_telescopes_to_the_win_reward(name: str, players: int) -> None:
    """With gamma = 1 the shaping terms of an episode add up to phi(end) - phi(start) = 0 - 0
    (every game starts at 0 points): each agent's shaped return is its win return, while the
    terms along the way are not all 0."""
    shaped, plain = env(name, players=players, reward="shaped"), env(name, players=players)
    for seed in range(3):
        got = play_aec(shaped, seed)
        win = play_aec(plain, seed)
        table = shaped.table
        assert table.match is not None and table.match.outcome is not None
        assert table.shaping is not None
        finals = final_rewards(table.match.outcome)
        for seat, agent in enumerate(shaped.possible_agents):
            assert sum(got[agent]) == pytest.approx(finals[seat])
            assert sum(win[agent]) == finals[seat] and win[agent][-1] == finals[seat]
            assert table.shaping.total[seat] == pytest.approx(0.0)
        assert any(r != 0 for rewards in got.values() for r in rewards[:-1])


def test_gym_shaping_telescopes_with_the_learners_discount() -> None:
    """sum_k gamma^k F_k = gamma^K phi(end) - phi(start), phi(end) = 0: the shaping terms of
    the learner's transitions, discounted, add up to minus its potential at its first
    decision."""
    gamma = 0.9
    for seed in range(4):
        shaped = make("kami", players=2, opponents="greedy", reward=Reward("shaped", gamma))
        shaped.reset(seed=seed)
        assert shaped.table.match is not None
        start = shaped.table.rewarder.potentials(shaped.table.match.state,
                                                 shaped.table.side_of)[shaped.seat]
        rng = np.random.default_rng(seed)
        terms = []
        while True:
            action = int(rng.choice(np.flatnonzero(shaped.action_masks())))
            _, reward, over, _, _ = shaped.step(action)
            terms.append(reward)
            if over:
                break
        match = shaped.table.match
        assert match.outcome is not None
        terms[-1] -= final_rewards(match.outcome)[shaped.seat]
        discounted = sum(gamma**k * f for k, f in enumerate(terms))
        assert discounted == pytest.approx(-start)
        assert any(abs(f) > 1e-9 for f in terms)


def test_the_win_reward_is_unchanged() -> None:
    """``reward="win"`` (said or not) pays exactly the outcome's rank rewards at the end."""
    for name, players in [("buttons", 3), ("goita", 4)]:
        said, default = env(name, players=players, reward="win"), env(name, players=players)
        for seed in range(3):
            a, b = play_aec(said, seed), play_aec(default, seed)
            assert a == b
            outcome = said.table.match.outcome  # type: ignore[union-attr]
            assert outcome is not None
            assert [sum(a[agent]) for agent in said.possible_agents] == final_rewards(outcome)
            assert all(r == 0 for rewards in a.values() for r in rewards[:-1])


def test_the_margin_reward() -> None:
    aec = env("kami", players=4, reward="margin")
    for seed in range(3):
        got = play_aec(aec, seed)
        match = aec.table.match
        assert match is not None and match.outcome is not None
        scale = float(match.options["target"])
        want = [max(-1.0, min(1.0, m))
                for m in margins(match.outcome.scores, match.outcome.side_of, scale)]
        assert [sum(got[a]) for a in aec.possible_agents] == pytest.approx(want)
        assert sum(want) == pytest.approx(0.0)


def test_parallel_shaping_telescopes() -> None:
    par = parallel_env("buttons", players=3, reward="shaped")
    for seed in range(2):
        par.reset(seed=seed)
        rng = np.random.default_rng(seed)
        total = dict.fromkeys(par.possible_agents, 0.0)
        nonzero = 0
        while par.agents:
            actions = {}
            for a in par.agents:
                mask = par.table.mask(par.table.seat_of[a])
                if mask.any():
                    actions[a] = int(rng.choice(np.flatnonzero(mask)))
            _, rewards, _, _, _ = par.step(actions)
            for a, r in rewards.items():
                total[a] += r
                nonzero += r != 0
        outcome = par.table.match.outcome  # type: ignore[union-attr]
        assert outcome is not None
        assert list(total.values()) == pytest.approx(final_rewards(outcome))
        assert nonzero > par.num_agents


@pytest.mark.filterwarnings(*DICT_OBSERVATION_WARNINGS)
@pytest.mark.parametrize(("name", "players"), [("buttons", 2), ("kami", 4)])
def test_pettingzoo_suites_with_shaped_rewards(name: str, players: int) -> None:
    aec = env(name, players=players, reward="shaped")
    for i, agent in enumerate(aec.possible_agents):
        aec.action_space(agent).seed(i)
    api_test(aec, num_cycles=300)
    parallel_api_test(parallel_env(name, players=players, reward="margin"), num_cycles=300)


def test_bad_reward_options() -> None:
    with pytest.raises(OptionError):
        env("kami", reward="points")
    with pytest.raises(OptionError):
        Reward("shaped", gamma=0.0)
    with pytest.raises(OptionError):
        make("kami", reward="bonus")
