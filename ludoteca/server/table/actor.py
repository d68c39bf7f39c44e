"""One actor per live table (DESIGN.md §3, after lichess's round actor: the actor dispatches,
collaborators act).

The actor is a mailbox: it takes the table's commands one at a time, runs each through the
pure ``TableCore``, writes what the core says to write **before** anyone is told, then sends
every viewer its own message (``TableViews``, built once per viewer kind and language), and
arms the clock and the bots that follow. A write that fails re-reads the table from the store,
so the actor never tells what is not stored. It sees the server only through
``TableServices``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, NoReturn, TypeVar

from ludoteca.engine.errors import StaleAction
from ludoteca.engine.game import JSON
from ludoteca.engine.i18n import N_
from ludoteca.server import errors as E
from ludoteca.server.connection import RESYNC, Connection
from ludoteca.server.db import User, utcnow
from ludoteca.server.errors import ServerError, Stopped
from ludoteca.server.services import TableServices
from ludoteca.server.store import Conflict
from ludoteca.server.table.core import Effects, TableCore, chat_line
from ludoteca.server.table.reload import read_back
from ludoteca.server.table.rematcher import Rematcher
from ludoteca.server.table.seating import Seating
from ludoteca.server.table.turns import Turns
from ludoteca.server.table.view import TableViews, chat_message
from ludoteca.server.table.viewers import Viewers

log = logging.getLogger("ludoteca.table")
T = TypeVar("T")


class TableActor:
    def __init__(self, services: TableServices, core: TableCore) -> None:
        self.services = services
        self.core = core
        self.views = TableViews(core)
        self.viewers = Viewers()
        self.turns = Turns(core, services, self._bot_act, lambda: self.call(self.timeout))
        self.inbox: asyncio.Queue[tuple[Callable[[], Awaitable[Any]], asyncio.Future[Any]]]
        self.inbox = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self._poked = False
        self.stopping = False
        """Let go of: takes no new command or viewer."""
        self.hints: dict[int, tuple[int, asyncio.Future[JSON]]] = {}
        """The coach's answer per seat, for the ``seq`` its decision began at, made or in the
        making: chosen once, whichever of the seat's sockets asks (``TableSocket.on_hint``)."""

    @property
    def seating(self) -> Seating:
        return Seating(self)  # made when asked: kept, it would hold the actor in a cycle

    @property
    def rematcher(self) -> Rematcher:
        return Rematcher(self)

    @property
    def table_id(self) -> str:
        return self.core.table.id

    @property
    def owned(self) -> bool:
        """This process runs the table's clocks and bots (alone, always; one of several, while
        it holds the table's lease)."""
        return self.turns.owned

    @owned.setter
    def owned(self, owned: bool) -> None:
        self.turns.owned = owned

    # ---- the mailbox ---------------------------------------------------------------------------
    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name=f"table {self.table_id}")
        self._after_change()

    async def _run(self) -> None:
        while True:
            command, future = await self.inbox.get()
            if future.done():
                continue
            try:
                result = await command()
            except Exception as exc:  # the caller hears (and logs) it; the actor goes on
                if not future.done():
                    future.set_exception(exc)
            else:
                if not future.done():
                    future.set_result(result)

    async def call(self, command: Callable[[], Awaitable[T]]) -> T:
        """Run ``command`` in the actor, after the commands before it, and return its result.
        A finished table loaded for one request has no running actor: it runs at once."""
        if self.stopping:
            raise Stopped()
        if self.task is None:
            return await command()
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        await self.inbox.put((command, future))
        return await future

    async def stop(self) -> None:
        """Finish the commands taken (their writes included), then stop timers and bots;
        commands that come after are refused (``Stopped``)."""
        self.stopping = True
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        async def nothing() -> None:
            return None

        await self.inbox.put((nothing, done))
        with contextlib.suppress(Exception):
            await asyncio.wait_for(done, 10)
        if self.task is not None:
            self.task.cancel()
        self.turns.cancel()
        while not self.inbox.empty():
            _, future = self.inbox.get_nowait()
            if not future.done():
                future.set_exception(Stopped())
        self.core.match = None  # frees the match at once (the tasks refer back to us)
        self.task = None  # its CancelledError's traceback holds us: a cycle (test_freed.py)
        self.turns.release()

    # ---- running a command: write, then tell ---------------------------------------------------
    async def apply(self, effects: Effects, conflict: object = None) -> None:
        """Write the effects, then tell; a failed write re-reads the table and refuses. Once
        written, the command has happened: a step after the write that fails is logged, every
        viewer is sent the table afresh, and the clock and the bots are armed all the same."""
        write = effects.write
        if write is not None:
            try:
                if write.move is not None:
                    await self.services.store.append(write.move, write.seats, write.table)
                elif write.table is not None and not await self.services.store.move_on(
                        write.table, write.seats, "open"):
                    raise Conflict(self.table_id)
            except Exception as exc:
                await self._not_written(exc, conflict)
            if write.move is not None:
                self.turns.last_move = time.monotonic()
        try:
            await self._written(effects)
        except Exception:
            log.exception("table %s: a step after the write failed; its viewers are sent the "
                          "table afresh", self.table_id)
            self.viewers.send_all(RESYNC)
        finally:
            self._after_change()

    async def _written(self, effects: Effects) -> None:
        """What follows a write: the other processes, the ratings, the viewers, letting go."""
        if effects.write is not None:
            self.services.table_changed(self.table_id, self.core.seq)
        if effects.finished:  # ratings first: the last move's message carries them
            await self.services.finished(self.core)
        self._tell(effects)
        if effects.finished and not self.viewers:
            self.services.forget(self.table_id, self)
        if self.core.table.status == "abandoned":
            self.services.forget(self.table_id, self)

    def _tell(self, effects: Effects) -> None:
        for what in effects.tell:
            if what == "step":
                self.services.metrics.sent(self.viewers.send_each(self.views.update))
            elif what == "full":
                self.viewers.send_each(self.views.full)
            elif what == "table":
                self.viewers.send_each(self.views.table)
            elif what == "lobby":
                self.services.lobby_changed(self.core)

    async def _not_written(self, exc: Exception, seq: object) -> NoReturn:
        """A write failed: back to exactly what the store holds, and the sender hears why
        (another process wrote first: stale; else the server failed)."""
        await self.refresh(whole=True)
        self._after_change()
        if isinstance(exc, Conflict):
            raise StaleAction(
                msgid=N_("Move number {seq} was answered meanwhile (stale)."), seq=seq,
            ) from None
        log.error("table %s: a log entry could not be saved", self.table_id, exc_info=exc)
        raise ServerError("server_error", E.SERVER_FAILED, 503) from None

    # ---- commands ------------------------------------------------------------------------------
    async def act(self, seat: int, seq: int, data: object, by_bot: bool = False) -> None:
        started = time.perf_counter()
        effects = self.core.act(seat, seq, data, utcnow(), by_bot)
        await self.apply(effects, seq)
        self.services.metrics.action(time.perf_counter() - started)

    async def undo(self, seat: int, seq: int) -> None:
        await self.apply(self.core.undo(seat, seq, utcnow()), seq)

    async def _bot_act(self, seat: int, seq: int, data: JSON) -> None:
        await self.call(lambda: self.act(seat, seq, data, by_bot=True))

    async def chat(self, user: User, text: str) -> None:
        core = self.core
        line = core.check_chat(user, text, time.monotonic(), self.services.settings.chat_rate)
        row = await self.services.store.add_chat(self.table_id, user.id, line)
        entry = chat_line(user, row)
        self.hear_chat(entry)
        self.services.chat_said(self.table_id, entry)

    def hear_chat(self, line: dict[str, Any]) -> None:
        self.core.chat.append(line)
        self.viewers.send_all(chat_message(line))

    async def seats_changed(self) -> None:
        """A seat was taken or freed (and written): deal when every seat is taken."""
        if self.services.several():  # others may have taken seats meanwhile
            await self.refresh(tell=False)
        self.viewers.reseat(self.core.seat_of)
        effects = self.core.seats_changed(utcnow())
        if effects.write is not None and self.core.table.status == "playing" and not self.owned:
            # whoever starts the match runs its clocks and bots, unless the owner lives
            self.owned = await self.services.claim(self.table_id)
        with contextlib.suppress(StaleAction):  # another process started (or gave up) first
            await self.apply(effects)

    async def take_over(self, seat: int) -> bool:
        """False if another process wrote to the table first (it is read again)."""
        effects = self.core.take_over(seat, utcnow())
        if effects is None:
            return True
        try:
            await self.apply(effects, self.core.seq)
        except StaleAction:
            return False
        return True

    async def timeout(self) -> None:
        for seat in self.core.out_of_time(utcnow()):
            if not await self.take_over(seat):
                break  # the table moved on elsewhere: look at the fresh clocks again
        self._after_change()

    # ---- another process changed the table -----------------------------------------------------
    def poke(self) -> None:
        """Catch up with the store soon, in turn with the table's other commands."""
        if self.task is None or self._poked or self.stopping:
            return
        self._poked = True
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        future.add_done_callback(lambda f: f.cancelled() or f.exception())

        async def poked() -> None:
            self._poked = False
            try:
                await self.catch_up()
            except Exception:
                log.warning("table %s: could not catch up", self.table_id, exc_info=True)

        self.inbox.put_nowait((poked, future))

    async def catch_up(self) -> None:
        """Read what changed in the store, then go on with clocks and bots (if ours)."""
        try:
            await self.refresh()
        finally:
            self._after_change()

    def set_owned(self, owned: bool) -> None:
        if owned != self.owned:
            self.owned = owned
            self.poke()

    async def refresh(self, whole: bool = False, tell: bool = True) -> None:
        """Read the table back from the store (``reload.py``); viewers hear what changed."""
        core = self.core
        self.services.metrics.catch_ups.inc()
        summary, seq = core.summary(), core.seq
        rebuilt = await read_back(core, self.services.store, whole)
        if rebuilt is None:
            return
        self.viewers.reseat(core.seat_of)
        if not tell:
            return
        if core.summary() != summary:
            self.viewers.send_each(self.views.table)
        if rebuilt or core.seq > seq + 1:
            self.viewers.send_each(self.views.full)
        elif core.seq == seq + 1:
            self.viewers.send_each(self.views.update)
        if core.table.status not in ("open", "playing"):
            self.turns.cancel_timer()
            if not self.viewers:
                self.services.forget(self.table_id, self)

    def _after_change(self) -> None:
        self.turns.arm()
        if self.owned and self.core.playing():
            self.services.turns(self.core)

    # ---- viewers -------------------------------------------------------------------------------
    def attach(self, conn: Connection) -> None:
        if self.stopping:
            raise Stopped()
        conn.seat = self.core.seat_of(conn.user_id)
        self.viewers.add(conn)
        conn.send(self.full(conn))

    def tell_table(self) -> None:
        """The table's summary changed outside a command (a rematch was made)."""
        self.viewers.send_each(self.views.table)

    def detach(self, conn: Connection) -> None:
        self.viewers.discard(conn)

    def full(self, conn: Connection) -> str:
        return self.views.full(conn.seat, conn.lang, utcnow())


async def in_actor(actor: TableActor, command: Callable[[], Awaitable[object]]) -> None:
    """A lobby or housekeeping command, in the table's actor. A finished or abandoned table
    loaded from the store has no actor running (``call`` would wait forever), and there such
    commands only refuse, changing nothing: run them at once."""
    if actor.task is None or actor.task.done():
        await command()
    else:
        await actor.call(command)
