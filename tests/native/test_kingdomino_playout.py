"""Kingdomino's ``game.playout`` on the native core (native_playout.py) against the Python one:
seeded states mid-match of every player count and option, played to the end with the random
and the game's policy on both cores, must end in the same state (the placement history too),
the same outcome and the same generator state; an analysis is byte-identical and a search bot
chooses the same on both cores; ``State.load`` refuses impossible states with a ValueError."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from native_core import require_native
from playout_diff import normal, one_by_one

from ludoteca.bots.search import SearchBot
from ludoteca.engine.match import Match
from ludoteca.engine.playout import GAME, GREEDY, RANDOM, Policy, Until
from ludoteca.engine.rng import Rng
from ludoteca.games import entry, get_game
from ludoteca.games.kingdomino import native_playout
from ludoteca.games.kingdomino.grid import CASTLE_BIT, MAXR, OCC, TERR
from ludoteca.games.kingdomino.rules import GAME as KINGDOMINO
from ludoteca.games.kingdomino.state import KingdominoState

core = require_native()

# (players, options, states): the defaults at 2, 3 and 4 players, then every option.
CASES: list[tuple[int, dict[str, object], int]] = [
    (2, {}, 300),
    (3, {}, 250),
    (4, {}, 250),
    (2, {"mighty_duel": True}, 120),
    (2, {"first_draft": "abba"}, 150),
    (3, {"three_player_draft": "bga"}, 150),
    (4, {"harmony": True, "middle_kingdom": True}, 150),
    (2, {"harmony": True, "middle_kingdom": True, "mighty_duel": True}, 80),
    (3, {"tiebreak": "bga"}, 150),
    (4, {"dynasty": True}, 20),
]
IDS = [f"{p}p-" + ("-".join(f"{k}={v}" for k, v in o.items()) or "default") for p, o, _ in CASES]


def midway(players: int, options: dict[str, object], seed: int) -> KingdominoState:
    """A match dealt from ``seed`` and played on by random moves for 0 to ~70 plies."""
    state = KINGDOMINO.setup(options, players, seed)
    moves = Rng(seed ^ 0x5EED)
    for _ in range(moves.below(72)):
        seats = KINGDOMINO.to_act(state)
        if not seats:
            break
        seat = min(seats)
        actions = KINGDOMINO.legal_actions(state, seat)
        KINGDOMINO.apply_legal(state, seat, actions[moves.below(len(actions))])
    return state


def played(state: KingdominoState, policy: Policy, seed: int, core_name: str,
           monkeypatch: pytest.MonkeyPatch) -> tuple[KingdominoState, Rng]:
    monkeypatch.setenv("LUDOTECA_CORE", core_name)
    state, rng = state.clone(), Rng(seed)
    KINGDOMINO.playout(state, policy, rng)
    return state, rng


@pytest.mark.parametrize(("players", "options", "count"), CASES, ids=IDS)
def test_native_playouts_end_as_the_python_ones(players: int, options: dict[str, object],
                                                count: int,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Same final state (the placement history too), outcome and generator state, per policy
    and seed; from the true state and, as the search and the analysis play, from a world
    determinized from the acting seat's view (its deck only the undrawn dominoes)."""
    played_out = 0
    for seed in range(count):
        true = midway(players, options, 1000 * players + seed)
        starts = [true]
        if seed % 2 and (seats := KINGDOMINO.to_act(true)):
            view = KINGDOMINO.view(true, min(seats))
            starts.append(KINGDOMINO.determinize(view, min(seats), Rng(seed)))
        for start, policy in [(s, p) for s in starts for p in (RANDOM, GAME)]:
            played_out += 1
            py, py_rng = played(start, policy, seed, "python", monkeypatch)
            nat, nat_rng = played(start, policy, seed, "native", monkeypatch)
            assert nat_rng.state == py_rng.state
            assert KINGDOMINO.outcome(nat) == KINGDOMINO.outcome(py)
            assert KINGDOMINO.outcome(nat) is not None
            assert nat == py
            assert nat.placed == py.placed  # DraftState's __eq__ compares the slots; say it
    assert played_out >= 2 * count


def test_the_native_core_takes_real_and_determinized_states() -> None:
    """``native_playout.playout`` plays (rather than handing back to Python) the states the
    search and the analysis give it, and leaves a refused state and its generator untouched."""
    state = midway(3, {}, 77)
    (seat,) = KINGDOMINO.to_act(state)
    world = KINGDOMINO.determinize(KINGDOMINO.view(state, seat), seat, Rng(1))
    for start in (state.clone(), world):
        assert native_playout.playout(start, native_playout.SEARCH, Rng(2))
        assert KINGDOMINO.outcome(start) is not None
    broken = state.clone()
    broken.kingdoms[0][TERR] |= CASTLE_BIT  # a forest under the castle
    before = broken.clone()
    rng = Rng(9)
    assert not native_playout.playout(broken, native_playout.RANDOM, rng)
    assert rng.state == Rng(9).state
    assert broken == before


def test_the_native_path_is_taken_only_where_it_plays_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Native: random and the game's policy to the end, one game, no trace, not over; Python
    otherwise, and always with ``LUDOTECA_CORE=python``."""
    state = midway(2, {}, 5)
    monkeypatch.setenv("LUDOTECA_CORE", "native")
    game_policy = KINGDOMINO.playout_policy
    assert native_playout.native_policy(RANDOM, Until.END, None, state) == native_playout.RANDOM
    assert native_playout.native_policy(game_policy, Until.END, None, state) == \
        native_playout.SEARCH
    assert native_playout.native_policy(GREEDY, Until.END, None, state) is None
    assert native_playout.native_policy(Policy.epsilon_greedy(3), Until.END, None, state) is None
    assert native_playout.native_policy(RANDOM, Until.ROUND, None, state) is None
    assert native_playout.native_policy(RANDOM, Until.END, [], state) is None
    assert native_playout.native_policy(RANDOM, Until.END, None, midway(4, {"dynasty": True},
                                                                        5)) is None
    monkeypatch.setenv("LUDOTECA_CORE", "python")
    assert native_playout.native_policy(RANDOM, Until.END, None, state) is None
    assert native_playout.native_policy(game_policy, Until.END, None, state) is None


def load_args(state: KingdominoState) -> dict[str, Any]:
    """``State.load``'s arguments for ``state``, as ``native_playout.load`` passes them."""
    kingdoms, boxes = [], []
    for k in state.kingdoms:
        masks = (k[OCC], *k[5:8], *k[TERR:])
        kingdoms.append(b"".join(m.to_bytes(24, "little") for m in masks))
        boxes.append(tuple(k[1:5]))
    return dict(config=native_playout.config_of(state.cfg), rng=state.rng.state, ply=state.ply,
                phase=state.phase, step=state.step, round=state.round, acting=state.acting,
                draft_pos=state.draft_pos, deck_pos=state.deck_pos, deck=state.deck,
                draft_order=state.draft_order, cur=state.cur, cur_owner=state.cur_owner,
                nxt=state.nxt, nxt_owner=state.nxt_owner, discarded=state.discarded,
                kingdoms=kingdoms, boxes=boxes)


def test_load_refuses_impossible_states() -> None:
    """Each broken field is a ValueError, never a crash or a state that plays."""
    state = midway(2, {}, 40)
    assert state.round > 0  # kingdoms with squares on them
    load = core.kingdomino.State.load
    load(**load_args(state))  # the sound state loads
    k = state.kingdoms[0]
    one_square = k[TERR] & -k[TERR] if k[TERR] else k[TERR + 1] & -k[TERR + 1]
    overlap = load_args(state)
    overlap["kingdoms"][0] = b"".join(
        (m | one_square).to_bytes(24, "little") for m in (k[OCC], *k[5:8], *k[TERR:]))
    off_board = load_args(state)
    off_board["kingdoms"][1] = (1 << 13).to_bytes(24, "little") + off_board["kingdoms"][1][24:]
    box = load_args(state)
    box["boxes"][0] = (k[MAXR], k[MAXR], k[MAXR], k[MAXR])
    broken: list[dict[str, Any]] = [
        {**load_args(state), "deck": [*state.deck[:-1], state.deck[0]]},
        {**load_args(state), "deck": state.deck[:-1]},
        {**load_args(state), "cur": [*state.cur, 0]},
        {**load_args(state), "nxt_owner": [5] * len(state.nxt)},
        {**load_args(state), "nxt_owner": state.nxt_owner[:-1]},
        {**load_args(state), "phase": 2},
        {**load_args(state), "phase": 300},
        {**load_args(state), "acting": 9},
        {**load_args(state), "discarded": [49]},
        {**load_args(state), "draft_order": [0, 1, 0, 1, 0]},
        {**load_args(state), "kingdoms": load_args(state)["kingdoms"][:1]},
        {**load_args(state), "kingdoms": [b"", b""]},
        {**load_args(state), "ply": -1},
        {**load_args(state), "config": native_playout.config_of(
            midway(2, {"dynasty": True}, 1).cfg)},
        overlap, off_board, box,
    ]
    for args in broken:
        with pytest.raises(ValueError):
            load(**args)


def test_an_analysis_is_byte_identical_on_both_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same record, budget and seed: the same JSON, on the Python and the native core."""
    from ludoteca.analysis.analyse import analyse

    match = Match.new(get_game("kingdomino"), {}, 2, 21, narrate=False)
    match.play_random(random.Random(21).random)
    record = match.record
    texts = []
    for core_name in ("python", "native"):
        monkeypatch.setenv("LUDOTECA_CORE", core_name)
        texts.append(json.dumps(analyse(record, budget=4, seed=3), sort_keys=True))
    assert texts[0] == texts[1]


def test_a_search_bot_chooses_the_same_on_both_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fixed number of IS-MCTS iterations with the game's playouts: the same choice from
    the same seed on either core, at every decision of a match's opening."""
    state = KINGDOMINO.setup({}, 2, 8)
    profile = entry("kingdomino").search_profile()
    moves = Rng(8)
    for _ in range(12):
        (seat,) = KINGDOMINO.to_act(state)
        view = KINGDOMINO.view(state, seat)
        chosen = []
        for core_name in ("python", "native"):
            monkeypatch.setenv("LUDOTECA_CORE", core_name)
            bot = SearchBot(seconds=None, iterations=40, seed=4, profile=profile)
            chosen.append(bot.choose(KINGDOMINO, view, seat))
        assert chosen[0] == chosen[1]
        actions = KINGDOMINO.legal_actions(state, seat)
        KINGDOMINO.apply_legal(state, seat, actions[moves.below(len(actions))])


def test_the_medium_level_plays_the_same_game_on_both_cores(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The search levels' Kingdomino budgets are playouts (``SearchProfile.playouts``): a whole
    match of ``medium`` against ``greedy`` is the same on the Python core, only slower, as on
    the native one: the same moves, and the same playouts behind every decision."""
    from ludoteca.bots import make_bot

    runs = []
    for core_name in ("python", "native"):
        monkeypatch.setenv("LUDOTECA_CORE", core_name)
        state = KINGDOMINO.setup({}, 2, 17)
        bots = [make_bot("medium", "kingdomino", 9), make_bot("greedy", "kingdomino", 10)]
        searched = []
        while seats := KINGDOMINO.to_act(state):
            (seat,) = seats
            action = bots[seat].choose(KINGDOMINO, KINGDOMINO.view(state, seat), seat)
            if seat == 0:
                stats = getattr(bots[0], "last_stats", None)
                searched.append(None if stats is None else dict(stats.visits))
            KINGDOMINO.apply_legal(state, seat, action)
        runs.append((searched, [list(p) for p in state.placed], KINGDOMINO.outcome(state)))
    assert runs[0] == runs[1]


@pytest.mark.parametrize(("players", "options", "count"), CASES, ids=IDS)
def test_playouts_after_are_the_one_by_one_playouts(players: int, options: dict[str, object],
                                                    count: int,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The analysis's batch (``playouts_after``: every candidate of one drawn world in one
    native call, no Python state or ``Outcome`` per playout) gives, action by action and with
    None (the policy's own move), the rank and score the Python core's clone, apply and playout
    give, the match-ending placements included; the state and generator are left as they were.
    A Dynasty plays one by one (None)."""
    compared = 0
    for seed in range(count // 10):
        true = midway(players, options, 7000 * players + seed)
        starts = [true]
        if seed % 2 and (seats := KINGDOMINO.to_act(true)):
            view = KINGDOMINO.view(true, min(seats))
            starts.append(KINGDOMINO.determinize(view, min(seats), Rng(seed)))
        for start in starts:
            seats = KINGDOMINO.to_act(start)
            if not seats:
                continue
            seat = min(seats)
            legal = KINGDOMINO.legal_actions(start, seat)
            actions: list[Any] = [None, *legal[:: max(1, len(legal) // 8)]]
            before, rng = start.clone(), Rng(seed)
            monkeypatch.setenv("LUDOTECA_CORE", "native")
            got = native_playout.playouts_after(KINGDOMINO, start, seat, actions, rng)
            if options.get("dynasty"):
                assert got is None
                continue
            assert got is not None
            assert start == before and rng.state == Rng(seed).state
            assert normal(got) == one_by_one(KINGDOMINO, start, seat, actions, seed,
                                             monkeypatch)
            compared += len(actions)
    assert compared >= count // 10 or options.get("dynasty")


def test_playouts_after_stays_in_python_where_it_must(monkeypatch: pytest.MonkeyPatch) -> None:
    """None (the analysis then plays one by one) on the Python core and for a match over."""
    state = midway(2, {}, 5)
    seat = min(KINGDOMINO.to_act(state))
    actions = KINGDOMINO.legal_actions(state, seat)
    monkeypatch.setenv("LUDOTECA_CORE", "python")
    assert native_playout.playouts_after(KINGDOMINO, state, seat, actions, Rng(1)) is None
    monkeypatch.setenv("LUDOTECA_CORE", "native")
    assert native_playout.playouts_after(KINGDOMINO, state, seat, actions, Rng(1)) is not None
    over = state.clone()
    KINGDOMINO.playout(over, RANDOM, Rng(1))
    assert native_playout.playouts_after(KINGDOMINO, over, None, [None], Rng(1)) is None
