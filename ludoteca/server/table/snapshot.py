"""What a table is, as everyone outside its actor sees it: an immutable ``TableSnapshot``
published after every command (``TableRef.snapshot``). Routes, the lobby, the hub's services
and the finisher read it; none of them holds the core or its state.

Its fields are plain values; ``options`` and ``result`` are the JSON the table holds, shared and
never changed in place (a new result replaces the old one)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Any

from ludoteca.engine.game import JSON
from ludoteca.server.table.state import Person, SeatState, TableState, stamp

NO_DECISIONS: Mapping[int, int] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class SeatSnapshot:
    seat: int
    user_id: int | None
    user: str | None
    """The sign-in name of the person seated (None: a bot, free, or someone unknown)."""
    label: str
    """The seat's name at the table: the person's display name, "Bot N", or "PN" when free
    (``names_of``)."""
    bot: str | None
    zombie: bool

    @property
    def is_bot(self) -> bool:
        """A bot plays the seat: seated as one, or taken over."""
        return self.bot is not None or self.zombie


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    id: str
    game: str
    title: str
    players: int
    options: JSON
    mode: str
    bank_seconds: float
    increment_seconds: float
    turn_hours: float
    rated: bool
    private: bool
    hints: bool
    invite: str
    status: str
    zombie: bool
    host_id: int
    host: str | None
    seats: tuple[SeatSnapshot, ...]
    created_at: datetime | None
    started_at: datetime | None
    finished_at: datetime | None
    result: JSON | None
    rematch: str | None
    rematch_of: str | None
    people: frozenset[int] = frozenset()
    """Everyone the table knows (seated now or before, its host)."""
    seq: int = 0
    over: bool = False
    """The match is over (its record is final)."""
    decisions: Mapping[int, int] = field(default_factory=lambda: NO_DECISIONS)
    """Seats to act and the ``seq`` each one's decision began at."""
    rematch_offer: JSON | None = None
    """The open rematch offer when the snapshot was taken (``summary`` drops it once past its
    ``until``)."""
    rematch_until: datetime | None = None
    rematch_declined: int | None = None
    tournament: str | None = None
    """The tournament whose director opened the table (None: opened in the lobby)."""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.label for s in self.seats)

    def seat_of(self, user_id: int | None) -> int | None:
        if user_id is None:
            return None
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.seat
        return None

    def is_member(self, user_id: int | None) -> bool:
        """The host or a seated player."""
        return user_id is not None and (user_id == self.host_id
                                        or self.seat_of(user_id) is not None)

    def public(self) -> JSON:
        """What the lobby and a table's viewers know of a table (never its seed or invite)."""
        return {
            "id": self.id,
            "game": self.game,
            "title": self.title,
            "players": self.players,
            "options": self.options,
            "mode": self.mode,
            "bank_seconds": self.bank_seconds,
            "increment_seconds": self.increment_seconds,
            "turn_hours": self.turn_hours,
            "rated": self.rated,
            "private": self.private,
            "hints": self.hints,
            "status": self.status,
            "zombie": self.zombie,
            "host": self.host,
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.label if (s.user_id is not None or s.bot) else None,
                    "user": s.user,
                    "bot": s.bot,
                    "zombie": s.zombie,
                }
                for s in self.seats
            ],
            "created_at": stamp(self.created_at),
            "started_at": stamp(self.started_at),
            "finished_at": stamp(self.finished_at),
            "result": self.result,
            "rematch": self.rematch,
            "tournament": self.tournament,
        }

    def summary(self, now: datetime) -> JSON:
        """The public summary with the rematch offer open at ``now`` (table messages, routes)."""
        out = self.public()
        open_now = self.rematch_until is None or now < self.rematch_until
        out["rematch_offer"] = self.rematch_offer if open_now else None
        out["rematch_declined"] = self.rematch_declined
        return out


def names_of(seats: Sequence[SeatState], users: Mapping[int, Person]) -> list[str]:
    """Each seat's name at the table: its person's display name, or "Bot N" (language-neutral:
    every viewer reads the same narration names; clients show the level, translated)."""
    out = []
    for seat in seats:
        if seat.user_id is not None and seat.user_id in users:
            out.append(users[seat.user_id].display_name)
        elif seat.bot is not None:
            out.append(f"Bot {seat.seat + 1}")
        else:
            out.append(f"P{seat.seat + 1}")
    return out


LASTING = ("id", "game", "players", "options", "mode", "bank_seconds", "increment_seconds",
           "turn_hours", "rated", "private", "hints", "invite", "host_id", "created_at",
           "rematch_of", "tournament")
"""A table's fields that never change once it is made."""


def lasting(table: TableState, title: str) -> dict[str, Any]:
    """The snapshot fields a table keeps all its life (a live table reads them once: each
    read costs, and a snapshot is taken after every command)."""
    return {"title": title, **{name: getattr(table, name) for name in LASTING}}


def snapshot_of(table: TableState, seats: Sequence[SeatState], users: Mapping[int, Person],
                title: str,
                kept: dict[str, Any] | None = None, **state: Any) -> TableSnapshot:
    """The snapshot of a table's state (``kept``: their ``lasting`` fields, read before);
    ``state`` adds what only a live table knows (``seq``, ``over``, ``decisions``, the rematch
    offer)."""
    host = users.get(table.host_id)
    return TableSnapshot(
        **(kept if kept is not None else lasting(table, title)),
        status=table.status, zombie=table.zombie, host=host.name if host else None,
        seats=tuple(seat_snapshot(s, users) for s in seats),
        started_at=table.started_at, finished_at=table.finished_at, result=table.result,
        rematch=table.rematch, people=frozenset(users), **state,
    )


def seat_snapshot(row: SeatState, users: Mapping[int, Person]) -> SeatSnapshot:
    """One seat, each field read once; its label as ``names_of`` gives it."""
    seat, user_id, bot = row.seat, row.user_id, row.bot
    user = users.get(user_id) if user_id is not None else None
    label = (user.display_name if user is not None
             else f"Bot {seat + 1}" if bot is not None else f"P{seat + 1}")
    return SeatSnapshot(seat, user_id, user.name if user else None, label, bot, row.zombie)
