"""The native Queendomino against the Python engine, the reference: seeded matches of every
player count (2-8), Royal Wedding, team play, both tax-bonus rules and both building tables, both
cores driven by the same index choices, compared at every step (seat to act, legal indices in
order, the whole state: draft, builders' board, pile, Dragon, Queen, every side's kingdom,
treasury, knights, towers and buildings, the scores now, that the snapshot restores) and at the
end (scores, ranks and the largest-territory tie-break), by tools/differential/queendomino.py's
``play``, the comparison ``python -m tools.differential`` runs at scale."""

from __future__ import annotations

import numpy as np
import pytest
from drawn import Drawn
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from native_core import require_native

from ludoteca.engine.rng import Rng
from ludoteca.games.queendomino import native as qd_native
from ludoteca.games.queendomino.components import DOMINOES, MAX_ID
from ludoteca.games.queendomino.rules import GAME
from ludoteca.games.queendomino.state import QueendominoState
from tools.differential.core import Case
from tools.differential.queendomino import (
    CASES,
    assert_same,
    assert_same_outcome,
    play,
    python_kingdom,
)

core = require_native()
Q = core.queendomino

IDS = [c.label for c in CASES]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_random_matches_agree_at_every_step(case: Case) -> None:
    for seed in range(case.matches):
        play(case, seed, "random")


@settings(max_examples=examples(40))
@given(st.sampled_from(CASES), st.integers(min_value=0, max_value=(1 << 64) - 1), st.data())
def test_odd_matches_agree(case: Case, seed: int, data: st.DataObject) -> None:
    """Hypothesis picks the seed and every index (its shrinking heads for the first legal ones:
    knights and builds before claims, kingdoms crammed into a corner, forced discards)."""
    play(case, seed, "random", draws=Drawn(data))


def queen_or_no_towers(py: QueendominoState) -> None:
    assert py.queen >= 0 or not any(py.towers)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_spending_matches_agree(case: Case) -> None:
    """Every seat takes a knight, build or Dragon three times in four when it has one: random
    play rarely builds twice, and the Queen, tower ties and tax bonuses need buildings."""
    for seed in range(max(3, case.matches // 4)):
        play(case, 50_000 + seed, "spend", draws=Rng(seed), at_end=queen_or_no_towers)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_greedy_and_mixed_matches_agree(case: Case) -> None:
    """The greedy bot's choices (from the seat's view), and a mix of random, greedy and
    spending moves."""
    for seed in range(max(1, case.matches // 20)):
        play(case, 10_000 + seed, "greedy")
        play(case, 20_000 + seed, "mixed")


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_observations_are_the_encoders_byte_for_byte(case: Case) -> None:
    """Every seat's RL observation at every step equals observation.py's, as float32 bytes
    (matches that spend, so buildings, the Queen, the Dragon and taxed squares show)."""
    for seed in range(2):
        play(case, seed, "spend", draws=Rng(seed), observe=True)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_native_playouts_play_the_python_match(players: int) -> None:
    """The native random playout is the Python loop drawing from one generator for every seat."""
    for seed in range(6):
        py = GAME.setup(None, players, seed)
        nat = qd_native.setup(None, players, seed)
        for _ in range(9):  # start mid-draft or in the first turn
            seat = py.seat_acting()
            index = GAME.legal_indices(py, seat)[0]
            GAME.apply_legal(py, seat, GAME.action_from_index(index))
            nat.apply(seat, index)
        chooser = Rng(seed + 99)
        while not GAME.is_over(py):
            seat = py.seat_acting()
            legal = GAME.legal_indices(py, seat)
            GAME.apply_legal(py, seat, GAME.action_from_index(legal[chooser.below(len(legal))]))
        nat.playout(Q.RANDOM, seed + 99)
        assert_same(py, nat)
        assert_same_outcome(py, nat)


def test_the_tables_are_the_python_ones() -> None:
    """The native core is handed the tables the engine reads (dominoes.csv of both boxes)."""
    assert [
        (d.terrains[0], d.crowns[0], d.terrains[1], d.crowns[1])
        for _, d in sorted(DOMINOES.items())
    ] == qd_native.DOMINOES
    assert len(qd_native.DOMINOES) == MAX_ID
    assert GAME.spec.num_actions == Q.NUM_ACTIONS
    cfg = qd_native.config({"teams": True}, 8)
    assert (cfg.players, cfg.sides, cfg.frame, cfg.line_size, cfg.side_of) == (
        8, 4, 7, 8, [0, 1, 2, 3, 0, 1, 2, 3])
    assert len(python_kingdom(qd_native.setup(None, 2, 0), 0)) == 8 + 7


def test_illegal_input_is_refused_and_changes_nothing() -> None:
    nat = qd_native.setup(None, 4, 3)
    before = nat.snapshot()
    seat = nat.to_act()
    with pytest.raises(ValueError, match="not legal"):
        nat.apply(seat, 0)
    with pytest.raises(ValueError, match="turn"):
        nat.apply((seat + 1) % 4, nat.legal_indices(seat)[0])
    assert nat.legal_indices((seat + 1) % 4) == []
    assert nat.snapshot() == before
    with pytest.raises(ValueError, match="snapshot"):
        Q.State.restore(b"short")
    with pytest.raises(ValueError, match="2-8"):
        Q.Config(9, False, False, False, qd_native.DOMINOES, [])
    with pytest.raises(ValueError, match="team"):
        Q.Config(4, True, True, False, qd_native.DOMINOES, [(0,) * 10] * 32)
    with pytest.raises(ValueError, match="dominoes"):
        Q.Config(4, False, False, False, qd_native.DOMINOES[:5], [(0,) * 10] * 32)
    with pytest.raises(ValueError, match="tiles"):
        Q.Config(4, False, False, False, qd_native.DOMINOES, [(0, 0, 0, 0, 4, 0, 0, -1, 0, 0)] * 32)
    with pytest.raises(ValueError, match="policy"):
        nat.playout(1, 0)


@settings(max_examples=examples(150))
@given(st.lists(st.tuples(st.integers(min_value=0), st.integers(0, 255)), min_size=1, max_size=6))
def test_restore_refuses_or_plays_any_bytes(changes: list[tuple[int, int]]) -> None:
    """Bytes changed anywhere past the generator: ``restore`` refuses them or gives a state
    that plays to the end (or says it cannot), never a crash."""
    nat = qd_native.setup({"royal_wedding": True}, 4, 5)
    for _ in range(60):
        seat = nat.to_act()
        nat.apply(seat, nat.legal_indices(seat)[-1])
    data = bytearray(nat.snapshot())
    for at, value in changes:
        data[8 + at % (len(data) - 8)] = value
    try:
        state = Q.State.restore(bytes(data))
    except ValueError:
        return
    out = np.zeros(state.config.observation_size, dtype=np.float32)
    for seat in range(state.config.players):
        state.observe(seat, out)
        state.legal_indices(seat)
    state.scores_now()
    try:
        state.playout(Q.RANDOM, 1)
    except ValueError:
        return
    assert state.is_over()


def test_snapshot_restore_and_clone_are_independent_copies() -> None:
    nat = qd_native.setup({"teams": True}, 6, 11)
    for _ in range(40):
        seat = nat.to_act()
        nat.apply(seat, nat.legal_indices(seat)[-1])
    copy = Q.State.restore(nat.snapshot())
    twin = nat.clone()
    nat.playout(Q.RANDOM, 5)
    copy.playout(Q.RANDOM, 5)
    assert copy.outcome() == nat.outcome()
    assert twin.ply == 40 and not twin.is_over()


@pytest.mark.parametrize(("players", "options"), [(4, {}), (6, {"teams": True})])
def test_the_batch_steps_matches_as_single_states_do(
    players: int, options: dict[str, object]
) -> None:
    cfg = qd_native.config(options, players)
    n = 8
    batch = Q.Batch(cfg, n, seed=7)
    seeds = np.arange(100, 100 + n, dtype=np.uint64)
    batch.reset(seeds)
    singles = [Q.State(cfg, int(s)) for s in seeds]
    masks = np.zeros((n, Q.NUM_ACTIONS), dtype=np.uint8)
    rewards = np.zeros((n, players), dtype=np.float32)
    dones = np.zeros(n, dtype=np.uint8)
    actions = np.zeros(n, dtype=np.int64)
    seats = np.zeros(n, dtype=np.int32)
    batch.masks(masks)
    totals = np.zeros((n, players), dtype=np.float32)
    observations = np.zeros((n, cfg.observation_size), dtype=np.float32)
    one = np.zeros(cfg.observation_size, dtype=np.float32)
    while not dones.all():
        batch.to_act(seats)
        batch.observe(np.maximum(seats, 0), observations)
        for i, single in enumerate(singles):
            assert seats[i] == single.to_act()
            single.observe(max(int(seats[i]), 0), one)
            assert observations[i].tobytes() == one.tobytes()
            assert list(np.flatnonzero(masks[i])) == sorted(single.legal_indices(single.to_act()))
        batch.sample(Q.RANDOM, actions)
        for i, single in enumerate(singles):
            if not single.is_over():
                single.apply(single.to_act(), int(actions[i]))
        batch.step(actions, masks, rewards, dones)
        totals += rewards
        assert list(dones) == [s.is_over() for s in singles]
    scores = np.zeros((n, players), dtype=np.int32)
    batch.scores(scores)
    side_of = cfg.side_of
    for i, single in enumerate(singles):
        outcome = single.outcome()
        assert tuple(scores[i]) == outcome[0]
        side_rank = {side_of[p]: r for p, r in enumerate(outcome[1])}
        sides = len(side_rank)
        expected = [
            (sum(r > side_rank[s] for r in side_rank.values())
             - sum(r < side_rank[s] for r in side_rank.values())) / (sides - 1)
            for s in side_of
        ]
        assert totals[i] == pytest.approx(expected)  # rewards.final_rewards
        assert batch.state(i).snapshot() == single.snapshot()


def test_the_batch_refuses_an_illegal_action_before_stepping_any() -> None:
    cfg = qd_native.config(None, 2)
    batch = Q.Batch(cfg, 3)
    batch.reset(np.array([1, 2, 3], dtype=np.uint64))
    actions = np.zeros(3, dtype=np.int64)
    batch.sample(Q.RANDOM, actions)
    actions[1] = 0  # a placement during the first draft
    before = [batch.state(i).snapshot() for i in range(3)]
    masks = np.zeros((3, Q.NUM_ACTIONS), dtype=np.uint8)
    with pytest.raises(ValueError, match="match 1"):
        batch.step(actions, masks, np.zeros((3, 2), dtype=np.float32), np.zeros(3, dtype=np.uint8))
    assert [batch.state(i).snapshot() for i in range(3)] == before
    with pytest.raises((ValueError, TypeError)):
        batch.step(actions, masks, np.zeros((3, 4), dtype=np.float32), np.zeros(3, dtype=np.uint8))
