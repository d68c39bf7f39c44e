"""Tournaments over real HTTP and WebSockets, on a real server process (SQLite and PostgreSQL):
an 8-entrant Swiss of 2-player Kingdomino (six random bots, two people playing their tables
through the table socket) run to the end, its standings checked against the pairing module's
computed from the stored results; the refusals, in English and Spanish; a tournament cancelled
at its start with too few entrants; and a table still playing at the round's deadline."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, select, update

from ludoteca.server.db import Table, Tournament, TournamentGame, TournamentRound, sync_url
from ludoteca.server.tournament_lifecycle import table_id_for
from ludoteca.tournament.model import Entrant, GameResult, RoundDraw
from ludoteca.tournament.pairing import Format, format_standings
from tests.server.client import Player, in_parallel
from tests.server.conftest import Server

JSON = dict[str, Any]


@pytest.fixture(scope="module")
def arena(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    found = Server(database_url, tmp_path_factory.mktemp("tournaments"),
                   LUDOTECA_DIRECTOR_SECONDS="0.2")
    found.start()
    try:
        yield found
    finally:
        found.stop()


def swiss(host: Player, **body: Any) -> JSON:
    made: JSON = host.ok(host.http.post("/api/tournaments", json={
        "name": "Friday Swiss", "game": "kingdomino", "players": 2, "format": "swiss",
        "rounds": 3, "max_entrants": 8, "bank_seconds": 600, **body}))
    return made


def play_my_tables(player: Player, tournament: str, seed: int, timeout: float = 240) -> int:
    """Play each table the tournament gives this person, at random, until it is over; how
    many tables were played."""
    rng = random.Random(seed)
    played: set[str] = set()
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = player.ok(player.http.get(f"/api/tournaments/{tournament}"))
        if found["status"] in ("finished", "cancelled"):
            return len(played)
        table = found["your_table"]
        if table is not None and table not in played:
            sock = player.socket(table)
            sock.play(rng)
            sock.close()
            played.add(table)
        else:
            time.sleep(0.1)
    raise AssertionError(f"{player.name}: the tournament did not finish in {timeout} s")


def engine_of(server: Server) -> Engine:
    return create_engine(sync_url(server.database_url))


def stored(server: Server, tournament: str) -> tuple[list[RoundDraw], list[TournamentGame]]:
    """The tournament's draws (a row a round, in order) and games, as the database holds them."""
    engine = engine_of(server)
    try:
        with engine.connect() as db:
            rounds = db.execute(select(TournamentRound.draw).where(
                TournamentRound.tournament_id == tournament).order_by(TournamentRound.round))
            draws = [RoundDraw.from_json(d) for d in rounds.scalars()]
            games = list(db.execute(select(TournamentGame).where(
                TournamentGame.tournament_id == tournament)).all())
    finally:
        engine.dispose()
    return draws, [g[0] if isinstance(g, tuple) else g for g in games]


def tables_of(server: Server, tournament: str) -> dict[str, tuple[str, JSON | None]]:
    """Every table the tournament opened: id -> (status, stored result)."""
    engine = engine_of(server)
    try:
        with engine.connect() as db:
            rows = db.execute(select(Table.id, Table.status, Table.result).where(
                Table.tournament == tournament)).all()
    finally:
        engine.dispose()
    return {r.id: (r.status, r.result) for r in rows}


def check_standings(server: Server, found: JSON, fmt: Format) -> list[GameResult]:
    """The standings served are the pairing module's, from the rows the director stored; the
    stored results."""
    draws, games = stored(server, found["id"])
    results = [GameResult.from_json(g.result) for g in games if g.result is not None]
    entrants = [Entrant(e["participant"], e["rating"]) for e in found["entrants"]]
    expected = format_standings(fmt, entrants, results, [b for d in draws for b in d.byes],
                                0).to_json()
    got = found["standings"]
    assert [(r["entrant"], r["rank"], r["points"], r["tiebreaks"]) for r in got["rows"]] == [
        (r["entrant"], r["rank"], r["points"], r["tiebreaks"]) for r in expected["rows"]]
    assert [t["key"] for t in got["tiebreaks"]] == list(fmt.tiebreak_keys)
    return results


def test_a_swiss_of_bots_and_people_runs_to_the_end_with_the_right_standings(
        arena: Server, tmp_path: Path) -> None:
    host, alice, bob = (Player(arena.base, name) for name in ("swisshost", "alice", "bob"))
    try:
        made = swiss(host)
        tid = made["id"]
        assert made["status"] == "registering" and made["invite"] is None
        assert [t["id"] for t in host.ok(host.http.get("/api/tournaments"))] == [tid]
        for person in (alice, bob):
            person.ok(person.http.post(f"/api/tournaments/{tid}/register", json={}))
        for _ in range(6):
            host.ok(host.http.post(f"/api/tournaments/{tid}/bots", json={"level": "random"}))
        counts = in_parallel(lambda: play_my_tables(alice, tid, 1),
                             lambda: play_my_tables(bob, tid, 2), timeout=300)
        assert counts == [3, 3]  # a table every round: eight entrants, no byes

        found = host.ok(host.http.get(f"/api/tournaments/{tid}"))
        assert found["status"] == "finished" and found["round"] == 3
        assert [r["round"] for r in found["rounds"]] == [1, 2, 3]
        assert all(len(r["games"]) == 4 and not r["byes"] for r in found["rounds"])
        met = [frozenset(g["seats"]) for r in found["rounds"] for g in r["games"]]
        assert len(set(met)) == len(met)  # nobody met twice
        for r in found["rounds"]:
            for g in r["games"]:
                assert g["decided_by"] == "played"
                assert g["table"] == table_id_for(tid, r["round"], g["board"])
                table = host.ok(host.http.get(f"/api/tables/{g['table']}"))
                assert table["tournament"] == tid and table["status"] == "finished"
        assert any("Buchholz" in line for line in found["rules"])

        draws, games = stored(arena, tid)
        assert [d.round for d in draws] == [1, 2, 3] and len(games) == 12
        check_standings(arena, found, Format("swiss", 2, 3))
        assert sum(r["points"] for r in found["standings"]["rows"]) == 12  # draws shared
        assert set(tables_of(arena, tid)) == {g.table_id for g in games}
        finished = host.ok(host.http.get("/api/tournaments", params={"status": "finished"}))
        assert tid in [t["id"] for t in finished]
    finally:
        for p in (host, alice, bob):
            p.close()


def code(response: Any, status: int, expected: str) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] == expected, body
    return str(body["message"])


def test_refusals_are_typed_in_english_and_spanish(arena: Server) -> None:
    host, carla = Player(arena.base, "refushost"), Player(arena.base, "carla", lang="es")
    try:
        no_rounds = host.http.post("/api/tournaments", json={
            "name": "x", "game": "kingdomino", "format": "swiss"})
        assert "Swiss needs a number of rounds" in code(no_rounds, 400, "bad_tournament")
        spanish = carla.http.post("/api/tournaments", json={
            "name": "x", "game": "kingdomino", "format": "swiss"})
        assert "Ese torneo no se puede crear" in code(spanish, 400, "bad_tournament")
        bad_game = host.http.post("/api/tournaments", json={"name": "x", "game": "chess",
                                                            "rounds": 2})
        code(bad_game, 400, "no_such_game")
        code(host.http.get("/api/tournaments/nope"), 404, "no_such_tournament")
        assert "ningún torneo" in code(carla.http.get("/api/tournaments/nope"), 404,
                                       "no_such_tournament")

        private = swiss(host, invite_only=True, max_entrants=2, name="Invitational")
        tid = private["id"]
        assert private["invite"] and private["invite_only"]
        assert tid not in [t["id"] for t in host.ok(host.http.get("/api/tournaments"))]
        wrong = carla.http.post(f"/api/tournaments/{tid}/register", json={"invite": "guess"})
        assert "invitación" in code(wrong, 403, "wrong_invite")
        code(carla.http.post(f"/api/tournaments/{tid}/withdraw"), 409, "not_registered")
        code(carla.http.post(f"/api/tournaments/{tid}/bots", json={"level": "random"}), 403,
             "not_host")
        join = {"invite": private["invite"]}
        carla.ok(carla.http.post(f"/api/tournaments/{tid}/register", json=join))
        code(carla.http.post(f"/api/tournaments/{tid}/register", json=join), 409,
             "already_registered")
        carla.ok(carla.http.post(f"/api/tournaments/{tid}/withdraw"))  # before the start
        carla.ok(carla.http.post(f"/api/tournaments/{tid}/register", json=join))
        host.ok(host.http.post(f"/api/tournaments/{tid}/bots", json={"level": "random"}))
        dave = Player(arena.base, "dave")
        try:
            late = dave.http.post(f"/api/tournaments/{tid}/register", json=join)
            assert late.status_code == 409 and late.json()["code"] in (
                "tournament_full", "tournament_started")
        finally:
            dave.close()
        end = time.monotonic() + 30
        while host.ok(host.http.get(f"/api/tournaments/{tid}"))["status"] == "registering":
            assert time.monotonic() < end
            time.sleep(0.1)
        code(carla.http.post(f"/api/tournaments/{tid}/register", json=join), 409,
             "tournament_started")
    finally:
        host.close()
        carla.close()


def until_status(player: Player, tournament: str, *statuses: str, timeout: float = 30) -> JSON:
    """The tournament once its status is one of ``statuses``."""
    end = time.monotonic() + timeout
    while (found := player.ok(player.http.get(f"/api/tournaments/{tournament}")))[
            "status"] not in statuses:
        assert time.monotonic() < end, found["status"]
        time.sleep(0.1)
    found_: JSON = found
    return found_


def test_too_few_entrants_at_the_start_time_cancel_it(arena: Server) -> None:
    host = Player(arena.base, "cancelhost")
    try:
        starts = datetime.now(UTC) + timedelta(seconds=2)
        tid = swiss(host, name="Too few", min_entrants=3, starts_at=starts.isoformat())["id"]
        for _ in range(2):  # enough for a game, fewer than its minimum
            host.ok(host.http.post(f"/api/tournaments/{tid}/bots", json={"level": "random"}))
        assert host.ok(host.http.get(f"/api/tournaments/{tid}"))["status"] == "registering"
        found = until_status(host, tid, "running", "finished", "cancelled")
        assert found["status"] == "cancelled" and found["rounds"] == [] and found["round"] == 0
        assert datetime.fromisoformat(found["finished_at"]) >= starts.replace(microsecond=0)
        assert tid in [t["id"] for t in host.ok(host.http.get(
            "/api/tournaments", params={"status": "finished"}))]
        code(host.http.post(f"/api/tournaments/{tid}/bots", json={"level": "random"}), 409,
             "tournament_started")
        assert tables_of(arena, tid) == {}
    finally:
        host.close()


def test_a_table_still_playing_at_the_deadline_is_decided_as_a_shared_first_place(
        arena: Server) -> None:
    """The person sits and does not move; the round's deadline passes (moved to now in the
    database, as if its hour had gone by): the table is decided as a draw, the one-round
    tournament finishes, and the table's later end changes nothing."""
    host, dina = Player(arena.base, "deadlinehost"), Player(arena.base, "dina")
    try:
        tid = swiss(host, name="Deadline", rounds=1, max_entrants=2)["id"]
        dina.ok(dina.http.post(f"/api/tournaments/{tid}/register", json={}))
        host.ok(host.http.post(f"/api/tournaments/{tid}/bots", json={"level": "random"}))
        end = time.monotonic() + 30
        while (table := dina.ok(dina.http.get(f"/api/tournaments/{tid}"))["your_table"]) is None:
            assert time.monotonic() < end
            time.sleep(0.1)
        sock = dina.socket(table)
        time.sleep(0.5)  # a few director looks: nothing is decided before the deadline
        assert host.ok(host.http.get(f"/api/tournaments/{tid}"))["status"] == "running"
        engine = engine_of(arena)
        try:
            with engine.begin() as db:
                db.execute(update(Tournament).where(Tournament.id == tid).values(
                    round_deadline=datetime.now(UTC) - timedelta(seconds=1)))
        finally:
            engine.dispose()
        found = until_status(host, tid, "finished")
        [game] = found["rounds"][0]["games"]
        assert game["decided_by"] == "deadline" and game["result"]["places"] == [1, 1]
        assert [r["points"] for r in found["standings"]["rows"]] == [0.5, 0.5]
        check_standings(arena, found, Format("swiss", 2, 1))
        assert tables_of(arena, tid)[table][0] == "playing"

        final = sock.play(random.Random(5))  # she plays on to the end
        assert final["status"] == "finished"
        end = time.monotonic() + 10
        while tables_of(arena, tid)[table][1] is None:
            assert time.monotonic() < end
            time.sleep(0.1)
        time.sleep(0.5)  # the table's end reached the director (it changes nothing)
        again = host.ok(host.http.get(f"/api/tournaments/{tid}"))
        assert again["rounds"] == found["rounds"] and again["standings"] == found["standings"]
    finally:
        host.close()
        dina.close()
