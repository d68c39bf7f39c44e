"""OpenSpiel's information-state tensor (issue 26): the game type says it is not provided, and
every way of asking for one raises a ``NotImplementedError`` that says what to use instead
(it used to return ``[]`` silently). OpenSpiel's ``random_sim_test`` runs without serialization
too (``test_openspiel.py`` runs it with), and our bots take numpy integer seeds."""

from __future__ import annotations

import pickle
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment

from ludoteca.rl import openspiel as lo

sys.path.insert(0, str(Path(__file__).parent))
from cases import CASES, case_id


def dealt(name: str, players: int, seed: int = 1) -> Any:
    game = pyspiel.load_game(lo.PREFIX + name, {"players": players})
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(rng.randrange(len(state.chance_outcomes())))
    return game, state


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_random_simulation_without_serialization(case: tuple[str, int, dict[str, Any]]) -> None:
    name, players, options = case
    game = pyspiel.load_game(lo.PREFIX + name, {"players": players, **options})
    assert not game.get_type().provides_information_state_tensor
    assert game.get_type().provides_information_state_string
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("name,players", [("kami", 2), ("buttons", 3), ("kingdomino", 2)])
def test_an_information_state_tensor_says_what_to_use_instead(name: str, players: int) -> None:
    game, state = dealt(name, players)
    asks = [
        lambda: state.information_state_tensor(),
        lambda: state.information_state_tensor(0),
        lambda: pyspiel.State.information_state_tensor(state, 0),  # OpenSpiel's C++ path
        lambda: state.clone().information_state_tensor(1),
        lambda: pickle.loads(pickle.dumps(state)).information_state_tensor(0),
        game.information_state_tensor_shape,
        game.information_state_tensor_size,
    ]
    for ask in asks:
        with pytest.raises(NotImplementedError, match="use observation_tensor"):
            ask()
    # what it points to works: the observation tensor, and the perfect-recall string
    assert len(state.observation_tensor(0)) == game.observation_tensor_size() > 0
    assert state.information_state_string(0)
    env = rl_environment.Environment(
        game, observation_type=rl_environment.ObservationType.OBSERVATION)
    assert len(env.reset().observations["info_state"][0]) == game.observation_tensor_size()
    with pytest.raises(ValueError, match="information_state_tensor not supported"):
        rl_environment.Environment(
            game, observation_type=rl_environment.ObservationType.INFORMATION_STATE)


def test_our_bots_take_numpy_seeds() -> None:
    game, state = dealt("kami", 2, seed=4)
    seat = state.current_player()
    moves = {lo.LudotecaBot(game, seat, "random", seed=s).step(state)
             for s in (5, np.int64(5), np.uint32(5))}
    assert len(moves) == 1
