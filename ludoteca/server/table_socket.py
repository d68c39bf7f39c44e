"""The table WebSocket ``/ws/tables/{id}`` (docs/protocol.md), in Starlette's endpoint shape:
connect (origin, session, attach to the table's actor), receive (size, parse, dispatch through
one table keyed by message type), disconnect.

Nothing a client sends closes its socket but a flood (``socket_limits.py``): a mistake gets a
typed ``error``; an exception the server did not expect is logged once and answered with a
typed ``server_error``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from fastapi import WebSocket
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect

from ludoteca.engine.errors import LudotecaError
from ludoteca.server import auth, protocol
from ludoteca.server import errors as E
from ludoteca.server.access import may_see
from ludoteca.server.connection import CLOSE, RESYNC, Connection
from ludoteca.server.db import User
from ludoteca.server.errors import (
    ServerError,
    Stopped,
    language_from_header,
    voice,
)
from ludoteca.server.friend_store import FriendStore
from ludoteca.server.hub import Hub
from ludoteca.server.presence import looking
from ludoteca.server.protocol import (
    Act,
    Chat,
    ErrorMessage,
    Hint,
    HintMessage,
    Ping,
    PongMessage,
    ReconnectMessage,
    Rematch,
    Sync,
    Undo,
)
from ludoteca.server.settings import MESSAGE_LIMIT
from ludoteca.server.socket_limits import FLOOD_CLOSE, MessageRate
from ludoteca.server.table import coach, commands
from ludoteca.server.table.ref import TableRef

log = logging.getLogger("ludoteca.server")


def origin_allowed(ws: WebSocket, allowed: tuple[str, ...]) -> bool:
    """Browsers send ``Origin``: it must be this server's own address or a configured one.
    Programs that send none (bots, tests, the terminal) are let in: cookies are what a page
    on another site could abuse, and it cannot leave out the header."""
    origin = ws.headers.get("origin")
    if origin is None or origin in allowed:
        return True
    return urlsplit(origin).netloc == ws.headers.get("host", "")


class TableSocket:
    """One open table tab, from handshake to close."""

    def __init__(self, ws: WebSocket, hub: Hub, table_id: str) -> None:
        self.ws = ws
        self.hub = hub
        self.table_id = table_id
        self.user: User | None = None
        self.ref: TableRef | None = None
        self.problem: LudotecaError | None = None
        self.conn = Connection(None, "en")
        self.rate = MessageRate(hub.settings.socket_rate)
        self.counted: tuple[str, int | None] | None = None
        """The address and account this socket counts against (``SocketCounts``)."""
        self.close_with = (1012, "")
        """The close frame the writer sends when told to close."""

    # ---- the socket's life ---------------------------------------------------------------------
    async def run(self) -> None:
        try:
            if await self.on_connect():
                await self._serve()
        finally:
            if self.counted is not None:
                self.hub.socket_counts.leave(*self.counted)

    async def _serve(self) -> None:
        hub = self.hub
        hub.metrics.clients.inc()
        writer = asyncio.create_task(self._write())
        try:
            if self.problem is not None:
                self.refuse(self.problem)
            while True:
                message = await self.ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if not await self.on_receive(message):
                    await self._close_after_writes(writer)
                    break
        except WebSocketDisconnect:
            pass
        finally:
            hub.metrics.clients.dec()
            writer.cancel()
            self.on_disconnect()

    async def _close_after_writes(self, writer: asyncio.Task[None]) -> None:
        """A flood: the refusal already queued goes out, then the close frame with its
        reason (the writer sends both, in order)."""
        self.conn.send(CLOSE)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(writer), 5)

    async def on_connect(self) -> bool:
        ws, hub = self.ws, self.hub
        if not origin_allowed(ws, hub.settings.allowed_origins):
            # refused before the handshake (another site's page must not act with our cookie),
            # with the typed error as the HTTP answer's body
            error = ServerError("bad_origin", E.BAD_ORIGIN, 403,
                                origin=ws.headers.get("origin", ""))
            hub.metrics.errors.labels(error.code).inc()
            say = voice(language_from_header(ws.headers.get("accept-language")))
            try:
                refusal = ErrorMessage.of(error, say).to_wire()
                await ws.send_denial_response(JSONResponse(refusal, 403))
            except RuntimeError:  # a server without the denial extension
                await ws.close(code=1008)
            return False
        token = ws.cookies.get(auth.COOKIE)
        self.user = await hub.store.session_user(auth.token_hash(token)) if token else None
        lang = (self.user.language if self.user is not None
                else ws.query_params.get("lang")
                or language_from_header(ws.headers.get("accept-language")))
        self.conn = Connection(self.user.id if self.user else None,
                               lang if lang in ("en", "es") else "en")
        await ws.accept()
        address = ws.client.host if ws.client else "unknown"
        refused = hub.socket_counts.enter(address, self.conn.user_id)
        if refused is not None:
            hub.metrics.errors.labels(refused.code).inc()
            await ws.send_text(ErrorMessage.of(refused, voice(self.conn.lang)).text())
            await ws.close(code=FLOOD_CLOSE,
                           reason=f"too_many_sockets: at most {refused.fields['count']}")
            return False
        self.counted = (address, self.conn.user_id)
        if hub.closing:
            await ws.send_text(ReconnectMessage(voice(self.conn.lang).t(E.SHUTTING_DOWN)).text())
            await ws.close(code=1012)
            return False
        await self._attach()
        return True

    async def _attach(self) -> None:
        for _ in range(3):  # a table being let go of (no one watched it) is loaded anew
            found = await self.hub.tables.ref(self.table_id)
            if found is None:
                self.problem = ServerError("no_such_table", E.NO_SUCH_TABLE, 404,
                                           table=self.table_id)
                return
            try:
                may_see(found.snapshot(), self.user, self.ws.query_params.get("invite"))
            except ServerError as exc:
                self.problem = exc
                return
            try:
                await found.subscribe(self.conn)
            except Stopped:
                continue
            self.ref = found
            if self.conn.user_id is not None:  # they are looking at it (a turn email waits)
                self.hub.presence.enter(looking(self.conn.user_id, found.table_id))
            return
        self.problem = Stopped()

    async def on_receive(self, message: MutableMapping[str, Any]) -> bool:
        """Answer one client frame; False when the socket must close (a flood)."""
        if not self.rate.allows(time.monotonic()):
            log.warning("table socket flood closed", extra={
                "table": self.table_id, "user_id": self.conn.user_id,
                "address": self.counted[0] if self.counted else None})
            self.refuse(self.rate.refusal())
            self.close_with = (FLOOD_CLOSE, self.rate.close_reason())
            return False
        text = message.get("text")
        if text is None:
            raw = message.get("bytes") or b""
            if len(raw) > MESSAGE_LIMIT:
                self.refuse(ServerError("too_large", E.TOO_LARGE, size=len(raw),
                                        limit=MESSAGE_LIMIT))
            else:
                self.refuse(ServerError("bad_json", E.BAD_JSON))
            return True
        size = len(text.encode())
        if size > MESSAGE_LIMIT:
            self.refuse(ServerError("too_large", E.TOO_LARGE, size=size, limit=MESSAGE_LIMIT))
            return True
        try:
            if self.problem is not None or self.ref is None:  # every message hears it
                raise self.problem or ServerError("no_such_table", E.NO_SUCH_TABLE, 404,
                                                  table=self.table_id)
            parsed = protocol.parse(text)
            await HANDLERS[type(parsed)](self, parsed)
        except LudotecaError as exc:
            self.refuse(exc)
        except Exception:
            log.exception("table %s: a client message failed", self.table_id)
            self.refuse(protocol.server_error())
        return True

    def on_disconnect(self) -> None:
        ref = self.ref
        if ref is None:
            return
        ref.unsubscribe(self.conn)
        if self.conn.user_id is not None:
            self.hub.presence.leave(looking(self.conn.user_id, ref.table_id))
        # a finished table, or (one of several processes) a table another one runs, is read
        # again from the store when next wanted
        if not ref.watched and (ref.snapshot().status not in ("open", "playing")
                                or not ref.owned):
            self.hub.forget(ref.table_id, ref)

    def refuse(self, exc: LudotecaError) -> None:
        self.hub.metrics.errors.labels(exc.code).inc()
        say = self.ref.voice(self.conn.lang) if self.ref else voice(self.conn.lang)
        self.conn.send(ErrorMessage.of(exc, say).text())

    # ---- the dispatch table's handlers ---------------------------------------------------------
    def _seat(self) -> tuple[TableRef, int]:
        ref = self.ref
        assert ref is not None
        if self.user is None:
            raise ServerError("not_signed_in", E.NOT_SIGNED_IN, 401)
        seat = ref.snapshot().seat_of(self.user.id)
        if seat is None:
            raise ServerError("not_seated", E.NOT_SEATED, 403)
        return ref, seat

    async def on_act(self, message: Act) -> None:
        ref, seat = self._seat()
        await ref.send(commands.Act(seat, message.seq, message.action))

    async def on_undo(self, message: Undo) -> None:
        ref, seat = self._seat()
        await ref.send(commands.Undo(seat, message.seq))

    async def on_hint(self, message: Hint) -> None:
        """The coach (table/coach.py): checked, logged and asked for in the actor, told to
        this socket alone. Asking again at the same decision, from any of the seat's sockets,
        or many times at once, waits for the same answer."""
        ref, seat = self._seat()
        reply = await ref.send(commands.Hint(seat, message.seq))
        assert reply.hint is not None
        suggestion = await asyncio.shield(reply.hint)
        conn = self.conn
        conn.send(HintMessage.of(message.seq, suggestion,
                                 coach.why(suggestion, ref.voice(conn.lang))).text())

    async def on_rematch(self, message: Rematch) -> None:
        ref, seat = self._seat()
        await ref.send(commands.Rematch(seat, message.accept))

    async def on_chat(self, message: Chat) -> None:
        ref = self.ref
        assert ref is not None
        if self.user is None:
            raise ServerError("not_signed_in", E.NOT_SIGNED_IN, 401)
        seated = [s.user_id for s in ref.snapshot().seats
                  if s.user_id is not None and s.user_id != self.user.id]
        friends = FriendStore(self.hub.store.write, self.hub.store.sessions)
        if await friends.blockers_among(self.user.id, seated):  # refused, for everyone
            raise ServerError("chat_blocked", E.CHAT_BLOCKED, 403)
        await ref.send(commands.Chat(self.user.id, message.text))

    async def on_sync(self, message: Sync) -> None:
        self.conn.send(await self._full())

    async def on_ping(self, message: Ping) -> None:
        assert self.ref is not None
        self.conn.send(PongMessage(self.ref.snapshot().seq).text())

    async def _full(self) -> str:
        """The whole table as this socket is sent it, in turn with the table's commands."""
        assert self.ref is not None
        reply = await self.ref.send(commands.Sync(self.conn.user_id, self.conn.lang))
        assert reply.text is not None
        return reply.text

    async def _write(self) -> None:
        """Drain the connection's outbox to its socket, in order. It never dies unnoticed,
        leaving a socket open that nobody writes to: on a failure it does not expect it logs
        it and closes the socket with a reason (``WRITER_FAILED``; the client reconnects)."""
        conn = self.conn
        try:
            while True:
                text = await conn.outbox.get()
                if text == CLOSE:
                    await self.ws.close(*self.close_with)
                    return
                if text == RESYNC:
                    if self.ref is None:
                        continue
                    text = await self._full()
                await self.ws.send_text(text)
        except (WebSocketDisconnect, RuntimeError, OSError, asyncio.CancelledError):
            return  # the socket is gone, or going
        except Stopped:  # a fresh ``full`` from a table being let go of: as at a restart
            with contextlib.suppress(Exception):
                await self.ws.close(1012)
        except Exception:
            log.exception("table %s: a socket's writer failed; the socket is closed",
                          self.table_id)
            with contextlib.suppress(Exception):
                await self.ws.close(*WRITER_FAILED)


WRITER_FAILED = (1011, "server_error: could not write to this socket; reconnect")
"""The close frame of a socket whose writer failed (docs/protocol.md, "Closing for abuse")."""


HANDLERS: dict[type, Callable[[TableSocket, Any], Awaitable[None]]] = {
    Act: TableSocket.on_act, Undo: TableSocket.on_undo, Chat: TableSocket.on_chat,
    Rematch: TableSocket.on_rematch, Hint: TableSocket.on_hint, Sync: TableSocket.on_sync,
    Ping: TableSocket.on_ping,
}
"""The dispatch table, by client message type: a socket's own table of bound methods would
hold the socket in a cycle (tests/server/test_freed.py)."""


TABLE_PATH = re.compile(r"/ws/tables/([^/]+)")


class TableSockets:
    """ASGI middleware that hands ``/ws/tables/{id}`` straight to its handler, past the
    routing and exception layers: those wrap every message a socket sends for as long as it
    lives, and each open socket kept their suspended frames (a fifth of the objects the cycle
    collector walks with 600 tables; benchmarks/server.py). The handler answers every error
    itself (module docstring). Added last, so it runs first after Starlette's outer layer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            path, root = scope["path"], scope.get("root_path", "")
            if root and path.startswith(root + "/"):
                path = path[len(root):]
            found = TABLE_PATH.fullmatch(path)
            if found is not None:
                ws = WebSocket(scope, receive, send)
                await TableSocket(ws, scope["app"].state.hub, found[1]).run()
                return
        await self.app(scope, receive, send)

