"""The end of a match as players expect it (docs/protocol.md, "The end of a match"), over real
sockets of a real server on SQLite and PostgreSQL: the last move's message carries the result
(scores, ranks, each seat's score parts and, at a rated table, each seat's rating before and
after) to every viewer live; a rematch is an offer the others accept or decline, that bots
accept, that seats nobody and runs no clock until everyone accepted, and that expires."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.client import JSON, Player, Socket, in_parallel
from tests.server.conftest import Server

QUICK: dict[str, Any] = {"game": "kami", "players": 2, "options": {"target": 10}}
OFFER_SECONDS = 4


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    found = Server(database_url, tmp_path_factory.mktemp("server"),
                   LUDOTECA_REMATCH_SECONDS=str(OFFER_SECONDS))
    found.start()
    try:
        yield found
    finally:
        found.stop()


def finished_pair(people: Callable[..., Player], rated: bool, seed: int
                  ) -> tuple[Player, Player, JSON, list[Socket], list[JSON]]:
    ana, ben = people(f"end_a{seed}"), people(f"end_b{seed}")
    table = ana.create(**QUICK, rated=rated)
    ben.join(table["id"])
    socks = [ana.socket(table["id"]), ben.socket(table["id"])]
    watcher = people().socket(table["id"])
    finals = in_parallel(lambda: socks[0].play(random.Random(seed)),
                         lambda: socks[1].play(random.Random(seed + 1)))
    while watcher.state.get("status") != "finished":
        watcher.recv()
    # the finished summary follows the last move's update, ratings and all
    summary = table_message(watcher, lambda t: t["status"] == "finished")
    assert summary["result"] == watcher.state["result"]
    return ana, ben, table, socks, [*finals, watcher.state]


def table_message(sock: Socket, test: Callable[[JSON], bool]) -> JSON:
    found: JSON = sock.until(lambda m: m["type"] == "table" and test(m["table"]))["table"]
    return found


def test_the_last_move_tells_everyone_the_result_with_ratings(
    server: Server, people: Callable[..., Player]
) -> None:
    *_, finals = finished_pair(people, rated=True, seed=3)
    results = [f["result"] for f in finals]
    assert results[0] == results[1] == results[2]  # players and a spectator, live
    result = results[0]
    assert sorted(result["ranks"]) == [1, 2] and len(result["scores"]) == 2
    ratings = {r["seat"]: r for r in result["ratings"]}
    assert set(ratings) == {0, 1}
    winner = result["ranks"].index(1)
    assert ratings[winner]["after"] > ratings[winner]["before"]
    assert ratings[1 - winner]["after"] < ratings[1 - winner]["before"]
    for rating in ratings.values():  # the change, said by the server: no client subtracts
        assert rating["delta"] == round(rating["after"] - rating["before"], 2)
    assert isinstance(result["tie_broken"], list)
    assert finals[0]["status"] == "finished" and finals[0]["legal"] == []


def test_a_rematch_is_offered_declined_offered_again_and_accepted(
    server: Server, people: Callable[..., Player]
) -> None:
    ana, ben, table, (a, b), _ = finished_pair(people, rated=False, seed=5)
    seat_a = a.first["you"]
    seat_b = b.first["you"]
    a.send({"type": "rematch"})
    offer = table_message(b, lambda t: t["rematch_offer"] is not None)["rematch_offer"]
    assert offer["by"] == seat_a and offer["waiting"] == [seat_b] and offer["until"]
    said = [m for m in b.messages if m["type"] == "update"][-1]  # told before the table
    assert said["events"][0]["type"] == "rematch_offer" and "rematch" in said["events"][0]["text"]
    # nobody is seated anywhere yet, and no clock runs
    assert ben.ok(ben.http.get("/api/me/tables")) == []
    b.send({"type": "rematch", "accept": False})
    declined = table_message(a, lambda t: t["rematch_declined"] is not None)
    assert declined["rematch"] is None and declined["rematch_declined"] == seat_b
    assert declined["rematch_offer"] is None
    summary = ana.ok(ana.http.get(f"/api/tables/{table['id']}"))
    assert summary["rematch_offer"] is None and summary["rematch_declined"] == seat_b
    # offered again, over HTTP this time; accepted from the socket
    offered = ana.ok(ana.http.post(f"/api/tables/{table['id']}/rematch", json={"accept": True}))
    assert offered["rematch_offer"]["waiting"] == [seat_b] and offered["rematch"] is None
    assert offered["rematch_declined"] is None  # a new offer: the decline is past
    b.send({"type": "rematch", "accept": True})
    made = table_message(a, lambda t: t["rematch"] is not None)["rematch"]
    again = ana.ok(ana.http.get(f"/api/tables/{made}"))
    assert again["status"] == "playing" and again["rematch_offer"] is None
    old = ana.ok(ana.http.get(f"/api/tables/{table['id']}"))
    assert [s["user"] for s in again["seats"]] == [s["user"] for s in old["seats"]]
    assert [t["id"] for t in ben.ok(ben.http.get("/api/me/tables"))] == [made]
    # answering again changes nothing: the same rematch
    assert ben.ok(ben.http.post(f"/api/tables/{table['id']}/rematch"))["rematch"] == made


def test_an_offer_expires_and_bad_answers_are_refused(
    server: Server, people: Callable[..., Player]
) -> None:
    ana, _ben, table, (a, b), _ = finished_pair(people, rated=False, seed=7)
    seat_b = b.first["you"]
    b.send({"type": "rematch", "accept": "yes"})
    assert b.error()["code"] == "bad_request"
    a.send({"type": "rematch"})
    table_message(b, lambda t: t["rematch_offer"] is not None)
    time.sleep(OFFER_SECONDS + 0.5)
    assert ana.ok(ana.http.get(f"/api/tables/{table['id']}"))["rematch_offer"] is None
    b.send({"type": "rematch", "accept": False})
    error = b.error()
    assert error["code"] == "no_rematch_offer" and error["message"]
    # accepting an expired offer offers anew, from the one who answered
    b.send({"type": "rematch"})
    offer = table_message(a, lambda t: (t["rematch_offer"] or {}).get("by") == seat_b)
    assert offer["rematch_offer"]["waiting"] == [a.first["you"]]
    stranger = people()
    response = stranger.http.post(f"/api/tables/{table['id']}/rematch")
    assert response.status_code == 403 and response.json()["code"] == "not_seated"


def test_bots_accept_at_once_and_a_match_being_played_refuses(
    server: Server, people: Callable[..., Player], tmp_path: Path
) -> None:
    ana = people()
    table = ana.create(**QUICK, bots=["random"])
    sock = ana.socket(table["id"])
    sock.send({"type": "rematch"})
    assert sock.error()["code"] == "not_finished"
    sock.play(random.Random(1))
    sock.send({"type": "rematch"})
    made = table_message(sock, lambda t: t["rematch"] is not None)["rematch"]
    again = ana.ok(ana.http.get(f"/api/tables/{made}"))
    assert again["status"] == "playing" and [s["bot"] for s in again["seats"]] == [
        s["bot"] for s in table["seats"]]
