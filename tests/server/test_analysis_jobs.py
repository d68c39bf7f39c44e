"""Post-game analysis in the arena (issue 25): asked for over HTTP, made part by part in the
server's bot processes, its progress and result kept in the store, and finished after a
SIGKILL; on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from ludoteca.analysis.analyse import analyse
from ludoteca.engine.record import MatchRecord
from tests.server.client import JSON, Player
from tests.server.conftest import Server

BUDGET = 2


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The server these tests run on (conftest's ``people`` make players on it)."""
    found = Server(database_url, tmp_path_factory.mktemp("analysis"),
                   LUDOTECA_ANALYSIS_BUDGET=str(BUDGET), LUDOTECA_BOT_DELAY="0")
    found.start()
    try:
        yield found
    finally:
        found.stop()


def finished_table(player: Player, game: str = "kingdomino", **body: object) -> str:
    table = player.create(game, 2, bots=["greedy"], **body)
    sock = player.socket(table["id"])
    sock.play(random.Random(3))
    sock.close()
    return str(table["id"])


def wait_done(player: Player, table: str, timeout: float = 240, **params: str) -> list[JSON]:
    """Every state read until the analysis is done."""
    seen = []
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        state = player.ok(player.http.get(f"/api/tables/{table}/analysis", params=params))
        seen.append(state)
        if state["status"] != "running":
            return seen
        time.sleep(0.2)
    raise AssertionError(f"the analysis did not finish: {seen[-1]}")


def local_analysis(player: Player, table: str) -> JSON:
    record = MatchRecord.from_json(player.ok(player.http.get(f"/api/tables/{table}/record")))
    return json.loads(json.dumps(analyse(record, budget=BUDGET, seed=0)))


def test_an_analysis_is_made_in_the_bot_processes_with_progress_and_kept(
    people: Callable[..., Player]
) -> None:
    ana = people()
    table = finished_table(ana)
    assert ana.ok(ana.http.get(f"/api/tables/{table}/analysis")) == {"status": "none"}
    asked = ana.http.post(f"/api/tables/{table}/analysis")
    assert asked.status_code == 202, asked.text
    first = asked.json()
    assert first["status"] in ("running", "done") and first["total"] == 48
    assert first["budget"] == BUDGET and first["seed"] == 0
    states = wait_done(ana, table)
    done = [s["done"] for s in states if s["status"] == "running"]
    assert done == sorted(done)  # progress only goes forward
    final = states[-1]
    assert final["status"] == "done" and final["done"] == 48
    # the same analysis as `ludoteca analyse` with the same budget and seed, to the byte
    assert final["analysis"] == local_analysis(ana, table)
    again = ana.http.post(f"/api/tables/{table}/analysis")  # asked again: the one kept
    assert again.status_code == 202 and again.json() == final
    stranger = people()  # anyone who may see a public table may read it
    assert stranger.ok(stranger.http.get(f"/api/tables/{table}/analysis")) == final


def test_analyses_are_refused_cleanly(people: Callable[..., Player]) -> None:
    bea = people()
    running = bea.create("kingdomino", 2, bots=["greedy"])
    refused = bea.http.post(f"/api/tables/{running['id']}/analysis")
    assert refused.status_code == 409 and refused.json()["code"] == "not_finished"
    private = finished_table(bea, private=True)
    outsider = people()
    refused = outsider.http.post(f"/api/tables/{private}/analysis")
    assert refused.status_code == 403 and refused.json()["code"] == "wrong_invite"
    refused = outsider.http.get(f"/api/tables/{private}/analysis")
    assert refused.status_code == 403
    anonymous = httpx.post(f"{bea.base}/api/tables/{private}/analysis",
                           headers={"X-Ludoteca-Client": "test"})
    assert anonymous.status_code == 401
    # one analysis in the making per account: a Kami match takes long enough to ask twice
    kami = finished_table(bea, "kami")
    assert bea.http.post(f"/api/tables/{kami}/analysis").status_code == 202
    second = bea.http.post(f"/api/tables/{private}/analysis")
    assert second.status_code == 429 and second.json()["code"] == "too_many_analyses"
    assert wait_done(bea, kami)[-1]["status"] == "done"


def test_an_analysis_goes_on_after_the_server_is_killed(
    server: Server, people: Callable[..., Player]
) -> None:
    cy = people()
    table = finished_table(cy, "kami")
    assert cy.http.post(f"/api/tables/{table}/analysis").status_code == 202
    end = time.monotonic() + 120
    while cy.ok(cy.http.get(f"/api/tables/{table}/analysis"))["done"] < 4:
        assert time.monotonic() < end
        time.sleep(0.1)
    server.kill()
    server.start()  # the same port: the same client goes on
    final = wait_done(cy, table)[-1]
    assert final["status"] == "done"
    assert final["analysis"] == local_analysis(cy, table)


def test_the_analysis_json_is_documented() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text("utf-8")
    assert "/api/tables/{id}/analysis" in text and "too_many_analyses" in text
