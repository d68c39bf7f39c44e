"""One actor per live table (DESIGN.md §3, after lichess's round actor).

The actor is an asyncio task that takes the table's commands one at a time (join, leave, add a
bot, act, undo, chat, a clock falling, a bot's move), applies them through the match driver,
appends the log entry ``(table_id, seq, seat, action)`` to the store **before** anyone is
told, and then sends each viewer its own message. A table not in memory is rebuilt by
replaying its log, so a restarted server loses nothing that was acknowledged.

``seq`` on the wire counts the table's log entries (actions, undos, seats taken over), so it
never goes back, even when an undo takes the match itself back a move: an answer to a position
that was undone is stale, never applied to the position that replaced it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import html
import json
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

from ludoteca.engine.errors import GameOver, LudotecaError, NotYourTurn, StaleAction, because
from ludoteca.engine.game import JSON, Game
from ludoteca.engine.i18n import N_, Voice
from ludoteca.engine.match import Match, Step
from ludoteca.games import get_game
from ludoteca.server import clocks
from ludoteca.server import errors as E
from ludoteca.server.bots import ZOMBIE_LEVEL, budget
from ludoteca.server.db import Move, Seat, Table, User, utcnow
from ludoteca.server.errors import ServerError, voice
from ludoteca.server.store import Conflict, stamp

if TYPE_CHECKING:
    from ludoteca.server.hub import Hub

log = logging.getLogger("ludoteca.table")
T = TypeVar("T")

RECENT = 60
"""Log entries whose events a (re)connecting client is sent."""
CHAT_LIMIT = 500
OUTBOX = 256

RESYNC = "\x00resync"
CLOSE = "\x00close"


class Stopped(ServerError):
    """The table's actor was let go of (nobody watched it) or the server is stopping: load
    the table again."""

    def __init__(self) -> None:
        super().__init__("stopped", E.SHUTTING_DOWN, 503)


@dataclass(eq=False)
class Connection:
    """One open table tab: the viewer it is, and an outbox the actor fills without waiting
    (a slow client never holds up a table; one that falls far behind gets a fresh full
    message instead of the backlog)."""

    user_id: int | None
    lang: str
    seat: int | None = None
    outbox: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(OUTBOX))

    def send(self, text: str) -> None:
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            while not self.outbox.empty():
                self.outbox.get_nowait()
            self.outbox.put_nowait(RESYNC)


@dataclass
class Entry:
    """A log entry as the actor keeps it: its ``seq``, and the step it made (events)."""

    seq: int
    step: Step | None
    notice: JSON | None = None
    """A table event that is not a game action (a seat taken over, an undo)."""


class TableActor:
    def __init__(self, hub: Hub, table: Table, seats: list[Seat], users: dict[int, User]) -> None:
        self.hub = hub
        self.table = table
        self.seats = seats
        self.users = users
        self.game: Game[Any, Any] = get_game(table.game)
        self.match: Match | None = None
        self.seq = 0
        self.since: dict[int, int] = {}
        self.done: list[tuple[int, bool, int]] = []
        """Per applied action: its seat, whether it revealed something (undo's rule) and its
        wire ``seq``."""
        self.recent: deque[Entry] = deque(maxlen=RECENT)
        self.chat: deque[JSON] = deque(maxlen=50)
        self.viewers: set[Connection] = set()
        self.inbox: asyncio.Queue[tuple[Callable[[], Awaitable[Any]], asyncio.Future[Any]]]
        self.inbox = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.timer: asyncio.Task[None] | None = None
        self.bot_tasks: dict[int, tuple[int, asyncio.Task[None]]] = {}
        self.last_move = time.monotonic()
        self.voices: dict[str, Voice] = {}
        self.chat_times: dict[int, deque[float]] = {}
        self.owned = True
        """This process runs the table's clocks and bots (alone, always; one of several, while
        it holds the table's lease: ``cluster.py``)."""
        self._poked = False
        self.stopping = False
        """Let go of: takes no new command or viewer."""

    # ---- running ---------------------------------------------------------------------------
    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name=f"table {self.table.id}")
        self._after_change()

    async def _run(self) -> None:
        while True:
            command, future = await self.inbox.get()
            if future.done():
                continue
            try:
                result = await command()
            except Exception as exc:  # the caller hears every refusal; the actor goes on
                if not isinstance(exc, LudotecaError):
                    log.exception("table %s: command failed", self.table.id)
                if not future.done():
                    future.set_exception(exc)
            else:
                if not future.done():
                    future.set_result(result)

    async def call(self, command: Callable[[], Awaitable[T]]) -> T:
        """Run ``command`` in the actor, after the commands before it, and return its result.

        A finished table loaded for one request has no running actor: nothing can change it
        but chat, so the command runs at once."""
        if self.task is None:
            return await command()
        if self.stopping:
            raise Stopped()
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
        for task in [self.task, self.timer, *(t for _, t in self.bot_tasks.values())]:
            if task is not None:
                task.cancel()
        while not self.inbox.empty():
            _, future = self.inbox.get_nowait()
            if not future.done():
                future.set_exception(Stopped())
        # The actor and its tasks refer to each other, so only the cycle collector could free
        # it; letting go of the match and its log now frees nearly all of it at once instead
        # (hundreds of objects a table, which otherwise swell the collector's pauses).
        self.match = None
        self.recent.clear()
        self.done = []
        self.bot_tasks.clear()

    # ---- building from the log -------------------------------------------------------------
    def rebuild(self, moves: list[Move]) -> None:
        """Replay the log into a match (nothing is written)."""
        self.match = None
        self.recent.clear()
        self.done = []
        self.since = {}
        self.seq = 0
        self.bot_tasks.clear()  # those running stop by themselves: their match is gone
        if self.table.status == "open":
            return
        kept: list[tuple[int, JSON, int]] = []
        self._replay(kept)
        for move in moves:
            self._absorb(move, kept)

    def _absorb(self, move: Move, kept: list[tuple[int, JSON, int]] | None = None) -> None:
        """One log entry into the match (``kept``: the actions an undo goes back through)."""
        self.seq = move.seq
        if move.kind == "act":
            assert self.match is not None and move.action is not None
            before = self.match.to_act()
            self._apply(move.seat, move.action, move.seq)
            if kept is not None:
                kept.append((move.seat, move.action, move.seq))
            self._track(move.seat, before)
        elif move.kind == "undo":
            assert kept is not None, "an undo is read by rebuilding"
            kept.pop()
            self._replay(kept)
            self.since = dict.fromkeys(self._to_act(), self.seq)
            self.recent.append(Entry(self.seq, None, self._undo_notice(move.seat)))
        elif move.kind == "zombie":
            self.recent.append(Entry(self.seq, None, self._zombie_notice(move.seat)))

    # ---- another process changed the table (cluster.py) -------------------------------------
    def poke(self) -> None:
        """Catch up with the store soon, in turn with the table's other commands (a poke
        while one is waiting adds nothing)."""
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
                log.warning("table %s: could not catch up", self.table.id, exc_info=True)

        self.inbox.put_nowait((poked, future))

    async def catch_up(self) -> None:
        """Read what changed in the store, then go on with clocks and bots (if ours)."""
        try:
            await self.refresh()
        finally:
            self._after_change()

    def set_owned(self, owned: bool) -> None:
        """Take up or give up the table's clocks and bots (the lease was taken or lost)."""
        if owned != self.owned:
            self.owned = owned
            self.poke()

    async def refresh(self, whole: bool = False) -> None:
        """Read the table's rows and the log entries after ours from the store, the truth
        another process may have moved on (``whole``: replay the log from the start, after a
        write of ours failed); this process's viewers hear what changed."""
        store = self.hub.store
        self.hub.metrics.catch_ups.inc()
        whole = whole or self.match is None or self.table.status == "open"
        found = await store.snapshot(self.table.id, 0 if whole else self.seq)
        if found is None:
            return
        was_summary, was_names = self.summary(), self.names()
        table, seats, moves = found
        await self._take_rows(table, seats)
        if self.names() != was_names:
            self.voices.clear()
        for conn in self.viewers:
            conn.seat = self.seat_of(conn.user_id)
        entries: list[Entry] = []
        full = whole
        if self.table.status == "open" or (self.match is None and self.table.status == "abandoned"):
            self.match = None
        elif whole:
            self.rebuild(moves)
            full = True
        elif any(m.kind == "undo" for m in moves):
            self.rebuild(await store.moves(self.table.id))  # an undo is read from the start
            full = True
        else:
            for move in moves:
                self._absorb(move)
            entries = list(self.recent)[-len(moves):] if moves else []
        if self.summary() != was_summary:
            self._broadcast_table()
        if full or len(entries) > 1:
            self._broadcast_full()
        elif entries:
            self._broadcast_step(entries[0])
        if self.table.status not in ("open", "playing"):
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None
            if not self.viewers:
                self.hub.forget(self)

    def hear_chat(self, line: JSON) -> None:
        """A chat line written by another process."""
        self.chat.append(line)
        self._send_all(json.dumps({"type": "chat", "line": line}))

    def _replay(self, kept: list[tuple[int, JSON, int]]) -> None:
        self.match = Match.new(
            self.game, self.table.options, self.table.players, self.table.seed,
            names=self.names(),
        )
        self.done = []
        self.recent.clear()
        self.recent.append(Entry(0, self.match.opening_step()))
        self.since = dict.fromkeys(self.match.to_act(), 0)
        for seat, data, seq in kept:
            before = self.match.to_act()
            self._apply(seat, data, seq)
            self._track(seat, before, seq)

    def _apply(self, seat: int, data: JSON, seq: int) -> None:
        assert self.match is not None
        action = self.game.action_from_json(data)
        reveals = self.game.reveals(self.match.state, seat, action)
        step = self.match.step(seat, action)
        self.done.append((seat, reveals, seq))
        self.recent.append(Entry(seq, step))

    def _track(self, seat: int, before: frozenset[int], seq: int | None = None) -> None:
        """The decision bookkeeping of ``Match`` in wire numbers: a seat that stays to act
        while another acts keeps its decision; every other seat to act starts a new one."""
        now = self.seq if seq is None else seq
        since = self.since
        self.since = {
            s: (since[s] if s != seat and s in before and s in since else now)
            for s in self._to_act()
        }

    def _to_act(self) -> frozenset[int]:
        if self.match is None or self.match.is_over():
            return frozenset()
        return self.match.to_act()

    # ---- who is who ------------------------------------------------------------------------
    def names(self) -> list[str]:
        return names_of(self.seats, self.users)

    def seat_of(self, user_id: int | None) -> int | None:
        if user_id is None:
            return None
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.seat
        return None

    def is_bot(self, seat: int) -> bool:
        s = self.seats[seat]
        return s.bot is not None or s.zombie

    def voice(self, lang: str) -> Voice:
        """The table's sentences (game, engine and server catalogs) with its player names."""
        found = self.voices.get(lang)
        if found is None:
            locale = self.game.locale
            folders = () if locale is None else (locale,) if isinstance(locale, Path) else locale
            found = self.voices[lang] = voice(lang, self.names(), folders)
        return found

    # ---- lobby commands --------------------------------------------------------------------
    async def join(self, user: User, seat: int | None, invite: str | None) -> None:
        table = self.table
        if table.status != "open":
            raise ServerError("not_open", E.NOT_OPEN, 409)
        if table.private and invite != table.invite and user.id != table.host_id:
            raise ServerError("wrong_invite", E.WRONG_INVITE, 403)
        self.users[user.id] = user
        await self._seat(seat, user.id, None, check=lambda: self._may_join(user))

    def _may_join(self, user: User) -> None:
        if self.seat_of(user.id) is not None:
            raise ServerError("already_seated", E.ALREADY_SEATED, 409)

    async def add_bot(self, user: User, level: str, seat: int | None) -> None:
        def check() -> None:
            if user.id != self.table.host_id and self.seat_of(user.id) is None:
                raise ServerError("not_seated", E.NOT_SEATED, 403)

        await self._seat(seat, None, level, check)

    async def _seat(self, seat: int | None, user_id: int | None, bot: str | None,
                    check: Callable[[], None]) -> None:
        """Seat a person or a bot in ``seat`` or the first free one. The seat is taken in
        the store first: of two processes seating someone in it at once, the database lets
        one in, and the other reads the table again and tries the next free seat."""
        for _ in range(self.table.players):
            if self.table.status != "open":
                raise ServerError("not_open", E.NOT_OPEN, 409)
            check()
            free = [s for s in self.seats if s.user_id is None and s.bot is None]
            if seat is not None:
                free = [s for s in free if s.seat == seat]
                if not free:
                    raise ServerError("seat_taken", E.SEAT_TAKEN, 409, seat=seat + 1)
            if not free:
                raise ServerError("table_full", E.TABLE_FULL, 409)
            row = free[0]
            if await self.hub.store.claim_seat(row, user_id, bot):
                row.user_id, row.bot = user_id, bot
                await self._seats_changed()
                return
            await self.refresh()
        raise ServerError("table_full", E.TABLE_FULL, 409)

    async def leave(self, user: User) -> None:
        seat = self.seat_of(user.id)
        if seat is None:
            raise ServerError("not_seated", E.NOT_SEATED, 403)
        if self.table.status == "open":
            if not await self.hub.store.free_seat(self.seats[seat], user.id):
                await self.refresh()
                raise ServerError("not_seated", E.NOT_SEATED, 403)
            self.seats[seat].user_id = None
            await self._seats_changed()
        elif self.table.status == "playing":
            if not await self._take_over(seat) and self.table.status == "playing":
                await self._take_over(seat)  # once more, on the table as it is now
            self._after_change()
        else:
            raise ServerError("not_playing", E.NOT_PLAYING, 409)

    async def _seats_changed(self) -> None:
        """A seat was taken or freed (and written): start the match once every seat is
        taken, or give up the table when no person is left."""
        if self.hub.cluster is not None:  # others may have taken seats meanwhile
            await self._reread_rows()
        self.voices.clear()
        for conn in self.viewers:
            conn.seat = self.seat_of(conn.user_id)
        full = all(s.user_id is not None or s.bot is not None for s in self.seats)
        humans = [s for s in self.seats if s.user_id is not None]
        moved = True
        if full and humans:
            moved = await self._begin()
        elif not humans:
            self.table.status = "abandoned"
            moved = await self.hub.store.move_on(self.table, self.seats, "open")
        if not moved:  # another process started (or gave up) the table first
            await self.refresh(whole=True)
            self._after_change()
            return
        self.hub.table_changed(self)
        self._broadcast_table()
        self.hub.lobby_changed(self)
        if self.table.status == "playing":
            self._broadcast_full()
            self._after_change()
        if self.table.status == "abandoned":
            self.hub.forget(self)

    async def _reread_rows(self) -> None:
        found = await self.hub.store.table(self.table.id)
        if found is not None:
            await self._take_rows(*found)

    async def _take_rows(self, table: Table, seats: list[Seat]) -> None:
        """The table's rows as the store has them, and the rows of people new to it."""
        self.table, self.seats = table, seats
        missing = [s.user_id for s in seats
                   if s.user_id is not None and s.user_id not in self.users]
        if missing:
            self.users.update(await self.hub.store.users(missing))

    async def _begin(self) -> bool:
        """Every seat is taken: deal and start the clocks (False: it had started already)."""
        now = utcnow()
        self.table.status = "playing"
        self.table.started_at = now
        for seat in self.seats:
            seat.bank_seconds = self.table.bank_seconds
        self.rebuild([])
        assert self.match is not None
        for s in self.match.to_act():
            clocks.start(self.table, self.seats[s], now)
        if not await self.hub.store.move_on(self.table, self.seats, "open"):
            return False
        if self.hub.cluster is not None and not self.owned:
            # whoever starts the match runs its clocks and bots, unless the owner lives
            await self.hub._claim(self)
        return True

    # ---- game commands ---------------------------------------------------------------------
    def _check(self, seat: int, seq: object) -> None:
        if self.table.status != "playing" or self.match is None:
            if self.table.status == "finished":
                raise GameOver(msgid=N_("The game is over."))
            raise ServerError("not_playing", E.NOT_PLAYING, 409)
        if self.match.is_over():
            raise GameOver(msgid=N_("The game is over."))
        if not isinstance(seq, int) or isinstance(seq, bool):
            raise ServerError("bad_request", E.BAD_REQUEST, detail="seq")
        since = self.since.get(seat)
        if since is None:
            if seq < self.seq:
                raise StaleAction(
                    msgid=N_(
                        "Move {seq} was already answered (stale); the match is at move {now} "
                        "and {player} has nothing to answer now."
                    ),
                    seq=seq, now=self.seq, player=self.names()[seat],
                )
            raise NotYourTurn(msgid=N_("It is not {player}'s turn."), player=self.names()[seat])
        if seq > self.seq:
            raise StaleAction(
                msgid=N_(
                    "Move number {seq} is ahead of the match (stale or forged); "
                    "the match is at move {now}."
                ),
                seq=seq, now=self.seq,
            )
        if seq < since:
            raise StaleAction(
                msgid=N_("Move number {seq} is stale: {player} is answering move {since} now."),
                seq=seq, since=since, player=self.names()[seat],
            )

    async def act(self, seat: int, seq: object, data: object, by_bot: bool = False) -> None:
        """Apply one action, write it, then tell everyone; any refusal changes nothing."""
        if not by_bot and self.table.status == "playing" and self.is_bot(seat):
            raise ServerError("bot_seat", N_("A bot plays this seat now."), 409)
        self._check(seat, seq)
        match = self.match
        assert match is not None
        started = time.perf_counter()
        action = self.game.action_from_json(data)
        reveals = self.game.reveals(match.state, seat, action)
        before = match.to_act()
        step = match.step(seat, action)
        now = utcnow()
        after = self._to_act()
        changed = clocks.after_action(self.table, self.seats, seat, before, after, now)
        over = match.is_over()
        if over:
            self._finish_row(now)
        try:
            await self.hub.store.append(
                Move(table_id=self.table.id, seq=self.seq + 1, seat=seat, kind="act",
                     action=action.to_json(), at=now),
                changed, self.table if over else None,
            )
        except Exception as exc:
            await self._not_written(exc, seq)
        self.seq += 1
        self.done.append((seat, reveals, self.seq))
        self.recent.append(Entry(self.seq, step))
        self._track(seat, before)
        self.last_move = time.monotonic()
        self.hub.metrics.action(time.perf_counter() - started)
        self.hub.table_changed(self)
        self._broadcast_step(self.recent[-1])
        if over:
            await self.hub.finished(self)
        self._after_change()

    async def undo(self, user_id: int, seq: object) -> None:
        seat = self.seat_of(user_id)
        if seat is None:
            raise ServerError("not_seated", E.NOT_SEATED, 403)
        if self.is_bot(seat):
            raise ServerError("bot_seat", N_("A bot plays this seat now."), 409)
        self._check_undo(seat, seq)
        match = self.match
        assert match is not None
        now = utcnow()
        before = match.to_act()
        kept = [
            (s, a.to_json(), seq)
            for (s, a), (_, _, seq) in zip(match.actions[:-1], self.done[:-1], strict=True)
        ]
        old = (self.match, list(self.done), list(self.recent), dict(self.since))
        self._replay(kept)
        after = self._to_act()
        mine = self.seats[seat]
        if self.table.mode == "live":
            # the time spent stays spent, and the increment the taken-back action earned
            # goes back: acting and taking back never buys time
            clocks.stop(self.table, mine, now, answered=False)
            mine.bank_seconds = max(0.0, mine.bank_seconds - self.table.increment_seconds)
        changed = clocks.after_action(self.table, self.seats, None, before, after, now)
        if mine.deadline is None and seat in after:
            clocks.start(self.table, mine, now)
        if mine not in changed:
            changed.append(mine)
        try:
            await self.hub.store.append(
                Move(table_id=self.table.id, seq=self.seq + 1, seat=seat, kind="undo", at=now),
                changed,
            )
        except Exception as exc:
            self.match, self.done, self.since = old[0], old[1], old[3]
            self.recent.clear()
            self.recent.extend(old[2])
            await self._not_written(exc, seq)
        self.seq += 1
        self.since = dict.fromkeys(self._to_act(), self.seq)
        self.recent.append(Entry(self.seq, None, self._undo_notice(seat)))
        self.last_move = time.monotonic()
        self.hub.table_changed(self)
        self._broadcast_full()
        self._after_change()

    async def _not_written(self, exc: Exception, seq: object) -> NoReturn:
        """A log entry could not be written: back to exactly what the store holds, and the
        sender hears why (another process wrote first: stale; else the server failed)."""
        await self.refresh(whole=True)
        self._after_change()
        if isinstance(exc, Conflict):
            raise StaleAction(
                msgid=N_("Move number {seq} was answered meanwhile (stale)."), seq=seq,
            ) from None
        log.error("table %s: a log entry could not be saved", self.table.id, exc_info=exc)
        raise ServerError("server_error", E.SERVER_FAILED, 503) from None

    def _check_undo(self, seat: int, seq: object) -> None:
        if self.match is None or self.table.status != "playing" or self.match.is_over():
            raise ServerError("not_playing", E.NOT_PLAYING, 409)
        if not isinstance(seq, int) or isinstance(seq, bool):
            raise ServerError("bad_request", E.BAD_REQUEST, detail="seq")
        if seq != self.seq:
            raise StaleAction(
                msgid=N_("Move number {seq} is stale: the match is at move {now}."),
                seq=seq, now=self.seq,
            )
        if not self.done or self.done[-1][0] != seat:
            mine = any(s == seat for s, _, _ in self.done)
            why = E.UNDO_OTHERS if mine else E.UNDO_NOTHING
            raise ServerError("no_undo", E.NO_UNDO, 409, why=because(why))
        if self.done[-1][1]:
            raise ServerError("no_undo", E.NO_UNDO, 409, why=because(E.UNDO_REVEALED))

    def can_undo(self, seat: int | None) -> bool:
        try:
            if seat is None:
                return False
            self._check_undo(seat, self.seq)
        except LudotecaError:
            return False
        return True

    async def chat_line(self, user: User, text: object) -> None:
        if not isinstance(text, str) or not text.strip():
            raise ServerError("chat_empty", E.CHAT_EMPTY)
        text = text.strip()
        if len(text) > CHAT_LIMIT:
            raise ServerError("chat_too_long", E.CHAT_LONG, limit=CHAT_LIMIT)
        rate, window = self.hub.settings.chat_rate, 10.0
        times = self.chat_times.setdefault(user.id, deque())
        now = time.monotonic()
        while times and times[0] <= now - window:
            times.popleft()
        if len(times) >= rate:
            raise ServerError("rate_limited", E.CHAT_FAST, 429, count=rate, seconds=int(window))
        times.append(now)
        line = await self.hub.store.add_chat(self.table.id, user.id, html.escape(text))
        entry = {
            "user": user.name, "name": user.display_name, "text": line.text, "at": stamp(line.at),
        }
        self.chat.append(entry)
        self._send_all(json.dumps({"type": "chat", "line": entry}))
        if self.hub.cluster is not None:
            self.hub.cluster.chat(self.table.id, entry)

    # ---- clocks and bots -------------------------------------------------------------------
    def _after_change(self) -> None:
        if not self.owned and self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if (not self.owned or self.table.status != "playing" or self.match is None
                or self.match.is_over()):
            return
        self._arm_timer()
        self._schedule_bots()
        self.hub.turns(self)

    def _arm_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        acting = self._to_act()
        due = clocks.next_deadline(s for s in self.seats if s.seat in acting)
        if due is None:
            return

        async def ring() -> None:
            wait = (due - utcnow()).total_seconds()
            await asyncio.sleep(max(0.0, wait) + 0.01)
            self.timer = None
            with contextlib.suppress(LudotecaError):
                await self.call(self._timeout)

        self.timer = asyncio.create_task(ring())

    async def _timeout(self) -> None:
        if self.table.status != "playing":
            return
        now = utcnow()
        late = clocks.expired(self.seats, self._to_act(), now)
        for seat in late:
            if not await self._take_over(seat.seat):
                break  # the table moved on elsewhere: look at the fresh clocks again
        self._after_change()

    async def _take_over(self, seat: int) -> bool:
        """A bot takes the seat for good (out of time, or the person left): the match is
        marked and will not be rated. False if another process wrote to the table first
        (it is read again, and the caller decides whether it still applies)."""
        row = self.seats[seat]
        if row.zombie:
            return True
        clocks.stop(self.table, row, utcnow(), answered=False)  # what was left, 0 if it fell
        row.zombie = True
        self.table.zombie = True
        try:
            await self.hub.store.append(
                Move(table_id=self.table.id, seq=self.seq + 1, seat=seat, kind="zombie",
                     at=utcnow()),
                [row], self.table,
            )
        except Conflict:
            await self.refresh(whole=True)
            return False
        self.seq += 1
        self.hub.table_changed(self)
        self.recent.append(Entry(self.seq, None, self._zombie_notice(seat)))
        self._broadcast_table()
        self._broadcast_step(self.recent[-1])
        self._after_change()
        return True

    def _schedule_bots(self) -> None:
        for seat in self._to_act():
            if not self.is_bot(seat):
                continue
            since = self.since.get(seat, self.seq)
            pending = self.bot_tasks.get(seat)
            if pending is not None and pending[0] == since and not pending[1].done():
                continue
            # an older task finds its decision gone and stops; it is not cancelled, as it may
            # be the very task whose move is being applied now
            task = asyncio.create_task(self._bot_move(seat, since))
            self.bot_tasks[seat] = (since, task)

    async def _bot_move(self, seat: int, since: int) -> None:
        match = self.match
        assert match is not None
        row = self.seats[seat]
        level = row.bot or ZOMBIE_LEVEL
        wait = self.hub.settings.bot_delay - (time.monotonic() - self.last_move)
        if wait > 0:
            await asyncio.sleep(wait)
        if self.since.get(seat) != since or self.match is not match or not self.owned:
            return
        seq = self.seq
        view = match.view(seat)
        seed = _seed(self.table.seed, seq, seat)
        try:
            data = await self.hub.bots.choose(
                self.table.game, level, seed, view, seat, budget(level)
            )
        except Exception:
            # the table must go on: a legal move chosen at random, as the random bot would
            log.exception("table %s: the bot of seat %d failed", self.table.id, seat + 1)
            legal = match.legal(seat)
            if not legal:
                return
            data = legal[seed % len(legal)].to_json()
        # the position may have moved on (an undo, a take-over): the next schedule asks again
        with contextlib.suppress(LudotecaError):
            await self.call(lambda: self.act(seat, seq, data, by_bot=True))

    # ---- the end ---------------------------------------------------------------------------
    def _finish_row(self, now: datetime) -> None:
        assert self.match is not None
        outcome = self.match.outcome
        assert outcome is not None
        self.table.status = "finished"
        self.table.finished_at = now
        self.table.result = outcome.to_json()
        for seat in self.seats:
            seat.deadline = None
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    # ---- what viewers are told -------------------------------------------------------------
    def summary(self) -> JSON:
        return table_summary(self.table, self.seats, self.users, self.game.spec.title)

    def _events(self, entry: Entry, viewer: int | None, lang: str) -> list[JSON]:
        say = self.voice(lang)
        if entry.step is None:
            assert entry.notice is not None
            return [{**entry.notice, "text": _notice_text(entry.notice, say)}]
        out = []
        for data in entry.step.events_for(viewer):
            out.append({**data, "text": self.game.render_event(data, say)})
        return out

    def _state_part(self, viewer: int | None) -> JSON:
        match = self.match
        now = utcnow()
        part: JSON = {
            "seq": self.seq,
            "status": self.table.status,
            "clocks": clocks.show(self.table, self.seats, now),
            "result": self.table.result,
        }
        if match is None:
            part.update(view=None, legal=[], to_act=[], undo=False)
            return part
        acting = self._to_act()
        mine = viewer is not None and viewer in acting and not self.is_bot(viewer)
        part.update(
            view=match.view(viewer),
            legal=[a.to_json() for a in match.legal(viewer)] if mine and viewer is not None
            else [],
            to_act=sorted(acting),
            undo=self.can_undo(viewer),
        )
        return part

    def full(self, conn: Connection) -> str:
        viewer = conn.seat
        message: JSON = {
            "type": "full",
            "table": self.summary(),
            "you": viewer,
            **self._state_part(viewer),
            "log": [
                {"seq": e.seq, "seat": e.step.seat if e.step else None,
                 "events": self._events(e, viewer, conn.lang)}
                for e in self.recent
            ],
            "chat": list(self.chat),
        }
        return json.dumps(message)

    def _groups(self) -> dict[tuple[int | None, str], list[Connection]]:
        groups: dict[tuple[int | None, str], list[Connection]] = {}
        for conn in self.viewers:
            groups.setdefault((conn.seat, conn.lang), []).append(conn)
        return groups

    def update(self, entry: Entry, viewer: int | None, lang: str) -> str:
        """The message a viewer gets after a log entry: the new ``seq``, its events as that
        viewer may know them, its view and legal actions, the clocks."""
        return json.dumps({
            "type": "update",
            **self._state_part(viewer),
            "seat": entry.step.seat if entry.step else None,
            "events": self._events(entry, viewer, lang),
        })

    def _broadcast_step(self, entry: Entry) -> None:
        for (viewer, lang), conns in self._groups().items():
            text = self.update(entry, viewer, lang)
            for conn in conns:
                conn.send(text)
        self.hub.metrics.sent(len(self.viewers))

    def _broadcast_full(self) -> None:
        for conns in self._groups().values():
            text = self.full(conns[0])
            for conn in conns:
                conn.send(text)

    def _broadcast_table(self) -> None:
        self._send_all(json.dumps({"type": "table", "table": self.summary()}))

    def _send_all(self, text: str) -> None:
        for conn in self.viewers:
            conn.send(text)

    def attach(self, conn: Connection) -> None:
        if self.stopping:
            raise Stopped()
        conn.seat = self.seat_of(conn.user_id)
        self.viewers.add(conn)
        conn.send(self.full(conn))

    def detach(self, conn: Connection) -> None:
        self.viewers.discard(conn)

    def _undo_notice(self, seat: int) -> JSON:
        return {"type": "undo", "seat": seat}

    def _zombie_notice(self, seat: int) -> JSON:
        return {"type": "takeover", "seat": seat}


def names_of(seats: list[Seat], users: dict[int, User]) -> list[str]:
    """Each seat's name at the table: its person's display name, or "Bot N" (language-neutral:
    every viewer reads the same narration names; clients show the level, translated)."""
    out = []
    for seat in seats:
        if seat.user_id is not None and seat.user_id in users:
            out.append(users[seat.user_id].display_name)
        elif seat.bot is not None:
            out.append(f"Bot {seat.seat + 1}")  # the same in every language; the level is a tag
        else:
            out.append(f"P{seat.seat + 1}")
    return out


def table_summary(table: Table, seats: list[Seat], users: dict[int, User], title: str) -> JSON:
    """What the lobby and a table's viewers know of a table (never its seed or invite)."""
    names = names_of(seats, users)
    return {
        "id": table.id,
        "game": table.game,
        "title": title,
        "players": table.players,
        "options": table.options,
        "mode": table.mode,
        "bank_seconds": table.bank_seconds,
        "increment_seconds": table.increment_seconds,
        "turn_hours": table.turn_hours,
        "rated": table.rated,
        "private": table.private,
        "status": table.status,
        "zombie": table.zombie,
        "host": users[table.host_id].name if table.host_id in users else None,
        "seats": [
            {
                "seat": s.seat,
                "name": names[s.seat] if (s.user_id is not None or s.bot) else None,
                "user": users[s.user_id].name if s.user_id in users else None,
                "bot": s.bot,
                "zombie": s.zombie,
            }
            for s in seats
        ],
        "created_at": stamp(table.created_at),
        "started_at": stamp(table.started_at),
        "finished_at": stamp(table.finished_at),
        "result": table.result,
        "rematch": table.rematch,
    }


def _notice_text(notice: JSON, say: Voice) -> str:
    player = say.name(int(notice["seat"]))
    if notice["type"] == "undo":
        return say.t(N_("{player} took back their last move."), player=player)
    return say.t(N_("{player} is out of the game; a bot plays their seat."), player=player)


def _seed(table_seed: int, seq: int, seat: int) -> int:
    digest = hashlib.sha256(f"{table_seed}:{seq}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")
