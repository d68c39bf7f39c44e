"""Properties over random games: no information leak, sound determinization, exact replay,
termination, and bad input refused without touching the state."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from ludoteca.engine.errors import IllegalAction, MalformedAction, OptionError
from ludoteca.engine.rng import Rng
from ludoteca.games import get_game
from ludoteca.games.kami import actions as actions_module
from ludoteca.games.kami.components import COPIES, NAMES, SOLDIER, unpack
from ludoteca.games.kami.goita import GAME as GOITA
from ludoteca.games.kami.rules import GAME
from ludoteca.games.kami.state import FACE_DOWN, FROM_MERC, PLAY, TYPE_MASK, KamiState

FULL = Counter({t: COPIES[t] for t in range(8)})


def all_cards(s: KamiState) -> Counter[int]:
    """Every card in the state, wherever it is: the deck is never lost or duplicated."""
    c: Counter[int] = Counter()
    for h in s.hands:
        c.update(unpack(h))
    for line in s.defense + s.attacks:
        c.update(e & TYPE_MASK for e in line)
    c.update(t for t in s.merc_up + s.merc_down + s.unused if t >= 0)
    return c


def random_states(game: Any, players: int, seed: int, options: dict[str, Any] | None = None,
                  limit: int = 400):
    """Yield every state of a random game (the same object, mutated) up to ``limit`` plies."""
    rng = Rng(seed)
    s = game.setup(options, players, seed=seed)
    yield s
    for _ in range(limit):
        seats = game.to_act(s)
        if not seats:
            return
        seat = next(iter(seats))
        acts = game.legal_actions(s, seat)
        game.apply(s, seat, acts[rng.below(len(acts))])
        yield s


def secret_names(s: KamiState, seat: int | None) -> None:
    """Assert the view of ``seat`` shows no card it may not know."""
    v = json.loads(json.dumps(GAME.view(s, seat)))
    assert "rng" not in v and "deck" not in v
    assert v["hand"] == (None if seat is None else [NAMES[t] for t in unpack(s.hands[seat])])
    for p, line in enumerate(v["defense"]):
        for e, entry in zip(line, s.defense[p], strict=True):
            hidden = entry & FACE_DOWN and not entry & FROM_MERC and p != seat
            assert (e["card"] is None) == bool(hidden)
    assert all(set(m) == {"top", "below"} and isinstance(m["below"], bool)
               for m in v["mercenaries"])
    if s.cfg.players == 3:
        mine = seat is not None and s.looked[seat] >= 0
        assert v["looked"] == (NAMES[s.unused[s.looked[seat]]] if mine else None)
        assert v["unused"] == 2
    # nothing else names cards: the only card-valued fields are the ones checked above, the
    # public history and its score parts, every card's value (the same in every view) and the
    # recap of a deal that is over (tests/kami/test_recap.py)
    text = json.dumps({k: v[k] for k in v if k not in (
        "hand", "defense", "attack_lines", "mercenaries", "looked", "attack", "draws", "game",
        "options", "end_mode", "card_values", "parts",
        "history", "last_round")})
    assert not any(f'"{name}"' in text for name in NAMES), text


def check_determinize(s: KamiState, seat: int | None, rng: Rng) -> KamiState:
    v = json.loads(json.dumps(GAME.view(s, seat))) if s.cfg.game == "kami" else json.loads(
        json.dumps(GOITA.view(s, seat)))
    game = GAME if s.cfg.game == "kami" else GOITA
    d = game.determinize(v, seat, rng)
    assert game.view(d, seat) == v
    assert all_cards(d) == FULL
    if seat is not None:
        assert d.hands[seat] == s.hands[seat]
        assert d.defense[seat] == s.defense[seat]
        assert d.looked == s.looked and (s.looked[seat] < 0 or
                                          d.unused[s.looked[seat]] == s.unused[s.looked[seat]])
    assert d.sizes == s.sizes and d.attacks == s.attacks and d.merc_up == s.merc_up
    for p in range(s.cfg.players):
        for a, b in zip(d.defense[p], s.defense[p], strict=True):
            assert a & (FACE_DOWN | FROM_MERC) == b & (FACE_DOWN | FROM_MERC)
            if not b & FACE_DOWN or b & FROM_MERC:
                assert a == b
        if s.revealed[p] and p != seat:  # A6: the revealed Soldiers are where they must be
            hidden = unpack(d.hands[p]) + [e & TYPE_MASK for e in d.defense[p] if e & FACE_DOWN]
            true = unpack(s.hands[p]) + [e & TYPE_MASK for e in s.defense[p] if e & FACE_DOWN]
            assert hidden.count(SOLDIER) == true.count(SOLDIER)
    # The seat to act is the same, and if it is this seat it has the same choices: a sample
    # that offered other moves (or none) would make the search answer a different position.
    assert game.to_act(d) == game.to_act(s)
    if seat is not None and seat in game.to_act(s):
        mine = [a.index for a in game.legal_actions(s, seat)]
        assert mine and [a.index for a in game.legal_actions(d, seat)] == mine
    for p in game.to_act(d):  # whoever acts in the sample holds a hand that can act (A4.6)
        assert game.legal_actions(d, p)
    return d


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 3, 4]),
       mode=st.sampled_from(["soldier", "lord", "kami"]))
def test_no_view_leaks_and_determinize_is_consistent(seed: int, players: int, mode: str) -> None:
    """rules/kami.md A3, A4.1, A4.2, A5.4, A6: a view never holds another seat's hand, others'
    face-down defenses, face-down mercenaries, another's looked-at card or the deck; a pass
    reveals nothing; determinize keeps everything the seat has seen and conserves the deck."""
    rng = Rng(seed ^ 99)
    for i, s in enumerate(random_states(GAME, players, seed, {"end_mode": mode}, limit=250)):
        assert all_cards(s) == FULL
        for seat in (None, *range(players)):
            secret_names(s, seat)
        if i % 5 == 0:
            for seat in (None, *range(players)):
                check_determinize(s, seat, rng)


@settings(max_examples=examples(10), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_goita_views_and_determinize(seed: int) -> None:
    """rules/kami.md B2, B5: Goita hides the same things; shown Shi constrain determinization."""
    rng = Rng(seed)
    for i, s in enumerate(random_states(GOITA, 4, seed, limit=200)):
        assert all_cards(s) == FULL
        if i % 4 == 0:
            for seat in (None, 0, 1, 2, 3):
                check_determinize(s, seat, rng)


def test_determinized_hidden_cards_vary() -> None:
    """rules/kami.md A4.2: hidden cards are sampled from the unseen pool, not copied from the
    true state (and a pass reveals nothing, so nothing is inferred from it)."""
    for players in (2, 3, 4):
        s = next(st for i, st in enumerate(random_states(GAME, players, 11)) if i == 5)
        rng = Rng(5)
        v = GAME.view(s, 0)
        others = {tuple(GAME.determinize(v, 0, rng).hands[1:]) for _ in range(30)}
        assert len(others) > 10
        assert sum(o == tuple(s.hands[1:]) for o in others) <= 1
        if players == 2:
            downs = {tuple(GAME.determinize(v, 0, rng).merc_down) for _ in range(10)}
            assert len(downs) > 1
        if players == 3:
            vf = GAME.view(s, s.first)
            unused = {tuple(GAME.determinize(vf, s.first, rng).unused) for _ in range(30)}
            assert len(unused) > 1


def test_revealed_soldiers_constrain_determinization() -> None:
    """rules/kami.md A6: after a reveal and play-on, everyone knows the holder's Soldiers."""
    for seed in range(3000):
        s = GAME.setup({}, 4, seed=seed)
        holder = s.asked
        if sum(1 for t in unpack(s.hands[holder]) if t == SOLDIER) >= 5:
            break
    else:
        raise AssertionError("no deal with a demoralized first player")
    GAME.apply(s, holder, GAME.action_from_json({"type": "declare", "reveal": True}))
    GAME.apply(s, (holder + 2) % 4, GAME.action_from_json({"type": "decide", "redeal": False}))
    v = GAME.view(s, (holder + 1) % 4)
    rng = Rng(1)
    for _ in range(20):
        d = GAME.determinize(v, (holder + 1) % 4, rng)
        assert unpack(d.hands[holder]).count(SOLDIER) == s.revealed[holder]


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=examples(10), deadline=None)
@given(seed=st.integers(0, 2**32), mode=st.sampled_from(["soldier", "lord", "kami"]))
def test_replay_reproduces_every_state_and_games_end(players: int, seed: int, mode: str) -> None:
    """rules/kami.md A8: every game ends with a winner; a log replays to identical states."""
    rng = Rng(seed)
    s = GAME.setup({"end_mode": mode}, players, seed=seed)
    log, states = [], [s.clone()]
    while not GAME.is_over(s):
        seat = next(iter(GAME.to_act(s)))
        acts = GAME.legal_actions(s, seat)
        a = acts[rng.below(len(acts))]
        log.append((seat, json.loads(json.dumps(a.to_json()))))
        GAME.apply(s, seat, a)
        states.append(s.clone())
        assert len(log) < GAME.spec.max_length
    out = GAME.outcome(s)
    assert out is not None and min(out.ranks) == 1 and len(out.scores) == players
    # A8: each side's rounds chain from 0 to its total, each step by the end mode's rule
    # (written out here, not taken from scoring.py), and only the winner stands on the target.
    for seat in range(players):
        b = out.breakdown[seat]
        total = 0
        for r in b["rounds"]:
            assert r["before"] == total and r["points"] > 0
            total += r["points"]
            if total > 15 and mode == "lord":
                total = 15 - (total - 15)
            elif total > 15 and mode == "kami":
                total = 0
            assert r["after"] == total
        assert total == b["total"] == out.scores[seat]
        if mode == "soldier":
            assert (total >= 15) == b["won"]
        else:
            assert (total == 15) == b["won"]
    r = GAME.setup({"end_mode": mode}, players, seed=seed)
    assert r == states[0]
    for (seat, data), want in zip(log, states[1:], strict=True):
        GAME.apply(r, seat, GAME.action_from_json(data))
        assert r == want
    if mode == "soldier":  # every point is explained by the breakdown
        for seat in range(players):
            b = out.breakdown[seat]
            assert sum(x["points"] for x in b["rounds"]) == b["total"] == out.scores[seat]


def test_bad_options_and_player_counts_are_refused() -> None:
    """rules/kami.md A2.2 / A8: 2-4 players; known options with allowed values only."""
    with pytest.raises(OptionError, match="2-4 players"):
        GAME.setup({}, 5)
    with pytest.raises(OptionError, match="unknown option"):
        GAME.setup({"mode": "lord"}, 4)
    with pytest.raises(OptionError, match="must be one of"):
        GAME.setup({"end_mode": "emperor"}, 4)
    with pytest.raises(OptionError, match="at least 10"):
        GAME.setup({"target": 3}, 4)
    assert get_game("kami") is GAME and get_game("goita") is GOITA


def test_malformed_and_illegal_actions_leave_the_state_unchanged() -> None:
    """rules/kami.md A4: out-of-turn, illegal or unreadable actions raise and change nothing."""
    s = GAME.setup({"demoralized": False}, 4, seed=3)
    assert s.phase == PLAY
    before = s.clone()
    other = (s.turn + 1) % 4
    with pytest.raises(IllegalAction, match=r"not P[1-4]'s turn"):
        GAME.apply(s, other, GAME.action_from_json({"type": "pass"}))
    with pytest.raises(IllegalAction):
        GAME.apply(s, s.turn, GAME.action_from_json({"type": "pass"}))
    with pytest.raises(IllegalAction):
        GAME.apply(s, s.turn, GAME.action_from_json({"type": "decide", "redeal": True}))
    missing = next(t for t in range(8) if not (s.hands[s.turn] >> (4 * t)) & 15)
    with pytest.raises(IllegalAction, match="do not hold"):
        GAME.apply(s, s.turn, GAME.action_from_json(
            {"type": "play", "defense": NAMES[missing], "attack": NAMES[missing]}))
    with pytest.raises(IllegalAction, match="empty"):
        GAME.apply(s, s.turn, GAME.action_from_json(
            {"type": "play", "defense": "merc:1", "attack": "soldier"}))
    assert s == before
    for bad in (None, [], {"type": "fold"}, {"type": "play", "attack": "king"},
                {"type": "play", "defense": "merc:9", "attack": "gold"},
                {"type": "play", "defense": 3, "attack": "gold"},
                {"type": "declare", "reveal": "yes"}, {"type": "decide"}):
        with pytest.raises(MalformedAction):
            GAME.action_from_json(bad)
    for bad_index in (-1, 277, True, "3"):
        with pytest.raises(MalformedAction):
            GAME.action_from_index(bad_index)  # type: ignore[arg-type]
    for i in range(GAME.spec.num_actions):
        a = GAME.action_from_index(i)
        assert a.index == i and GAME.action_from_json(a.to_json()) == a
        assert eval(repr(a), vars(actions_module)) == a
    assert s == before
