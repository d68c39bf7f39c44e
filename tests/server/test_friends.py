"""Friends and challenges over real HTTP and WebSockets, on SQLite and PostgreSQL (issue 36):
following and the friends list (online, playing, a watch link only for public tables), what a
block refuses (follow, challenge, chat, a casual seat), and a challenge's life (a kept seat,
accepted, declined, withdrawn, expired), with every typed refusal in English and Spanish."""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable, Iterator

import pytest

from tests.server.client import JSON, Player, in_parallel
from tests.server.conftest import Server
from tests.server.test_notifications import events

Make = Callable[..., Player]
_names = itertools.count()


def fresh(stem: str) -> str:
    return f"{stem}{next(_names)}x{int(time.time() * 1000) % 100000}"


def refused(response: object, status: int, code: str) -> JSON:
    import httpx

    assert isinstance(response, httpx.Response)
    assert response.status_code == status, response.text
    body: JSON = response.json()
    assert body["code"] == code, body
    return body


def friends(p: Player) -> dict[str, JSON]:
    return {f["name"]: f for f in p.ok(p.http.get("/api/me/friends"))}


def challenge(p: Player, name: str, **body: object) -> JSON:
    found: JSON = p.ok(p.http.post(f"/api/users/{name}/challenge",
                                   json={"game": "kingdomino", **body}))
    return found


# ---- following and the friends list --------------------------------------------------------
def test_follow_friends_online_and_playing(people: Make) -> None:
    ana, bea, cai = people(fresh("ana")), people(fresh("bea")), people(fresh("cai"))
    ana.ok(ana.http.put(f"/api/users/{bea.name}/follow"))
    ana.ok(ana.http.put(f"/api/users/{bea.name}/follow"))  # twice is once
    ana.ok(ana.http.put(f"/api/users/{cai.name}/follow"))
    bea.ok(bea.http.put(f"/api/users/{ana.name}/follow"))
    listed = friends(ana)
    assert list(listed) == [bea.name, cai.name]
    assert listed[bea.name]["mutual"] and not listed[cai.name]["mutual"]
    assert not listed[bea.name]["online"] and listed[bea.name]["playing"] == []

    with events(bea.http):  # a page open: online
        assert friends(ana)[bea.name]["online"]
    end = time.monotonic() + 2  # closed: offline as soon as the server hears it close
    while friends(ana)[bea.name]["online"]:
        assert time.monotonic() < end, "still online after her page closed"
        time.sleep(0.05)
    # a public table being played shows its id (a watch link); a private one does not
    public = bea.create("kingdomino", 2, bots=["random"])
    private = cai.create("kingdomino", 2, bots=["random"], private=True)
    playing = friends(ana)
    assert playing[bea.name]["playing"] == [
        {"table": public["id"], "game": "kingdomino", "private": False}]
    assert playing[cai.name]["playing"] == [
        {"table": None, "game": "kingdomino", "private": True}]
    assert private["id"] not in str(playing)

    ana.ok(ana.http.delete(f"/api/users/{cai.name}/follow"))
    assert list(friends(ana)) == [bea.name]


def test_follow_refusals_in_both_languages(people: Make) -> None:
    ana, eva = people(fresh("ana")), people(fresh("eva"), lang="es")
    refused(ana.http.put(f"/api/users/{ana.name}/follow"), 400, "follow_self")
    body = refused(eva.http.put(f"/api/users/{eva.name}/follow"), 400, "follow_self")
    assert body["message"] == "No puedes seguirte a ti mismo."
    body = refused(eva.http.put("/api/users/nobodyhere99/follow"), 404, "no_such_user")
    assert body["message"] == "No existe el jugador nobodyhere99."
    refused(ana.http.put(f"/api/users/{ana.name}/block"), 400, "block_self")


# ---- blocks ---------------------------------------------------------------------------------
def test_a_block_refuses_follow_challenge_and_casual_seats(people: Make) -> None:
    ana, bad = people(fresh("ana"), lang="es"), people(fresh("bad"))
    bad.ok(bad.http.put(f"/api/users/{ana.name}/follow"))
    ana.ok(ana.http.put(f"/api/users/{bad.name}/block"))
    assert [b["name"] for b in ana.ok(ana.http.get("/api/me/blocks"))] == [bad.name]
    assert friends(bad) == {}  # the block ended their follow
    body = refused(bad.http.put(f"/api/users/{ana.name}/follow"), 403, "blocked")
    assert ana.me["display_name"] in body["message"]
    refused(bad.http.post(f"/api/users/{ana.name}/challenge", json={"game": "kingdomino"}),
            403, "blocked")
    casual = ana.create("kingdomino", 2)
    refused(bad.http.post(f"/api/tables/{casual['id']}/join", json={}), 403, "blocked")
    rated = ana.create("kingdomino", 2, rated=True)  # only casual tables keep them out
    bad.join(rated["id"])
    # the blocked may still be challenged by the one who blocks, and unblocking lifts it all
    ana.ok(ana.http.delete(f"/api/users/{bad.name}/block"))
    bad.ok(bad.http.put(f"/api/users/{ana.name}/follow"))
    other = ana.create("kingdomino", 2)
    bad.join(other["id"])


def test_a_blocked_player_cannot_chat_at_your_table(people: Make) -> None:
    ana, bad = people(fresh("ana")), people(fresh("bad"), lang="es")
    table = ana.create("kingdomino", 3, rated=True)
    bad.join(table["id"])
    ana.ok(ana.http.put(f"/api/users/{bad.name}/block"))
    mine, theirs = ana.socket(table["id"]), bad.socket(table["id"])
    theirs.send({"type": "chat", "text": "hola"})
    error = theirs.error()
    assert error["code"] == "chat_blocked"
    assert error["message"] == "Alguien en esta mesa te ha bloqueado: tu mensaje no se ha enviado."
    mine.send({"type": "chat", "text": "still here"})  # the one who blocks still speaks
    assert theirs.until(lambda m: m.get("type") == "chat")["line"]["text"] == "still here"
    assert all("hola" not in raw for raw in mine.raw)


# ---- challenges -----------------------------------------------------------------------------
def test_challenge_accepted_takes_the_kept_seat_and_starts(people: Make) -> None:
    ana, bea, cai = people(fresh("ana")), people(fresh("bea"), lang="es"), people(fresh("cai"))
    with events(bea.http) as heard:
        made = challenge(ana, bea.name, mode="turn", turn_hours=24.0, rated=True)
        told = heard.until(lambda kind, data: data.get("type") == "challenge")
    assert told["challenge"]["id"] == made["id"]
    assert made["status"] == "open" and made["rated"] and made["mode"] == "turn"
    assert made["challenger"] == ana.name and made["challenged"] == bea.name
    table = made["table"]
    # the kept seat is nobody else's, not a bot's, and not in the lobby
    listed = {t["id"] for t in ana.ok(ana.http.get("/api/tables"))}
    assert table not in listed
    invite = ana.ok(ana.http.get(f"/api/tables/{table}"))["invite"]
    refused(cai.http.post(f"/api/tables/{table}/join", json={"invite": invite}), 409,
            "table_full")
    assert [c["id"] for c in bea.ok(bea.http.get("/api/me/challenges"))] == [made["id"]]
    refused(cai.http.post(f"/api/challenges/{made['id']}/accept"), 403, "not_your_challenge")
    refused(cai.http.get(f"/api/challenges/{made['id']}"), 403, "not_your_challenge")
    refused(ana.http.post(f"/api/challenges/{made['id']}/accept"), 403, "not_your_challenge")
    with events(ana.http) as heard:
        accepted = bea.ok(bea.http.post(f"/api/challenges/{made['id']}/accept"))
        assert heard.until(lambda kind, data: data.get("type") == "challenge"
                           )["challenge"]["status"] == "accepted"
    assert accepted["status"] == "accepted"
    seen = bea.ok(bea.http.get(f"/api/tables/{table}"))
    assert seen["status"] == "playing"
    assert [s["user"] for s in seen["seats"]] == [ana.name, bea.name]
    body = refused(bea.http.post(f"/api/challenges/{made['id']}/accept"), 409,
                   "challenge_answered")
    assert body["message"] == "Este desafío ya tiene respuesta."
    assert bea.ok(bea.http.get("/api/me/challenges")) == []


def test_challenge_declined_or_withdrawn_gives_the_table_up(people: Make) -> None:
    ana, bea = people(fresh("ana")), people(fresh("bea"))
    made = challenge(ana, bea.name)
    refused(ana.http.post(f"/api/tables/{made['table']}/bots", json={"level": "random"}),
            409, "table_full")  # no bot takes the kept seat either
    with events(ana.http) as heard:
        declined = bea.ok(bea.http.post(f"/api/challenges/{made['id']}/decline"))
        assert heard.until(lambda kind, data: data.get("type") == "challenge"
                           )["challenge"]["status"] == "declined"
    assert declined["status"] == "declined"
    assert ana.ok(ana.http.get(f"/api/tables/{made['table']}"))["status"] == "abandoned"
    refused(bea.http.post(f"/api/challenges/{made['id']}/accept"), 409, "challenge_answered")
    again = challenge(ana, bea.name)
    assert ana.ok(ana.http.post(f"/api/challenges/{again['id']}/decline"))["status"] == \
        "withdrawn"
    refused(bea.http.post(f"/api/challenges/{again['id']}/accept"), 410, "challenge_expired")


def test_challenge_refusals(people: Make) -> None:
    ana, eva = people(fresh("ana")), people(fresh("eva"), lang="es")
    guest = people()
    body = refused(eva.http.post(f"/api/users/{eva.name}/challenge",
                                 json={"game": "kingdomino"}), 400, "challenge_self")
    assert body["message"] == "No puedes desafiarte a ti mismo."
    refused(ana.http.post("/api/users/nobodyhere99/challenge", json={"game": "kingdomino"}),
            404, "no_such_user")
    refused(ana.http.post(f"/api/users/{guest.name}/challenge", json={"game": "kingdomino"}),
            400, "challenge_guest")
    refused(ana.http.post(f"/api/users/{eva.name}/challenge", json={"game": "nope"}), 400,
            "no_such_game")
    refused(ana.http.post(f"/api/users/{eva.name}/challenge",
                          json={"game": "kingdomino", "surprise": 1}), 422, "bad_request")
    body = refused(eva.http.post("/api/challenges/zzzz/accept"), 404, "no_such_challenge")
    assert body["message"] == "No hay ningún desafío zzzz."


# ---- expiry ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def quick(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose challenges expire after 1.2 s and whose housekeeping runs every 0.5 s."""
    found = Server(database_url, tmp_path_factory.mktemp("quick"),
                   LUDOTECA_CHALLENGE_MINUTES="0.02", LUDOTECA_HOUSEKEEPING_SECONDS="0.5")
    found.start()
    try:
        yield found
    finally:
        found.stop()


def test_an_unanswered_challenge_expires_and_its_table_is_given_up(
        people: Make, quick: Server) -> None:
    ana, eva = people(fresh("ana"), base=quick.base), people(fresh("eva"), "es", quick.base)
    with events(ana.http) as heard:
        made = challenge(ana, eva.name)
        expired = heard.until(lambda kind, data: data.get("type") == "challenge")
    assert expired["challenge"]["status"] == "expired"
    assert ana.ok(ana.http.get(f"/api/tables/{made['table']}"))["status"] == "abandoned"
    body = refused(eva.http.post(f"/api/challenges/{made['id']}/accept"), 410,
                   "challenge_expired")
    assert body["message"] == "Este desafío ha caducado o se ha retirado."


# ---- the player page's numbers --------------------------------------------------------------
def play_challenge(ana: Player, bea: Player, rng: random.Random, **body: object) -> JSON:
    """Ana challenges Bea, Bea accepts, both play randomly to the end: the table's result."""
    made = challenge(ana, bea.name, **body)
    bea.ok(bea.http.post(f"/api/challenges/{made['id']}/accept"))
    table = made["table"]
    mine, theirs = ana.socket(table), bea.socket(table)
    in_parallel(lambda: mine.play(random.Random(rng.random())),
                lambda: theirs.play(random.Random(rng.random())))
    mine.close()
    theirs.close()
    found: JSON = ana.ok(ana.http.get(f"/api/tables/{table}"))
    return found


def test_the_player_page_counts_what_the_results_say(people: Make) -> None:
    ana, bea = people(fresh("ana")), people(fresh("bea"))
    rng = random.Random(36)
    played = [play_challenge(ana, bea, rng, rated=True) for _ in range(2)]
    played.append(play_challenge(ana, bea, rng, rated=False,
                                 options={"harmony": True}))
    deadline = time.monotonic() + 30
    while True:  # the ratings are taken in just after the match's end is told
        page = ana.ok(ana.http.get(f"/api/users/{ana.name}"))
        [stats] = page["stats"]
        if len(stats["rating"]) == 2 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    scores = [t["result"]["scores"][0] for t in played]
    assert stats["game"] == "kingdomino" and stats["matches"] == 3
    assert stats["wins"] == sum(t["result"]["ranks"][0] == 1 for t in played)
    assert stats["best_score"] == max(scores)
    assert stats["mean_score"] == round(sum(scores) / 3, 2)
    assert [r[1] for r in stats["rating"]][-1] == next(
        r["rating"] for r in page["ratings"] if r["pool"] == "all" and r["game"] == "kingdomino")
    assert len(stats["rating"]) == 2  # the casual match moves no rating
    assert stats["favourite_options"][0]["matches"] == 2
    assert stats["favourite_options"][1]["options"]["harmony"] is True
    assert {m["id"] for m in page["matches"]} == {t["id"] for t in played}
    assert all(m["analysed"] is False for m in page["matches"])


# ---- a hostile client -----------------------------------------------------------------------
def test_a_challenge_flood_and_foreign_pages_are_refused(people: Make) -> None:
    import httpx

    ana, bea = people(fresh("ana")), people(fresh("bea"))
    made = [challenge(ana, bea.name) for _ in range(10)]  # each is a table ana hosts
    refused(ana.http.post(f"/api/users/{bea.name}/challenge", json={"game": "kingdomino"}),
            429, "too_many_tables")
    assert len(bea.ok(bea.http.get("/api/me/challenges"))) == len(made)
    # a state change from another site's page, or with no page and no client name: refused
    cookies = dict(ana.http.cookies.items())
    with httpx.Client(base_url=ana.base, cookies=cookies) as bare:
        refused(bare.put(f"/api/users/{bea.name}/follow", headers={
            "origin": "https://evil.example"}), 403, "bad_origin")
        refused(bare.put(f"/api/users/{bea.name}/block"), 403, "no_origin")
        refused(bare.post(f"/api/challenges/{made[0]['id']}/decline"), 403, "no_origin")
    assert friends(ana) == {}
    # another's challenge cannot be answered, nor a long id make trouble
    refused(ana.http.post(f"/api/challenges/{'x' * 500}/accept"), 404, "no_such_challenge")
    refused(bea.http.put(f"/api/users/{'y' * 300}/follow"), 404, "no_such_user")
