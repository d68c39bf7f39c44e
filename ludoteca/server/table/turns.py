"""Who moves next when nobody sends anything: a table's clock and its bots.

After every change the actor asks ``Turns.arm``: the timer is set for the next deadline (a seat
out of time is taken over by a bot) and each bot seat to act is asked for its move, in a worker
process, from what that seat may know. The answers come back through the actor's mailbox, the
same checked path as a person's action; an answer to a decision that moved on is stale and
dropped, and the next ``arm`` asks again.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Awaitable, Callable

from ludoteca.engine.errors import LudotecaError
from ludoteca.engine.game import JSON
from ludoteca.server.bot_pool import ZOMBIE_LEVEL, budget
from ludoteca.server.services import TableServices
from ludoteca.server.table.core import TableCore
from ludoteca.server.table.state import utcnow

log = logging.getLogger("ludoteca.table")

Act = Callable[[int, int, JSON], Awaitable[None]]
"""A bot's move into the actor's mailbox: seat, the ``seq`` it answers, the action."""


async def _stopped(*args: object) -> None:
    """A stopped table's clock and bots do nothing."""


class Turns:
    def __init__(self, core: TableCore, services: TableServices, act: Act,
                 timeout: Callable[[], Awaitable[None]]) -> None:
        self.core = core
        self.services = services
        self._act = act
        self._timeout = timeout
        self.timer: asyncio.Task[None] | None = None
        self.bots: dict[int, tuple[int, asyncio.Task[None]]] = {}
        self.last_move = time.monotonic()
        self.owned = True
        """This process runs the table's clocks and bots (alone, always; one of several, while
        it holds the table's lease)."""

    def arm(self) -> None:
        self.cancel_timer()
        if not self.owned or not self.core.playing():
            return
        due = self.core.next_deadline()
        if due is not None:
            self.timer = asyncio.create_task(self._ring((due - utcnow()).total_seconds()))
        for seat, since in self.core.bots_to_ask():
            pending = self.bots.get(seat)
            if pending is not None and pending[0] == since and not pending[1].done():
                continue
            # an older task finds its decision gone and stops; it is not cancelled, as it may
            # be the very task whose move is being applied now
            self.bots[seat] = (since, asyncio.create_task(self._bot_move(seat, since)))

    def cancel_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def cancel(self) -> None:
        self.cancel_timer()
        for _, task in self.bots.values():
            task.cancel()
        self.bots.clear()

    def release(self) -> None:
        """Once the table stopped: let go of the actor's callbacks. They hold the actor,
        which holds us, and a stopped table left in such a cycle waits for the interpreter's
        cycle collector, whose walk over hundreds of thousands of objects stopped the event
        loop for most of a second at 600 tables (docs/server.md, "Measured")."""
        self.cancel()
        self._act = _stopped
        self._timeout = _stopped

    async def _ring(self, wait: float) -> None:
        await asyncio.sleep(max(0.0, wait) + 0.01)
        self.timer = None
        try:
            await self._timeout()
        except LudotecaError:
            pass
        except Exception:
            log.exception("table %s: a clock's timeout failed", self.core.table.id)

    async def _bot_move(self, seat: int, since: int) -> None:
        core = self.core
        match = core.match
        delay = self.services.settings.bot_delay * bot_pace(core.table.seed, since, seat)
        wait = delay - (time.monotonic() - self.last_move)
        if wait > 0:
            await asyncio.sleep(wait)
        if (match is None or core.match is not match or match.decision(seat) != since
                or not self.owned):
            return
        seq, table = core.seq, core.table
        level = core.seats[seat].bot or ZOMBIE_LEVEL
        seed = _hashed(table.seed, seq, seat)
        try:
            data = await self.services.bots.choose(  # in turn by owner: bot_fairness.py
                table.game, level, seed, match.view(seat), seat, budget(level, table.game),
                table.host_id)
        except Exception:
            # the table must go on: a legal move chosen at random, as the random bot would
            log.exception("table %s: the bot of seat %d failed", table.id, seat + 1)
            legal = match.legal(seat)
            if not legal:
                return
            data = legal[seed % len(legal)].to_json()
        try:
            await self._act(seat, seq, data)
        except LudotecaError:
            pass  # the position moved on (an undo, a take-over): the next arm asks again
        except Exception:
            log.exception("table %s: the move of the bot of seat %d failed", table.id, seat + 1)


PACE_SPREAD = 0.5
"""A bot answers after the bot delay times 1 to 1 + this."""


def bot_pace(table_seed: int, decision: int, seat: int) -> float:
    """How many bot delays this answer waits, from 1 to ``1 + PACE_SPREAD``. With one delay
    for all, the bot tables an arena's wave opened together all moved in the same instant
    every 0.8 s and ended together, and each such instant stopped every other table of the
    server (benchmarks/arena.py); spread, they drift apart within a few moves. Drawn from a
    hash of its own, so it tells nothing of the seeds the moves are chosen with."""
    return 1.0 + PACE_SPREAD * (_hashed("pace", table_seed, decision, seat) >> 32) / 2**32


def _hashed(*parts: object) -> int:
    """64 bits of the SHA-256 of the parts joined by colons: a bot move's seed from (table
    seed, seq, seat), its pace from the same with a label of its own."""
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big")
