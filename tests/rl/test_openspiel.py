"""The OpenSpiel games (issue 15): OpenSpiel's own random simulation test on every game, chance
nodes that are exactly the engine's own draws, observations that say no more than the seat's
view, and OpenSpiel's algorithms playing them."""

from __future__ import annotations

import itertools
import json
import random
import sys
from collections.abc import Iterator, MutableSequence
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import pyspiel
import pytest

from ludoteca.engine.rng import Rng
from ludoteca.games import entry, game_names, get_game
from ludoteca.rl import openspiel as lo
from ludoteca.rl.chance import split

sys.path.insert(0, str(Path(__file__).parent))
from cases import CASES, case_id

T = TypeVar("T")


def load(name: str, players: int, options: dict[str, Any]) -> Any:
    return pyspiel.load_game(lo.PREFIX + name, {"players": players, **options})


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_openspiels_random_simulation_test(case: tuple[str, int, dict[str, Any]]) -> None:
    """OpenSpiel's own consistency checks (clone, serialization, legal actions sorted and
    masked, chance outcomes, returns within the utility range, game length, ...), unchanged."""
    pyspiel.random_sim_test(load(*case), num_sims=2, serialize=True, verbose=False)


def test_every_game_is_registered_with_its_parameters() -> None:
    with_encoder = [n for n in game_names() if entry(n).rl_observation]
    assert with_encoder and [lo.PREFIX + n for n in with_encoder] == lo.NAMES
    game = pyspiel.load_game("ludoteca_kami", {"players": 4, "target": 12})
    assert game.num_players() == 4
    assert game.options["target"] == 12
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    with pytest.raises(Exception, match="target"):
        pyspiel.load_game("ludoteca_kami", {"players": 2, "target": -3})


# ---- chance nodes are the engine's draws ----------------------------------------------------


class _Swaps(MutableSequence[T]):
    """A list that records the second index of each swap a shuffle makes (its choice)."""

    def __init__(self, items: MutableSequence[T], choices: list[int]) -> None:
        self.items = items
        self.choices = choices
        self.writes = 0

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i: Any) -> Any:
        return self.items[i]

    def __setitem__(self, i: Any, value: Any) -> None:
        self.writes += 1
        if self.writes % 2 == 0:  # items[i], items[j] = items[j], items[i]: j is written second
            self.choices.append(i)
        self.items[i] = value

    def __delitem__(self, i: Any) -> None:
        raise NotImplementedError

    def insert(self, index: int, value: T) -> None:
        raise NotImplementedError


class RecordingRng(Rng):
    """``Rng(seed)`` as the engine uses it, writing down each draw as the chance outcomes that
    stand for it in the OpenSpiel game."""

    __slots__ = ("outcomes", "quiet")

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.outcomes: list[int] = []
        self.quiet = False

    def below(self, n: int) -> int:
        value = super().below(n)
        if n > 1 and not self.quiet:
            rest = value
            for size in split(n):
                self.outcomes.append(rest % size)
                rest //= size
        return value

    def shuffle(self, items: MutableSequence[T]) -> None:
        """``Rng.shuffle`` itself; each of its draws is one chance node (even where a lone draw
        of that size would be dice), read off its swaps."""
        choices: list[int] = []
        self.quiet = True
        try:
            super().shuffle(_Swaps(items, choices))
        finally:
            self.quiet = False
        self.outcomes.extend(choices)

    def shuffle_wide(self, items: MutableSequence[T], words: int = 3) -> None:
        choices: list[int] = []
        swaps = _Swaps(items, choices)
        before = list(items)
        super().shuffle_wide(swaps, words)
        # A swap with itself writes twice too; choices then hold j for i = n-1 .. 1.
        assert len(choices) == len(before) - 1
        self.outcomes.extend(choices)


def _pairs(case: tuple[str, int, dict[str, Any]], seed: int) -> Iterator[tuple[Any, Any]]:
    """The engine's own match from ``seed`` and the OpenSpiel game fed the engine's draws as
    its chance outcomes, after each decision, with the same random actions."""
    name, players, options = case
    game = get_game(name)
    rng = RecordingRng(seed)
    validated = game.validate(options, players)
    engine_state = game.start(validated, players, rng=rng)
    own = game.start(validated, players, seed)  # recording changes nothing the engine does
    assert lo._fields(own) == lo._fields(engine_state)
    spiel = load(*case)
    state = spiel.new_initial_state()
    used = 0
    pick = random.Random(seed)
    while True:
        while state.is_chance_node():
            assert used < len(rng.outcomes), "the OpenSpiel game draws more than the engine"
            state.apply_action(rng.outcomes[used])
            used += 1
        assert used == len(rng.outcomes), "the engine drew more than the OpenSpiel game"
        yield engine_state, state
        if state.is_terminal():
            return
        seat = state.current_player()
        action = pick.choice(game.legal_actions(engine_state, seat))
        game.apply_legal(engine_state, seat, action)
        state.apply_action(action.index)


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_chance_outcomes_are_the_engines_own_draws(case: tuple[str, int, dict[str, Any]]) -> None:
    """Fed the draws ``Rng(seed)`` makes, the OpenSpiel game plays the engine's own match from
    that seed, view for view, to the same returns: its chance nodes are exactly the engine's
    random draws (and, since each is uniform, with the same probabilities)."""
    game = get_game(case[0])
    steps = 0
    for engine_state, state in _pairs(case, seed=7):
        views = [game.view(engine_state, s) for s in range(case[1])]
        assert json.loads(str(state))["views"] == json.loads(json.dumps(views))
        steps += 1
    assert state.is_terminal() and game.is_over(engine_state)
    outcome = game.outcome(engine_state)
    assert outcome is not None
    returns = state.returns()
    assert sum(returns) == pytest.approx(0)
    for a, b in [(a, b) for a in range(case[1]) for b in range(case[1])]:
        if outcome.ranks[a] < outcome.ranks[b]:  # a better place, a higher return
            assert returns[a] > returns[b] or _partners(engine_state, game, a, b)
    assert steps > 10


def _partners(state: Any, game: Any, a: int, b: int) -> bool:
    sides = game.view(state, None).get("sides")
    return bool(sides) and sides[a] == sides[b]


def test_dice_and_shuffles_are_chance_nodes() -> None:
    state = pyspiel.load_game("ludoteca_kingdomino", {"players": 4}).new_initial_state()
    first = state.chance_outcomes()
    assert len(first) == 48 and sum(p for _, p in first) == pytest.approx(1)  # the deck
    state = pyspiel.load_game("ludoteca_buttons", {"players": 2}).new_initial_state()
    rolls = 0
    rng = random.Random(3)
    while not state.is_terminal() and rolls < 3:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choice(outcomes)[0])
            continue
        actions = state.legal_actions()
        roll = [a for a in actions if state.action_to_string(a).lower().startswith("roll")]
        state.apply_action(roll[0] if roll else rng.choice(actions))
        if roll:
            rolls += 1
            dice = 0
            while state.is_chance_node():  # one node per die, six faces each
                assert [p for _, p in state.chance_outcomes()] == [pytest.approx(1 / 6)] * 6
                state.apply_action(rng.randrange(6))
                dice += 1
            assert dice >= 2
    assert rolls == 3


# ---- no leak ------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_an_observation_is_the_same_in_every_world_the_seat_cannot_tell_apart(
    case: tuple[str, int, dict[str, Any]],
) -> None:
    """At every decision, for every seat: re-deal what the seat may not know
    (``resample_from_infostate``) and its observation tensor stays the same, while the
    re-dealt worlds do differ (so there was something hidden to re-deal). (The observation
    string is the view, which the determinizer keeps by its own contract, and the information
    state carries over by design: the next test is the one for the information state.)"""
    spiel = load(*case)
    players = case[1]
    differs = 0
    u = random.Random(11)
    for n, (_, state) in enumerate(_pairs(case, seed=5)):
        if state.is_terminal() or n % 3:
            continue
        for seat in range(players):
            world = state.resample_from_infostate(seat, u.random)
            if seat == state.current_player():
                assert world.current_player() == seat
            assert world.observation_string(seat) == state.observation_string(seat)
            assert np.array_equal(world.observation_tensor(seat), state.observation_tensor(seat))
            assert world.information_state_string(seat) == state.information_state_string(seat)
            differs += str(world) != str(state)
    assert spiel.observation_tensor_size() > 0
    assert differs > 0 or not get_game(case[0]).spec.chance  # Nim: nothing dealt, nothing hidden


# ---- OpenSpiel's algorithms on our games --------------------------------------------------


def test_openspiels_is_mcts_plays_kami_against_our_greedy_bot() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("ludoteca_kami", {"players": 2, "target": 10})
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    searcher = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=20,
                                random_state=rng, use_observation_string=True)
    ours = lo.LudotecaBot(game, 1, "greedy", seed=2)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        bot = searcher if state.current_player() == 0 else ours
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert sorted(state.returns()) == [-1.0, 1.0]


EVERY_GAME = [(n, get_game(n).spec.min_players) for n in game_names() if entry(n).rl_observation]
"""Every game with an encoder, at its fewest players."""


@pytest.mark.parametrize(("name", "players"), EVERY_GAME)
def test_openspiels_rl_environment_runs_an_episode_on_the_observation_tensor(
    name: str, players: int,
) -> None:
    """OpenSpiel's RL loop (``rl_environment``), as its learning agents use it, with our
    observation tensor (there is no information-state tensor: docs/rl.md says why)."""
    from open_spiel.python import rl_environment

    game = pyspiel.load_game(lo.PREFIX + name, {"players": players})
    environment = rl_environment.Environment(
        game, observation_type=rl_environment.ObservationType.OBSERVATION)
    rng = np.random.default_rng(0)
    step = environment.reset()
    size = game.observation_tensor_size()
    while not step.last():
        player = step.observations["current_player"]
        assert len(step.observations["info_state"][player]) == size
        step = environment.step([int(rng.choice(step.observations["legal_actions"][player]))])
    assert sum(step.rewards) == pytest.approx(0)  # zero-sum: a win, or a tie at 0 each


@pytest.mark.parametrize("name,players", EVERY_GAME)
def test_openspiels_searches_choose_legal_moves_in_every_game(name: str, players: int) -> None:
    """IS-MCTS (resampling worlds from the seat's information) and MCTS (on the true state,
    a cheating baseline here) each choose a legal move a few times in every game."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(lo.PREFIX + name, {"players": players})
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4, random_state=rng,
                             use_observation_string=True),
            mcts.MCTSBot(game, uct_c=2.0, max_simulations=4, evaluator=evaluator,
                         random_state=rng)]
    state = game.new_initial_state()
    chosen = 0
    while chosen < 4 and not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.randint(len(state.chance_outcomes()))))
            continue
        action = bots[chosen % 2].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        chosen += 1
    assert chosen == 4


HIDDEN_MOVES = [c for c in CASES if c[0] in ("buttons", "kami", "goita")]
"""Where a move can be hidden from the other seats (Buttons' answers, face-down leads); in
Kingdomino and Queendomino every move is seen by all, so no two differ unseen."""


@pytest.mark.parametrize("case", HIDDEN_MOVES, ids=[case_id(c) for c in HIDDEN_MOVES])
def test_the_information_state_says_no_more_than_the_observation(
    case: tuple[str, int, dict[str, Any]],
) -> None:
    """At decisions along a game, the acting seat's legal moves that look the same to the
    others (the same ``Game.public_action``: a face-down card, a hidden answer) lead to
    positions another seat can tell apart only if its view tells them apart: wherever its
    views of two such positions are equal, so are its information states (what it was told
    never says more than what it sees)."""
    name, players, _ = case
    game = get_game(name)
    compared = 0
    pick = random.Random(2)
    for n, (engine_state, state) in enumerate(_pairs(case, seed=9)):
        if state.is_terminal() or n % 2:
            continue
        actor = state.current_player()
        looks: dict[str, list[Any]] = {}
        for index in state.legal_actions():
            action = game.action_from_index(index)
            public = json.dumps(game.public_action(engine_state, actor, action), sort_keys=True)
            looks.setdefault(public, []).append(index)
        for same in looks.values():
            children = []
            for index in pick.sample(same, min(3, len(same))):
                child = state.clone()
                child.apply_action(index)
                if not child.is_chance_node():
                    children.append(child)
            for a, b in itertools.pairwise(children):
                for seat in range(players):
                    if seat != actor and a.observation_string(seat) == b.observation_string(seat):
                        assert (a.information_state_string(seat)
                                == b.information_state_string(seat)), (n, seat)
                        compared += 1
    assert compared > 0
