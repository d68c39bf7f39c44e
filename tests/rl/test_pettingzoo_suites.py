"""PettingZoo's own test suites, unchanged, on every game (issue 15 "Must show").

``api_test`` and ``seed_test`` on the AEC environment, ``parallel_api_test`` and
``parallel_seed_test`` on the Parallel one. Two of ``api_test``'s advisory warnings are filtered,
narrowly: our observations are the action-mask dict ``{"observation", "action_mask"}`` that
PettingZoo documents for games with illegal moves, and ``api_test`` warns about any dict
observation unless the environment's name is on its list of PettingZoo's own classic games
(``env_obs_dicts`` / ``env_obs_space`` in pettingzoo/test/api_test.py), which use this same
layout. Every other warning still fails the test (pytest runs with ``-W error``).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, parallel_api_test, seed_test
from pettingzoo.test.seed_test import parallel_seed_test

from ludoteca.rl.pettingzoo import env, parallel_env

sys.path.insert(0, str(Path(__file__).parent))
from cases import CASES, case_id

DICT_OBSERVATION_WARNINGS = [
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:Observation space for each agent probably should be gymnasium.spaces.box:UserWarning",
]


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
@pytest.mark.filterwarnings(*DICT_OBSERVATION_WARNINGS)
def test_api_test(case: tuple[str, int, dict[str, Any]]) -> None:
    name, players, options = case
    aec = env(name, players=players, **options)
    for i, agent in enumerate(aec.possible_agents):
        aec.action_space(agent).seed(i)  # the random moves api_test samples: reproducible
    api_test(aec, num_cycles=1000)


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_seed_test(case: tuple[str, int, dict[str, Any]]) -> None:
    name, players, options = case
    seed_test(lambda: env(name, players=players, **options), num_cycles=500)


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_parallel_api_test(case: tuple[str, int, dict[str, Any]]) -> None:
    name, players, options = case
    parallel_api_test(parallel_env(name, players=players, **options), num_cycles=1000)


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_parallel_seed_test(case: tuple[str, int, dict[str, Any]]) -> None:
    name, players, options = case
    parallel_seed_test(lambda: parallel_env(name, players=players, **options), num_cycles=500)
