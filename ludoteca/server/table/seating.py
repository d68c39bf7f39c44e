"""Taking and leaving seats: the store's conditional seat writes, and what to do when another
process took the seat first (read the table again, try the next free one)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Protocol

from ludoteca.engine.errors import StaleAction
from ludoteca.server import errors as E
from ludoteca.server.db import User, utcnow
from ludoteca.server.errors import ServerError
from ludoteca.server.services import TableServices
from ludoteca.server.table.core import Effects, TableCore


class SeatingHost(Protocol):
    """What seating needs of the table's actor."""

    core: TableCore
    services: TableServices

    async def refresh(self, whole: bool = False, tell: bool = True) -> None: ...

    async def seats_changed(self) -> None: ...

    async def take_over(self, seat: int) -> bool: ...

    async def apply(self, effects: Effects, conflict: object = None) -> None: ...


class Seating:
    def __init__(self, host: SeatingHost) -> None:
        self.host = host

    async def join(self, user: User, seat: int | None, invite: str | None) -> None:
        core = self.host.core
        await self._seat(seat, user, None, lambda: core.check_join(user, invite))

    async def add_bot(self, user_id: int, level: str, seat: int | None) -> None:
        core = self.host.core
        await self._seat(seat, None, level, lambda: core.check_add_bot(user_id))

    async def _seat(self, seat: int | None, user: User | None, bot: str | None,
                    check: Callable[[], None]) -> None:
        """The seat is taken in the store first: of two processes seating someone in it at
        once, the database lets one in, and the other reads the table again and tries the
        next free seat."""
        host = self.host
        for _ in range(host.core.table.players):
            check()
            row = host.core.free_seat(seat)
            if await host.services.store.claim_seat(row, user.id if user else None, bot):
                host.core.seated(row, user, bot)
                await host.seats_changed()
                return
            await host.refresh()
        raise ServerError("table_full", E.TABLE_FULL, 409)

    async def leave(self, user_id: int) -> None:
        """An open table frees the seat; a match being played hands it to a bot for good."""
        host = self.host
        core = host.core
        seat = core.check_leave(user_id)
        if core.table.status == "open":
            if not await host.services.store.free_seat(core.seats[seat], user_id):
                await host.refresh()
                raise ServerError("not_seated", E.NOT_SEATED, 403)
            core.seats[seat].user_id = None
            await host.seats_changed()
            return
        for _ in range(2):  # once more on the table as it is now, if another wrote first
            if host.core.table.status != "playing" or await host.take_over(seat):
                return

    async def remove(self, user_id: int, seat: int) -> int | None:
        """The host frees another's seat before the start; the person removed (None: a
        bot). Conditional like every seat write: if the seat changed meanwhile, refused."""
        host = self.host
        row = host.core.check_remove(user_id, seat)
        person, bot = row.user_id, row.bot
        if not await host.services.store.unseat(row, person, bot):
            await host.refresh()
            raise ServerError("seat_changed", E.SEAT_CHANGED, 409, seat=seat + 1)
        row.user_id = row.bot = None
        await host.seats_changed()
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
