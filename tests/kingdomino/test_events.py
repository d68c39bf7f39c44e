"""Kingdomino events (DESIGN.md §2; docs/kingdomino.md "Events"): every move narrated, every
event a sentence in English and Spanish, and no event telling a viewer more than their view.

Everything an event names is public (rules/kingdomino.md §8), so the per-viewer checks are: the
same events for every viewer, every domino they name is in that viewer's view just before or
just after the action, and re-dealing what stays hidden (the rest of the pile, the dominoes
left out, the RNG) changes no event.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from ludoteca.engine.events import for_viewer
from ludoteca.engine.rng import Rng
from ludoteca.games.kingdomino.actions import DISCARD, Claim, Place
from ludoteca.games.kingdomino.components import DOMINOES
from ludoteca.games.kingdomino.rules import GAME, final_outcome
from ludoteca.games.kingdomino.state import CLAIM_STEP, PLAY, KingdominoState

game = GAME

SETUPS: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (2, {"mighty_duel": True, "harmony": True, "first_draft": "abba"}),
    (2, {"dynasty": True, "middle_kingdom": True}),
    (3, {}),
    (3, {"three_player_draft": "bga", "tiebreak": "bga"}),
    (4, {"harmony": True, "middle_kingdom": True}),
    (4, {"dynasty": True}),
]


def played(players: int, options: dict[str, Any], seed: int):
    """(before, seat, action, after, events) for every action of one random game."""
    s = game.setup(options, players, seed)
    rng = Rng(seed)
    while not game.is_over(s):
        (seat,) = game.to_act(s)
        legal = game.legal_actions(s, seat)
        action = legal[rng.below(len(legal))]
        before = game.clone(s)
        game.apply(s, seat, action)
        yield before, seat, action, s, game.narrate(before, seat, action, s)


def dominoes_in(data: object) -> set[int]:
    """Every domino number an event or a view names (under a "domino"/"number" key, or in a
    list of numbers such as ``discarded``)."""
    found: set[int] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            if key in ("domino", "number", "acting_domino") and isinstance(value, int):
                found.add(value)
            elif key == "discarded":
                found.update(value)
            else:
                found |= dominoes_in(value)
    elif isinstance(data, list):
        for item in data:
            found |= dominoes_in(item)
    return found


def redealt(before: KingdominoState, after: KingdominoState, rng: Rng) -> KingdominoState:
    """``before`` with everything the action did not reveal dealt again: the pile beyond what
    the action drew, the dominoes left out of the game, and (unless a new Dynasty game is dealt
    from it) the RNG."""
    other = before.clone()
    if after.game_no != before.game_no:
        return other
    keep = before.deck[: after.deck_pos]
    pool = before.deck[after.deck_pos :] + [n for n in DOMINOES if n not in before.deck]
    rng.shuffle(pool)
    other.deck = keep + pool[: len(before.deck) - len(keep)]
    other.rng = Rng(rng.next64())
    return other


@pytest.mark.parametrize(("players", "options"), SETUPS)
def test_every_event_renders_in_both_languages(players: int, options: dict[str, Any]) -> None:
    """Every event is JSON with its type first and one sentence in English and in Spanish, with
    no Spanish message missing from locale/es.po."""
    en, es = game.voice("en", ["Ana", "Bea", "Carla", "Dani"]), game.voice("es")
    es.catalog.missing.clear()
    types = set()
    for seed in range(3):
        for _, _, _, _, events in played(players, options, seed):
            for data in for_viewer(events, None):
                assert next(iter(data)) == "type"
                assert json.loads(json.dumps(data)) == data
                types.add(data["type"])
                for voice in (en, es):
                    text = game.render_event(data, voice)
                    assert text and "{" not in text and "\n" not in text
    assert not es.catalog.missing
    assert {"claim", "place", "round", "line", "score", "game_over"} <= types


@pytest.mark.parametrize(("players", "options"), SETUPS)
def test_events_never_say_more_than_the_views(players: int, options: dict[str, Any]) -> None:
    """DESIGN.md §2 per-viewer rule (rules/kingdomino.md §8): every viewer gets the same
    events; every domino they name is in that viewer's view before or after the action; and
    re-dealing what stays hidden leaves every event unchanged."""
    rng = Rng(99)
    for seed in range(2):
        for before, seat, action, after, events in played(players, options, seed):
            assert all(e.private is None for e in events)
            other_before = redealt(before, after, rng)
            other_after = other_before.clone()
            game.apply(other_after, seat, action)
            others = game.narrate(other_before, seat, action, other_after)
            for viewer in (None, *range(players)):
                mine = for_viewer(events, viewer)
                assert mine == for_viewer(others, viewer)
                shown = dominoes_in(game.view(before, viewer)) | dominoes_in(
                    game.view(after, viewer))
                assert dominoes_in(mine) <= shown
                assert "deck" not in json.dumps(mine) and "rng" not in json.dumps(mine)


def first_play(players: int = 4, seed: int = 1, **options: Any) -> KingdominoState:
    s = game.setup(options, players, seed)
    while s.phase != PLAY:
        (seat,) = game.to_act(s)
        game.apply(s, seat, game.legal_actions(s, seat)[0])
    return s


def narrated(s: KingdominoState, action: Any) -> list[dict[str, Any]]:
    (seat,) = game.to_act(s)
    before = game.clone(s)
    game.apply(s, seat, action)
    return for_viewer(game.narrate(before, seat, action, s), None)


def test_a_placement_names_both_squares() -> None:
    """rules/kingdomino.md §4: a placement event gives both squares with terrain and crowns,
    as the kingdom in the next view shows them."""
    s = first_play()
    (seat,) = game.to_act(s)
    action = next(a for a in game.legal_actions(s, seat) if isinstance(a, Place))
    (data,) = narrated(s, action)
    assert data["type"] == "place" and data["seat"] == seat
    view_squares = game.view(s, None)["kingdoms"][seat]["squares"]
    for sq in data["squares"]:
        assert {**sq, "domino": data["domino"]} in view_squares
    sentence = game.render_event(data, game.voice("es"))
    assert sentence.startswith(f"P{seat + 1} colocó el dominó {data['domino']}:")


def test_a_forced_discard_says_why() -> None:
    """rules/kingdomino.md §4.3: a domino that fits nowhere is discarded, and the event says
    so (reason and rule) in both languages."""
    s = first_play(players=2, seed=3)
    (seat,) = game.to_act(s)
    s.kingdoms[seat] = s.kingdoms[seat][:]
    k = s.kingdoms[seat]
    k[1:5] = [4, 8, 4, 8]  # the kingdom already spans 5x5 rows 4-8 and columns 4-8 ...
    k[0] = sum(1 << (r * 14 + c) for r in range(4, 9) for c in range(4, 9))  # ... all full
    assert game.legal_actions(s, seat) == [DISCARD]
    n = s.cur[s.acting]
    (data, *_) = narrated(s, DISCARD)
    assert data == {"type": "discard", "seat": seat, "domino": n, "reason": "no_legal_spot"}
    assert "(rule 4.3)" in game.render_event(data, game.voice("en"))
    assert "(regla 4.3)" in game.render_event(data, game.voice("es"))


def test_the_unclaimed_domino_is_discarded_and_a_new_line_revealed() -> None:
    """rules/kingdomino.md §3.3 and §9.1: with 3 players and the BGA draft the domino nobody
    claimed is discarded when the round turns; the new round and its line are narrated."""
    s = game.setup({"three_player_draft": "bga"}, 3, 7)
    events = []
    while s.phase != PLAY:
        (seat,) = game.to_act(s)
        events = narrated(s, game.legal_actions(s, seat)[0])
    types = [e["type"] for e in events]
    assert types == ["claim", "unclaimed", "round", "line"]
    (free,) = [n for n, o in zip(s.cur, s.cur_owner, strict=True) if o < 0]
    assert events[1]["domino"] == free and free in s.discarded
    assert events[2] == {"type": "round", "round": 1, "rounds": 12, "last": False}
    assert [d["number"] for d in events[3]["dominoes"]] == s.nxt


def test_dynasty_and_final_scoring() -> None:
    """rules/kingdomino.md §7 (Dynasty) and §6: each finished game's scores and the next game's
    first-draft order are narrated; the end gives every seat's total and the winners, as the
    outcome has them."""
    events = []
    for _, _, _, after, evs in played(2, {"dynasty": True}, 4):
        events += for_viewer(evs, None)
        final = after
    ends = [e for e in events if e["type"] == "game_end"]
    starts = [e for e in events if e["type"] == "next_game"]
    assert [e["game"] for e in ends] == [1, 2] and [e["game"] for e in starts] == [2, 3]
    outcome = final_outcome(final)
    scores = [e for e in events if e["type"] == "score"]
    assert [e["total"] for e in scores] == list(outcome.scores)
    assert all(sum(e["games"]) == e["total"] for e in scores)
    assert events[-1] == {"type": "game_over", "scores": list(outcome.scores),
                          "ranks": list(outcome.ranks), "winners": list(outcome.winners)}


def test_claims_in_the_draft_and_in_play() -> None:
    """rules/kingdomino.md §3.2: a claim names the seat and the domino."""
    s = game.setup({}, 4, 2)
    (seat,) = game.to_act(s)
    (data,) = narrated(s, Claim(s.nxt[1]))
    assert data == {"type": "claim", "seat": seat, "domino": s.nxt[1]}
    s = first_play()
    (seat,) = game.to_act(s)
    narrated(s, game.legal_actions(s, seat)[0])
    assert s.step == CLAIM_STEP
    claim = game.legal_actions(s, seat)[-1]
    assert narrated(s, claim)[0] == {"type": "claim", "seat": seat, "domino": claim.domino}


def test_events_are_built_only_when_asked() -> None:
    """DESIGN.md §2: the fast path builds no events (narrate is a separate call)."""
    assert "narrate" not in game._apply.__code__.co_names
    assert isinstance(game.narrate(*_one_step()), list)


def _one_step() -> tuple[KingdominoState, int, Claim, KingdominoState]:
    s = game.setup({}, 2, 1)
    (seat,) = game.to_act(s)
    action = Claim(s.nxt[0])
    before = game.clone(s)
    game.apply(s, seat, action)
    return before, seat, action, s

