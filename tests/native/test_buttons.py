"""The native Buttons against the Python engine, the reference: seeded matches at 2, 3 and 4
players with every option (both winner rules, fixed and random boards, both layout sets), both
cores driven by the same index choices (random, the game's greedy choice ``plan.choose_state``,
the easy bot's, a mix, and Hypothesis's), compared at every step (every seat to act, the legal
indices in order of every seat, the whole state, the generator, the scores now) and at the end
(the outcome's scores, ranks, tie-breaks and score parts); observations byte for byte, the
playouts draw for draw, snapshots and the batch."""

from __future__ import annotations

import numpy as np
import pytest
from drawn import Drawn
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from native_core import require_native

from ludoteca.bots.search import game_playout
from ludoteca.engine.playout import GREEDY, RANDOM, Until
from ludoteca.engine.rng import Rng
from ludoteca.games.buttons import native as buttons_native
from ludoteca.games.buttons.grid import board_masks
from ludoteca.games.buttons.layouts import get
from ludoteca.games.buttons.observation import Encoder
from ludoteca.games.buttons.rules import GAME
from ludoteca.rl.rewards import final_rewards
from tools.differential.buttons import CASES, assert_same, assert_same_outcome, play
from tools.differential.core import Case

core = require_native("buttons")
B = core.buttons

IDS = [c.label for c in CASES]


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
    """Hypothesis picks the seed, which seat answers first and every index (its shrinking heads
    for the first legal ones: rolls, the lowest cells), both cores compared at every step."""
    play(case, seed, "random", draws=Drawn(data), drawn_seats=True, max_ply=600)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_observations_are_the_encoders_byte_for_byte(case: Case) -> None:
    """Every seat's RL observation at every step equals observation.py's, as float32 bytes."""
    for seed in range(max(3, case.matches // 40)):
        play(case, seed, "mixed", draws=Rng(seed), observe=True)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_native_playouts_play_the_python_match(case: Case) -> None:
    """From states reached by random moves, ``RANDOM``, ``GREEDY`` (``Game._greedy``) and
    ``SEARCH`` (the game's playout, ``Kind.GAME``: epsilon-greedy, one move in 32 random) give
    the same match as ``GAME.playout`` with the same generator, to the end or of the round."""
    policies = ((B.RANDOM, RANDOM), (B.GREEDY, GREEDY), (B.SEARCH, None))
    players, options = case.players, case.options
    for seed in range(max(4, case.matches // 15)):
        for native_policy, policy in policies:
            for until in (Until.END, Until.ROUND):
                py = GAME.setup(options, players, seed)
                nat = buttons_native.setup(options, players, seed)
                chooser = Rng(seed)
                for _ in range(seed * 7 % 60):
                    if GAME.is_over(py):
                        break
                    seat = min(GAME.to_act(py))
                    legal = GAME.legal_indices(py, seat)
                    index = legal[chooser.below(len(legal))]
                    GAME.apply_legal(py, seat, GAME.action_from_index(index))
                    nat.apply(seat, index)
                rng = Rng(seed + 5)
                if policy is None and until == Until.END:
                    game_playout(GAME, py, rng)
                else:
                    GAME.playout(py, policy or GAME.playout_policy, rng, until)
                assert nat.playout_from(native_policy, seed + 5, int(until)) == rng.state
                assert_same(py, nat)
                if GAME.is_over(py):
                    assert_same_outcome(py, nat)


def test_the_constants_and_tables_are_the_engines() -> None:
    assert GAME.spec.num_actions == B.NUM_ACTIONS
    cfg = buttons_native.config({"layouts": "alternate"}, 3)
    assert (cfg.players, cfg.bga_winner, cfg.fixed_boards, cfg.aside) == (3, True, False, 1)
    assert buttons_native.config(None, 2).aside == 2
    nat = buttons_native.setup({"boards": "fixed"}, 4, 0)
    assert nat.boards == [board_masks(lay) for lay in get()[:4]]


def test_illegal_input_is_refused_and_changes_nothing() -> None:
    nat = buttons_native.setup(None, 2, 3)
    before = nat.snapshot()
    seat = nat.to_act()
    with pytest.raises(ValueError, match="not legal"):
        nat.apply(seat, 1)  # no marker yet: no stopping
    with pytest.raises(ValueError, match="turn"):
        nat.apply(1 - seat, 0)
    assert nat.snapshot() == before
    with pytest.raises(ValueError, match="snapshot"):
        B.State.restore(b"short")
    with pytest.raises(ValueError, match="2-4"):
        B.Config(5, True, False, [board_masks(lay) for lay in get()])
    with pytest.raises(ValueError, match="8 layouts"):
        B.Config(2, True, False, [board_masks(lay) for lay in get()[:7]])
    with pytest.raises(ValueError, match="split"):
        B.Config(2, True, False, [(1, 2, 4, 8)] * 8)
    with pytest.raises(ValueError, match="policy"):
        nat.playout(7, 0)
    with pytest.raises(ValueError, match="over"):
        done = nat.clone()
        done.playout(B.RANDOM, 1)
        done.apply(0, 0)


@settings(max_examples=examples(200))
@given(st.lists(st.tuples(st.integers(min_value=0), st.integers(0, 255)), min_size=1, max_size=6),
       st.sampled_from([0, 1, 2]), st.sampled_from([2, 3, 4]))
def test_restore_refuses_or_plays_any_bytes(changes: list[tuple[int, int]], policy: int,
                                            players: int) -> None:
    """Bytes changed anywhere past the generator: ``restore`` refuses them or gives a state
    that plays to the end (or says it cannot), never a crash."""
    nat = buttons_native.setup(None, players, 5)
    for _ in range(12):
        seat = nat.to_act()
        nat.apply(seat, nat.legal_indices(seat)[-1])
    data = bytearray(nat.snapshot())
    for at, value in changes:
        data[8 + at % (len(data) - 8)] = value
    try:
        state = B.State.restore(bytes(data))
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
    nat = buttons_native.setup(None, 4, 11)
    for _ in range(10):
        seat = nat.to_act()
        nat.apply(seat, nat.legal_indices(seat)[-1])
    copy = B.State.restore(nat.snapshot())
    twin = nat.clone()
    ply = nat.ply
    nat.playout(B.SEARCH, 5)
    copy.playout(B.SEARCH, 5)
    assert copy.outcome() == nat.outcome() and copy.snapshot() == nat.snapshot()
    assert twin.ply == ply and not twin.is_over()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_batch_steps_matches_as_the_python_engine_does(players: int) -> None:
    """Masks, seats, observations, steps, dones and scores of a batch equal the Python matches
    driven by the batch's own choices (the lowest seat to act answers first); the rewards are
    ``rewards.final_rewards`` of their outcomes."""
    cfg = buttons_native.config(None, players)
    n = 10
    batch = B.Batch(cfg, n, seed=7)
    seeds = np.arange(100, 100 + n, dtype=np.uint64)
    batch.reset(seeds)
    matches = [GAME.setup(None, players, int(s)) for s in seeds]
    masks = np.zeros((n, B.NUM_ACTIONS), dtype=np.uint8)
    rewards = np.zeros((n, players), dtype=np.float32)
    dones = np.zeros(n, dtype=np.uint8)
    actions = np.zeros(n, dtype=np.int64)
    seats = np.zeros(n, dtype=np.int32)
    batch.masks(masks)
    totals = np.zeros((n, players), dtype=np.float32)
    encoder = Encoder(GAME, GAME.validate(None, players), players)
    observations = np.zeros((n, cfg.observation_size), dtype=np.float32)
    while not dones.all():
        batch.to_act(seats)
        batch.observe(np.maximum(seats, 0), observations)
        for i, py in enumerate(matches):
            to_act = GAME.to_act(py)
            assert seats[i] == (min(to_act) if to_act else -1)
            assert observations[i].tobytes() == encoder.encode(py, max(int(seats[i]), 0)).tobytes()
            if to_act:
                assert list(np.flatnonzero(masks[i])) == sorted(
                    GAME.legal_indices(py, min(to_act)))
        batch.sample(B.SEARCH if players == 3 else B.RANDOM, actions)
        for i, py in enumerate(matches):
            if not GAME.is_over(py):
                GAME.apply_legal(py, min(GAME.to_act(py)), GAME.action_from_index(int(actions[i])))
        batch.step(actions, masks, rewards, dones)
        totals += rewards
        assert list(dones) == [GAME.is_over(py) for py in matches]
    scores = np.zeros((n, players), dtype=np.int32)
    batch.scores(scores)
    for i, py in enumerate(matches):
        assert_same(py, batch.state(i))
        outcome = GAME.outcome(py)
        assert outcome is not None
        assert tuple(scores[i]) == outcome.scores
        assert list(totals[i]) == pytest.approx(final_rewards(outcome))


def test_the_batch_refuses_an_illegal_action_before_stepping_any() -> None:
    cfg = buttons_native.config(None, 2)
    batch = B.Batch(cfg, 3)
    batch.reset(np.array([1, 2, 3], dtype=np.uint64))
    actions = np.zeros(3, dtype=np.int64)
    batch.sample(B.RANDOM, actions)
    actions[1] = 1  # a stop with no marker
    before = [batch.state(i).snapshot() for i in range(3)]
    masks = np.zeros((3, B.NUM_ACTIONS), dtype=np.uint8)
    with pytest.raises(ValueError, match="match 1"):
        batch.step(actions, masks, np.zeros((3, 2), dtype=np.float32), np.zeros(3, dtype=np.uint8))
    assert [batch.state(i).snapshot() for i in range(3)] == before
    with pytest.raises((ValueError, TypeError)):
        batch.step(actions, masks, np.zeros((3, 4), dtype=np.float32), np.zeros(3, dtype=np.uint8))
