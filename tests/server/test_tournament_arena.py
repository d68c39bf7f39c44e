"""Arena tournaments over real HTTP and WebSockets, on a real server process (SQLite and
PostgreSQL): six entrants of 2-player Kingdomino (four random bots, two people playing their
tables through the table socket, one of them pausing and coming back), entrants joining while it
runs; its end time moved to now in the database (as if its minutes had gone by), then nothing
more is paired, the tables still playing finish and count, and it finishes with standings whose
streak points are recomputed here by hand. On SQLite, a server killed with SIGKILL in the middle
of an arena resumes with nobody paired twice."""

from __future__ import annotations

import itertools
import random
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select, update

from ludoteca.server.db import Tournament, TournamentRound
from ludoteca.server.tournament_lifecycle import table_id_for
from ludoteca.tournament.model import GameResult
from tests.server.client import Player, in_parallel
from tests.server.conftest import Server
from tests.server.test_tournaments import code, engine_of, stored, tables_of, until_status

JSON = dict[str, Any]


@pytest.fixture(scope="module")
def arena(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    found = Server(database_url, tmp_path_factory.mktemp("arena_t"),
                   LUDOTECA_DIRECTOR_SECONDS="0.2")
    found.start()
    try:
        yield found
    finally:
        found.stop()


def new_arena(host: Player, **body: Any) -> JSON:
    made: JSON = host.ok(host.http.post("/api/tournaments", json={
        "name": "Sunday Arena", "game": "kingdomino", "players": 2, "format": "arena",
        "minutes": 1, "min_entrants": 4, "max_entrants": 16, "bank_seconds": 600, **body}))
    return made


def end_now(server: Server, tournament: str) -> datetime:
    """Move the arena's end to now, as if its minutes had gone by; the end written. The time
    is read once the row is ours (a first write takes SQLite's write lock and PostgreSQL's
    row lock), so no wave can be paired between it and the commit: one paired while this
    waited for the row was paired before the end."""
    engine = engine_of(server)
    try:
        with engine.begin() as db:
            mine = update(Tournament).where(Tournament.id == tournament)
            db.execute(mine.values(ends_at=Tournament.ends_at))
            now = datetime.now(UTC)
            db.execute(mine.values(ends_at=now))
    finally:
        engine.dispose()
    return now


def paired_at(server: Server, tournament: str) -> dict[int, datetime]:
    engine = engine_of(server)
    try:
        with engine.connect() as db:
            rows = db.execute(select(TournamentRound.round, TournamentRound.paired_at).where(
                TournamentRound.tournament_id == tournament)).all()
    finally:
        engine.dispose()
    return {r.round: r.paired_at for r in rows}


def streak_points(results: list[GameResult]) -> tuple[dict[str, float], dict[str, int]]:
    """The arena's points and streaks written out plainly (docs/tournaments.md): games in wave
    order; 2 per place below yours, tied places sharing; doubled from the third win in a row
    until a game not won."""
    points: dict[str, float] = {}
    streak: dict[str, int] = {}
    for r in sorted(results, key=lambda r: r.key):
        n = len(r.seats)
        for seat, who in enumerate(r.seats):
            place = r.places[seat]
            tied = r.places.count(place)
            base = sum(2.0 * (n - p) for p in range(place, place + tied)) / tied
            points[who] = points.get(who, 0.0) + base * (2 if streak.get(who, 0) >= 2 else 1)
            alone_first = place == 1 and tied == 1
            streak[who] = streak.get(who, 0) + 1 if alone_first else 0
    return points, streak


def check_no_double_seat(server: Server, tournament: str) -> None:
    """Nobody was seated at a table before their previous one was decided, and every wave was
    paired once with tables whose ids are the wave's and board's."""
    draws, games = stored(server, tournament)
    assert [d.round for d in draws] == list(range(1, len(draws) + 1))
    when = paired_at(server, tournament)
    by_entrant: dict[str, list[Any]] = {}
    for g in sorted(games, key=lambda g: (g.round, g.board)):
        assert g.table_id == table_id_for(tournament, g.round, g.board)
        for s in g.seats:
            by_entrant.setdefault(s, []).append(g)
    for mine in by_entrant.values():
        for before, after in itertools.pairwise(mine):
            assert before.decided_at is not None
            assert before.decided_at <= when[after.round], (before.round, after.round)
    assert len({g.table_id for g in games}) == len(games)


def pending(found: dict[str, Any], player: Player) -> bool:
    """The person has a game of the tournament with no result (its table may not be open
    yet: a wave is written first, then its tables open)."""
    me = f"user:{player.me['id']}"
    return any(me in g["seats"] and g["result"] is None
               for r in found["rounds"] for g in r["games"])


def play_until_over(player: Player, tournament: str, seed: int, pause_after: int = 0,
                    back: threading.Event | None = None, timeout: float = 120) -> int:
    """Play each table the arena gives this person until it is over; with ``pause_after``,
    withdraw (pause) after that many tables, check nothing is paired for them for a while,
    and enter again (then set ``back``). How many tables were played."""
    rng = random.Random(seed)
    played: list[str] = []
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = player.ok(player.http.get(f"/api/tournaments/{tournament}"))
        if found["status"] == "finished":
            return len(played)
        table = found["your_table"]
        if table is not None and table not in played:
            assert found["your_status"] == "playing"
            sock = player.socket(table)
            sock.play(rng)
            sock.close()
            played.append(table)
            if len(played) == pause_after:
                player.ok(player.http.post(f"/api/tournaments/{tournament}/withdraw"))
                paused = player.ok(player.http.get(f"/api/tournaments/{tournament}"))
                assert not paused["registered"]
                while (pending(paused, player) and paused["your_table"] is None
                       and time.monotonic() < end):
                    time.sleep(0.1)  # paired just before the withdrawal: its table opens soon
                    paused = player.ok(player.http.get(f"/api/tournaments/{tournament}"))
                if paused["your_table"] is not None:  # paired as the last one ended: it is
                    sock = player.socket(paused["your_table"])  # played, and counts
                    sock.play(rng)
                    sock.close()
                    played.append(paused["your_table"])
                    paused = player.ok(player.http.get(f"/api/tournaments/{tournament}"))
                assert paused["your_status"] == "paused"
                time.sleep(1.5)  # several director looks: nothing is paired for a paused one
                paused = player.ok(player.http.get(f"/api/tournaments/{tournament}"))
                mine = [(r["round"], g["table"], g["decided_by"]) for r in paused["rounds"]
                        for g in r["games"] if f"user:{player.me['id']}" in g["seats"]]
                assert paused["your_table"] is None, (played, mine, paused["entrants"])
                player.ok(player.http.post(f"/api/tournaments/{tournament}/register", json={}))
                if back is not None:
                    back.set()
        else:
            time.sleep(0.1)
    raise AssertionError(f"{player.name}: the arena did not finish in {timeout} s")


def test_an_arena_runs_to_its_end_with_streak_points(arena: Server) -> None:
    host, alice, bob = (Player(arena.base, n) for n in ("arenahost", "alice_a", "bob_a"))
    try:
        made = new_arena(host)
        tid = made["id"]
        assert made["format"]["kind"] == "arena" and made["format"]["minutes"] == 1
        for person in (alice, bob):
            person.ok(person.http.post(f"/api/tournaments/{tid}/register", json={}))
        for _ in range(2):
            host.ok(host.http.post(f"/api/tournaments/{tid}/bots", json={"level": "random"}))
        running = until_status(host, tid, "running")  # four entered: it starts
        assert running["ends_at"] is not None and running["your_status"] is None
        for _ in range(2):  # entries stay open while it runs
            host.ok(host.http.post(f"/api/tournaments/{tid}/bots", json={"level": "random"}))

        back = threading.Event()

        def referee() -> datetime:
            end = time.monotonic() + 60
            while True:  # let it play a while, then end it
                draws, games = stored(arena, tid)
                if (sum(g.result is not None for g in games) >= 8 and len(draws) >= 4
                        and back.is_set()):
                    return end_now(arena, tid)
                assert time.monotonic() < end
                time.sleep(0.2)

        counts = in_parallel(lambda: play_until_over(alice, tid, 1),
                             lambda: play_until_over(bob, tid, 2, pause_after=1, back=back),
                             referee, timeout=150)
        ended: datetime = counts[2]
        assert counts[0] >= 1 and counts[1] >= 1

        found = until_status(host, tid, "finished")
        assert all(at < ended for at in paired_at(arena, tid).values())  # nothing after the end
        _, games = stored(arena, tid)
        assert all(g.decided_by == "played" for g in games)  # tables still playing counted
        assert all(status == "finished" for status, _ in tables_of(arena, tid).values())
        check_no_double_seat(arena, tid)
        results = [GameResult.from_json(g.result) for g in games]
        points, streaks = streak_points(results)
        rows = found["standings"]["rows"]
        assert len(rows) == 6
        assert {r["entrant"]: r["points"] for r in rows} == {
            r["entrant"]: points.get(r["entrant"], 0.0) for r in rows}
        assert {r["entrant"]: r["streak"] for r in rows} == {
            r["entrant"]: streaks.get(r["entrant"], 0) for r in rows}
        assert all(r["on_fire"] == (r["streak"] >= 2) for r in rows)
        assert [r["points"] for r in rows] == sorted((r["points"] for r in rows), reverse=True)
        assert any("counts double" in line for line in found["rules"])
        assert found["your_status"] is None
        code(bob.http.post(f"/api/tournaments/{tid}/register", json={}), 409,
             "tournament_started")
    finally:
        for p in (host, alice, bob):
            p.close()


def test_arena_refusals_are_typed(arena: Server) -> None:
    host, carla = Player(arena.base, "arenaref"), Player(arena.base, "carla_a", lang="es")
    try:
        body = {"name": "x", "game": "kingdomino", "format": "arena"}
        assert "minutos" in code(carla.http.post("/api/tournaments", json=body), 400,
                                 "bad_tournament")
        turn = host.http.post("/api/tournaments", json={**body, "minutes": 10, "mode": "turn"})
        assert "played live" in code(turn, 400, "bad_tournament")
        code(host.http.post("/api/tournaments", json={**body, "minutes": 0.5}), 422,
             "bad_request")
    finally:
        host.close()
        carla.close()


@pytest.fixture(scope="module")
def lone(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of its own on SQLite, to be killed."""
    folder = tmp_path_factory.mktemp("arena_kill")
    found = Server(f"sqlite:///{folder / 'arena.sqlite3'}", folder,
                   LUDOTECA_DIRECTOR_SECONDS="0.2")
    found.start()
    try:
        yield found
    finally:
        found.stop()


def test_a_killed_arena_resumes_with_nobody_paired_twice(lone: Server) -> None:
    """Alice and three random bots; Alice's second table is half played when the server is
    killed; after the restart on the same database she finds the same table, the bots go on
    being paired, and once it ends every wave was paired once and nobody sat at two tables."""
    arena = lone
    host, alice = Player(arena.base, "killarena"), Player(arena.base, "alice_k")
    rng = random.Random(3)
    try:
        tid = new_arena(host, name="Killed arena")["id"]
        alice.ok(alice.http.post(f"/api/tournaments/{tid}/register", json={}))
        for _ in range(3):
            host.ok(host.http.post(f"/api/tournaments/{tid}/bots", json={"level": "random"}))
        tables: list[str] = []

        def next_table() -> str:
            end = time.monotonic() + 60
            while True:
                found = alice.ok(alice.http.get(f"/api/tournaments/{tid}"))
                if found["your_table"] is not None and found["your_table"] not in tables:
                    tables.append(found["your_table"])
                    return str(found["your_table"])
                assert time.monotonic() < end
                time.sleep(0.1)

        sock = alice.socket(next_table())
        sock.play(rng)
        sock.close()
        second = next_table()
        sock = alice.socket(second)
        acted = 0
        while acted < 3:
            legal = sock.state.get("legal") or []
            if legal:
                sock.act(rng.choice(legal))
                acted += 1
                sock.until(lambda m: m["type"] == "update", timeout=30)
            else:
                sock.recv(timeout=30)
        waves = len(stored(arena, tid)[0])
        arena.kill()
        sock.close()
        arena.start()
        assert alice.ok(alice.http.get(
            f"/api/tournaments/{tid}"))["your_table"] == second
        sock = alice.socket(second)
        assert sock.first["type"] == "full"
        sock.play(rng)
        sock.close()
        end = time.monotonic() + 30
        while len(stored(arena, tid)[0]) <= waves:  # it goes on pairing after the restart
            assert time.monotonic() < end
            time.sleep(0.2)
        end_now(arena, tid)
        for_alice = alice.ok(alice.http.get(f"/api/tournaments/{tid}"))
        if for_alice["your_table"] not in (None, second):
            sock = alice.socket(for_alice["your_table"])  # her last table finishes and counts
            sock.play(rng)
            sock.close()
        found = until_status(host, tid, "finished", timeout=60)
        check_no_double_seat(arena, tid)
        _, games = stored(arena, tid)
        assert sum(second == g.table_id for g in games) == 1
        assert all(g.result is not None for g in games)
        results = [GameResult.from_json(g.result) for g in games]
        points, _ = streak_points(results)
        assert {r["entrant"]: r["points"] for r in found["standings"]["rows"]} == {
            r["entrant"]: points.get(r["entrant"], 0.0) for r in found["standings"]["rows"]}
    finally:
        host.close()
        alice.close()


def test_the_end_is_not_before_the_start(arena: Server) -> None:
    """An arena with a start time starts then, and its end is its start plus its minutes."""
    host = Player(arena.base, "timedarena")
    try:
        starts = datetime.now(UTC) + timedelta(seconds=1)
        tid = new_arena(host, name="Timed", minutes=30, min_entrants=2,
                        starts_at=starts.isoformat())["id"]
        for _ in range(2):
            host.ok(host.http.post(f"/api/tournaments/{tid}/bots", json={"level": "random"}))
        found = until_status(host, tid, "running")
        begun = datetime.fromisoformat(found["started_at"])
        ends = datetime.fromisoformat(found["ends_at"])
        assert begun >= starts.replace(microsecond=0)
        assert abs((ends - begun).total_seconds() - 30 * 60) < 2
        end_now(arena, tid)
        until_status(host, tid, "finished", timeout=60)
    finally:
        host.close()
