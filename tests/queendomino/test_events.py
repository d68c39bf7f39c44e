"""Queendomino events (DESIGN.md §2; docs/queendomino.md "Events"): every step narrated, every
event a sentence in English and Spanish, and no event telling a viewer more than their view.

Everything an event names is public (the view hides only the order of both piles), so the
per-viewer checks are: the same events for every viewer, every domino and building they name is
in that viewer's view before or after the action, and re-dealing the undrawn parts of both
piles (and the RNG) changes no event.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from ludoteca.engine.events import for_viewer
from ludoteca.engine.rng import Rng
from ludoteca.games.queendomino.actions import PASS, Build, Dragon, Knight, Place
from ludoteca.games.queendomino.components import QUEENDOMINO_BOX
from ludoteca.games.queendomino.rules import GAME, final_outcome
from ludoteca.games.queendomino.state import QueendominoState

game = GAME

SETUPS: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (3, {"tax_bonus": "per_turn"}),
    (3, {"royal_wedding": True, "buildings": "verified"}),
    (4, {}),
    (4, {"royal_wedding": True}),
    (5, {}),
    (6, {"buildings": "verified"}),
    (7, {}),  # rules/queendomino.md §7.5
    (8, {"tax_bonus": "per_turn"}),
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


def named(data: object, keys: tuple[str, ...]) -> set[int]:
    """Every int under one of ``keys`` in an event or view, at any depth."""
    found: set[int] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            if key in keys and isinstance(value, int) and not isinstance(value, bool):
                found.add(value)
            elif key == "discarded" and "domino" in keys:
                found.update(value)
            else:
                found |= named(value, keys)
    elif isinstance(data, list):
        for item in data:
            found |= named(item, keys)
    return found


def dominoes(data: object) -> set[int]:
    """Domino ids named: under ``domino`` keys (events, view squares and placements), in lines
    (``id``) and in ``discarded``."""
    found = named(data, ("domino", "acting_domino"))
    if isinstance(data, dict):
        for key in ("current_line", "next_line", "dominoes"):
            found |= {d["id"] for d in data.get(key, [])}
    return found


def buildings(data: object) -> set[int]:
    """Building tiles named: any object with an ``id`` and a ``name`` (a domino has no name)."""
    found: set[int] = set()
    if isinstance(data, dict):
        if "id" in data and "name" in data:
            found.add(data["id"])
        for value in data.values():
            found |= buildings(value)
    elif isinstance(data, list):
        for item in data:
            found |= buildings(item)
    return found


def redealt(before: QueendominoState, after: QueendominoState, rng: Rng) -> QueendominoState:
    """``before`` with the undrawn dominoes beyond what the action drew, the building tiles
    beyond what it drew, and the RNG dealt again (Royal Wedding's boxes keep their places)."""
    other = before.clone()
    keep, tail = before.deck[: after.deck_pos], before.deck[after.deck_pos :]
    queen = [n for n in tail if n <= QUEENDOMINO_BOX]
    king = [n for n in tail if n > QUEENDOMINO_BOX]
    rng.shuffle(queen)
    rng.shuffle(king)
    other.deck = keep + [queen.pop() if n <= QUEENDOMINO_BOX else king.pop() for n in tail]
    pile = before.pile[after.pile_pos :]
    rng.shuffle(pile)
    other.pile = before.pile[: after.pile_pos] + pile
    other.rng = Rng(rng.next64())
    return other


@pytest.mark.parametrize(("players", "options"), SETUPS)
def test_every_event_renders_in_both_languages(players: int, options: dict[str, Any]) -> None:
    """Every event is JSON with its type first and one sentence in English and in Spanish, with
    no Spanish message missing from locale/es.po (building names included)."""
    en, es = game.voice("en"), game.voice("es", ["Ana", "Bea"])
    es.catalog.missing.clear()
    types = set()
    for seed in range(2):
        for _, _, _, _, events in played(players, options, seed):
            for data in for_viewer(events, None):
                assert next(iter(data)) == "type"
                assert json.loads(json.dumps(data)) == data
                types.add(data["type"])
                for voice in (en, es):
                    text = game.render_event(data, voice)
                    assert text and "{" not in text and "\n" not in text
    assert not es.catalog.missing
    assert {"claim", "place", "tax", "build", "dragon", "round", "line", "board", "pass",
            "score", "game_over"} <= types


def test_every_shipped_building_name_is_translated() -> None:
    """The building names of both shipped tables are Spanish messages too."""
    from ludoteca.games.queendomino.buildings import TABLES

    es = game.voice("es")
    es.catalog.missing.clear()
    for table in TABLES.values():
        for tile in table:
            assert es.t(tile.name) != tile.name
    assert not es.catalog.missing


@pytest.mark.parametrize(("players", "options"), SETUPS)
def test_events_never_say_more_than_the_views(players: int, options: dict[str, Any]) -> None:
    """DESIGN.md §2 per-viewer rule: every viewer gets the same events; every domino and
    building they name is in that viewer's view before or after the action; and re-dealing
    what stays hidden leaves every event unchanged."""
    rng = Rng(7)
    for before, seat, action, after, events in played(players, options, 1):
        assert all(e.private is None for e in events)
        other_before = redealt(before, after, rng)
        other_after = other_before.clone()
        game.apply(other_after, seat, action)
        others = game.narrate(other_before, seat, action, other_after)
        for viewer in (None, *range(players)):
            mine = for_viewer(events, viewer)
            assert mine == for_viewer(others, viewer)
            v0, v1 = game.view(before, viewer), game.view(after, viewer)
            assert dominoes(mine) <= dominoes(v0) | dominoes(v1)
            assert buildings(mine) <= buildings(v0) | buildings(v1)
            assert "pile" not in json.dumps(mine) and "rng" not in json.dumps(mine)


def narrated(s: QueendominoState, action: Any) -> list[dict[str, Any]]:
    (seat,) = game.to_act(s)
    before = game.clone(s)
    game.apply(s, seat, action)
    return for_viewer(game.narrate(before, seat, action, s), None)


def test_tax_says_what_the_coins_came_from(q) -> None:
    """rules/queendomino.md step B: the knight collects the size of its territory, plus what
    '+coin' buildings pay; the event splits the two."""
    s = q.started(4, seed=2)
    seat = q.seat_of(s)
    q.set_domino(s, 46)
    narrated(s, Place(1, 0, "E"))
    s.built[seat].append((24, 0))  # Safe (knight variant): +1 coin per knight at each tax
    (data,) = narrated(s, Knight(1, 0))
    assert data["type"] == "tax" and data["seat"] == seat and (data["x"], data["y"]) == (1, 0)
    assert data["bonus"] == 1 and data["coins"] == data["squares"] + 1
    assert "1 por sus edificios" in game.render_event(data, game.voice("es"))


def test_build_names_price_and_gains_and_the_queen_moves(q) -> None:
    """rules/queendomino.md step C and The Queen: a build names the building, square, price
    and what it gives; gaining the most towers brings the Queen."""
    s = q.started(4, seed=2)
    seat = q.seat_of(s)
    q.set_domino(s, 46)
    narrated(s, Place(1, 0, "E"))
    s.board[3] = 18  # Guardtower: 2 towers, 3 points
    build, queen = narrated(s, Build(3, 2, 0))
    assert build == {"type": "build", "seat": seat, "building": {"id": 18, "name": "Guardtower"},
                     "space": 3, "x": 2, "y": 0, "cost": 3, "crowns": 0, "towers": 2,
                     "knights": 0}
    assert queen == {"type": "queen", "seat": seat, "previous": None, "towers": 2}
    assert game.render_event(build, game.voice("en")) == (
        f"P{seat + 1} built the Guardtower on (2, 0) for 3 coins and gained 2 towers.")
    assert game.render_event(queen, game.voice("es")) == (
        f"La Reina llega al reino de P{seat + 1} (2 torres).")


def test_dragon_then_a_new_round(q) -> None:
    """rules/queendomino.md step D and New round: the Dragon's burn names the building; at the
    next round the Dragon goes home and the tiles newly drawn onto the board are named."""
    s = q.started(4, seed=2)
    seat = q.seat_of(s)
    narrated(s, game.legal_actions(s, seat)[0])
    burnt = s.board[4]
    (data,) = narrated(s, Dragon(4))
    assert data == {"type": "dragon", "seat": seat, "space": 4,
                    "building": {"id": burnt, "name": s.cfg.tiles[burnt - 1].name}, "cost": 1}
    board_before = set(s.board)
    last = []
    r = s.round
    while s.round == r:
        seat = q.seat_of(s)
        legal = game.legal_actions(s, seat)
        ends = [a for a in legal if type(a).__name__ in ("Claim", "Pass")]
        last = narrated(s, ends[0] if ends else legal[0])
    types = [e["type"] for e in last]
    assert "round" in types and "dragon_home" in types and types[-1] == "board"
    assert {b["id"] for b in last[-1]["buildings"]} == set(s.board) - board_before


def test_pass_and_final_scoring() -> None:
    """rules/queendomino.md step E and End-of-game scoring: in the last round the turn ends
    with ``pass``; the end gives each seat's total and parts, then the winners, as the outcome
    has them."""
    events = []
    for _, _, action, after, evs in played(2, {}, 6):
        events += for_viewer(evs, None)
        final = after
        if action == PASS:
            assert for_viewer(evs, None)[0]["type"] == "pass"
    outcome = final_outcome(final)
    scores = [e for e in events if e["type"] == "score"]
    assert [e["total"] for e in scores] == list(outcome.scores)
    for e in scores:
        assert e["total"] == e["territories"] + e["buildings"] + e["wealth"]
    assert events[-1]["type"] == "game_over" and events[-1]["winners"] == list(outcome.winners)
