"""The native Kami and Goita against the Python engine, the reference: seeded matches of every
player count and option, both cores driven by the same index choices (random, the greedy bot's
playout choice, and a mix), compared at every step (seat to act, legal indices in order, the whole
state, the generator, the scores now) and at the end (the outcome's scores, ranks and
tie-breaks, partners sharing their side's), by tools/differential/kami.py's ``play``, the
comparison ``python -m tools.differential`` runs at scale."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from drawn import Drawn
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from native_core import require_native

from ludoteca.bots.search import game_playout
from ludoteca.engine.game import Game
from ludoteca.engine.rng import Rng
from ludoteca.games.kami import native as kami_native
from ludoteca.games.kami.bot import playout_choice
from ludoteca.games.kami.observation import Encoder
from ludoteca.games.kami.state import KamiState
from ludoteca.rl.rewards import final_rewards
from tools.differential.core import Case
from tools.differential.kami import CASES, assert_same, assert_same_outcome, game_of, play

core = require_native()
K = core.kami

IDS = [c.label for c in CASES]
GOITA_DEFAULT = Case("goita", 4)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_random_matches_agree_at_every_step(case: Case) -> None:
    for seed in range(case.matches):
        play(case, seed, "random")


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_greedy_and_mixed_matches_agree(case: Case) -> None:
    for seed in range(max(4, case.matches // 10)):
        play(case, 10_000 + seed, "greedy")
        play(case, 20_000 + seed, "mixed")


@settings(max_examples=examples(60))
@given(st.sampled_from(CASES), st.integers(min_value=0, max_value=(1 << 64) - 1), st.data())
def test_odd_matches_agree(case: Case, seed: int, data: st.DataObject) -> None:
    """Hypothesis picks the seed and every index (its shrinking heads for the first legal ones:
    passes, the lowest cards, declines), both cores compared at every step."""
    play(case, seed, "random", draws=Drawn(data))


def test_goita_special_hands_deal_alike() -> None:
    """B5 at the deal, each kind met in the first deals of seeded matches (the Python engine's
    history says which): six and seven Shi score at once, five Shi on each team redeal at once,
    five Shi in both partners' hands win outright, and eight Shi (seed 51366, checked here to
    be one) score 100; then the match is played out on both cores."""
    game = game_of(True)
    met: dict[str, int] = {}
    for seed in range(5000):
        for entry in game.setup(None, 4, seed).history:
            met.setdefault(entry[2], seed)
        if {"shi6", "shi7", "redeal", "shi5x2"} <= met.keys():
            break
    assert {"shi6", "shi7", "redeal", "shi5x2"} <= met.keys(), met
    assert [e[2] for e in game.setup(None, 4, 51366).history][:1] == ["shi8"]
    met["shi8"] = 51366
    for seed in met.values():
        assert_same(game.setup(None, 4, seed), kami_native.setup(None, 4, seed, True))
        play(GOITA_DEFAULT, seed, "mixed")


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_observations_are_the_encoders_byte_for_byte(case: Case) -> None:
    """Every seat's RL observation at every step equals observation.py's, as float32 bytes."""
    for seed in range(max(4, case.matches // 30)):
        play(case, seed, "mixed", observe=True)


def python_greedy_playout(game: Game[Any, Any], py: KamiState, seed: int) -> None:
    """The native ``GREEDY`` playout loop in Python: one generator chooses for every seat."""
    chooser = Rng(seed)
    while not game.is_over(py):
        seat = min(game.to_act(py))
        game.apply_legal(py, seat, playout_choice(py, seat, game.legal_actions(py, seat), chooser))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_native_playouts_play_the_python_match(case: Case) -> None:
    """From states reached by random moves, ``RANDOM``, ``GREEDY`` (``bot.playout_choice``
    every move) and ``SEARCH`` (the game's playout, ``Kind.GAME``: epsilon-greedy, deal after
    deal) give the same match as the Python loops with the same generator."""
    goita, players, options = case.game == "goita", case.players, case.options
    game = game_of(goita)
    for seed in range(max(6, case.matches // 10)):
        for policy in (K.RANDOM, K.GREEDY, K.SEARCH):
            py = game.setup(options, players, seed)
            nat = kami_native.setup(options, players, seed, goita)
            chooser = Rng(seed)
            for _ in range(seed % 30):
                if game.is_over(py):
                    break
                seat = min(game.to_act(py))
                legal = game.legal_indices(py, seat)
                index = legal[chooser.below(len(legal))]
                game.apply_legal(py, seat, game.action_from_index(index))
                nat.apply(seat, index)
            if policy == K.RANDOM:
                rng = Rng(seed + 5)
                while not game.is_over(py):
                    seat = min(game.to_act(py))
                    legal = game.legal_indices(py, seat)
                    game.apply_legal(py, seat, game.action_from_index(legal[rng.below(len(legal))]))
            elif policy == K.GREEDY:
                python_greedy_playout(game, py, seed + 5)
            else:
                game_playout(game, py, Rng(seed + 5))
            nat.playout(policy, seed + 5)
            assert_same(py, nat)
            assert_same_outcome(game, py, nat)


def test_the_constants_are_the_engines() -> None:
    assert K.NUM_ACTIONS == game_of(False).spec.num_actions == game_of(True).spec.num_actions
    assert kami_native.config(None, 4, True).values == [10, 20, 20, 30, 30, 40, 40, 50]
    assert kami_native.config(None, 4, True).after == [3, 0, 1, 2]
    assert kami_native.config(None, 3).after == [1, 2, 0]


def test_illegal_input_is_refused_and_changes_nothing() -> None:
    nat = kami_native.setup(None, 2, 3)
    before = nat.snapshot()
    seat = nat.to_act()
    with pytest.raises(ValueError, match="not legal"):
        nat.apply(seat, 0)  # the attacker may not pass
    with pytest.raises(ValueError, match="turn"):
        nat.apply(1 - seat, nat.legal_indices(seat)[0])
    assert nat.snapshot() == before
    with pytest.raises(ValueError, match="snapshot"):
        K.State.restore(b"short")
    # in State's layout (kami.hpp): the round, a side's score, the seat count, a hand, the phase
    for at, value in ((12, 0), (23, 0x7F), (68, 9), (87, 0xFF), (100, 9)):
        broken = bytearray(before)
        broken[at] = value
        with pytest.raises(ValueError, match="out of range"):
            K.State.restore(bytes(broken))
    with pytest.raises(ValueError, match="2-4"):
        K.Config(False, 5)
    with pytest.raises(ValueError, match="4 players"):
        K.Config(True, 2)
    with pytest.raises(ValueError, match="policy"):
        nat.playout(7, 0)
    with pytest.raises(ValueError, match="over"):
        done = nat.clone()
        done.playout(K.RANDOM, 1)
        done.apply(0, 0)


@settings(max_examples=examples(200))
@given(st.lists(st.tuples(st.integers(min_value=0), st.integers(0, 255)), min_size=1, max_size=6),
       st.sampled_from([0, 1, 2]), st.sampled_from([2, 3, 4]))
def test_restore_refuses_or_plays_any_bytes(changes: list[tuple[int, int]], policy: int,
                                            players: int) -> None:
    """Bytes changed anywhere past the generator: ``restore`` refuses them or gives a state
    that plays to the end (or says it cannot), never a crash."""
    nat = kami_native.setup(None, players, 5)
    for _ in range(12):
        seat = nat.to_act()
        nat.apply(seat, nat.legal_indices(seat)[-1])
    data = bytearray(nat.snapshot())
    for at, value in changes:
        data[8 + at % (len(data) - 8)] = value
    try:
        state = K.State.restore(bytes(data))
    except ValueError:
        return
    out = np.zeros(state.config.observation_size, dtype=np.float32)
    for seat in range(state.config.players):
        state.legal_indices(seat)
        state.observe(seat, out)
    try:
        state.playout(policy, 1)
    except ValueError:
        return
    assert state.is_over()


def test_snapshot_restore_and_clone_are_independent_copies() -> None:
    nat = kami_native.setup(None, 4, 11, True)
    for _ in range(10):
        seat = nat.to_act()
        nat.apply(seat, nat.legal_indices(seat)[-1])
    copy = K.State.restore(nat.snapshot())
    twin = nat.clone()
    ply = nat.ply
    nat.playout(K.SEARCH, 5)
    copy.playout(K.SEARCH, 5)
    assert copy.outcome() == nat.outcome() and copy.snapshot() == nat.snapshot()
    assert twin.ply == ply and not twin.is_over()


@pytest.mark.parametrize(("goita", "players"), [(False, 2), (False, 3), (False, 4), (True, 4)])
def test_the_batch_steps_matches_as_the_python_engine_does(goita: bool, players: int) -> None:
    """Masks, seats, steps, dones and scores of a batch equal the Python matches driven by the
    batch's own choices; the rewards are ``rewards.final_rewards`` of their outcomes."""
    game = game_of(goita)
    cfg = kami_native.config(None, players, goita)
    n = 12
    batch = K.Batch(cfg, n, seed=7)
    seeds = np.arange(100, 100 + n, dtype=np.uint64)
    batch.reset(seeds)
    matches = [game.setup(None, players, int(s)) for s in seeds]
    masks = np.zeros((n, K.NUM_ACTIONS), dtype=np.uint8)
    rewards = np.zeros((n, players), dtype=np.float32)
    dones = np.zeros(n, dtype=np.uint8)
    actions = np.zeros(n, dtype=np.int64)
    seats = np.zeros(n, dtype=np.int32)
    batch.masks(masks)
    totals = np.zeros((n, players), dtype=np.float32)
    encoder = Encoder(game, game.validate(None, players), players)
    observations = np.zeros((n, cfg.observation_size), dtype=np.float32)
    while not dones.all():
        batch.to_act(seats)
        batch.observe(np.maximum(seats, 0), observations)
        for i, py in enumerate(matches):
            to_act = game.to_act(py)
            assert seats[i] == (min(to_act) if to_act else -1)
            assert observations[i].tobytes() == encoder.encode(py, max(int(seats[i]), 0)).tobytes()
            if to_act:
                assert list(np.flatnonzero(masks[i])) == sorted(
                    game.legal_indices(py, min(to_act)))
        batch.sample(K.SEARCH if players == 3 else K.RANDOM, actions)
        for i, py in enumerate(matches):
            if not game.is_over(py):
                game.apply_legal(py, min(game.to_act(py)), game.action_from_index(int(actions[i])))
        batch.step(actions, masks, rewards, dones)
        totals += rewards
        assert list(dones) == [game.is_over(py) for py in matches]
    scores = np.zeros((n, players), dtype=np.int32)
    batch.scores(scores)
    for i, py in enumerate(matches):
        assert_same(py, batch.state(i))
        outcome = game.outcome(py)
        assert outcome is not None
        assert tuple(scores[i]) == outcome.scores
        assert list(totals[i]) == pytest.approx(final_rewards(outcome))


def test_the_batch_refuses_an_illegal_action_before_stepping_any() -> None:
    cfg = kami_native.config(None, 2)
    batch = K.Batch(cfg, 3)
    batch.reset(np.array([1, 2, 3], dtype=np.uint64))
    actions = np.zeros(3, dtype=np.int64)
    batch.sample(K.RANDOM, actions)
    actions[1] = 0  # a pass by the leader
    before = [batch.state(i).snapshot() for i in range(3)]
    masks = np.zeros((3, K.NUM_ACTIONS), dtype=np.uint8)
    with pytest.raises(ValueError, match="match 1"):
        batch.step(actions, masks, np.zeros((3, 2), dtype=np.float32), np.zeros(3, dtype=np.uint8))
    assert [batch.state(i).snapshot() for i in range(3)] == before
    with pytest.raises((ValueError, TypeError)):
        batch.step(actions, masks, np.zeros((3, 4), dtype=np.float32), np.zeros(3, dtype=np.uint8))
