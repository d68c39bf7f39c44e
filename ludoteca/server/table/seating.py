"""Taking and leaving seats, as commands like any other: the core takes or frees the seat in
its state and returns the conditional write ("seat 2, if it is still empty, and the table still
open"); the actor writes it, then tells, then deals (``seats`` in the effects' ``tell``). If
another process changed the seat first, the write is refused whole, the table is read again,
and the command is tried once more on the table as it is now (the next free seat), or
refused with its typed error."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Protocol

from ludoteca.engine.errors import StaleAction
from ludoteca.server import errors as E
from ludoteca.server.errors import ServerError
from ludoteca.server.services import TableServices
from ludoteca.server.table.core import TableCore
from ludoteca.server.table.effects import Effects
from ludoteca.server.table.state import Person, utcnow


class SeatingHost(Protocol):
    """What seating needs of the table's actor."""

    core: TableCore
    services: TableServices

    async def take_over(self, seat: int) -> bool: ...

    async def apply(self, effects: Effects, conflict: object = None) -> None: ...


class Seating:
    def __init__(self, host: SeatingHost) -> None:
        self.host = host

    async def join(self, person: Person, seat: int | None, invite: str | None) -> None:
        core = self.host.core
        await self._seat(lambda: core.join(person, seat, invite))

    async def add_bot(self, user_id: int, level: str, seat: int | None) -> None:
        core = self.host.core
        await self._seat(lambda: core.add_bot(user_id, level, seat))

    async def _seat(self, command: Callable[[], Effects]) -> None:
        """Of two processes seating someone in one seat at once, the database lets one in;
        the other has read the table again and tries on it (the next free seat, or the
        refusal the table as it is now gives: taken, full, started)."""
        host = self.host
        for _ in range(host.core.table.players):
            effects = command()
            try:
                await host.apply(effects)
            except ServerError as exc:
                if exc is not effects.refusal:
                    raise
                continue
            return
        raise ServerError("table_full", E.TABLE_FULL, 409)

    async def leave(self, user_id: int) -> None:
        """An open table frees the seat; a match being played hands it to a bot for good."""
        host = self.host
        core = host.core
        seat = core.check_leave(user_id)
        if core.table.status == "open":
            await host.apply(core.leave(user_id))
            return
        for _ in range(2):  # once more on the table as it is now, if another wrote first
            if host.core.table.status != "playing" or await host.take_over(seat):
                return

    async def remove(self, user_id: int, seat: int) -> int | None:
        """The host frees another's seat before the start; the person removed (None: a
        bot). Conditional like every seat write: if the seat changed meanwhile, refused."""
        effects, person = self.host.core.remove(user_id, seat)
        await self.host.apply(effects)
        return person

    async def expire(self) -> bool:
        """Give the open table up (nobody filled it in time); False if it had started or been
        given up meanwhile, here or in another process."""
        effects = self.host.core.expire(utcnow())
        if effects is None:
            return False
        with contextlib.suppress(StaleAction):
            await self.host.apply(effects)
            return True
        return False
