"""Tournaments over real HTTP and WebSockets, on a real server process (SQLite): an 8-entrant
Swiss of 2-player Kingdomino (six random bots, two people playing their tables through the
table socket) run to the end, its standings checked against the pairing module's computed from
the stored results; then the refusals, in English and Spanish."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, select

from ludoteca.server.db import TournamentGame, TournamentRound
from ludoteca.server.tournament_lifecycle import table_id_for
from ludoteca.tournament.model import Entrant, GameResult, RoundDraw
from ludoteca.tournament.pairing import Format, format_standings
from tests.server.client import Player, in_parallel
from tests.server.conftest import Server

JSON = dict[str, Any]


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("tournaments")
    found = Server(f"sqlite:///{folder / 'arena.sqlite3'}", folder,
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


def stored(server: Server, tournament: str) -> tuple[list[RoundDraw], list[TournamentGame]]:
    engine = create_engine(server.database_url)
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

        # the standings are the pairing module's, from the rows the director stored
        draws, games = stored(arena, tid)
        assert [d.round for d in draws] == [1, 2, 3] and len(games) == 12
        results = [GameResult.from_json(g.result) for g in games]
        entrants = [Entrant(e["participant"], e["rating"]) for e in found["entrants"]]
        fmt = Format("swiss", 2, 3)
        expected = format_standings(fmt, entrants, results, [b for d in draws for b in d.byes],
                                    0).to_json()
        got = found["standings"]
        assert [(r["entrant"], r["rank"], r["points"], r["tiebreaks"]) for r in got["rows"]] == [
            (r["entrant"], r["rank"], r["points"], r["tiebreaks"]) for r in expected["rows"]]
        assert sum(r["points"] for r in got["rows"]) == 12  # a point a game, draws shared
        assert [t["key"] for t in got["tiebreaks"]] == list(fmt.tiebreak_keys)
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
            "name": "x", "game": "kingdomino", "format": "arena"})
        assert "aún no se ofrecen" in code(spanish, 400, "not_offered")
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
