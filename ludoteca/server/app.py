"""The ASGI app: lifespan (migrations, store, bot workers, resumed tables), error handling,
operators' routes and the table WebSocket."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import socket
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import uvicorn
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.staticfiles import StaticFiles

from ludoteca import __version__
from ludoteca.engine.errors import LudotecaError
from ludoteca.server import auth, migrate, python_check
from ludoteca.server import errors as E
from ludoteca.server.api_docs import mount_api_docs
from ludoteca.server.bot_pool import BotWorkers
from ludoteca.server.bot_queue import QueuedBots
from ludoteca.server.cycle_collector import CycleCollector
from ludoteca.server.errors import ServerError, language_from_header, voice
from ludoteca.server.game_assets import mount_game_assets
from ludoteca.server.housekeeping import Housekeeping
from ludoteca.server.http_limits import HeadLimits, limited_protocol
from ludoteca.server.hub import Hub
from ludoteca.server.logs import configure_logging
from ludoteca.server.pools import PoolRules
from ludoteca.server.protocol import ErrorMessage
from ludoteca.server.redis_link import connect
from ludoteca.server.routes import ROUTERS
from ludoteca.server.routes.deps import request_language
from ludoteca.server.settings import MESSAGE_LIMIT, Settings
from ludoteca.server.store import Store
from ludoteca.server.table_socket import TableSockets
from ludoteca.server.web_security import WebGuard
from ludoteca.server.websocket_protocol import TableWebSocketProtocol

log = logging.getLogger("ludoteca.server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


def make_bots(settings: Settings) -> BotWorkers:
    if settings.redis_url and not settings.database_url.startswith(("postgres", "postgresql")):
        raise ValueError("several processes (LUDOTECA_REDIS_URL) need a PostgreSQL database")
    if settings.bots == "queue":
        if not settings.redis_url:
            raise ValueError("LUDOTECA_BOTS=queue needs LUDOTECA_REDIS_URL")
        return QueuedBots(connect(settings.redis_url), settings.bot_processes)
    if settings.bots != "local":
        raise ValueError(f"LUDOTECA_BOTS must be local or queue, not {settings.bots!r}")
    return BotWorkers(settings.bot_processes)


def create_app(settings: Settings | None = None, *, timed_collector: bool = False) -> FastAPI:
    """The arena. ``timed_collector``: run the cycle collector by the clock
    (``settings.gc_period``), as ``serve`` does; off in tests that run the app in-process, so
    the test process keeps its own collector."""
    settings = settings or Settings()
    rules = PoolRules(settings.seasons, settings.ladder_dir)
    """Made with the app, not at start-up: ``/api/games`` says from them which bots a rated
    table takes, and lists the games without a lifespan (no database needed)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        configure_logging()
        if (affected := python_check.warning()) is not None:
            log.warning(affected)
        await asyncio.to_thread(migrate.upgrade, settings.database_url)
        store = Store(settings.database_url, rules)
        bots = make_bots(settings)
        hub = Hub(settings, store, bots)
        hub.metrics.watch_bots(bots.answered)
        hub.metrics.watch_analysis(bots.parts)
        app.state.hub = hub
        # the push outbox's sender, with the VAPID keys: before any table is loaded (here or
        # taken over in a cluster), so the turns a loaded table tells again reach push too
        await hub.start_push()
        if settings.redis_url:
            from ludoteca.server.cluster import Cluster

            cluster = Cluster(hub, settings.redis_url)
            hub.join_cluster(cluster)
            await cluster.start()
        await bots.warm()
        housekeeping = Housekeeping(hub)  # open tables' expiry, unused guests' purge
        housekeeping.start()
        collector = None
        if timed_collector and settings.gc_period > 0:
            collector = CycleCollector(settings.gc_period, observe=hub.metrics.cycle_collection)
            collector.start()
        resumed = 0 if hub.cluster is not None else await hub.tables.resume()
        if hub.cluster is None:  # one of several: the next to be asked takes an analysis over
            await hub.analyses.resume()
        hub.director.start()  # after the tables resumed: their ends reach it
        hub.start_mail()  # the outbox's sender (with an SMTP server): what a restart left too
        log.info("arena ready", extra={
            "tables_resumed": resumed, "database": store.engine.url.render_as_string(),
            "arena_process": hub.cluster.name if hub.cluster else None,
        })
        try:
            yield
        finally:
            await housekeeping.stop()
            await hub.shutdown()
            await asyncio.to_thread(bots.close, True)
            await store.close()
            if collector is not None:
                await collector.stop()
            log.info("arena stopped")

    app = FastAPI(
        title="Ludoteca arena",
        version=__version__,
        description="Accounts, lobby, tables, replays and ratings. Tables are played over "
        "the WebSocket `/ws/tables/{id}` (docs/protocol.md).",
        lifespan=lifespan,
        docs_url=None,  # served from the package instead (api_docs.py)
        redoc_url=None,
    )
    app.state.pool_rules = rules
    for router in ROUTERS:
        app.include_router(router)
    _error_handlers(app)
    _operator_routes(app)
    # The browser client's modules, compressed (text compresses about 4:1; a first table page
    # load measured 141 KiB plain, benchmarks/web.py). Only here: API answers are small.
    mount_game_assets(app)  # /static/games/<game>/: each game's own web folder
    app.mount("/static", GZipMiddleware(StaticFiles(directory=STATIC), minimum_size=256),
              name="static")
    app.add_middleware(BodyLimit)
    app.add_middleware(TableSockets)  # /ws/tables/{id}, outside the routing layers
    mount_api_docs(app)
    app.add_middleware(WebGuard, allowed_hosts=settings.allowed_hosts,  # outside all of them
                       allowed_origins=settings.allowed_origins, cookies=(auth.COOKIE,))
    return app


# ---- errors --------------------------------------------------------------------------------
def _lang(request: Request) -> str:
    return request_language(request)


def _error_response(request: Request, exc: LudotecaError, status: int) -> JSONResponse:
    hub: Hub | None = getattr(request.app.state, "hub", None)
    if hub is not None:
        hub.metrics.errors.labels(exc.code).inc()
    return JSONResponse(ErrorMessage.of(exc, voice(_lang(request))).to_wire(), status_code=status)


def _error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ServerError)
    async def server_error(request: Request, exc: ServerError) -> JSONResponse:
        return _error_response(request, exc, exc.status)

    @app.exception_handler(LudotecaError)
    async def engine_error(request: Request, exc: LudotecaError) -> JSONResponse:
        return _error_response(request, exc, 400)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        if first.get("type") == "json_invalid":  # its loc is a character offset, not a field
            error = ServerError("bad_request", E.BAD_JSON, 422)
        else:
            where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "body"
            error = ServerError("bad_request", E.BAD_REQUEST, 422, detail=where)
        return _error_response(request, error, 422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 404:
            error = ServerError("not_found", E.NOT_FOUND, 404, path=request.url.path)
        elif exc.status_code == 400:  # FastAPI could not read the body (not UTF-8, say)
            error = ServerError("bad_request", E.BAD_JSON, 422)
        elif exc.status_code == 405:
            error = ServerError("method_not_allowed", E.METHOD_NOT_ALLOWED, 405,
                                method=request.method, path=request.url.path)
        else:
            error = ServerError("bad_request", E.BAD_REQUEST, exc.status_code,
                                detail=str(exc.detail))
        response = _error_response(request, error, error.status)
        response.headers.update(exc.headers or {})
        if exc.status_code == 405:
            response.headers["allow"] = allowed_methods(request)
        return response

    @app.exception_handler(Exception)
    async def failed(request: Request, exc: Exception) -> JSONResponse:
        log.exception("request failed: %s %s", request.method, request.url.path)
        error = ServerError("server_error", E.SERVER_FAILED, 500)
        return _error_response(request, error, 500)


def allowed_methods(request: Request) -> str:
    """Every method some route takes at this path (Starlette's own ``Allow`` names only the
    first route that matched the path, and each of ours takes one method)."""
    routes = [*request.app.routes, *(r for router in ROUTERS for r in router.routes)]
    path = request.url.path
    methods: set[str] = set()
    for route in routes:
        if isinstance(route, APIRoute) and route.path_regex.match(path):
            methods |= route.methods or set()
    return ", ".join(sorted(methods))


class BodyLimit:
    """Refuse HTTP bodies over the message limit with a typed error, before any route reads
    them (WebSocket messages are checked one by one in ``table_socket``)."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        size = 0
        for key, value in scope.get("headers", []):
            if key == b"content-length":
                with contextlib.suppress(ValueError):
                    size = int(value)
        if size > MESSAGE_LIMIT:
            await self._refuse(scope, receive, send, size)
            return
        chunks: list[Message] = []
        total = 0
        while True:
            message = await receive()
            chunks.append(message)
            if message["type"] != "http.request":
                break
            total += len(message.get("body", b""))
            if total > MESSAGE_LIMIT:
                await self._refuse(scope, receive, send, total)
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            if chunks:
                return chunks.pop(0)
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, size: int) -> None:
        headers = dict(scope.get("headers", []))
        lang = language_from_header(headers.get(b"accept-language", b"").decode("latin-1"))
        error = ServerError("too_large", E.TOO_LARGE, 413, size=size, limit=MESSAGE_LIMIT)
        response = JSONResponse(ErrorMessage.of(error, voice(lang)).to_wire(), status_code=413)
        await response(scope, receive, send)


# ---- operators -----------------------------------------------------------------------------
def _operator_routes(app: FastAPI) -> None:
    @app.get("/", include_in_schema=False)
    async def root() -> Response:
        """The browser client: one page; its modules are under /static."""
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/sw.js", include_in_schema=False)
    async def service_worker() -> Response:
        """Web Push's service worker, at the root so its scope is the whole site; always
        checked again (a new version reaches browsers at once)."""
        return FileResponse(STATIC / "sw.js", media_type="text/javascript", headers={
            "Cache-Control": "no-cache", "Service-Worker-Allowed": "/"})

    @app.get("/healthz", summary="Liveness and database check (for load balancers)")
    async def healthz(request: Request) -> Response:
        hub: Hub = request.app.state.hub
        try:
            await asyncio.wait_for(hub.store.ping(), 5)
        except Exception:
            return JSONResponse({"ok": False, "database": "unreachable"}, status_code=503)
        cluster = hub.cluster
        return JSONResponse({
            "ok": not hub.closing,
            "version": __version__,
            "tables": len(hub.tables.refs),
            "clients": sum(ref.watched for ref in hub.tables.refs.values()),
            **({} if cluster is None else {
                "process": cluster.name,
                "redis": "connected" if cluster.connected else "reconnecting",
                "tables_owned": sum(1 for ref in hub.tables.refs.values() if ref.owned),
            }),
        }, status_code=503 if hub.closing else 200)

    @app.get("/metrics", summary="Prometheus metrics", response_class=PlainTextResponse)
    async def metrics(request: Request) -> Response:
        hub: Hub = request.app.state.hub
        return Response(hub.metrics.render(), media_type="text/plain; version=0.0.4")


# ---- the table WebSocket -------------------------------------------------------------------
class ArenaServer(uvicorn.Server):
    """uvicorn, with the arena told first on SIGINT/SIGTERM: every table finishes the command
    in hand (its write included) and every client is told to reconnect, before uvicorn closes
    the sockets."""

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        app = self.config.app
        hub: Hub | None = getattr(getattr(app, "state", None), "hub", None)
        if hub is None or hub.closing or self.should_exit:
            super().handle_exit(sig, frame)
            return

        async def tell_then_exit() -> None:
            try:
                await asyncio.wait_for(hub.shutdown(), 15)
            finally:
                super(ArenaServer, self).handle_exit(sig, frame)

        task = asyncio.get_running_loop().create_task(tell_then_exit())
        _exiting.add(task)


_exiting: set[asyncio.Task[None]] = set()
STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
"""The browser client's files: plain HTML, CSS and ES modules, served as they are."""


def tune_runtime() -> None:
    """Keep the event loop from being stopped for long by the interpreter itself.

    Both settings were measured with 300 live tables (benchmarks/server.py), where each took
    the worst round trips from hundreds of milliseconds down to tens:

    - The cycle collector. The arena holds a large heap that lives for minutes (every live
      match, every socket's stack of coroutines), and by default a full collection walks it
      every few seconds under load, 100-300 ms with the loop stopped. What start-up made
      (modules, classes, rule tables) never dies, so it is frozen out of the walks. Once the
      app runs, ``CycleCollector`` collects by the clock instead (``LUDOTECA_GC_PERIOD``);
      the larger young generation set here is what is left when that is turned off.
    - The GIL's switch interval. SQLite's writer thread (``Store.write``) holds the GIL
      while SQLAlchemy builds its statements; by default the loop then waits up to 5 ms
      for it each time, and a few such waits add up on one action. 1 ms keeps the loop
      answering."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 10)
    sys.setswitchinterval(0.001)


def serve(settings: Settings, sockets: list[socket.socket] | None = None) -> None:
    """Run the arena under uvicorn until interrupted, on ``sockets`` when given (bound by
    ``preflight.listen``, so a port in use is refused before anything starts)."""
    tune_runtime()
    app = create_app(settings, timed_collector=True)

    def refused(code: str) -> None:
        hub: Hub | None = getattr(app.state, "hub", None)
        if hub is not None:
            hub.metrics.errors.labels(code).inc()

    limits = HeadLimits(line=settings.header_line_limit, total=settings.header_limit,
                        cookie=settings.cookie_limit, timeout=settings.request_timeout)
    config = uvicorn.Config(
        app,
        http=limited_protocol(limits, refused),
        host=settings.host,
        port=settings.port,
        log_level="warning",
        ws=TableWebSocketProtocol,
        ws_max_size=4 * MESSAGE_LIMIT,
        # X-Forwarded-For/-Proto are believed only from LUDOTECA_TRUSTED_PROXIES (none by
        # default: a client's own headers must not choose the address its limits count)
        proxy_headers=bool(settings.trusted_proxies),
        forwarded_allow_ips=list(settings.trusted_proxies),
        timeout_graceful_shutdown=10,
        server_header=False,  # no "server: uvicorn" on every answer: it tells only the stack
    )
    ArenaServer(config).run(sockets=sockets)
