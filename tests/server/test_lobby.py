"""The lobby over real HTTP: games and their options, creating tables (and every way to get it
wrong), public and private tables, seats, bots, rematches, ratings and history (SQLite and
PostgreSQL)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import httpx

from ludoteca.games import game_names
from tests.server.client import CLIENT, JSON, Player, in_parallel
from tests.server.conftest import Server

GAMES = set(game_names())
QUICK: dict[str, Any] = {"game": "kami", "players": 2, "options": {"target": 10}}
"""The quickest whole match: 2-player Kami to 10 points (about a hundred moves)."""


def refused(response: httpx.Response, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["type"] == "error" and body["code"] == code, body
    assert body["message"], body
    return str(body["message"])


def lobby(server: Server) -> list[JSON]:
    found: list[JSON] = httpx.get(server.base + "/api/tables", timeout=30).json()
    return found


def lobby_ids(server: Server) -> set[str]:
    return {t["id"] for t in lobby(server)}


def options_from(spec: JSON, players: int) -> dict[str, Any]:
    """A value for every option of the schema that applies to ``players``, away from its
    default where the schema offers another."""
    out: dict[str, Any] = {}
    for option in spec["options"]:
        if option["players"] and players not in option["players"]:
            continue
        if option["type"] == "bool":
            out[option["name"]] = not option["default"]
        elif option["choices"]:
            out[option["name"]] = option["choices"][-1]
        else:
            out[option["name"]] = option["default"]
    return out


def play_out(player: Player, table: str, seed: int) -> JSON:
    sock = player.socket(table)
    try:
        return sock.play(random.Random(seed))
    finally:
        sock.close()


def test_games_and_their_options(server: Server, people: Callable[..., Player]) -> None:
    games = httpx.get(server.base + "/api/games", timeout=30).json()
    # the same list, compressed for a client that takes gzip and plain for one that does not
    packed = httpx.get(server.base + "/api/games", headers={"Accept-Encoding": "gzip"})
    plain = httpx.get(server.base + "/api/games", headers={"Accept-Encoding": "identity"})
    assert packed.headers["content-encoding"] == "gzip" and packed.json() == games
    assert "content-encoding" not in plain.headers and plain.json() == games
    assert int(packed.headers["content-length"]) * 3 < int(plain.headers["content-length"])
    assert {g["name"] for g in games} == GAMES
    host = people("Opciones")
    for spec in games:
        assert spec["title"] and 2 <= spec["min_players"] <= spec["max_players"]
        assert "random" in spec["bots"] and "greedy" in spec["bots"]
        renderer = httpx.get(server.base + spec["web"], timeout=30)  # from the game's folder
        assert renderer.status_code == 200 and "export default" in renderer.text
        for option in spec["options"]:  # labelled in every language by the game itself
            assert all(spec["labels"][lang].get(option["name"]) for lang in ("en", "es"))
            assert {"name", "type", "default", "choices", "min", "max", "description",
                    "players"} <= set(option)
            assert option["type"] in ("bool", "int", "str")
            if option["type"] == "int":  # a form can offer the range it will accept
                assert option["min"] <= option["default"] <= option["max"]
            if option["choices"]:
                assert option["default"] in option["choices"]
        players = spec["min_players"]
        options = options_from(spec, players)
        table = host.create(spec["name"], players, options=options)
        assert table["status"] == "open" and table["game"] == spec["name"]
        assert table["players"] == players and len(table["seats"]) == players
        # the chosen options come back as chosen, the rest (that apply) at their default
        assert {k: table["options"][k] for k in options} == options
        defaults = {o["name"]: o["default"] for o in spec["options"]}
        assert set(table["options"]) <= set(defaults)
        assert all(v == defaults[k] for k, v in table["options"].items() if k not in options)
        assert table["seats"][0]["user"] == "Opciones" and table["host"] == "Opciones"
        assert table["invite"]
        assert table["id"] in lobby_ids(server)
        assert host.ok(host.http.get(f"/api/tables/{table['id']}"))["options"] == \
            table["options"]


def test_bad_tables_are_refused_and_change_nothing(
    server: Server, people: Callable[..., Player]
) -> None:
    host = people("Torpe")
    before = lobby_ids(server)
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"game": "kami", "options": {"target": 9}}, 400, "bad_option"),
        ({"game": "kami", "options": {"target": "many"}}, 400, "bad_option"),
        ({"game": "kami", "options": {"end_mode": "sudden"}}, 400, "bad_option"),
        ({"game": "kami", "options": {"colour": "red"}}, 400, "bad_option"),
        ({"game": "kingdomino", "players": 4, "options": {"mighty_duel": True}}, 400,
         "bad_option"),
        ({"game": "kami", "options": ["target"]}, 422, "bad_request"),
        ({"game": "kami", "players": 5}, 400, "bad_option"),
        ({"game": "goita", "players": 2}, 400, "bad_option"),
        ({"game": "kami", "players": 1}, 400, "bad_option"),
        ({"game": "kami", "players": "two"}, 422, "bad_request"),
        ({"game": "chess"}, 400, "no_such_game"),
        ({"game": "kami", "bank_seconds": 5}, 400, "bad_clock"),
        ({"game": "kami", "bank_seconds": 4 * 3600}, 400, "bad_clock"),
        ({"game": "kami", "increment_seconds": -1}, 400, "bad_clock"),
        ({"game": "kami", "mode": "turn", "turn_hours": 0.5}, 400, "bad_clock"),
        ({"game": "kami", "mode": "turn", "turn_hours": 15 * 24}, 400, "bad_clock"),
        ({"game": "kami", "mode": "blitz"}, 422, "bad_request"),
        ({"game": "kami", "bots": ["godlike"]}, 400, "bad_bot"),
        ({"game": "kami", "players": 3, "bots": [None, "Hard!"]}, 400, "bad_bot"),
        ({"game": "kami", "bots": [7]}, 422, "bad_request"),
        ({"players": 2}, 422, "bad_request"),
    ]
    for body, status, code in cases:
        response = host.http.post("/api/tables", json={"players": 2, **body})
        refused(response, status, code)
    assert lobby_ids(server) == before
    assert host.ok(host.http.get("/api/me/tables")) == []
    with httpx.Client(base_url=server.base, headers=CLIENT) as anyone:
        refused(anyone.post("/api/tables", json={"game": "kami", "players": 2}),
                401, "not_signed_in")
    assert lobby_ids(server) == before
    refused(httpx.get(server.base + "/api/leaderboard/chess"), 404, "no_such_game")
    refused(httpx.get(server.base + "/api/tables/nosuch"), 404, "no_such_table")


def test_private_tables_need_their_invite(
    server: Server, people: Callable[..., Player]
) -> None:
    host, guest, stranger = people("Anfitrion"), people("Invitada"), people("Extrano")
    public = host.create("kingdomino", 3)
    private = host.create("kingdomino", 3, private=True)
    secret = private["invite"]
    tid = private["id"]
    listed = lobby_ids(server)
    assert public["id"] in listed and tid not in listed
    assert "invite" not in httpx.get(f"{server.base}/api/tables/{public['id']}").json()

    refused(stranger.http.get(f"/api/tables/{tid}"), 403, "wrong_invite")
    refused(httpx.get(f"{server.base}/api/tables/{tid}"), 403, "wrong_invite")
    refused(stranger.http.get(f"/api/tables/{tid}", params={"invite": "guess"}),
            403, "wrong_invite")
    refused(stranger.http.post(f"/api/tables/{tid}/join", json={}), 403, "wrong_invite")
    refused(stranger.http.post(f"/api/tables/{tid}/join", json={"invite": "guess"}),
            403, "wrong_invite")
    seen = stranger.ok(stranger.http.get(f"/api/tables/{tid}", params={"invite": secret}))
    assert seen["id"] == tid and "invite" not in seen  # viewers do not get to pass it on
    joined = guest.join(tid, invite=secret)
    assert joined["seats"][1]["user"] == "Invitada" and joined["invite"] == secret
    # once seated, the table is theirs to look at without the link
    assert guest.ok(guest.http.get(f"/api/tables/{tid}"))["id"] == tid
    assert tid in {t["id"] for t in guest.ok(guest.http.get("/api/me/tables"))}
    assert tid not in lobby_ids(server)
    refused(stranger.http.get(f"/api/tables/{tid}/record"), 403, "wrong_invite")
    refused(stranger.http.get(f"/api/tables/{tid}/replay"), 403, "wrong_invite")


def test_seats_bots_and_the_start(server: Server, people: Callable[..., Player]) -> None:
    host, ana, ben = people("Sentada"), people("Ana_l"), people("Ben_l")
    table = host.create("kingdomino", 4)
    tid = table["id"]
    assert [s["user"] for s in table["seats"]] == ["Sentada", None, None, None]

    refused(ana.http.post(f"/api/tables/{tid}/join", json={"seat": 0}), 409, "seat_taken")
    refused(ana.http.post(f"/api/tables/{tid}/join", json={"seat": 4}), 400, "no_such_seat")
    refused(ana.http.post(f"/api/tables/{tid}/join", json={"seat": -1}), 400, "no_such_seat")
    refused(host.http.post(f"/api/tables/{tid}/join", json={}), 409, "already_seated")
    refused(ana.http.post("/api/tables/nosuch/join", json={}), 404, "no_such_table")
    table = ana.join(tid, seat=2)
    assert table["seats"][2]["user"] == "Ana_l" and table["status"] == "open"

    # leaving before the start frees the seat
    left = ana.ok(ana.http.post(f"/api/tables/{tid}/leave"))
    assert left["seats"][2]["user"] is None and left["status"] == "open"
    refused(ana.http.post(f"/api/tables/{tid}/leave"), 403, "not_seated")
    assert "Ana_l" not in {s["user"] for s in lobby(server) for s in s["seats"]}

    # bots: only for the host or a seated player, a known level, a free seat
    refused(ana.http.post(f"/api/tables/{tid}/bots", json={"level": "random"}),
            403, "not_seated")
    refused(host.http.post(f"/api/tables/{tid}/bots", json={"level": "genius"}),
            400, "bad_bot")
    refused(host.http.post(f"/api/tables/{tid}/bots", json={"level": "random", "seat": 0}),
            409, "seat_taken")
    refused(host.http.post(f"/api/tables/{tid}/bots", json={"level": "random", "seat": 9}),
            400, "no_such_seat")
    refused(host.http.post(f"/api/tables/{tid}/bots", json={}), 422, "bad_request")
    table = host.ok(host.http.post(f"/api/tables/{tid}/bots",
                                   json={"level": "random", "seat": 1}))
    assert table["seats"][1]["bot"] == "random" and table["seats"][1]["name"]
    table = ana.join(tid)
    assert table["seats"][2]["user"] == "Ana_l" and table["status"] == "open"
    table = ana.ok(ana.http.post(f"/api/tables/{tid}/bots", json={"level": "greedy"}))
    assert table["seats"][3]["bot"] == "greedy"
    # the table was full, so it started
    assert table["status"] == "playing" and table["started_at"]
    refused(ben.http.post(f"/api/tables/{tid}/join", json={}), 409, "not_open")
    refused(host.http.post(f"/api/tables/{tid}/bots", json={"level": "random"}),
            409, "not_open")
    assert {t["id"]: t["status"] for t in lobby(server)}[tid] == "playing"
    mine = {t["id"]: t for t in ana.ok(ana.http.get("/api/me/tables"))}
    assert mine[tid]["status"] == "playing"
    refused(ana.http.get(f"/api/tables/{tid}/record"), 409, "not_finished")
    refused(ana.http.post(f"/api/tables/{tid}/rematch"), 409, "not_finished")

    # leaving a table being played hands the seat to a bot for good
    gone = ana.ok(ana.http.post(f"/api/tables/{tid}/leave"))
    assert gone["seats"][2]["zombie"] is True and gone["zombie"] is True

    # the last person leaving an open table abandons it
    lonely = host.create("buttons", 2)
    host.ok(host.http.post(f"/api/tables/{lonely['id']}/leave"))
    assert lonely["id"] not in lobby_ids(server)
    assert lonely["id"] not in {t["id"] for t in host.ok(host.http.get("/api/me/tables"))}


def test_rematch_after_a_game_with_a_bot(server: Server, people: Callable[..., Player]) -> None:
    host, other = people("Revancha"), people("Mirona")
    before = host.ok(host.http.get("/api/users/Revancha"))
    table = host.create(**QUICK, bots=["random"])  # rated with a bot: tests/server/test_waiting.py
    assert table["status"] == "playing"
    final = play_out(host, table["id"], 3)
    assert final["status"] == "finished" and final["result"]["ranks"]
    refused(other.http.post(f"/api/tables/{table['id']}/rematch"), 403, "not_seated")
    # a finished table nobody watched has left memory; its socket still opens on the end
    for viewer in (host, other):
        sock = viewer.socket(table["id"])
        try:
            full = sock.first
            assert full["type"] == "full" and full["table"]["status"] == "finished"
            assert full["legal"] == [] and full["view"] is not None
            sock.send({"type": "ping"})
            assert sock.recv()["type"] == "pong"
        finally:
            sock.close()
    # a finished table (no longer live in the server) refuses seat changes at once
    refused(other.http.post(f"/api/tables/{table['id']}/join", json={}), 409, "not_open")
    refused(host.http.post(f"/api/tables/{table['id']}/bots", json={"level": "random"}),
            409, "not_open")
    refused(host.http.post(f"/api/tables/{table['id']}/leave"), 409, "not_playing")
    refused(other.http.post(f"/api/tables/{table['id']}/leave"), 403, "not_seated")
    # the bot accepts at once: the offer makes the rematch
    offered = host.ok(host.http.post(f"/api/tables/{table['id']}/rematch"))
    assert offered["id"] == table["id"] and offered["rematch"]
    again = host.ok(host.http.get(f"/api/tables/{offered['rematch']}"))
    assert again["id"] != table["id"] and again["status"] == "playing"
    assert again["options"] == table["options"] and again["game"] == "kami"
    assert [(s["user"], s["bot"]) for s in again["seats"]] == [
        (s["user"], s["bot"]) for s in table["seats"]]
    assert (again["mode"], again["bank_seconds"], again["rated"]) == (
        table["mode"], table["bank_seconds"], table["rated"])
    old = host.ok(host.http.get(f"/api/tables/{table['id']}"))
    assert old["rematch"] == again["id"]
    # asking twice gives the same new table
    assert host.ok(host.http.post(f"/api/tables/{table['id']}/rematch"))["rematch"] == again["id"]
    record = host.ok(host.http.get(f"/api/tables/{table['id']}/record"))
    assert record["result"]["ranks"] == final["result"]["ranks"]
    # a match with a bot in it is not rated
    page = host.ok(host.http.get("/api/users/Revancha"))
    assert page["ratings"] == before["ratings"] == []
    assert [m["id"] for m in page["matches"]] == [table["id"]]
    assert page["matches"][0]["ranks"] == final["result"]["ranks"]
    assert page["matches"][0]["rated"] is False
    assert "ratings" not in (final["result"] or {})
    leaders = httpx.get(server.base + "/api/leaderboard/kami").json()
    assert "Revancha" not in {r["name"] for r in leaders}


def test_rated_game_between_two_people(server: Server, people: Callable[..., Player]) -> None:
    ana, ben = people("Rated_a"), people("Rated_b")
    table = ana.create(**QUICK, rated=True)
    assert ben.join(table["id"])["status"] == "playing"
    finals = in_parallel(lambda: play_out(ana, table["id"], 11),
                         lambda: play_out(ben, table["id"], 12))
    ranks = finals[0]["result"]["ranks"]
    assert ranks == finals[1]["result"]["ranks"] and sorted(ranks) == [1, 2]
    winner, loser = ("Rated_a", "Rated_b") if ranks[0] == 1 else ("Rated_b", "Rated_a")

    board = {r["name"]: r for r in httpx.get(server.base + "/api/leaderboard/kami").json()}
    assert board[winner]["games"] == board[loser]["games"] == 1
    assert board[winner]["rating"] > board[loser]["rating"]
    assert board[winner]["mu"] > board[loser]["mu"]
    names = [r["name"] for r in httpx.get(server.base + "/api/leaderboard/KAMI").json()]
    assert names.index(winner) < names.index(loser)
    assert httpx.get(server.base + "/api/leaderboard/goita").json() == []
    summary = ana.ok(ana.http.get(f"/api/tables/{table['id']}"))
    seat_of = {s["user"]: s["seat"] for s in summary["seats"]}
    rated = {r["seat"]: r for r in summary["result"]["ratings"]}
    assert rated[seat_of[winner]]["after"] == board[winner]["rating"]
    assert rated[seat_of[loser]]["after"] < rated[seat_of[loser]]["before"] + 1e-9
    assert finals[0]["result"]["ratings"] == summary["result"]["ratings"]  # told live

    # an unrated match between the same two changes no rating
    casual = ben.create(**QUICK)
    ana.join(casual["id"])
    in_parallel(lambda: play_out(ana, casual["id"], 21), lambda: play_out(ben, casual["id"], 22))
    after = {r["name"]: r for r in httpx.get(server.base + "/api/leaderboard/kami").json()}
    assert after[winner] == board[winner] and after[loser] == board[loser]

    page = ana.ok(ana.http.get("/api/users/rated_a"))
    assert page["name"] == "Rated_a"
    season = httpx.get(server.base + "/api/seasons/kami").json()[0]
    assert season["current"] is True
    assert [(r["game"], r["pool"], r["games"]) for r in page["ratings"]] == [
        ("kami", "all", 1), ("kami", season["pool"], 1)]
    matches = {m["id"]: m for m in page["matches"]}
    assert set(matches) == {table["id"], casual["id"]}
    assert matches[table["id"]]["rated"] is True and matches[casual["id"]]["rated"] is False
    assert matches[table["id"]]["ranks"] == ranks and matches[table["id"]]["finished_at"]
    assert ana.ok(ana.http.get("/api/me/tables")) == []
    refused(ana.http.get("/api/users/nobody_here"), 404, "no_such_user")

    # both ask for a rematch at once: one offers, the other accepts; one new table, with
    # both in their seats
    in_parallel(
        lambda: ana.ok(ana.http.post(f"/api/tables/{casual['id']}/rematch")),
        lambda: ben.ok(ben.http.post(f"/api/tables/{casual['id']}/rematch")),
    )
    made = ana.ok(ana.http.get(f"/api/tables/{casual['id']}"))["rematch"]
    again = [ana.ok(ana.http.get(f"/api/tables/{made}"))]
    assert again[0]["status"] == "playing"
    assert [s["user"] for s in again[0]["seats"]] == ["Rated_b", "Rated_a"]
    assert [t["id"] for t in ana.ok(ana.http.get("/api/me/tables"))] == [again[0]["id"]]
