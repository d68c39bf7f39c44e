"""The coach's hints at a live table (issue 25): only for tables that allow them and never
rated ones; the move goes to the asking socket alone, everyone sees that a hint was used, and
the match record keeps it; on SQLite and PostgreSQL."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import httpx
import pytest
from websockets.sync.client import connect

from tests.server.client import JSON, Player, Socket, in_parallel
from tests.server.conftest import Server


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The server these tests run on (conftest's ``people`` make players on it)."""
    found = Server(database_url, tmp_path_factory.mktemp("coach"),
                   LUDOTECA_ANALYSIS_BUDGET="4", LUDOTECA_BOT_DELAY="0")
    found.start()
    try:
        yield found
    finally:
        found.stop()


def my_turn(sock: Socket) -> JSON:
    if not sock.state.get("legal"):
        sock.until(lambda m: m["type"] in ("full", "update") and bool(m.get("legal")))
    return sock.state


def test_a_hint_reaches_its_asker_alone_and_the_record_keeps_it(
    people: Callable[..., Player]
) -> None:
    ana, ben = people("ana_coach"), people("ben_coach")
    table = ana.create("kingdomino", 2, hints=True)
    assert table["hints"] is True
    ben.join(table["id"])
    mine, theirs = ana.socket(table["id"]), ben.socket(table["id"])
    asker, other = (mine, theirs) if my_turn_seat(mine) == 0 else (theirs, mine)
    state = my_turn(asker)
    asker.send({"type": "hint", "seq": state["seq"]})
    hint = asker.until(lambda m: m["type"] == "hint")
    assert hint["action"] in state["legal"] and hint["seq"] == state["seq"]
    assert "% chance to win" in hint["why"] and 0 <= hint["win"] <= 100
    told = other.until(lambda m: m["type"] == "update"
                       and any(e["type"] == "hint" for e in m["events"]))
    (event,) = told["events"]
    assert set(event) == {"type", "seat", "ply", "text"}  # that a hint was used, never which
    assert "asked the coach for a hint" in event["text"]
    assert all(m["type"] != "hint" for m in other.messages)
    assert json_free_of(other.raw, hint["why"])
    # asked again at the same decision: answered again, logged once
    assert asker.state["seq"] == state["seq"] + 1  # the note took a seq
    asker.send({"type": "hint", "seq": asker.state["seq"]})
    assert asker.until(lambda m: m["type"] == "hint")["action"] == hint["action"]
    in_parallel(lambda: mine.play(random.Random(1)), lambda: theirs.play(random.Random(2)))
    record = ana.ok(ana.http.get(f"/api/tables/{table['id']}/record"))
    assert record["hints"] == [[0, event["seat"]]]
    replay = ana.ok(ana.http.get(f"/api/tables/{table['id']}/replay", params={"at": 1}))
    assert replay["hints"] == [[0, event["seat"]]]


def my_turn_seat(sock: Socket) -> int:
    return int(sock.first["you"]) if sock.first.get("legal") else 1 - int(sock.first["you"])


def hints_chosen(base: str) -> float:
    text = httpx.get(base + "/metrics").text
    return float(next(x for x in text.splitlines() if x.startswith("ludoteca_hints ")).split()[1])


def json_free_of(raw: list[str], text: str) -> bool:
    return all(text not in line for line in raw)


def test_hints_are_refused_cleanly(people: Callable[..., Player]) -> None:
    cy = people("cy_coach", "es")
    refused = cy.http.post("/api/tables", json={"game": "kingdomino", "players": 2,
                                                "rated": True, "hints": True})
    assert refused.status_code == 400 and refused.json()["code"] == "hints_rated"
    assert "puntuar" in refused.json()["message"]
    plain = cy.create("kingdomino", 2, bots=["greedy"])
    sock = cy.socket(plain["id"])
    state = my_turn(sock)
    sock.send({"type": "hint", "seq": state["seq"]})
    assert sock.error()["code"] == "hints_off"
    coached = cy.create("kingdomino", 2, bots=["greedy"], hints=True)
    sock = cy.socket(coached["id"])
    state = my_turn(sock)
    sock.send({"type": "hint", "seq": state["seq"] + 5})
    assert sock.error()["code"] == "stale"
    sock.send({"type": "hint"})
    assert sock.error()["code"] == "bad_request"
    chosen = hints_chosen(cy.base)
    for _ in range(5):  # asked again and again: chosen once, answered each time
        sock.send({"type": "hint", "seq": state["seq"]})
    answers = [sock.until(lambda m: m["type"] == "hint") for _ in range(5)]
    assert all(a == answers[0] for a in answers)
    assert "probabilidad de ganar" in answers[0]["why"]  # in the asker's language
    assert hints_chosen(cy.base) == chosen + 1
    sock.send({"type": "ping"})
    assert sock.until(lambda m: m["type"] == "pong")  # the socket stayed open


def test_a_seat_asking_from_two_tabs_has_its_hint_chosen_once(
    server: Server, people: Callable[..., Player]
) -> None:
    """A player with two tabs open asks in both at once: the move is chosen once for the
    decision (``ludoteca_hints``), and each tab is answered. Whoever has no seat is refused:
    ``not_signed_in`` without a session, ``not_seated`` with one."""
    dee = people("dee_coach")
    table = dee.create("kingdomino", 2, bots=["greedy"], hints=True)["id"]
    one = dee.socket(table)
    state = my_turn(one)
    two = dee.socket(table)
    assert two.first["seq"] == state["seq"] and two.first["legal"] == state["legal"]
    chosen = hints_chosen(server.base)
    for sock in (one, two, one, two):
        sock.send({"type": "hint", "seq": state["seq"]})
    answers = [sock.until(lambda m: m["type"] == "hint") for sock in (one, two, one, two)]
    assert all(a == answers[0] for a in answers) and answers[0]["action"] in state["legal"]
    assert hints_chosen(server.base) == chosen + 1

    url = server.base.replace("http", "ws", 1) + f"/ws/tables/{table}"
    with connect(url, open_timeout=30) as ws:  # no session at all
        anonymous = Socket(ws)
        anonymous.send({"type": "hint", "seq": state["seq"]})
        assert anonymous.error()["code"] == "not_signed_in"
    stranger = people().socket(table)
    stranger.send({"type": "hint", "seq": state["seq"]})
    assert stranger.error()["code"] == "not_seated"
