"""The tournament director on one real server process (SQLite) that lets only its operators
create tournaments (``LUDOTECA_TOURNAMENTS=operators``): a non-operator is refused in English
and Spanish; and a Swiss whose server is killed with SIGKILL in the middle of a round (a bot
table finished, the person's table half played) goes on after the restart on the same database
with nothing paired, opened or decided twice, and nothing lost."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import pytest
from sqlalchemy import select

from ludoteca.server.db import Move
from ludoteca.server.tournament_lifecycle import played_result, table_id_for
from ludoteca.tournament.model import GameResult
from ludoteca.tournament.pairing import Format
from tests.server.client import JSON, Player
from tests.server.conftest import Server
from tests.server.test_tournaments import (
    check_standings,
    code,
    engine_of,
    stored,
    swiss,
    tables_of,
)

OPERATORS = ("dirhost", "killhost")


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("director")
    found = Server(f"sqlite:///{folder / 'arena.sqlite3'}", folder,
                   LUDOTECA_DIRECTOR_SECONDS="0.2", LUDOTECA_TOURNAMENTS="operators",
                   LUDOTECA_OPERATORS=",".join(OPERATORS))
    found.start()
    try:
        yield found
    finally:
        found.stop()


def test_only_operators_create_tournaments(arena: Server) -> None:
    carla, carlos = Player(arena.base, "carla_op"), Player(arena.base, "carlos_op", lang="es")
    host = Player(arena.base, OPERATORS[0])
    try:
        body = {"name": "x", "game": "kingdomino", "rounds": 2}
        refused = carla.http.post("/api/tournaments", json=body)
        assert "Only the arena's operators" in code(refused, 403, "operators_only")
        refused = carlos.http.post("/api/tournaments", json=body)
        assert "solo los operadores" in code(refused, 403, "operators_only")
        assert host.ok(host.http.get("/api/tournaments")) == []
        made = swiss(host, name="Operators' Swiss")
        assert made["status"] == "registering" and made["host"] == OPERATORS[0]
        carla.ok(carla.http.post(f"/api/tournaments/{made['id']}/register", json={}))
    finally:
        for p in (carla, carlos, host):
            p.close()


def your_table(player: Player, tournament: str, round: int, timeout: float = 60) -> str:
    """The person's table of ``round`` once it is open."""
    end = time.monotonic() + timeout
    while True:
        found = player.ok(player.http.get(f"/api/tournaments/{tournament}"))
        if found["round"] == round and found["your_table"] is not None:
            return str(found["your_table"])
        # registering until the director (woken by the last entry, or its tick) starts it
        assert found["status"] in ("registering", "running"), found["status"]
        assert time.monotonic() < end, f"no table of round {round} in {timeout} s"
        time.sleep(0.1)


def moves_of(server: Server, table: str) -> list[int]:
    engine = engine_of(server)
    try:
        with engine.connect() as db:
            return list(db.execute(select(Move.seq).where(Move.table_id == table)
                                   .order_by(Move.seq)).scalars())
    finally:
        engine.dispose()


def test_a_swiss_killed_mid_round_resumes_with_nothing_paired_twice_or_lost(
        arena: Server) -> None:
    """Four entrants (three random bots and Alice), three rounds. In round 2 the bots' table
    finishes while Alice's cannot (it waits for her moves); the server is killed there,
    started again on the same database, and the tournament finishes."""
    host, alice = Player(arena.base, OPERATORS[1]), Player(arena.base, "alice_kill")
    rng = random.Random(7)
    try:
        tid = swiss(host, name="Killed Swiss", max_entrants=4)["id"]
        alice.ok(alice.http.post(f"/api/tournaments/{tid}/register", json={}))
        for _ in range(3):
            host.ok(host.http.post(f"/api/tournaments/{tid}/bots", json={"level": "random"}))
        first = your_table(alice, tid, 1)
        sock = alice.socket(first)
        sock.play(rng)
        sock.close()

        second = your_table(alice, tid, 2)
        sock = alice.socket(second)
        acted = 0
        while acted < 3:  # a few moves of hers, each answered
            legal = sock.state.get("legal") or []
            if legal:
                sock.act(rng.choice(legal))
                acted += 1
                sock.until(lambda m: m["type"] == "update", timeout=30)
            else:
                sock.recv(timeout=30)
        end = time.monotonic() + 60
        while True:  # the bots' table of round 2 is decided; hers waits for her
            found = host.ok(host.http.get(f"/api/tournaments/{tid}"))
            games = found["rounds"][1]["games"]
            if any(g["result"] is not None for g in games):
                break
            assert time.monotonic() < end
            time.sleep(0.1)
        assert [g["result"] is None for g in games if g["table"] == second] == [True]
        before = moves_of(arena, second)
        assert len(before) >= 3
        arena.kill()
        sock.close()

        arena.start()
        assert your_table(alice, tid, 2) == second  # the same table, where it was
        sock = alice.socket(second)
        assert sock.first["type"] == "full" and sock.first["seq"] == len(before)
        sock.play(rng)
        sock.close()
        third = your_table(alice, tid, 3)
        sock = alice.socket(third)
        sock.play(rng)
        sock.close()
        end = time.monotonic() + 30
        while (found := host.ok(host.http.get(f"/api/tournaments/{tid}")))["status"] != (
                "finished"):
            assert time.monotonic() < end, found["status"]
            time.sleep(0.1)

        # every round paired once, each board's table opened once and decided once, by its play
        draws, stored_games = stored(arena, tid)
        assert [d.round for d in draws] == [1, 2, 3]
        assert sorted((g.round, g.board) for g in stored_games) == [
            (r, b) for r in (1, 2, 3) for b in (1, 2)]
        assert all(g.table_id == table_id_for(tid, g.round, g.board) for g in stored_games)
        tables = tables_of(arena, tid)
        assert set(tables) == {g.table_id for g in stored_games}
        for g in stored_games:
            status, result = tables[g.table_id]
            assert status == "finished" and result is not None and g.decided_by == "played"
            assert g.result == played_result(g.round, g.board, g.seats, result,
                                             [False, False]).to_json()
        assert moves_of(arena, second) == list(range(1, len(moves_of(arena, second)) + 1))
        assert moves_of(arena, second)[:len(before)] == before
        met = [frozenset(g.seats) for g in stored_games]
        assert len(set(met)) == len(met)  # nobody met twice
        results: list[GameResult] = check_standings(arena, found, Format("swiss", 2, 3))
        assert len(results) == 6
        assert sum(r["points"] for r in found["standings"]["rows"]) == 6
        assert [r["round"] for r in found["rounds"]] == [1, 2, 3]
        mine: list[JSON] = [g for r in found["rounds"] for g in r["games"]
                            if f"user:{alice.me['id']}" in g["seats"]]
        assert [g["table"] for g in mine] == [first, second, third]
    finally:
        host.close()
        alice.close()
