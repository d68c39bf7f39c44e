"""Engine invariants on random Kingdomino games (Hypothesis)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from ludoteca.engine.match import Match, replay
from ludoteca.engine.record import MatchRecord
from ludoteca.engine.rng import Rng
from ludoteca.games.kingdomino.actions import Place
from ludoteca.games.kingdomino.components import DOMINOES
from ludoteca.games.kingdomino.grid import DELTA, OCC, cell_of, xy_of
from ludoteca.games.kingdomino.rules import GAME
from ludoteca.games.kingdomino.state import OVER, PLAY, KingdominoState

game = GAME


@st.composite
def setups(draw: st.DrawFn) -> tuple[int, dict[str, object], int]:
    players = draw(st.integers(2, 4))
    options: dict[str, object] = {
        "harmony": draw(st.booleans()),
        "middle_kingdom": draw(st.booleans()),
        "dynasty": draw(st.booleans()),
        "tiebreak": draw(st.sampled_from(["rulebook", "bga"])),
    }
    if players == 2:
        options["mighty_duel"] = draw(st.booleans())
        options["first_draft"] = draw(st.sampled_from(["random", "abba"]))
    if players == 3:
        options["three_player_draft"] = draw(st.sampled_from(["printed", "bga"]))
    return players, options, draw(st.integers(0, 2**40))


def random_states(players: int, options: dict[str, object], seed: int):
    """Every state of one random game (live objects: clone to keep)."""
    s = game.setup(options, players, seed)
    rng = Rng(seed)
    while s.phase != OVER:
        yield s
        (seat,) = game.to_act(s)
        legal = game.legal_actions(s, seat)
        game.apply(s, seat, legal[rng.below(len(legal))])
    yield s


@settings(max_examples=examples(25), deadline=None)
@given(setup=setups(), data=st.data())
def test_any_sequence_of_legal_actions_applies(setup, data) -> None:
    """Every action ``legal_actions`` offers applies with full checks, whichever is chosen."""
    players, options, seed = setup
    s = game.setup(options, players, seed)
    while not game.is_over(s):
        (seat,) = game.to_act(s)
        legal = game.legal_actions(s, seat)
        assert legal
        game.apply(s, seat, data.draw(st.sampled_from(legal)))
    assert game.outcome(s) is not None


@settings(max_examples=examples(25), deadline=None)
@given(setup=setups())
def test_replay_reproduces_states_and_outcome(setup) -> None:
    """A saved match record replays to the very same final state and outcome."""
    players, options, seed = setup
    match = Match.new(game, options, players, seed, narrate=False)
    rng = Rng(seed + 1)
    snapshots = []
    while not game.is_over(match.state):
        (seat,) = game.to_act(match.state)
        legal = game.legal_actions(match.state, seat)
        match.step(seat, legal[rng.below(len(legal))])
        snapshots.append(match.state.clone())
    record = MatchRecord.from_json(json.loads(json.dumps(match.record.to_json())))
    final = replay(game, record)
    assert final == match.state == snapshots[-1]
    assert game.outcome(final) == match.outcome
    assert record.result == match.outcome.to_json()  # type: ignore[union-attr]


@settings(max_examples=examples(25), deadline=None)
@given(setup=setups())
def test_every_game_terminates_with_the_right_number_of_rounds(setup) -> None:
    """rules/kingdomino.md §6.1: games end after the last line, i.e. deck ÷ line rounds (each
    Dynasty game too), within the spec's maximum length."""
    players, options, seed = setup
    rounds_seen = []
    last = None
    plies = 0
    for s in random_states(players, options, seed):
        if last is not None and s.game_no != last[0]:
            rounds_seen.append(last[1])
        last = (s.game_no, s.round)
        plies = s.ply
        cfg = s.cfg
    rounds_seen.append(last[1])  # type: ignore[index]
    assert rounds_seen == [cfg.rounds] * cfg.games
    assert plies <= game.spec.max_length
    expected = {2: 12 if options.get("mighty_duel") else 6, 3: 12, 4: 12}[players]
    assert cfg.rounds == expected


def _hidden_shuffled(s: KingdominoState, rng: Rng) -> KingdominoState:
    """The same position with the undrawn pile replaced by another draw from the unseen
    dominoes (which also changes which ones were removed with 2–3 players)."""
    t = s.clone()
    seen = set(s.cur) | set(s.nxt) | set(s.discarded)
    for placed in s.placed:
        seen.update(n for n, _, _ in placed)
    unseen = [n for n in DOMINOES if n not in seen]
    rng.shuffle(unseen)
    t.deck = unseen[: len(s.deck) - s.deck_pos]
    t.deck_pos = 0
    t.rng = Rng(rng.next64())
    return t


@settings(max_examples=examples(25), deadline=None)
@given(setup=setups())
def test_view_never_contains_the_deck_order(setup) -> None:
    """rules/kingdomino.md §8: no view (any seat or spectator) depends on the order of the
    remaining deck, the removed dominoes or the RNG: shuffling them leaves every view equal."""
    players, options, seed = setup
    rng = Rng(seed ^ 77)
    for s in random_states(players, options, seed):
        other = _hidden_shuffled(s, rng)
        for seat in (None, *range(players)):
            v = game.view(s, seat)
            assert v == game.view(other, seat)
            text = json.dumps(v)
            assert 'deck"' not in text and "rng" not in text


def naive_placements(s: KingdominoState, seat: int) -> set[tuple[int, int, str]]:
    """Rule 4 written the slow, obvious way: for every square and direction, check emptiness,
    the frame and the connection square by square."""
    k = s.kingdoms[seat]
    n = s.cur[s.acting]
    dom = DOMINOES[n]
    squares = {xy_of(c) for c in range(13 * 14) if k[OCC] >> c & 1}
    terrain: dict[tuple[int, int], int] = {}
    for placed_n, a, d in s.placed[seat]:
        pd = DOMINOES[placed_n]
        terrain[xy_of(a)] = pd.terrains[0]
        terrain[xy_of(a + DELTA[d])] = pd.terrains[1]
    out = set()
    steps = {"E": (1, 0), "S": (0, 1), "W": (-1, 0), "N": (0, -1)}
    for x in range(-6, 7):
        for y in range(-6, 7):
            for name, (dx, dy) in steps.items():
                bx, by = x + dx, y + dy
                if not (-6 <= bx <= 6 and -6 <= by <= 6):
                    continue
                if (x, y) in squares or (bx, by) in squares:
                    continue
                allsq = squares | {(x, y), (bx, by)}
                xs = [p[0] for p in allsq]
                ys = [p[1] for p in allsq]
                if max(xs) - min(xs) >= s.cfg.frame or max(ys) - min(ys) >= s.cfg.frame:
                    continue

                def connects(px: int, py: int, t: int) -> bool:
                    for ox, oy in steps.values():
                        q = (px + ox, py + oy)
                        if q == (0, 0) or terrain.get(q) == t:
                            return True
                    return False

                if connects(x, y, dom.terrains[0]) or connects(bx, by, dom.terrains[1]):
                    out.add((x, y, name))
    return out


@settings(max_examples=examples(20), deadline=None)
@given(setup=setups())
def test_bitboard_placements_match_a_naive_reference(setup) -> None:
    """rules/kingdomino.md §4: the bitboard generator gives exactly the placements a square-by-
    square reading of rule 4 allows, in every reachable position."""
    players, options, seed = setup
    for s in random_states(players, options, seed):
        if s.phase != PLAY or s.step != 0:
            continue
        seat = s.cur_owner[s.acting]
        fast = {(a.x, a.y, a.dir) for a in game.legal_actions(s, seat) if isinstance(a, Place)}
        assert fast == naive_placements(s, seat)
        k = s.kingdoms[seat]
        for x, y, d in fast:  # both halves land on empty squares of the board, side by side
            a = cell_of(x, y)
            b = a + DELTA["ESWN".index(d)]
            bx, by = xy_of(b)
            assert abs(bx - x) + abs(by - y) == 1
            assert not (k[OCC] >> a & 1 or k[OCC] >> b & 1)


@settings(max_examples=examples(15), deadline=None)
@given(setup=setups(), data=st.data())
def test_determinizer_equals_determinize(setup, data) -> None:
    """Engine contract (docs/engine.md, determinizer): for every rng state,
    ``determinizer(view, seat)(rng)`` is ``determinize(view, seat, rng)`` and leaves the rng in
    the same state, call after call on one prepared view, for every seat and the spectator."""
    players, options, seed = setup
    for s in random_states(players, options, seed):
        if data.draw(st.integers(0, 15)) or s.phase == OVER:
            continue
        seat = data.draw(st.sampled_from([None, *range(players)]))
        view = json.loads(json.dumps(game.view(s, seat)))
        sample = game.determinizer(view, seat)
        r1, r2 = Rng(seed), Rng(seed)
        for _ in range(3):
            fast, slow = sample(r1), game.determinize(view, seat, r2)
            assert fast == slow and r1.state == r2.state
            assert game.view(fast, seat) == view
            game.apply_legal(fast, *_first_legal(fast))  # samples are independent of the template


def _first_legal(s: KingdominoState) -> tuple[int, object]:
    (seat,) = game.to_act(s)
    return seat, game.legal_actions(s, seat)[0]
