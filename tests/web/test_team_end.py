"""Team games end as sides (issue 38), in Chromium against a real server: the end of a
4-player Kami, a 4-player Goita and a 6-player Queendomino team match, at the table and at the
replay's last step, shows one row per side (the team lettered and its members named: "Team B:
Bot 2 and Bot 4"), ranks counted over sides (1st and 2nd, not 1, 1, 3, 3), the team's points
listed once and one bar per side, in English and Spanish; and what it shows is the server's
record and the rules engine's own replay of it.

To be quick the matches are bots only: the guest opens each table with bots in the other seats
and leaves at once, so a bot takes their seat too (docs/protocol.md); the three are played at
once while one browser waits for them.
"""

from __future__ import annotations

import json
from typing import Any

from tests.web.conftest import shoot
from tests.web.driver import ROOT, engine_outcome, shown_sides, sign_in_as_guest

RUNS = [("kami", 4, {"target": 10}), ("goita", 4, {"target": 50}),
        ("queendomino", 6, {"teams": True})]
START = """async ([game, players, options]) => {
    const post = async (path, body) => {
        const init = {method: "POST", headers: {Accept: "application/json"}};
        if (body) {
            init.headers["Content-Type"] = "application/json";
            init.body = JSON.stringify(body);
        }
        const response = await fetch(path, init);
        return {ok: response.ok, body: await response.json()};
    };
    const bots = Array(players - 1).fill("greedy");
    const made = await post("/api/tables", {game, players, options, bots});
    if (!made.ok) return made;
    const left = await post(`/api/tables/${made.body.id}/leave`);
    return {ok: left.ok, id: made.body.id, body: left.body};
}"""
FINISHED = f'{ROOT}[data-status="finished"] [data-testid="result"]'
WORDS = {"en": ("Team", " and ", "Winner: "), "es": ("Equipo", " y ", "Gana: ")}


def start(page: Any, game: str, players: int, options: dict[str, Any]) -> str:
    """A table of ``game`` played by bots alone (the guest left it at once): its id."""
    made = page.evaluate(START, [game, players, options])
    assert made["ok"], made
    return str(made["id"])


def record_of(page: Any, table: str) -> dict[str, Any]:
    response = page.request.get(f"/api/tables/{table}/record")
    assert response.ok, response.text()
    found: dict[str, Any] = json.loads(response.text())
    return found


def expected_rows(result: dict[str, Any], names: list[str], lang: str) -> list[dict[str, Any]]:
    """The record's sides as the end should show them, best first: seats, rank, the team's
    words, the parts listed once, the score."""
    team, also, _ = WORDS[lang]
    rows = []
    for i, side in enumerate(result["sides"]):
        members = [names[s] for s in side["seats"]]
        who = f"{team} {'ABCDEFGH'[i]}: " + ", ".join(members[:-1]) + also + members[-1]
        rows.append({"seats": side["seats"], "rank": side["rank"], "who": who,
                     "parts": len(result["parts"][side["seats"][0]]), "score": side["score"]})
    return sorted(rows, key=lambda r: r["rank"])


def replay_end(page: Any, base: str, table: str, at: int) -> None:
    """The replay at its last step (``at``: the record's actions), drawn."""
    page.goto(f"{base}#/replay/{table}?at={at}")
    page.get_by_test_id("replay-position").filter(has_text=f" {at} ").wait_for()


def check_end(page: Any, table: str, lang: str, want: list[dict[str, Any]]) -> None:
    """The end drawn on ``page`` is one row and one bar per side, as ``want`` says."""
    page.get_by_test_id("result").wait_for()
    assert shown_sides(page) == want
    bars = page.locator('[data-testid="result"] .chart-label').all_text_contents()
    assert sorted(bars) == sorted(w["who"].split(":")[0] for w in want)
    winners = [w["who"].split(": ", 1) for w in want if w["rank"] == 1]
    said = page.locator('[data-testid="result"] .winners').inner_text()
    if len(winners) == 1:
        assert said == f"{WORDS[lang][2]}{winners[0][0]} ({winners[0][1]})", (table, said)


def test_team_games_end_as_sides(open_page: Any) -> None:
    page = open_page("/", lang="en")
    name = sign_in_as_guest(page)
    tables = {game: start(page, game, players, options) for game, players, options in RUNS}
    base = page.url.split("#")[0]
    seen: dict[str, tuple[dict[str, Any], list[str]]] = {}
    for game, players, _ in RUNS:
        table = tables[game]
        page.goto(f"{base}#/table/{table}")
        page.wait_for_selector(FINISHED, timeout=180_000)  # the bots play it out
        record = record_of(page, table)
        result = record["result"]
        names = [s["name"] for s in page.request.get(f"/api/tables/{table}").json()["seats"]]
        assert len(result["sides"]) == players // 2 and all(len(s["seats"]) == 2
                                                            for s in result["sides"])
        assert max(s["rank"] for s in result["sides"]) <= len(result["sides"])  # over sides
        assert engine_outcome(page, table)["sides"] == result["sides"]  # the rules agree
        check_end(page, table, "en", expected_rows(result, names, "en"))
        if game == "kami":
            shoot(page, "team-end-kami-en")  # for a look, and no sideways scrolling on a phone
        seen[game] = (record, names)
        # the replay's last step ends the same way
        replay_end(page, base, table, len(record["actions"]))
        check_end(page, table, "en", expected_rows(result, names, "en"))

    # the guest's page lists each match with their side's rank over sides
    page.goto(f"{base}#/player/{name}")
    page.wait_for_selector('[data-testid="player-matches"]')
    shown = page.locator('[data-testid="player-matches"] tbody tr').evaluate_all(
        """rows => rows.map((r) => [r.querySelector('a').getAttribute('href'),
                                    r.children[4].textContent])""")
    for game, _, _ in RUNS:
        record, _ = seen[game]
        rank = next(s["rank"] for s in record["result"]["sides"] if 0 in s["seats"])
        assert [f"#/replay/{tables[game]}", str(rank)] in shown, (game, shown)

    spanish = open_page("/", lang="es")
    for game, _, _ in RUNS:
        record, names = seen[game]
        want = expected_rows(record["result"], names, "es")
        spanish.goto(f"{base}#/table/{tables[game]}")
        spanish.wait_for_selector(FINISHED)
        check_end(spanish, tables[game], "es", want)
        if game == "queendomino":
            shoot(spanish, "team-end-queendomino-es")
        replay_end(spanish, base, tables[game], len(record["actions"]))
        check_end(spanish, tables[game], "es", want)
    headers = spanish.locator('[data-testid="result"] thead th').all_inner_texts()
    assert headers[:2] == ["Puesto", "Equipo"]
