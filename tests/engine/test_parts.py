"""Teams, score parts and tie-break reasons as data (DESIGN.md §2, docs/engine.md "Outcome"),
checked on random games of every registered game and variant: the parts add up to each score,
the teams are the ones the rules name, the live view's parts are the outcome's at the end, the
outcome reads back from its JSON, and every part is said in Spanish."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from random_play import finished

from ludoteca.engine.game import Game, Outcome
from ludoteca.engine.i18n import ENGINE_LOCALE, Catalog, Voice
from ludoteca.engine.match import Match
from ludoteca.engine.parts import Part, TieBreak, render_parts, say, teams_of
from ludoteca.games import all_games

GAMES = {g.spec.name: g for g in all_games()}
CASES: list[tuple[str, int, dict[str, Any]]] = [
    (name, n, {}) for name, g in GAMES.items()
    for n in range(g.spec.min_players, g.spec.max_players + 1)
    if not (name == "queendomino" and n >= 5)
]
CASES += [
    ("queendomino", 5, {"royal_wedding": True}),
    ("queendomino", 6, {"royal_wedding": True}),
    ("queendomino", 6, {"royal_wedding": True, "teams": True}),
    ("queendomino", 8, {"royal_wedding": True, "teams": True}),
    ("kingdomino", 2, {"dynasty": True, "mighty_duel": True}),
    ("kingdomino", 4, {"harmony": True, "middle_kingdom": True}),
    ("kingdomino", 3, {"tiebreak": "bga"}),
    ("kami", 4, {"end_mode": "lord", "target": 10}),
    ("kami", 3, {"end_mode": "kami", "target": 10}),
    ("buttons", 3, {"winner": "stars"}),
]
IDS = [f"{name}-{n}p" + ("-" + "-".join(sorted(o)) if o else "") for name, n, o in CASES]
SEEDS = (1, 2)


def expected_teams(name: str, players: int, options: dict[str, Any]) -> list[list[int]]:
    """The sides as the rules name them: rules/kami.md A2.2 and B1, partners sit opposite at
    4; docs/rules/queendomino.md §8.10, seats s and s + n/2; else alone."""
    if name in ("kami", "goita") and players == 4:
        return [[0, 2], [1, 3]]
    if name == "queendomino" and options.get("teams"):
        half = players // 2
        return [[s, s + half] for s in range(half)]
    return [[s] for s in range(players)]


def play(game: Game[Any, Any], players: int, options: dict[str, Any], seed: int) -> Any:
    return finished(game, players, seed, options)


def side_of(view: dict[str, Any], seat: int) -> int:
    return next(i for i, team in enumerate(view["teams"]) if seat in team)


def view_parts(name: str, view: dict[str, Any], seat: int) -> list[dict[str, Any]] | None:
    """Where each game's view shows a seat's live score parts (None: not comparable)."""
    if name == "kingdomino":
        return None if view["games"] > 1 else view["kingdoms"][seat]["parts"]
    if name == "queendomino":
        return view["kingdoms"][side_of(view, seat)]["parts"]
    if name == "buttons":
        return view["seats"][seat]["parts"]
    return view["parts"][side_of(view, seat)]  # kami, goita


@pytest.mark.parametrize(("name", "players", "options"), CASES, ids=IDS)
def test_parts_add_up_teams_are_the_rules_and_the_view_agrees(
    name: str, players: int, options: dict[str, Any]
) -> None:
    game = GAMES[name]
    teams = expected_teams(name, players, options)
    for seed in SEEDS:
        state = play(game, players, options, seed)
        outcome = game.outcome(state)
        assert outcome is not None
        assert [list(t) for t in outcome.teams] == teams
        assert len(outcome.parts) == len(outcome.tiebreak) == players
        for seat in range(players):
            assert sum(p.points for p in outcome.parts[seat]) == outcome.scores[seat], seat
            assert [t.value for t in outcome.tiebreak[seat]] == [
                v for v in outcome.tiebreaks[seat]] or name == "buttons"
        for team in outcome.teams:  # partners share their side's score, parts and rank
            shared = {json.dumps([outcome.scores[s], outcome.ranks[s],
                                  [p.to_json() for p in outcome.parts[s]]]) for s in team}
            assert len(shared) == 1
        for viewer in (None, *range(players)):
            view = game.view(state, viewer)
            assert view["teams"] == teams
            for seat in range(players):
                shown = view_parts(name, view, seat)
                bga_line = any(p.id == "five_line" for p in outcome.parts[seat])
                if shown is not None and not bga_line:
                    assert shown == [p.to_json() for p in outcome.parts[seat]]
        data = json.loads(json.dumps(outcome.to_json()))
        assert Outcome.from_json(data) == outcome
        assert {"scores", "ranks", "winners", "tiebreaks", "breakdown", "teams", "parts",
                "tiebreak"} <= set(data)


@pytest.mark.parametrize(("name", "players", "options"), CASES, ids=IDS)
def test_every_part_is_said_in_spanish(name: str, players: int, options: dict[str, Any]) -> None:
    game = GAMES[name]
    folders = () if game.locale is None else (
        (game.locale,) if isinstance(game.locale, Path) else tuple(game.locale))
    catalog = Catalog("es", (ENGINE_LOCALE, *folders))
    voice = Voice("es", ["Ana", "Luis", "Eva", "Juan", "Rosa", "Pablo", "Marta", "Iker"],
                  catalog_=catalog)
    state = play(game, players, options, 3)
    outcome = game.outcome(state)
    assert outcome is not None
    said = render_parts(outcome.to_json(), voice)
    texts = [p["text"] for seat in said["parts"] for p in seat]
    texts += [t["text"] for seat in said["tiebreak"] for t in seat]
    assert texts and all("{" not in t for t in texts), texts
    view = render_parts(game.view(state, 0), voice)
    assert all("text" in p and "{" not in p["text"] for p in _all_parts(view))
    assert catalog.missing == set()


@pytest.mark.parametrize(("name", "players", "options"), CASES, ids=IDS)
def test_every_part_of_every_view_is_said_all_game_long(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """The server says each view's parts (render_parts prunes uniform lists of flat records):
    at every step of a match, in every seat's view and the spectator's, no part is left
    without its sentence, and the view itself is unchanged."""
    game = GAMES[name]
    voice = game.voice("en")
    match = Match.new(game, options, players, 5, narrate=False)
    rng = random.Random(5)
    sentences: dict[tuple[str, str], str] = {}
    memo: dict[int, tuple[Any, Any]] = {}  # as the server keeps them, all match long
    while True:
        for viewer in [*range(players), None]:
            view = game.view(match.state, viewer)
            before = json.dumps(view)
            said = render_parts(view, voice)
            assert json.dumps(view) == before
            assert all("text" in p for p in _all_parts(said))
            assert len(_all_parts(said)) == len(_all_parts(view))
            assert render_parts(view, voice, sentences, memo) == said
        if match.is_over():
            break
        seat = min(match.to_act())
        match.step(seat, rng.choice(match.legal(seat)))


def _all_parts(data: Any) -> list[dict[str, Any]]:
    if isinstance(data, dict):
        found = [data] if "id" in data and "msg" in data else []
        return found + [p for v in data.values() for p in _all_parts(v)]
    if isinstance(data, list):
        return [p for v in data for p in _all_parts(v)]
    return []


def test_render_parts_says_nested_messages_and_players_and_changes_nothing() -> None:
    part = Part("out", "Deal {round}, {player}: {why}", 3,
                {"round": 2, "player": {"seat": 1},
                 "why": {"msg": "last attack: {card}", "args": {"card": {"msg": "the Tower"}}}})
    data = {"parts": [[part.to_json()]],
            "tiebreak": [[TieBreak("won", "did not win the game", 0).to_json()]]}
    before = json.dumps(data)
    said = render_parts(data, Voice("en", ["Ana", "Luis"]))
    assert said["parts"][0][0]["text"] == "Deal 2, Luis: last attack: the Tower"
    assert said["tiebreak"][0][0]["text"] == "did not win the game"
    assert json.dumps(data) == before
    assert say(part.msg, part.args, Voice("en")) == "Deal 2, P2: last attack: the Tower"


def test_an_unchanged_kingdom_is_one_record_rendered_once() -> None:
    """Kingdomino hands out the same record for a kingdom whose placements did not change, and
    the server's memo (by identity) renders it once for every viewer and move."""
    game = GAMES["kingdomino"]
    match = Match.new(game, {}, 2, 3, narrate=False)
    rng = random.Random(3)
    while not any(match.view(None)["kingdoms"][s]["placements"] for s in (0, 1)):
        seat = min(match.to_act())
        match.step(seat, rng.choice(match.legal(seat)))
    first, second = match.view(0), match.view(1)
    assert first["kingdoms"][0] is second["kingdoms"][0]
    memo: dict[int, tuple[Any, Any]] = {}
    voice = game.voice("en")
    said = render_parts(first, voice, {}, memo)
    again = render_parts(second, voice, {}, memo)
    assert again["kingdoms"][0] is said["kingdoms"][0]
    assert again["kingdoms"][0]["parts"] == said["kingdoms"][0]["parts"]


def test_kingdomino_keeps_about_the_live_kingdoms() -> None:
    """Each kingdom kept is objects the server's cycle collector walks: a kingdom that grew is
    let go, so a whole match viewed at every step leaves only its two kingdoms."""
    from ludoteca.games.kingdomino import view as kingdomino_view

    kingdomino_view._KINGDOMS.clear()
    game = GAMES["kingdomino"]
    match = Match.new(game, {}, 2, 4, narrate=False)
    rng = random.Random(4)
    while not match.is_over():
        for viewer in (0, 1, None):
            match.view(viewer)
        seat = min(match.to_act())
        match.step(seat, rng.choice(match.legal(seat)))
    match.view(None)
    assert len(kingdomino_view._KINGDOMS) == 2


def test_teams_and_outcome_defaults() -> None:
    """An outcome that names no teams has one seat per side; an older stored result (without
    teams, parts or reasons) reads back that way."""
    assert teams_of([0, 1, 0, 1]) == ((0, 2), (1, 3))
    old = Outcome.from_json({"scores": [3, 5], "ranks": [2, 1], "tiebreaks": [[1], [2]]})
    assert old.teams == ((0,), (1,)) and old.parts == () and old.side_of == (0, 1)
