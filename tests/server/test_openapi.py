"""The OpenAPI schema: it documents every HTTP route the app has, and a schemathesis run
against the live server (SQLite and PostgreSQL) finds no server error, signed out and signed
in, on made-up and on real tables."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import httpx
import pytest
import schemathesis
from fastapi.routing import APIRoute
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.result import Ok
from starlette.routing import BaseRoute, Route

from ludoteca.games import game_names
from tests.server.client import CLIENT, Player
from tests.server.conftest import Server

EXAMPLES = 25
SKIPPED = {("GET", "/api/events")}
"""The server-sent event stream never ends, so no request of it returns to be checked
(``test_notifications.py`` reads it)."""
ANYONE = {("POST", "/api/signup"), ("POST", "/api/signin"), ("POST", "/api/guest")}
"""Routes that never read the session: run once, signed out (each costs an Argon2 hash)."""


def app_routes() -> set[tuple[str, str]]:
    """Every HTTP route of the app, but the pages kept out of the schema (``/``, ``/docs``) and
    FastAPI's own docs routes."""
    from ludoteca.server.app import create_app
    from ludoteca.server.settings import Settings

    app = create_app(Settings(database_url="sqlite://"))  # no lifespan: nothing runs
    docs = {app.openapi_url, app.docs_url, app.redoc_url, app.swagger_ui_oauth2_redirect_url}
    out: set[tuple[str, str]] = set()

    def walk(routes: list[BaseRoute], prefix: str) -> None:
        for route in routes:
            included = getattr(route, "original_router", None)  # FastAPI >= 0.130 nests these
            if included is not None:
                context = getattr(route, "include_context", None)
                walk(included.routes, prefix + getattr(context, "prefix", ""))
            elif isinstance(route, APIRoute | Route) and route.include_in_schema \
                    and route.path not in docs:
                out.update((m, prefix + route.path) for m in (route.methods or ()) if m != "HEAD")

    walk(app.routes, "")
    return out


def test_every_route_is_documented(server: Server) -> None:
    schema = httpx.get(server.base + "/openapi.json", timeout=30).json()
    documented = {
        (method.upper(), path) for path, ops in schema["paths"].items() for method in ops
    }
    assert documented == app_routes()
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            assert op.get("summary"), (method, path)
            if path.startswith("/api/"):
                # refusals are documented as what they are: typed errors
                error = op["responses"]["4XX"]["content"]["application/json"]["schema"]
                assert error == {"$ref": "#/components/schemas/ErrorOut"}, (method, path)
                assert "422" not in op["responses"], (method, path)
    fields = schema["components"]["schemas"]["ErrorOut"]["properties"]
    assert set(fields) == {"type", "code", "message"}


@pytest.fixture(scope="module")
def tables(server: Server) -> dict[str, str]:
    """Real tables to aim at: open, being played, finished, and private (by id)."""
    host = Player(server.base, "Fuzz_host")
    try:
        found = {
            "open": host.create("kingdomino", 4)["id"],
            "private": host.create("kingdomino", 3, private=True)["id"],
            "playing": host.create("buttons", 2, bots=["random"])["id"],
        }
        quick = host.create("kami", 2, options={"target": 10}, bots=["random"])
        sock = host.socket(quick["id"])
        sock.play(random.Random(1))
        sock.close()
        found["finished"] = quick["id"]
        return found
    finally:
        host.close()


def session(server: Server) -> str:
    """A new guest's session cookie header."""
    response = httpx.post(server.base + "/api/guest", headers=CLIENT, timeout=30)
    assert response.status_code == 200, response.text
    return f"ludoteca_session={response.cookies['ludoteca_session']}"


GAMES = game_names()


def real_table(body: dict[str, Any]) -> None:
    """Point a generated new table at a real game and cheap bots, so that tables get made
    (made-up game names alone only ever meet ``no_such_game``); the rest stays generated."""
    if isinstance(body.get("game"), str):
        body["game"] = GAMES[len(body["game"]) % len(GAMES)]
    if isinstance(body.get("options"), dict) and len(body["options"]) % 2:
        body["options"] = {}
    if isinstance(body.get("bots"), list):
        body["bots"] = [b if not isinstance(b, str) else ("random", "greedy")[len(b) % 2]
                        for b in body["bots"]]


def fuzz(
    server: Server,
    operation: schemathesis.APIOperation,
    mode: GenerationMode,
    cookie: Callable[[], str] | None,
    examples: int,
    **fixed: Any,
) -> None:
    """One operation, ``examples`` generated requests, none of which may end in a 5xx."""
    if mode == GenerationMode.NEGATIVE:
        fixed_path = set(fixed.get("path_parameters", {}))
        free = [p for p in operation.path_parameters if p.name not in fixed_path]
        if not (len(operation.body) or len(operation.query) or free):
            return  # nothing there to get wrong
    strategy = operation.as_strategy(generation_mode=mode, **fixed)
    local_hook = server.base + "/hook"

    @settings(max_examples=examples, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck), report_multiple_bugs=False,
              phases=(Phase.explicit, Phase.generate))  # a hang found is not shrunk
    @given(case=strategy)
    def run(case: schemathesis.Case) -> None:
        body = case.body
        if isinstance(body, dict) and isinstance(body.get("webhook_url"), str):
            # the server would post turns there: keep every request on this machine
            body["webhook_url"] = local_hook if body["webhook_url"] else ""
        if cookie is not None and operation.path == "/api/tables" and isinstance(body, dict):
            real_table(body)
        headers = {**CLIENT, **({"Cookie": cookie()} if cookie is not None else {})}
        case.call_and_validate(base_url=server.base, headers=headers,
                               checks=[not_a_server_error], timeout=15)

    try:
        run()
    except Unsatisfiable:
        if mode != GenerationMode.NEGATIVE:
            raise
        # every value of its inputs is valid (a path's text, an optional query string)


def test_schemathesis_finds_no_server_error(
    server: Server, tables: dict[str, str], people: Callable[..., Player]
) -> None:
    schema = schemathesis.openapi.from_url(server.base + "/openapi.json", timeout=30)
    signed_in = session(server)
    ran = set()
    for result in schema.get_all_operations():
        assert isinstance(result, Ok), result.err()
        operation = result.ok()
        key = (operation.method.upper(), operation.path)
        if key in SKIPPED:
            continue
        ran.add(key)
        names = {p.name for p in operation.path_parameters}
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            # made-up values everywhere, signed out
            fuzz(server, operation, mode, None, EXAMPLES)
            if key in ANYONE:
                continue
            # signed in (signing out ends the session, so that one gets a new guest each
            # time); on the real tables; for real players and games
            cookie = (lambda: session(server)) if key == ("POST", "/api/signout") \
                else (lambda: signed_in)
            if "table_id" in names:
                for table in tables.values():
                    fuzz(server, operation, mode, cookie, EXAMPLES // 5,
                         path_parameters={"table_id": table})
            elif "name" in names:
                fuzz(server, operation, mode, cookie, EXAMPLES // 5,
                     path_parameters={"name": "Fuzz_host"})
            elif "game" in names:
                fuzz(server, operation, mode, cookie, EXAMPLES // 5,
                     path_parameters={"game": "kami"})
            else:
                fuzz(server, operation, mode, cookie, EXAMPLES)
    assert ran == app_routes() - SKIPPED
    # the server is still well
    assert httpx.get(server.base + "/healthz", timeout=30).json()["ok"] is True
    someone = people()
    assert someone.ok(someone.http.get("/api/me"))["guest"] is True

