"""The native Kingdomino against the Python engine, the reference: seeded matches of every
player count and variant, both cores driven by the same index choices (random, greedy and a mix),
compared at every step (seat to act, legal indices in order, the whole state, the scores now,
that the snapshot restores) and at the end (the outcome's scores, ranks and tie-breaks), by
tools/differential/kingdomino.py's ``play``, the comparison ``python -m tools.differential``
runs at scale."""

from __future__ import annotations

import numpy as np
import pytest
from drawn import Drawn
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from native_core import require_native

from ludoteca.bots.search import game_playout
from ludoteca.engine.rng import Rng
from ludoteca.games.kingdomino import native as kd_native
from ludoteca.games.kingdomino.components import DOMINOES
from ludoteca.games.kingdomino.grid import TERR
from ludoteca.games.kingdomino.rules import GAME
from ludoteca.games.kingdomino.state import KingdominoState
from tools.differential.core import Case
from tools.differential.kingdomino import (
    CASES,
    assert_same,
    assert_same_outcome,
    greedy_index,
    play,
    python_kingdom,
)

core = require_native()
K = core.kingdomino

IDS = [c.label for c in CASES]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_random_matches_agree_at_every_step(case: Case) -> None:
    for seed in range(case.matches):
        play(case, seed, "random")


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_greedy_and_mixed_matches_agree(case: Case) -> None:
    for seed in range(max(2, case.matches // 15)):
        play(case, 10_000 + seed, "greedy")
        play(case, 20_000 + seed, "mixed")


@settings(max_examples=examples(60))
@given(st.sampled_from(CASES), st.integers(min_value=0, max_value=(1 << 64) - 1), st.data())
def test_odd_matches_agree(case: Case, seed: int, data: st.DataObject) -> None:
    """Hypothesis picks the seed and every index (its shrinking heads for the first legal ones:
    kingdoms crammed into a corner, forced discards), both cores compared at every step."""
    play(case, seed, "random", draws=Drawn(data))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_observations_are_the_encoders_byte_for_byte(case: Case) -> None:
    """Every seat's RL observation at every step equals observation.py's, as float32 bytes."""
    for seed in range(10):
        play(case, seed, "mixed", observe=True)


def python_playout(py: KingdominoState, policy: str, seed: int) -> None:
    """The native ``playout`` loop in Python: one generator chooses for every seat."""
    chooser = Rng(seed)
    while not GAME.is_over(py):
        seat = py.seat_acting()
        legal = GAME.legal_indices(py, seat)
        if policy == "greedy":
            index = greedy_index(py, seat, legal, chooser)
        else:
            index = legal[chooser.below(len(legal))]
        GAME.apply_legal(py, seat, GAME.action_from_index(index))


@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_native_playouts_play_the_python_match(players: int, policy: str) -> None:
    for seed in range(12):
        py = GAME.setup(None, players, seed)
        nat = kd_native.setup(None, players, seed)
        for _ in range(7):  # start the playouts mid-draft
            seat = py.seat_acting()
            index = GAME.legal_indices(py, seat)[0]
            GAME.apply_legal(py, seat, GAME.action_from_index(index))
            nat.apply(seat, index)
        python_playout(py, policy, seed + 99)
        nat.playout(K.GREEDY if policy == "greedy" else K.RANDOM, seed + 99)
        assert_same_outcome(py, nat)
        assert nat.rng_state == py.rng.state and nat.ply == py.ply


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_the_search_playout_plays_the_python_one(case: Case) -> None:
    """``SEARCH`` is the game's own epsilon-greedy playout (``game.playout(state, GAME, rng)``,
    through the search profile's ``game_playout``): from states reached by random moves, the
    same generator gives the same match (its plans kept across moves, its random moves, its
    forced discards)."""
    players, options = case.players, case.options
    for seed in range(max(8, case.matches // 6)):
        py = GAME.setup(options, players, seed)
        nat = kd_native.setup(options, players, seed)
        chooser = Rng(seed)
        for _ in range(seed % 40):
            seat = py.seat_acting()
            legal = GAME.legal_indices(py, seat)
            index = legal[chooser.below(len(legal))]
            GAME.apply_legal(py, seat, GAME.action_from_index(index))
            nat.apply(seat, index)
        game_playout(GAME, py, Rng(seed + 5))
        nat.playout(K.SEARCH, seed + 5)
        assert_same(py, nat)
        assert_same_outcome(py, nat)


def test_the_dominoes_are_the_csv() -> None:
    assert K.dominoes() == [
        (d.terrains[0], d.crowns[0], d.terrains[1], d.crowns[1])
        for _, d in sorted(DOMINOES.items())
    ]
    assert GAME.spec.num_actions == K.NUM_ACTIONS
    assert len(python_kingdom(kd_native.setup(None, 2, 0), 0)) == TERR + 6


def test_illegal_input_is_refused_and_changes_nothing() -> None:
    nat = kd_native.setup(None, 4, 3)
    before = nat.snapshot()
    seat = nat.to_act()
    with pytest.raises(ValueError, match="not legal"):
        nat.apply(seat, 0)
    with pytest.raises(ValueError, match="turn"):
        nat.apply((seat + 1) % 4, nat.legal_indices(seat)[0])
    assert nat.legal_indices((seat + 1) % 4) == []
    assert nat.snapshot() == before
    with pytest.raises(ValueError, match="snapshot"):
        K.State.restore(b"short")
    # in State's layout (kingdomino.hpp): the seat count, the frame, the round, a line's length,
    # seat 0's kingdom's top row
    for at in (12, 13, 24, 30, 472):
        broken = bytearray(before)
        broken[at] = 0x7F
        with pytest.raises(ValueError, match="out of range"):
            K.State.restore(bytes(broken))
    with pytest.raises(ValueError, match="2-4"):
        K.Config(5)
    with pytest.raises(ValueError, match="policy"):
        nat.playout(7, 0)
    batch = K.Batch(kd_native.config(None, 4), 2)
    with pytest.raises(ValueError, match="policy"):
        batch.sample(K.SEARCH, np.zeros(2, dtype=np.int64))


@settings(max_examples=examples(200))
@given(st.lists(st.tuples(st.integers(min_value=0), st.integers(0, 255)), min_size=1, max_size=6),
       st.sampled_from([0, 1, 2]))
def test_restore_refuses_or_plays_any_bytes(changes: list[tuple[int, int]], policy: int) -> None:
    """Bytes changed anywhere past the generator: ``restore`` refuses them or gives a state
    that plays to the end (or says it cannot), never a crash."""
    nat = kd_native.setup({"dynasty": True}, 3, 5)
    for _ in range(40):
        seat = nat.to_act()
        nat.apply(seat, nat.legal_indices(seat)[0])
    data = bytearray(nat.snapshot())
    for at, value in changes:
        data[8 + at % (len(data) - 8)] = value
    try:
        state = K.State.restore(bytes(data))
    except ValueError:
        return
    out = np.zeros(state.config.observation_size, dtype=np.float32)
    for seat in range(state.config.players):
        state.observe(seat, out)
        state.legal_indices(seat)
    try:
        state.playout(policy, 1)
    except ValueError:
        return
    assert state.is_over()


def test_snapshot_restore_and_clone_are_independent_copies() -> None:
    nat = kd_native.setup({"dynasty": True}, 3, 11)
    for _ in range(30):
        seat = nat.to_act()
        nat.apply(seat, nat.legal_indices(seat)[-1])
    copy = K.State.restore(nat.snapshot())
    twin = nat.clone()
    nat.playout(K.RANDOM, 5)
    copy.playout(K.RANDOM, 5)
    assert copy.outcome() == nat.outcome()
    assert twin.ply == 30 and not twin.is_over()


def test_the_batch_steps_matches_as_single_states_do() -> None:
    cfg = kd_native.config(None, 4)
    n = 16
    batch = K.Batch(cfg, n, seed=7)
    seeds = np.arange(100, 100 + n, dtype=np.uint64)
    batch.reset(seeds)
    singles = [K.State(cfg, int(s)) for s in seeds]
    masks = np.zeros((n, K.NUM_ACTIONS), dtype=np.uint8)
    rewards = np.zeros((n, 4), dtype=np.float32)
    dones = np.zeros(n, dtype=np.uint8)
    actions = np.zeros(n, dtype=np.int64)
    seats = np.zeros(n, dtype=np.int32)
    batch.masks(masks)
    totals = np.zeros((n, 4), dtype=np.float32)
    observations = np.zeros((n, cfg.observation_size), dtype=np.float32)
    one = np.zeros(cfg.observation_size, dtype=np.float32)
    while not dones.all():
        batch.to_act(seats)
        batch.observe(np.maximum(seats, 0), observations)
        for i, single in enumerate(singles):
            assert seats[i] == single.to_act()
            legal = single.legal_indices(single.to_act())
            assert list(np.flatnonzero(masks[i])) == sorted(legal)
            single.observe(max(int(seats[i]), 0), one)
            assert observations[i].tobytes() == one.tobytes()
        batch.sample(K.RANDOM, actions)
        for i, single in enumerate(singles):
            if not single.is_over():
                single.apply(single.to_act(), int(actions[i]))
        batch.step(actions, masks, rewards, dones)
        totals += rewards
        assert list(dones) == [s.is_over() for s in singles]
    scores = np.zeros((n, 4), dtype=np.int32)
    batch.scores(scores)
    for i, single in enumerate(singles):
        outcome = single.outcome()
        assert tuple(scores[i]) == outcome[0]
        ranks = outcome[1]
        expected = [sum(r > mine for r in ranks) - sum(r < mine for r in ranks) for mine in ranks]
        assert totals[i] == pytest.approx([e / 3 for e in expected])  # rewards.final_rewards
        assert batch.state(i).snapshot() == single.snapshot()


def test_the_batch_refuses_an_illegal_action_before_stepping_any() -> None:
    cfg = kd_native.config(None, 2)
    batch = K.Batch(cfg, 3)
    batch.reset(np.array([1, 2, 3], dtype=np.uint64))
    actions = np.zeros(3, dtype=np.int64)
    batch.sample(K.RANDOM, actions)
    actions[1] = 0  # a placement during the first draft
    before = [batch.state(i).snapshot() for i in range(3)]
    masks = np.zeros((3, K.NUM_ACTIONS), dtype=np.uint8)
    with pytest.raises(ValueError, match="match 1"):
        batch.step(actions, masks, np.zeros((3, 2), dtype=np.float32), np.zeros(3, dtype=np.uint8))
    assert [batch.state(i).snapshot() for i in range(3)] == before
    with pytest.raises((ValueError, TypeError)):
        batch.step(actions, masks, np.zeros((3, 4), dtype=np.float32), np.zeros(3, dtype=np.uint8))
