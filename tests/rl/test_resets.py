"""Resets over many seeds, in every game, in the AEC env, the Parallel env and OpenSpiel
(issue 26), including Goita deals that end the match at once: partners dealt five Shi between
them win the deal before anyone plays (seeds 4013, 8636 and 19190 with 4 players; the AEC env
used to crash on them in ``_next_agent``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ludoteca.rl.pettingzoo import env, parallel_env

sys.path.insert(0, str(Path(__file__).parent))
from cases import CASES, case_id
from test_openspiel import _pairs

ENDS_AT_DEAL = [4013, 8636, 19190]
SEEDS = 150


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_every_reset_gives_an_agent_to_act_or_a_finished_match(
    case: tuple[str, int, dict[str, Any]],
) -> None:
    name, players, options = case
    aec = env(name, players=players, **options)
    parallel = parallel_env(name, players=players, **options)
    seeds = [*range(SEEDS), *(ENDS_AT_DEAL if name == "goita" else [])]
    for seed in seeds:
        aec.reset(seed=seed)
        if all(aec.terminations.values()):
            assert name == "goita" and seed in ENDS_AT_DEAL
        else:
            assert not any(aec.terminations.values())
            assert aec.action_mask(aec.agent_selection).any()
        observations, infos = parallel.reset(seed=seed)
        assert set(observations) == set(infos) == set(parallel.agents)
    aec.reset(seed=np.int64(7))  # numpy integers seed too, and the same match
    first = aec.observe(aec.agent_selection)["observation"]
    aec.reset(seed=7)
    assert np.array_equal(aec.observe(aec.agent_selection)["observation"], first)


@pytest.mark.parametrize("seed", ENDS_AT_DEAL)
def test_a_goita_deal_that_ends_the_match_at_once(seed: int) -> None:
    aec = env("goita", players=4)
    aec.reset(seed=seed)
    assert all(aec.terminations.values())
    assert sorted(aec._cumulative_rewards.values()) == [-1.0, -1.0, 1.0, 1.0]
    visited = []
    for agent in aec.agent_iter():
        assert aec.last()[2]  # terminated: only None is stepped
        visited.append(agent)
        aec.step(None)
    assert sorted(visited) == sorted(aec.possible_agents) and aec.agents == []

    parallel = parallel_env("goita", players=4)
    parallel.reset(seed=seed)
    _, rewards, terminations, _, _ = parallel.step({})
    assert all(terminations.values()) and sorted(rewards.values()) == [-1.0, -1.0, 1.0, 1.0]

    *_, (_engine, state) = _pairs(("goita", 4, {}), seed=seed)
    assert state.is_terminal() and sorted(state.returns()) == [-1.0, -1.0, 1.0, 1.0]
