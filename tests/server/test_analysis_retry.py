""""Learn from your mistakes" over HTTP (issue 25): a player's own past decision (its view then
and its legal moves), and a retried move judged against the best, from the stored analysis's
candidates or valued in the bot processes with the analysis's seed and budget (common random
numbers: the same value the analysis would have stored); on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import httpx
import pytest

from ludoteca.analysis.judgement import RETRY_PASSES
from ludoteca.analysis.retry import decision, value_of
from ludoteca.engine.record import MatchRecord
from tests.server.client import JSON, Player
from tests.server.conftest import Server
from tests.server.test_analysis_jobs import finished_table, wait_done

BUDGET = 16
"""Enough for the successive halving to keep only some of a wide decision's moves."""


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    found = Server(database_url, tmp_path_factory.mktemp("retry"),
                   LUDOTECA_ANALYSIS_BUDGET=str(BUDGET), LUDOTECA_BOT_DELAY="0")
    found.start()
    try:
        yield found
    finally:
        found.stop()


def analysed(player: Player) -> tuple[str, JSON]:
    table = finished_table(player)
    player.ok(player.http.post(f"/api/tables/{table}/analysis"))
    final = wait_done(player, table)[-1]
    assert final["status"] == "done"
    return table, final["analysis"]


def test_a_player_retries_their_own_decision(people: Callable[..., Player]) -> None:
    ana = people()
    table, analysis = analysed(ana)
    record = MatchRecord.from_json(ana.ok(ana.http.get(f"/api/tables/{table}/record")))
    mine = [m for m in analysis["moves"] if m["seat"] == 0 and not m["forced"]]
    # a wide decision (a domino's placement): some legal moves were not kept by the analysis
    move = max(mine, key=lambda m: m["legal"])
    assert 1 <= len(move["candidates"]) < move["legal"]
    at = move["ply"]

    got = ana.ok(ana.http.get(f"/api/tables/{table}/analysis/decision", params={"at": at}))
    local = decision(record, at)
    assert got["seat"] == 0 and got["legal"] == [a.to_json() for a in local.legal]

    # the best candidate: its stored value, no loss, passes
    best = move["candidates"][0]
    answer = ana.ok(ana.http.post(f"/api/tables/{table}/analysis/retry",
                                  json={"at": at, "action": best["action"]}))
    assert answer == {"ply": at, "win": best["win"], "best": best["win"],
                      "loss": 0.0, "passed": True, "stored": True}

    # a move the analysis did not keep: valued in the bot processes, as the analysis would
    kept = [c["action"] for c in move["candidates"]]
    other = next(a for a in got["legal"] if a not in kept)
    answer = ana.ok(ana.http.post(f"/api/tables/{table}/analysis/retry",
                                  json={"at": at, "action": other}))
    win = value_of(record.to_json(), at, other, BUDGET, 0)
    assert answer["stored"] is False and answer["win"] == win
    loss = round(max(0.0, best["win"] - win), 2)
    assert answer["loss"] == loss and answer["passed"] == (loss <= RETRY_PASSES)


def test_retries_are_refused_cleanly(people: Callable[..., Player]) -> None:
    ana, bea = people(), people()
    table, analysis = analysed(ana)
    theirs = next(m for m in analysis["moves"] if m["seat"] == 1)
    mine = next(m for m in analysis["moves"] if m["seat"] == 0 and not m["forced"])
    url = f"/api/tables/{table}/analysis"

    def code(response: httpx.Response) -> str:
        return str(response.json()["code"])

    r = ana.http.get(f"{url}/decision", params={"at": theirs["ply"]})
    assert r.status_code == 403 and code(r) == "not_your_decision"
    r = bea.http.get(f"{url}/decision", params={"at": mine["ply"]})  # not seated at all
    assert r.status_code == 403 and code(r) == "not_your_decision"
    r = ana.http.get(f"{url}/decision", params={"at": 10_000})
    assert r.status_code == 403 and code(r) == "not_your_decision"
    r = ana.http.post(f"{url}/retry", json={"at": mine["ply"], "action": {"type": "nonsense"}})
    assert r.status_code == 400 and code(r) == "malformed_action"
    r = ana.http.post(f"{url}/retry", json={"at": mine["ply"],
                                            "action": {**mine["action"], "extra": 1}})
    assert r.status_code == 400 and code(r) == "malformed_action"  # a field it does not have
    claim = next(m for m in analysis["moves"] if m["seat"] == 0 and m["action"]["type"] == "claim")
    r = ana.http.post(f"{url}/retry", json={"at": claim["ply"], "action": {"type": "discard"}})
    assert r.status_code == 400 and code(r) == "not_legal_then"  # well formed, not legal then
    r = ana.http.post(f"{url}/retry", json={"at": "1", "action": mine["action"]})
    assert r.status_code == 422 and code(r) == "bad_request"
    fresh = finished_table(bea)  # finished, never analysed
    r = bea.http.get(f"/api/tables/{fresh}/analysis/decision", params={"at": 0})
    assert r.status_code == 409 and code(r) == "no_analysis"
    r = httpx.get(f"{ana.base}{url}/decision", params={"at": mine["ply"]})  # signed out
    assert r.status_code == 401 and code(r) == "not_signed_in"
