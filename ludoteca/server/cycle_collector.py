"""The interpreter's cycle collector, run by the clock from the event loop instead of by
allocation counts.

Why (issue 22, docs/server.md "Measured"): CPython starts a young collection when
allocations minus deallocations of tracked objects reach a threshold, but every object that
dies by reference count in an *older* generation also lowers that count. An arena frees old
objects all the time (finished matches, closed sockets), so the young generation grew to
about 360,000 objects before its collection came, and each then stopped the loop for
100-370 ms at 600 tables. Collected every tenth of a second, the young generation holds only
what that tenth made: each collection is a few milliseconds, and the whole arena spends less
time collecting than before.

The middle generation is collected every ``middle_every`` young collections (half a second
by default: two seconds' worth made a 40 ms stop at 600 tables). The old generation, which
holds every live table, is collected when the process's allocated memory blocks have grown by
a tenth since its last collection (the interpreter's own rule is a quarter more objects in
that generation, which cannot be counted as cheaply), so a heap that stays the same size is
not walked: after start-up has filled it, a server with a steady number of tables walks it
again only when it grows. Each walk freezes its survivors (below), so it costs what is new
since the last: a smaller step makes shorter stops, not more work.

What was alive when the collector started is frozen out of the walks (``gc.freeze``):
``serve`` froze the imports already (``tune_runtime``), and what the app's start built since
(its store, hub and bot pool) lives as long as the process too. So is what survives each old
walk: the next one looks only at what survived the middle generation since, so a heap that
grows (an arena starting beside 300 tables) costs walks of its growth, not of every live
table. At 300 tables and an arena the old walk of everything took 227 ms, and it found at
most 800 objects of garbage (benchmarks/arena.py): the old heap is live tables, and tables end
by reference counts. Cycles among frozen objects wait for the whole walk (everything
unfrozen, collected, frozen again) that comes once an hour: 350 ms at 300 tables, the imports
included. Stopping the collector unfreezes, so a process that starts many apps (the tests) can
still collect them.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import sys
import time
from collections.abc import Callable

log = logging.getLogger("ludoteca.server")


class CycleCollector:
    """Collects cycles on a timer while started; the interpreter's own collector is off."""

    def __init__(self, period: float = 0.1, *, middle_every: int = 5, growth: float = 0.1,
                 whole_every: float = 3600.0,
                 observe: Callable[[int, float], None] | None = None) -> None:
        self.period = period
        self.observe = observe
        """Told each collection's generation and seconds (the arena's metrics)."""
        self.middle_every = middle_every
        self.growth = growth
        self.whole_every = whole_every
        self.whole_due = time.monotonic() + whole_every
        """When the next old walk is a whole one."""
        self.ticks = 0
        self.blocks = sys.getallocatedblocks()
        """Memory blocks allocated after the last old collection."""
        self.full_collections = 0
        self.whole_collections = 0
        self._was_enabled = False
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._was_enabled = gc.isenabled()
        gc.disable()
        gc.collect()
        gc.freeze()
        self.blocks = sys.getallocatedblocks()
        self.whole_due = time.monotonic() + self.whole_every
        self._task = asyncio.get_running_loop().create_task(self._run(), name="cycle collector")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            gc.unfreeze()
        if self._was_enabled:
            gc.enable()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.period)
            self.tick()

    def tick(self) -> int:
        """One timer tick: collect the generation that is due; return which one."""
        self.ticks += 1
        started = time.perf_counter()
        generation = self._due()
        whole = generation == 2 and time.monotonic() >= self.whole_due
        if whole:
            gc.unfreeze()
        gc.collect(generation)
        if generation == 2:
            gc.freeze()  # the survivors: the next old walk looks only at what is newer
        seconds = time.perf_counter() - started
        if generation == 2:
            before, self.blocks = self.blocks, sys.getallocatedblocks()
            self.full_collections += 1
            if whole:
                self.whole_due = time.monotonic() + self.whole_every
                self.whole_collections += 1
            log.info("full cycle collection", extra={
                "blocks": self.blocks, "blocks_after_the_last": before, "whole": whole,
                "ms": round(seconds * 1000, 1)})
        if self.observe is not None:
            self.observe(generation, seconds)
        return generation

    def _due(self) -> int:
        if self.ticks % self.middle_every:
            return 0
        if time.monotonic() >= self.whole_due:
            return 2
        # tens of microseconds for millions of blocks
        return 2 if sys.getallocatedblocks() > self.blocks * (1 + self.growth) else 1
