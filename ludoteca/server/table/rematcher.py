"""Answers to a rematch offer at a finished table (lila's ``Rematcher``): the core logs each
as a note; once every person accepted, the server makes the new table and the finished one
names it."""

from __future__ import annotations

import contextlib
from typing import Protocol

from ludoteca.engine.errors import StaleAction
from ludoteca.server.services import TableServices
from ludoteca.server.table.core import TableCore
from ludoteca.server.table.effects import Effects
from ludoteca.server.table.state import utcnow


class RematchHost(Protocol):
    """What the rematcher needs of the table's actor."""

    core: TableCore
    services: TableServices

    async def apply(self, effects: Effects, conflict: object = None) -> None: ...


class Rematcher:
    def __init__(self, host: RematchHost) -> None:
        self.host = host

    async def answer(self, seat: int, accept: bool) -> None:
        """Offer, accept or decline. A note another process wrote first is read (the write
        refused as stale), then the answer is given again on the table as it is now."""
        host = self.host
        core, services = host.core, host.services
        for attempt in range(2):
            offered = core.rematch_offer(utcnow()) is None
            if accept and offered and core.table.rematch is None:
                # a new table of the host's: its quota
                await services.may_rematch(core.snapshot(utcnow()))
            try:
                await host.apply(core.answer_rematch(seat, accept, utcnow(),
                                                     services.settings.rematch_seconds))
            except StaleAction:
                if attempt:
                    raise
                continue
            if accept and offered and core.rematch_offer(utcnow()) is not None:
                services.rematch_offered(core.snapshot(utcnow()), seat)
            break
        if core.rematch_ready(utcnow()):
            made = await services.make_rematch(core.snapshot(utcnow()), dict(core.users))
            with contextlib.suppress(StaleAction):  # another process named it: read already
                await host.apply(core.rematch_made(made, utcnow()))
