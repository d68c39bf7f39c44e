"""One actor per live table (DESIGN.md §3, after lichess's round actor: the actor dispatches,
collaborators act).

The actor is a mailbox: it takes the table's typed commands (``commands.py``) one at a time,
each through one method of its dispatch table (``HANDLERS``), runs it through the pure
``TableCore``, which changes its plain state and returns ``Effects``, and applies them one way
(``apply``): it writes what the core says to write, conditionally and in one transaction,
**before** anyone is told, then sends every viewer its own message (``TableViews``, built once
per viewer kind and language), and arms the clock and the bots that follow. Moves, seats, chat
and the deal all take this path. A write that loses a race re-reads the table from the store
and answers with the command's typed refusal, so the actor never tells what is not stored.
After every command it publishes an immutable ``TableSnapshot``. It sees the server only
through ``TableServices``, and the server sees it only through a ``TableRef`` (``ref.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, NoReturn

from ludoteca.engine.errors import StaleAction
from ludoteca.engine.game import JSON
from ludoteca.engine.i18n import N_
from ludoteca.server import errors as E
from ludoteca.server.connection import RESYNC, Connection
from ludoteca.server.errors import ServerError, Stopped
from ludoteca.server.finisher import MatchFinished
from ludoteca.server.services import TableServices
from ludoteca.server.store import Conflict
from ludoteca.server.table import coach
from ludoteca.server.table.commands import (
    Act,
    AddBot,
    BotMove,
    CatchUp,
    Chat,
    ChatHeard,
    Command,
    Deal,
    Drop,
    Expire,
    Hint,
    Join,
    Leave,
    Record,
    Rematch,
    RemoveSeat,
    Reply,
    Subscribe,
    Sync,
    Timeout,
    Undo,
    UserChanged,
)
from ludoteca.server.table.core import TableCore
from ludoteca.server.table.effects import Effects, Write
from ludoteca.server.table.reload import read_back
from ludoteca.server.table.rematcher import Rematcher
from ludoteca.server.table.seating import Seating
from ludoteca.server.table.state import Person, utcnow
from ludoteca.server.table.turns import Turns
from ludoteca.server.table.view import TableViews, chat_message
from ludoteca.server.table.viewers import Viewers

log = logging.getLogger("ludoteca.table")
Mail = tuple[Command | Subscribe, "asyncio.Future[Reply]"]


class TableActor:
    def __init__(self, services: TableServices, core: TableCore) -> None:
        self.services = services
        self.core = core
        self.views = TableViews(core)
        self.viewers = Viewers()
        self.turns = Turns(core, services, self._bot_act, self._timed_out)
        self.inbox: asyncio.Queue[Mail] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self._poked = False
        self.stopping = False
        """Let go of: takes no new command or viewer."""
        self.hints: dict[int, tuple[int, asyncio.Future[JSON]]] = {}
        """The coach's answer per seat, for the ``seq`` its decision began at, made or in the
        making: chosen once, whichever of the seat's sockets asks (``Hint``)."""
        self.snapshot = core.snapshot(utcnow())
        """The table as the last command left it (``TableRef.snapshot``)."""

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
                reply = await self.handle(command)
            except Exception as exc:  # the caller hears (and logs) it; the actor goes on
                if not future.done():
                    future.set_exception(exc)
            else:
                if not future.done():
                    future.set_result(reply)

    async def send(self, command: Command | Subscribe) -> Reply:
        """Run ``command`` in the actor, after the commands before it, and return its reply.
        A finished table loaded for one request has no running actor (and there a command
        only reads or refuses): it runs at once."""
        if self.stopping:
            raise Stopped()
        if self.task is None or self.task.done():
            return await self.handle(command)
        future: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        await self.inbox.put((command, future))
        return await future

    def tell(self, command: Command) -> None:
        """Send ``command`` without waiting for its reply; a failure is logged. Catching up
        is asked once until it runs (many notices of another process's writes, one read)."""
        if self.task is None or self.stopping:
            return
        if isinstance(command, CatchUp):
            if self._poked:
                return
            self._poked = True
        future: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        future.add_done_callback(self._told)
        self.inbox.put_nowait((command, future))

    def _told(self, future: asyncio.Future[Reply]) -> None:
        exc = None if future.cancelled() else future.exception()
        if exc is not None and not isinstance(exc, Stopped):  # stopping: nobody to tell
            log.warning("table %s: a command sent without waiting failed", self.table_id,
                        exc_info=exc)

    async def handle(self, command: Command | Subscribe) -> Reply:
        """One command, through the dispatch table; the snapshot is published after it, done
        or refused."""
        try:
            reply = await HANDLERS[type(command)](self, command)
        finally:
            self._publish()
        if reply is None:
            return Reply(self.snapshot)
        return dataclasses.replace(reply, snapshot=self.snapshot)

    def _publish(self) -> None:
        """A new snapshot: once per command, and before the rest of the arena is told of a
        change within one (the lobby, the match's end, turn notices)."""
        self.snapshot = self.core.snapshot(utcnow())

    async def stop(self) -> None:
        """Finish the commands taken (their writes included), then stop timers and bots;
        commands that come after are refused (``Stopped``)."""
        self.stopping = True
        done: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        await self.inbox.put((Record(), done))  # in turn after the commands taken
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
        """Write the effects, then tell; a write that loses a race re-reads the table and
        answers with the effects' refusal (or, for a log entry, stale at ``conflict``). Once
        written, the command has happened: a step after the write that fails is logged,
        every viewer is sent the table afresh, and the clock and the bots are armed all the
        same. Seats taken or freed are followed by the deal (``seats_changed``)."""
        write = effects.write
        if write is not None:
            try:
                if not await self._write(write):
                    raise Conflict(self.table_id)
            except Exception as exc:
                await self._not_written(exc, effects, conflict)
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
        if "seats" in effects.tell:
            await self.seats_changed()

    async def _write(self, write: Write) -> bool:
        """One write, in one transaction; False if another process changed the table first
        (a log entry's place taken raises ``Conflict``)."""
        store = self.services.store
        if write.move is not None:
            await store.append(write.move, write.seats, write.table)
        elif write.seat_changes:
            return await store.change_seats(self.table_id, write.seat_changes)
        elif write.table is not None and write.status_was is not None:
            return await store.move_on(write.table, write.seats, write.status_was)
        elif write.table is not None:
            await store.save_table(write.table, write.seats)
        if write.chat is not None:
            await store.add_chat(self.table_id, write.chat)
        return True

    async def _written(self, effects: Effects) -> None:
        """What follows a write: the other processes, the match's end, the viewers, letting
        go."""
        write = effects.write
        if write is not None and write.chat is None:
            self.services.table_changed(self.table_id, self.core.seq)
        if effects.finished:  # its subscribers first: the last move's message carries ratings
            self._publish()
            event = MatchFinished(self.snapshot)
            heard = await self.services.finished(event)
            if heard.result is not event.result:
                self.core.take_result(heard.result)
        self._tell(effects)
        if effects.finished and not self.viewers:
            self.services.forget(self.table_id, self)
        if self.core.table.status == "abandoned":
            self.services.forget(self.table_id, self)

    def _tell(self, effects: Effects) -> None:
        for what in effects.tell:
            if what == "chat" and effects.write is not None and effects.write.chat is not None:
                line = effects.write.chat.to_json()
                self.hear_chat(line)
                self.services.chat_said(self.table_id, line)
            if what == "step":
                self.services.metrics.sent(self.viewers.send_each(self.views.update))
            elif what == "full":
                self.viewers.send_each(self.views.full)
            elif what == "table":
                self.viewers.send_each(self.views.table)
            elif what == "lobby":
                self._publish()
                self.services.lobby_changed(self.snapshot)

    async def _not_written(self, exc: Exception, effects: Effects, seq: object) -> NoReturn:
        """A write failed: back to exactly what the store holds, and the sender hears why
        (another process wrote first: the command's refusal, else stale; or the server
        failed)."""
        await self.refresh(whole=True)
        self._after_change()
        if isinstance(exc, Conflict) and effects.refusal is not None:
            raise effects.refusal from None
        if isinstance(exc, Conflict):
            raise StaleAction(
                msgid=N_("Move number {seq} was answered meanwhile (stale)."), seq=seq,
            ) from None
        log.error("table %s: a log entry could not be saved", self.table_id, exc_info=exc)
        raise ServerError("server_error", E.SERVER_FAILED, 503) from None

    # ---- the commands, one method each (HANDLERS) ----------------------------------------------
    async def _act(self, command: Act) -> None:
        await self.act(command.seat, command.seq, command.action)

    async def _bot_move(self, command: BotMove) -> None:
        await self.act(command.seat, command.seq, command.action, by_bot=True)

    async def act(self, seat: int, seq: int, data: object, by_bot: bool = False) -> None:
        started = time.perf_counter()
        effects = self.core.act(seat, seq, data, utcnow(), by_bot)
        await self.apply(effects, seq)
        self.services.metrics.action(time.perf_counter() - started)

    async def _undo(self, command: Undo) -> None:
        await self.apply(self.core.undo(command.seat, command.seq, utcnow()), command.seq)

    async def _bot_act(self, seat: int, seq: int, data: JSON) -> None:
        await self.send(BotMove(seat, seq, data))

    async def _hint(self, command: Hint) -> Reply:
        """Checked and logged here (``coach.py``), chosen in the bot processes: once per seat
        and decision, whichever of the seat's sockets asks, and again after a failure."""
        seat = command.seat
        view, ply, since, note = coach.asked(self.core, seat, command.seq, utcnow())
        if note is not None:
            await self.apply(note)
        made = self.hints.get(seat)
        if made is None or made[0] != since or _failed(made[1]):
            made = since, asyncio.ensure_future(
                self.services.hint(self.snapshot, view, seat, ply))
            self.hints[seat] = made
        return Reply(self.snapshot, hint=made[1])

    async def _chat(self, command: Chat) -> None:
        person = await self._person(command.user_id)
        await self.apply(self.core.say(person, command.text, time.monotonic(),
                                       self.services.settings.chat_rate, utcnow()))

    async def _chat_heard(self, command: ChatHeard) -> None:
        self.hear_chat(command.line)

    def hear_chat(self, line: dict[str, Any]) -> None:
        """A written chat line joins the table's chat, and every viewer hears it."""
        self.core.heard(line)
        self.viewers.send_all(chat_message(line))

    async def _person(self, user_id: int) -> Person:
        """Someone as the table knows them, else as the store has them."""
        user = self.core.users.get(user_id) or await self.services.store.person(user_id)
        if user is None:
            raise ServerError("not_signed_in", E.NOT_SIGNED_IN, 401)
        return user

    async def _join(self, command: Join) -> None:
        user = await self._person(command.user_id)
        await self.seating.join(user, command.seat, command.invite)

    async def _leave(self, command: Leave) -> None:
        await self.seating.leave(command.user_id)

    async def _add_bot(self, command: AddBot) -> None:
        await self.seating.add_bot(command.user_id, command.level, command.seat)

    async def _remove_seat(self, command: RemoveSeat) -> Reply:
        removed = await self.seating.remove(command.user_id, command.seat)
        return Reply(self.snapshot, removed=removed)

    async def _rematch(self, command: Rematch) -> None:
        await self.rematcher.answer(command.seat, command.accept)

    async def _deal(self, command: Deal) -> None:
        await self.seats_changed()

    async def seats_changed(self) -> None:
        """A seat was taken or freed (and written): deal when every seat is taken, or give
        the table up when no person is left (a conditional write of its own: another process
        may have dealt first)."""
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

    async def _timed_out(self) -> None:
        await self.send(Timeout())

    async def _timeout(self, command: Timeout) -> None:
        for seat in self.core.out_of_time(utcnow()):
            if not await self.take_over(seat):
                break  # the table moved on elsewhere: look at the fresh clocks again
        self._after_change()

    async def _expire(self, command: Expire) -> Reply:
        return Reply(self.snapshot, done=await self.seating.expire())

    async def _drop(self, command: Drop) -> None:
        await self.apply(self.core.drop())

    async def _user_changed(self, command: UserChanged) -> None:
        person = await self.services.store.person(command.user_id)
        if person is not None:
            self.core.renamed(person)

    async def _sync(self, command: Sync) -> Reply:
        seat = self.core.seat_of(command.user_id)
        return Reply(self.snapshot, text=self.views.full(seat, command.lang, utcnow()))

    async def _record(self, command: Record) -> Reply:
        match = self.core.match
        return Reply(self.snapshot, record=match.record if match is not None else None)

    async def _subscribe(self, command: Subscribe) -> None:
        self.attach(command.conn)

    # ---- another process changed the table -----------------------------------------------------
    def poke(self) -> None:
        """Catch up with the store soon, in turn with the table's other commands."""
        self.tell(CatchUp())

    async def _catch_up(self, command: CatchUp) -> None:
        self._poked = False
        await self.catch_up()

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
        if self.owned and self.core.playing() and self.core.table.mode == "turn":
            self._publish()  # only turn-based tables send turn notices: no snapshot otherwise
            self.services.turns(self.snapshot, self.core.webhooks())

    # ---- viewers -------------------------------------------------------------------------------
    def attach(self, conn: Connection) -> None:
        if self.stopping:
            raise Stopped()
        conn.seat = self.core.seat_of(conn.user_id)
        self.viewers.add(conn)
        conn.send(self.full(conn))

    def detach(self, conn: Connection) -> None:
        self.viewers.discard(conn)

    def full(self, conn: Connection) -> str:
        return self.views.full(conn.seat, conn.lang, utcnow())


def _failed(future: asyncio.Future[JSON]) -> bool:
    """A hint that ended in an error is asked for again, not answered with that error."""
    return future.done() and (future.cancelled() or future.exception() is not None)


HANDLERS: dict[type, Callable[[TableActor, Any], Awaitable[Reply | None]]] = {
    Act: TableActor._act, BotMove: TableActor._bot_move, Undo: TableActor._undo,
    Hint: TableActor._hint, Rematch: TableActor._rematch, Chat: TableActor._chat,
    Join: TableActor._join, Leave: TableActor._leave, AddBot: TableActor._add_bot,
    RemoveSeat: TableActor._remove_seat, Deal: TableActor._deal, Timeout: TableActor._timeout,
    Expire: TableActor._expire, Drop: TableActor._drop, CatchUp: TableActor._catch_up,
    ChatHeard: TableActor._chat_heard, UserChanged: TableActor._user_changed,
    Sync: TableActor._sync, Record: TableActor._record, Subscribe: TableActor._subscribe,
}
"""The dispatch table, by command type (unbound methods: a table of bound ones would hold the
actor in a cycle; tests/server/test_freed.py). Every command has one
(tests/server/test_table_commands.py)."""
