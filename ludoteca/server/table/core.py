"""A table's rules of the house, pure: its plain state, the match, chat, and what each command
changes.

``TableCore`` owns a table's plain state (``state.py``: the table, its seats, the people it
knows), its ``Match`` (the match driver owns the log, ``seq``, decisions and undo) and its
chat. Each command (an action, a seat taken or freed, a chat line, the deal...) checks, changes
the state in memory and returns ``Effects`` (``effects.py``): the conditional writes, what to
tell, whether the match ended. It never awaits, imports the store or touches a socket: the
actor (``actor.py``) writes the effects **before** anyone is told, and reads the table anew
from the store when a write fails, so a refused write leaves nothing behind. Being pure, it is
unit-tested on plain state alone (tests/server/test_table_core.py; tests/lint keeps the store
out of it).
"""

from __future__ import annotations

import html
from collections import deque
from collections.abc import Sequence
from datetime import datetime, timedelta
from types import MappingProxyType
from typing import Any

from ludoteca.engine.errors import GameOver
from ludoteca.engine.game import JSON, Game
from ludoteca.engine.i18n import N_
from ludoteca.engine.match import Match, Step
from ludoteca.games import get_game
from ludoteca.server import clocks
from ludoteca.server import errors as E
from ludoteca.server.errors import ServerError
from ludoteca.server.results import tie_broken
from ludoteca.server.table.effects import Effects, SeatChange, Write
from ludoteca.server.table.log_items import last_act, log_item
from ludoteca.server.table.rematch_notes import declined_by, open_offer
from ludoteca.server.table.snapshot import (
    NO_DECISIONS,
    TableSnapshot,
    lasting,
    names_of,
    snapshot_of,
)
from ludoteca.server.table.state import (
    ChatLine,
    LogEntry,
    Person,
    SeatState,
    TableState,
    utcnow,
)

RECENT = 60
"""Log entries whose events a (re)connecting client is sent; the match keeps events for
these only."""
CHAT_LIMIT = 500
CHAT_KEPT = 50
CHAT_WINDOW = 10.0
BOT_SEAT = N_("A bot plays this seat now.")

class TableCore:
    def __init__(
        self, table: TableState, seats: list[SeatState], users: dict[int, Person],
        log: Sequence[LogEntry] = (),
    ) -> None:
        self.table = table
        self.seats = seats
        self.users = users
        self.game: Game[Any, Any] = get_game(table.game)
        self.match: Match | None = None
        self.chat: deque[JSON] = deque(maxlen=CHAT_KEPT)
        self._chat_times: dict[int, deque[float]] = {}
        self.times: dict[int, datetime] = {}
        """When each log entry was made, by ``seq`` (an undo gives the clocks back from it)."""
        self._lasting: dict[str, Any] | None = None
        """The table's fields that never change, read once for every snapshot."""
        self.load(log)

    # ---- the state and the log ---------------------------------------------------------------
    def load(self, log: Sequence[LogEntry]) -> None:
        """The match as the table's log makes it (None while the table is open)."""
        self.match = None
        self.times = {m.seq: m.at for m in log}
        if self.table.status == "open" or (not log and self.table.status == "abandoned"):
            return
        self.match = Match.from_log(
            self.game, self.table.options, self.table.players, self.table.seed,
            [log_item(m) for m in log], names=self.names(), history=RECENT,
        )

    def take_state(self, table: TableState, seats: list[SeatState],
                  users: dict[int, Person]) -> None:
        """The table as the store has it now (another process may have changed it)."""
        self.table, self.seats = table, seats
        self._lasting = None
        self.users.update(users)
        if self.match is not None:
            self.match.names = self.names()

    def absorb(self, moves: Sequence[LogEntry]) -> None:
        """Log entries another process wrote after ours, applied as they were."""
        match = self.match
        assert match is not None
        for move in moves:
            match.apply_item(*log_item(move))
            self.times[move.seq] = move.at

    def missing_users(self) -> list[int]:
        return [s.user_id for s in self.seats
                if s.user_id is not None and s.user_id not in self.users]

    # ---- who is who --------------------------------------------------------------------------
    @property
    def seq(self) -> int:
        return 0 if self.match is None else self.match.seq

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

    def to_act(self) -> frozenset[int]:
        if self.match is None or self.match.is_over():
            return frozenset()
        return self.match.to_act()

    def decisions(self) -> dict[int, int]:
        """Seats to act and the ``seq`` each one's decision began at."""
        return {} if self.match is None or self.match.is_over() else self.match.decisions()

    def playing(self) -> bool:
        return (self.table.status == "playing" and self.match is not None
                and not self.match.is_over())

    def can_undo(self, seat: int | None) -> bool:
        return (seat is not None and self.playing() and not self.is_bot(seat)
                and self.match is not None and self.match.can_undo(seat))

    def bots_to_ask(self) -> list[tuple[int, int]]:
        """Bot seats to act now, with the ``seq`` their decision began at."""
        if not self.playing():
            return []
        return [(s, since) for s, since in sorted(self.decisions().items()) if self.is_bot(s)]

    def next_deadline(self) -> datetime | None:
        if not self.playing():
            return None
        acting = self.to_act()
        return clocks.next_deadline(s for s in self.seats if s.seat in acting)

    def summary(self, now: datetime | None = None) -> JSON:
        now = now or utcnow()
        return self.snapshot(now).summary(now)

    def snapshot(self, now: datetime) -> TableSnapshot:
        """The table as it is now, immutable (published by the actor after every command)."""
        offer = self.rematch_offer(now)
        decisions = self.decisions()
        if self._lasting is None:
            self._lasting = lasting(self.table, self.game.spec.title)
        return snapshot_of(
            self.table, self.seats, self.users, self.game.spec.title, self._lasting,
            seq=self.seq,
            over=self.match is not None and self.match.is_over(),
            decisions=MappingProxyType(decisions) if decisions else NO_DECISIONS,
            rematch_offer=offer,
            rematch_until=datetime.fromisoformat(offer["until"]) if offer else None,
            rematch_declined=self.rematch_declined(),
        )

    def webhooks(self) -> dict[int, str]:
        """The webhook of each person the table knows who set one (turn notices)."""
        return {uid: u.webhook_url for uid, u in self.users.items() if u.webhook_url}

    def take_result(self, result: JSON | None) -> None:
        """The result as the match end's subscribers left it (the ratings added: written)."""
        self.table.result = result

    # ---- seats ---------------------------------------------------------------------------------
    # A seat is taken or freed in the core first, like a move; its write is conditional (the
    # table still open, the seat still held as it was), and the actor deals after it
    # (``seats`` in ``tell``: ``seats_changed``).
    def join(self, person: Person, seat: int | None, invite: str | None) -> Effects:
        """Seat ``person`` in ``seat`` (None: the first free one)."""
        table = self.table
        if table.status != "open":
            raise ServerError("not_open", E.NOT_OPEN, 409)
        if table.private and invite != table.invite and person.id != table.host_id:
            raise ServerError("wrong_invite", E.WRONG_INVITE, 403)
        if self.seat_of(person.id) is not None:
            raise ServerError("already_seated", E.ALREADY_SEATED, 409)
        kept = [s for s in self.seats if s.reserved_for == person.id and s.held == (None, None)]
        free = kept[0] if kept and seat in (None, kept[0].seat) else self.free_seat(seat)
        self.users[person.id] = person
        return self._seat_change(free, person.id, None, seat)

    def add_bot(self, user_id: int, level: str, seat: int | None) -> Effects:
        """The host or a seated player seats a bot of ``level`` (never at a rated table)."""
        if self.table.status != "open":
            raise ServerError("not_open", E.NOT_OPEN, 409)
        if user_id != self.table.host_id and self.seat_of(user_id) is None:
            raise ServerError("not_seated", E.NOT_SEATED, 403)
        if self.table.rated:
            raise ServerError("rated_bots", E.RATED_BOTS, 409)
        return self._seat_change(self.free_seat(seat), None, level, seat)

    def _seat_change(self, row: SeatState, user_id: int | None, bot: str | None,
                     asked: int | None) -> Effects:
        change = SeatChange(row.seat, row.held, (user_id, bot))
        row.user_id, row.bot = user_id, bot
        refusal = (ServerError("seat_taken", E.SEAT_TAKEN, 409, seat=asked + 1)
                   if asked is not None else ServerError("table_full", E.TABLE_FULL, 409))
        return Effects(Write(seat_changes=[change]), ["seats"], refusal=refusal)

    def free_seat(self, seat: int | None) -> SeatState:
        """The seat to take: ``seat`` if free, else the first free one (a seat kept for
        someone is not free: ``join`` seats them in it)."""
        free = [s for s in self.seats
                if s.user_id is None and s.bot is None and s.reserved_for is None]
        if seat is not None:
            free = [s for s in free if s.seat == seat]
            if not free:
                raise ServerError("seat_taken", E.SEAT_TAKEN, 409, seat=seat + 1)
        if not free:
            raise ServerError("table_full", E.TABLE_FULL, 409)
        return free[0]

    def seats_changed(self, now: datetime) -> Effects:
        """After a seat was taken or freed: deal once every seat is taken, or give the table
        up when no person is left (unless a tournament's director opened it: its bots play
        on their own). The table's change is written conditionally (``status_was``: another
        process may have started it first)."""
        full = all(s.user_id is not None or s.bot is not None for s in self.seats)
        humans = [s for s in self.seats if s.user_id is not None]
        directed = self.table.tournament is not None  # a tournament's bots play on their own
        if full and (humans or directed):
            self._begin(now)
            over = self.match is not None and self.match.is_over()
            if over:  # the deal itself ended the match (Goita: a hand of six Shi, B5)
                self._finish(now)
            return Effects(Write(None, list(self.seats), self.table, "open"),
                           ["table", "lobby", "full"], finished=over)
        if not humans and not directed:
            self.table.status = "abandoned"
            return Effects(Write(None, list(self.seats), self.table, "open"), ["table", "lobby"])
        return Effects(None, ["table", "lobby"])

    def _begin(self, now: datetime) -> None:
        table = self.table
        table.status = "playing"
        table.started_at = now
        for seat in self.seats:
            seat.bank_seconds = table.bank_seconds
        self.load(())
        for s in self.to_act():
            clocks.start(table, self.seats[s], now)

    def remove(self, user_id: int, seat: int) -> tuple[Effects, int | None]:
        """The host frees another's seat (a stranger's or a bot's) before the start; the
        person removed (None: a bot). Refused if the seat changed meanwhile."""
        if self.table.status != "open":
            raise ServerError("not_open", E.NOT_OPEN, 409)
        if user_id != self.table.host_id:
            raise ServerError("not_host", E.NOT_HOST, 403)
        row = self.seats[seat]
        if row.user_id is None and row.bot is None:
            raise ServerError("seat_free", E.SEAT_FREE, 409, seat=seat + 1)
        if row.user_id == user_id:
            raise ServerError("own_seat", E.OWN_SEAT, 409)
        person = row.user_id
        change = SeatChange(seat, row.held, (None, None))
        row.user_id = row.bot = None
        return Effects(Write(seat_changes=[change]), ["seats"], refusal=ServerError(
            "seat_changed", E.SEAT_CHANGED, 409, seat=seat + 1)), person

    def expire(self, now: datetime) -> Effects | None:
        """An open table nobody filled in time is given up (None: it is not open any more).
        Written conditionally like any start or abandonment (``move_on``)."""
        if self.table.status != "open":
            return None
        self.table.status = "abandoned"
        return Effects(Write(None, list(self.seats), self.table, "open"), ["table", "lobby"])

    def check_leave(self, user_id: int) -> int:
        seat = self.seat_of(user_id)
        if seat is None:
            raise ServerError("not_seated", E.NOT_SEATED, 403)
        if self.table.status not in ("open", "playing"):
            raise ServerError("not_playing", E.NOT_PLAYING, 409)
        return seat

    def leave(self, user_id: int) -> Effects:
        """The person frees their seat at an open table (a match being played hands it to a
        bot instead: ``take_over``)."""
        seat = self.check_leave(user_id)
        if self.table.status != "open":
            raise ServerError("not_open", E.NOT_OPEN, 409)
        row = self.seats[seat]
        change = SeatChange(seat, (user_id, None), (None, None))
        row.user_id = None
        return Effects(Write(seat_changes=[change]), ["seats"],
                       refusal=ServerError("not_seated", E.NOT_SEATED, 403))

    def drop(self) -> Effects:
        """The table is given up whatever its state (the operator's housekeeping)."""
        self.table.status = "abandoned"
        return Effects(Write(table=self.table))

    # ---- the match ---------------------------------------------------------------------------
    def _check_playing(self) -> Match:
        if self.table.status != "playing" or self.match is None:
            if self.table.status == "finished":
                raise GameOver(msgid=N_("The game is over."))
            raise ServerError("not_playing", E.NOT_PLAYING, 409)
        return self.match

    def act(self, seat: int, seq: int, data: object, now: datetime,
            by_bot: bool = False) -> Effects:
        """Apply one action through the match driver (which checks the seat, the ``seq``
        and the action before anything changes); the clocks move and, at the last move, the
        table is finished."""
        if not by_bot and self.table.status == "playing" and self.is_bot(seat):
            raise ServerError("bot_seat", BOT_SEAT, 409)
        match = self._check_playing()
        before = match.to_act()
        step = match.step_json(seat, data, seq, strict=True)
        after = self.to_act()
        changed = clocks.after_action(self.table, self.seats, seat, before, after, now)
        over = match.is_over()
        if over:
            self._finish(now)
        move = self._move(step, now)
        # at the end the summary changed too (status, result): its `table` message follows
        return Effects(Write(move, changed, self.table if over else None),
                       ["step", "table"] if over else ["step"], finished=over)

    def undo(self, seat: int, seq: int, now: datetime) -> Effects:
        """Take back the seat's last action (the driver's rule, takeback limit included); the
        clocks go back as they were before it (``clocks.after_undo``: the other seats are not
        charged for the wait, the undoer gains no time)."""
        if self.is_bot(seat):
            raise ServerError("bot_seat", BOT_SEAT, 409)
        match = self._check_playing()
        before = match.to_act()
        undone = last_act(match)
        step = match.undo(seat, seq)
        acted_at = self.times.get(undone, now) if undone is not None else now
        changed = clocks.after_undo(self.table, self.seats, seat, before, self.to_act(),
                                    acted_at, now)
        return Effects(Write(self._move(step, now), changed), ["full"])

    def take_over(self, seat: int, now: datetime) -> Effects | None:
        """A bot takes the seat for good (out of time, or the person left): the match is
        marked and will not be rated. None when a bot has it already."""
        row = self.seats[seat]
        if row.zombie:
            return None
        match = self._check_playing()
        clocks.stop(self.table, row, now, answered=False)  # what was left, 0 if it fell
        row.zombie = True
        self.table.zombie = True
        step = match.note(seat, {"type": "takeover"})
        return Effects(Write(self._move(step, now), [row], self.table), ["table", "step"])

    def note(self, seat: int, notice: JSON, now: datetime) -> Effects:
        """Log a public notice (a hint used: table/coach.py) and tell everyone."""
        step = self._check_playing().note(seat, notice)
        return Effects(Write(self._move(step, now)), ["step"])

    def out_of_time(self, now: datetime) -> list[int]:
        if not self.playing():
            return []
        return [s.seat for s in clocks.expired(self.seats, self.to_act(), now)]

    def _finish(self, now: datetime) -> None:
        assert self.match is not None
        outcome = self.match.outcome
        assert outcome is not None
        self.table.status = "finished"
        self.table.finished_at = now
        self.table.result = {**outcome.to_json(), "tie_broken": tie_broken(outcome)}
        for seat in self.seats:
            seat.deadline = None

    def _move(self, step: Step, now: datetime) -> LogEntry:
        if step.kind == "act":
            kind, action = "act", step.action.to_json()
        elif step.kind == "undo":
            kind, action = "undo", None
        else:
            kind, action = "note", step.action
        self.times[step.seq] = now
        return LogEntry(self.table.id, step.seq, step.seat, kind, action, now)

    # ---- rematch ---------------------------------------------------------------------------------
    def rematch_offer(self, now: datetime) -> JSON | None:
        """The open rematch offer, or None (rematch_notes.open_offer)."""
        if self.match is None or self.table.status != "finished" or self.table.rematch:
            return None
        return open_offer(self.match.log, self.seats, now)

    def rematch_declined(self) -> int | None:
        """The seat whose decline ended the last offer (rematch_notes.declined_by)."""
        if self.match is None or self.table.status != "finished" or self.table.rematch:
            return None
        return declined_by(self.match.log)

    def answer_rematch(self, seat: int, accept: bool, now: datetime,
                       seconds: float) -> Effects:
        """Offer a rematch (``accept`` with none open), accept the open offer, or decline it
        (``accept`` false; the one who offered withdraws it so). Logged as notes: durable, and
        ordered against the other players' answers by the log's ``seq``."""
        if self.table.status != "finished" or self.match is None:
            raise ServerError("not_finished", E.NOT_FINISHED, 409)
        offer = self.rematch_offer(now)
        if self.table.rematch or (accept and offer is not None and seat in offer["accepted"]):
            return Effects()
        if not accept and offer is None:
            raise ServerError("no_rematch_offer", E.NO_REMATCH_OFFER, 409)
        if not accept:
            notice: JSON = {"type": "rematch_decline"}
        elif offer is None:
            until = now + timedelta(seconds=seconds)
            notice = {"type": "rematch_offer", "until": until.isoformat()}
        else:
            notice = {"type": "rematch_accept"}
        step = self.match.note(seat, notice)
        return Effects(Write(self._move(step, now)), ["step", "table"])

    def rematch_ready(self, now: datetime) -> bool:
        offer = self.rematch_offer(now)
        return offer is not None and not offer["waiting"]

    def rematch_made(self, table_id: str, now: datetime) -> Effects:
        assert self.match is not None
        self.table.rematch = table_id
        step = self.match.note(-1, {"type": "rematch_made", "table": table_id})
        return Effects(Write(self._move(step, now), [], self.table), ["step", "table"])

    # ---- chat --------------------------------------------------------------------------------
    def say(self, person: Person, text: str, clock: float, rate: int, now: datetime) -> Effects:
        """A chat line, kept and written as drawn (HTML-escaped), or a refusal: empty, too
        long, too fast (``rate`` lines per ``CHAT_WINDOW`` seconds on the monotonic
        ``clock``)."""
        if not text.strip():
            raise ServerError("chat_empty", E.CHAT_EMPTY)
        text = text.strip()
        if len(text) > CHAT_LIMIT:
            raise ServerError("chat_too_long", E.CHAT_LONG, limit=CHAT_LIMIT)
        times = self._chat_times.setdefault(person.id, deque())
        while times and times[0] <= clock - CHAT_WINDOW:
            times.popleft()
        if len(times) >= rate:
            raise ServerError("rate_limited", E.CHAT_FAST, 429, count=rate,
                              seconds=int(CHAT_WINDOW))
        times.append(clock)
        line = ChatLine(person.id, person.name, person.display_name, html.escape(text), now)
        return Effects(Write(chat=line), ["chat"])  # kept once written (``heard``)

    def heard(self, line: JSON) -> None:
        """A chat line written: said here (``say``, then the write) or in another process."""
        self.chat.append(line)

    def renamed(self, person: Person) -> None:
        """Someone the table knows changed name (a claim) or was made anonymous (deleted):
        the table's snapshots and their chat lines show it."""
        before = self.users.get(person.id)
        if before is None:
            return
        self.users[person.id] = person
        if before.name != person.name:
            for line in self.chat:
                if line.get("user") == before.name:
                    line.update(user=person.name, name=person.display_name)
