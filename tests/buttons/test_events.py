"""Buttons events: every move narrated, each viewer told no more than their next view shows,
every sentence in English and Spanish (DESIGN.md §2, docs/buttons.md "Events")."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ludoteca.engine.events import Event, for_viewer
from ludoteca.engine.i18n import ENGINE_LOCALE, Catalog, Voice
from ludoteca.engine.match import Match
from ludoteca.engine.rng import Rng
from ludoteca.games.buttons.actions import DECLINE, ROLL, STOP, Place
from ludoteca.games.buttons.events import COLOUR_WORDS
from ludoteca.games.buttons.grid import COLOURS, cell_of
from ludoteca.games.buttons.rules import GAME, apply_roll
from ludoteca.games.buttons.state import PLACE, STARS, TURN, ButtonsState

PRIVATE = {"answer", "pick"}
TYPES = {
    "roll", "bust", "offer", "answer", "place", "decline", "stop", "score", "choose", "pick",
    "stars", "trigger", "end", "round",
}


def bit(row: int, col: int) -> int:
    return 1 << cell_of(row, col)


def narrated(state: ButtonsState, seat: int, action: Any) -> list[Event]:
    """Apply ``action`` as the match driver does and return its events."""
    before = state.clone()
    GAME.apply(state, seat, action)
    return GAME.narrate(before, seat, action, state)


def seen(events: list[Event], viewer: int | None) -> list[dict[str, Any]]:
    return for_viewer(events, viewer)


def types(events: list[Event], viewer: int | None) -> list[str]:
    return [e["type"] for e in seen(events, viewer)]


def random_games() -> list[tuple[int, dict[str, str], int]]:
    """Every player count with every main option."""
    out = []
    for players in (2, 3, 4):
        for i, opts in enumerate([
            {},
            {"winner": "stars", "boards": "fixed"},
            {"layouts": "alternate"},
        ]):
            out.append((players, opts, 100 * players + i))
    return out


def check_against_view(
    before: ButtonsState, after: ButtonsState, seat: int, events: list[Event]
) -> None:
    """The per-viewer rule: each viewer's events say nothing its next view does not show."""
    n = after.cfg.players
    same_round = after.round == before.round and after.phase != STARS
    last_answer = before.phase == PLACE and before.waiting == 1 << seat
    for viewer in (*range(n), None):
        view = json.loads(json.dumps(GAME.view(after, viewer)))
        mine = seen(events, viewer)
        for e in mine:
            assert e["type"] in TYPES
            assert next(iter(e)) == "type"
            assert json.loads(json.dumps(e)) == e, "JSON-ready"
            if e["type"] in PRIVATE:  # told only to the seat that answered, as its view shows
                assert viewer == e["seat"] == seat
                if e["type"] == "answer":
                    cell = None if e["row"] is None else [e["row"], e["col"]]
                    assert view["you"]["pending"] == cell
                else:
                    assert [e["row"], e["col"]] in view["you"]["picks"]
            elif e["type"] == "roll" and same_round and after.dice:
                assert view["dice"] == {"white": e["white"], "gold": e["gold"],
                                        "black": e["black"]}
            elif e["type"] in ("place", "decline"):
                assert last_answer, "placements show only with the last answer"
                placed = view["seats"][e["seat"]]["last_placed"]
                if after.round == before.round:
                    assert placed == ([e["row"], e["col"]] if e["type"] == "place" else None)
                    if e["type"] == "place":
                        board = view["seats"][e["seat"]]["board"]
                        assert "RYGB"[COLOURS.index(e["colour"])] == board[e["row"] - 1][
                            e["col"] - 1]
            elif e["type"] == "offer":
                assert set(e["seats"]) <= set(view["deciders"])
            elif e["type"] == "score":
                got = view["history"][-1][e["seat"]]
                assert (got["result"], got["markers"], got["colours"], got["bonus"],
                        got["stars"]) == (e["result"], e["markers"], e["colours"], e["bonus"],
                                          e["stars"])
            elif e["type"] == "stars":
                have = view["seats"][e["seat"]]
                assert all(c in have["stars"] for c in e["cells"])
                assert have["star_count"] == e["total"]
            elif e["type"] == "end":
                assert view["result"]["scores"] == e["scores"]
                assert view["result"]["winners"] == e["winners"]
            elif e["type"] == "round":
                assert view["round"] == e["round"] and view["active"] == e["seat"]
                assert [p["cards"] for p in view["seats"]] == e["cards"]
        waiting = before.phase in (PLACE, STARS) and after.phase == before.phase
        if waiting and not last_answer and viewer != seat:
            # an answer that is not the last: nobody else hears anything (their view does
            # not change either, tests/buttons/test_properties.py)
            assert mine == []


@pytest.mark.parametrize(("players", "options", "seed"), random_games())
def test_random_games_narrate_every_move_within_each_view(
    players: int, options: dict[str, str], seed: int
) -> None:
    """rules/buttons.md §3-6: every action yields events; no viewer's events say more than
    that viewer's next view (other seats' pending answers and picks stay private)."""
    state = GAME.setup(options, players, seed)
    rng = Rng(seed)
    kinds: set[str] = set()
    while seats := sorted(GAME.to_act(state)):
        seat = seats[rng.below(len(seats))]
        legal = GAME.legal_actions(state, seat)
        action = legal[rng.below(len(legal))]
        before = state.clone()
        events = narrated(state, seat, action)
        assert before.ply + 1 == state.ply
        assert events, f"{action} by P{seat + 1} was not narrated"
        assert seen(events, seat), "the seat that acted always hears of it"
        check_against_view(before, state, seat, events)
        kinds |= {e["type"] for e in seen(events, seat)}
    assert {"roll", "place", "stop", "score", "stars", "end"} <= kinds


def test_a_hidden_answer_is_told_to_its_seat_only_then_all_show_together() -> None:
    """rules/buttons.md §3.2 item 3 and §8: a placement waits hidden until the last answer;
    then every placement (and decline) is told to everybody at once, the active first."""
    s = GAME.setup({"boards": "fixed"}, 4, 0)
    a = s.active
    b, c, d = ((a + i) % 4 for i in (1, 2, 3))
    apply_roll(s, (2, 3, 5, 5, 5, 5))
    assert GAME.to_act(s) == {a, b, c, d}
    first = narrated(s, b, Place(2, 3))
    assert seen(first, b) == [{"type": "answer", "seat": b, "row": 2, "col": 3}]
    assert all(seen(first, v) == [] for v in (a, c, d, None))
    second = narrated(s, d, DECLINE)
    assert seen(second, d) == [{"type": "answer", "seat": d, "row": None, "col": None}]
    assert all(seen(second, v) == [] for v in (a, b, c, None))
    narrated(s, a, Place(2, 5))
    last = narrated(s, c, Place(2, 3))
    for viewer in (a, b, c, d, None):
        assert [(e["type"], e["seat"]) for e in seen(last, viewer)] == [
            ("place", a), ("place", b), ("place", c), ("decline", d)
        ]
    place_b = seen(last, None)[1]
    assert place_b["gold"] is True and (place_b["row"], place_b["col"]) == (2, 3)
    assert seen(last, None)[0]["gold"] is False


def test_star_picks_stay_private_until_the_last() -> None:
    """rules/buttons.md §4: the markers a player picks for stars are told only to that player
    until everyone has picked; then every star placed is told to all."""
    s = GAME.setup({"boards": "fixed"}, 2, 0)
    a = s.active
    b = 1 - a
    s.markers[a] = bit(1, 1) | bit(1, 3) | bit(3, 1)
    s.markers[b] = bit(6, 6)
    stop_a = narrated(s, a, STOP)
    assert types(stop_a, b) == ["stop"]
    events = narrated(s, b, STOP)
    assert types(events, None) == ["stop", "score", "score", "choose"]
    assert seen(events, None)[-1]["seats"] == [a]
    assert GAME.to_act(s) == {a}, "b's one marker becomes its star: no choice (§9.2)"
    earned = s.earned[a]
    assert 1 <= earned < 3
    picked = []
    for _ in range(earned - 1):
        star = GAME.legal_actions(s, a)[0]
        events = narrated(s, a, star)
        picked.append([star.row, star.col])
        assert seen(events, a) == [{"type": "pick", "seat": a, "row": star.row,
                                    "col": star.col}]
        assert seen(events, b) == [] and seen(events, None) == []
    star = GAME.legal_actions(s, a)[0]
    events = narrated(s, a, star)
    picked.append([star.row, star.col])
    assert types(events, None) == ["stars", "stars", "round"]
    stars = {e["seat"]: e for e in seen(events, b)[:2]}
    assert stars[b]["cells"] == [[6, 6]] and stars[b]["total"] == 1
    assert stars[a]["cells"] == sorted(picked) and stars[a]["total"] == earned


def test_bust_roll_and_stop_events() -> None:
    """rules/buttons.md §3.1 and §3.2 item 5: a bust removes the markers and sets aside one
    white-pip die (two in 2 players); a stop sets the dice aside too."""
    s = GAME.setup({"boards": "fixed"}, 2, 0)
    a = s.active
    s.markers[a] = bit(3, 1) | bit(3, 3) | bit(3, 5)  # every cell of row 3 is blocked
    seed = 0
    while True:  # a generator whose next roll shows 3 on the white die (a bust here)
        s.rng = Rng(seed)
        probe = s.clone()
        GAME.apply(probe, a, ROLL)
        if probe.dice[0] == 3:
            break
        seed += 1
    events = narrated(s, a, ROLL)
    got = seen(events, None)
    assert got[0]["type"] == "roll" and got[0]["white"] == 3 and len(got[0]["black"]) == 4
    assert got[1] == {"type": "bust", "seat": a, "removed": [[3, 1], [3, 3], [3, 5]], "aside": 2}
    voice = GAME.voice("en", ["Ana", "Bruno"])
    assert GAME.render_event(got[1], voice) == (
        f"{voice.name(a)} cannot place and busts, losing 3 markers and setting aside "
        "2 black dice."
    )
    es = GAME.voice("es", ["Ana", "Bruno"])
    assert GAME.render_event(got[1], es) == (
        f"{es.name(a)} no puede colocar ningún botón y se pasa: pierde 3 botones y aparta "
        "2 dados negros."
    )
    assert GAME.render_event({"type": "stop", "seat": 0, "aside": 1}, es) == (
        "Ana se sale de la ronda y aparta 1 dado negro."
    )


def test_round_end_game_end_and_new_round() -> None:
    """rules/buttons.md §4 (stars won, with the reasons), §5 (cards pass, red starts) and §6
    (the trigger and the winner)."""
    s = GAME.setup({"boards": "fixed"}, 2, 0)
    a = s.active
    b = 1 - a
    s.stars[a] = bit(1, 1) | bit(1, 2) | bit(1, 3) | bit(1, 4)
    s.markers[a] = bit(1, 5)
    s.markers[b] = bit(6, 6)
    narrated(s, a, STOP)
    events = narrated(s, b, STOP)
    got = seen(events, None)
    assert [e["type"] for e in got] == ["stop", "score", "score", "stars", "stars", "trigger",
                                        "end"]
    trigger = got[-2]
    assert trigger["seat"] == a and trigger["line"] == [[1, c] for c in range(1, 6)]
    assert got[-1]["winners"] == [a] and got[-1]["scores"][a] == 100
    en = GAME.voice("en", ["Ana", "Bruno"])
    es = GAME.voice("es", ["Ana", "Bruno"])
    assert GAME.render_event(trigger, es) == (
        f"{es.name(a)} tiene 5 estrellas en línea: la partida termina."
    )
    assert GAME.render_event(got[-1], en).startswith(f"Game over: {en.name(a)} wins; scores: ")

    s = GAME.setup({"boards": "fixed"}, 3, 0)
    for _ in range(3):
        s.markers[s.active] = bit(6, 6)
        events = narrated(s, s.active, STOP)
    got = seen(events, None)
    assert got[-1]["type"] == "round" and got[-1]["round"] == 2 and s.phase == TURN
    assert got[-1]["seat"] == s.active and got[-1]["cards"][s.active][0] == "red"
    score = got[1]
    assert score["type"] == "score" and score["result"] == "stopped" and score["stars"] == 1
    assert GAME.render_event(
        {"type": "score", "seat": 0, "result": "stopped", "markers": 7, "colours": ["red", "blue"],
         "bonus": ["blue"], "stars": 4}, es
    ) == ("Ana gana 4 estrellas: 1 por salirse, 2 por colores con 3 botones o más (rojo y azul) "
          "y 1 por el color de bonificación azul.")
    assert GAME.render_event(
        {"type": "score", "seat": 1, "result": "busted", "markers": 0, "colours": [],
         "bonus": [], "stars": 0}, en
    ) == "Bruno busted this round and earns no star."


def test_every_event_renders_in_english_and_spanish_with_no_missing_message() -> None:
    """DESIGN.md §2: one sentence per event in each language; the Spanish catalog has every
    message any viewer's events need (``Catalog.missing`` stays empty)."""
    assert COLOUR_WORDS == COLOURS
    assert GAME.locale is not None and (GAME.locale / "es.po").is_file()
    catalogs = {lang: Catalog(lang, (ENGINE_LOCALE, GAME.locale)) for lang in ("en", "es")}
    seen_types: set[str] = set()
    for players, options, seed in random_games():
        match = Match.new(GAME, options, players, seed, names=["Ana", "Bruno", "Carla", "Dani"][
            :players])
        rng = Rng(seed + 7)
        while not match.is_over():
            seats = sorted(match.to_act())
            seat = seats[rng.below(len(seats))]
            legal = match.legal(seat)
            step = match.step(seat, legal[rng.below(len(legal))])
            for viewer in (*range(players), None):
                for data in step.events_for(viewer):
                    seen_types.add(data["type"])
                    for lang, cat in catalogs.items():
                        text = GAME.render_event(data, Voice(lang, match.names, catalog_=cat))
                        assert text and "\n" not in text and "{" not in text
                        assert text.endswith(".")
    assert catalogs["es"].missing == set()
    assert seen_types >= TYPES - {"bust", "trigger"}  # both covered by targeted tests too


def test_unknown_event_types_are_refused() -> None:
    """An event of another game is a programming error, not a sentence."""
    with pytest.raises(ValueError, match="not a Buttons event"):
        GAME.render_event({"type": "lead", "seat": 0}, GAME.voice("en"))


def test_narration_is_not_on_the_fast_path() -> None:
    """DESIGN.md §2: ``apply_legal`` builds no events; narrating reads states only (``before``
    is left as it was)."""
    s = GAME.setup(None, 3, 1)
    before = s.clone()
    GAME.apply(s, s.active, ROLL)
    copy = before.clone()
    GAME.narrate(before, before.active, ROLL, s)
    assert before == copy


def test_private_sentences() -> None:
    """rules/buttons.md §3.2 item 3 and §4: the answering seat reads its own hidden choice."""
    es = GAME.voice("es", ["Ana", "Bruno"])
    en = GAME.voice("en", ["Ana", "Bruno"])
    pick = {"type": "pick", "seat": 1, "row": 2, "col": 3}
    assert GAME.render_event(pick, es) == (
        "Bruno elige la fila 2, columna 3 para una estrella (se verá cuando todos hayan elegido)."
    )
    answer = {"type": "answer", "seat": 0, "row": None, "col": None}
    assert GAME.render_event(answer, en) == (
        "Ana chose not to place (revealed when everyone has answered)."
    )
    assert GAME.render_event({**answer, "row": 4, "col": 1}, es) == (
        "Ana elige la fila 4, columna 1 (se verá cuando todos hayan respondido)."
    )


def test_the_spanish_catalog_has_every_message_in_the_source() -> None:
    """Every message the renderer can ask for (as ``pybabel extract -k t -k nt:1,2 -k N_``
    finds them) has a Spanish entry, even those random games rarely reach."""
    from babel.messages.extract import extract_from_file

    from ludoteca.games.buttons import events

    found = extract_from_file(
        "python", events.__file__, keywords={"t": None, "nt": (1, 2), "N_": None}
    )
    ids = {m[1][0] if isinstance(m[1], tuple) else m[1] for m in found}
    assert len(ids) > 20
    spanish = Catalog("es", (GAME.locale,)).messages
    assert ids - set(spanish) == set()
