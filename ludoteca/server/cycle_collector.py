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
by default: two seconds' worth made a 40 ms stop at 600 tables), and the old one, which holds
every live table, every ``old_every`` (two seconds). Each old walk freezes what survives it
(``gc.freeze``), so the next looks only at what survived the middle generation since: the
stop is as long as what became long-lived in two seconds, not as the whole heap. An arena
starting beside 300 tables made walks of everything of up to 227 ms; walked as it grows, the
same start-up is walks of tens of ms (benchmarks/arena.py). Each walk of everything found at
most 800 objects of garbage there: the old heap is live tables, and tables end by reference
counts. (Until then the old generation was walked whole when the allocated blocks had grown
by a quarter; with survivors frozen that measure misses the tables that end and open without
growing the heap, and a walk after it had hundreds of ms of new survivors to look at.)

What was alive when the collector started is frozen too: ``serve`` froze the imports already
(``tune_runtime``), and what the app's start built since (its store, hub and bot pool) lives
as long as the process. Cycles among frozen objects are freed by the whole walk (everything
unfrozen, collected, frozen again) that comes once ``whole_every`` (an hour): about 350 ms at
300 tables, the imports included. Stopping the collector unfreezes, so a process that starts
many apps (the tests) can still collect them.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import Callable

log = logging.getLogger("ludoteca.server")
LONG_WALK = 0.05
"""A collection this long or longer is logged, as is each whole walk (all are in
``/metrics``)."""


class CycleCollector:
    """Collects cycles on a timer while started; the interpreter's own collector is off."""

    def __init__(self, period: float = 0.1, *, middle_every: int = 5, old_every: int = 20,
                 whole_every: float = 3600.0,
                 observe: Callable[[int, float, int], None] | None = None) -> None:
        if old_every % middle_every:
            raise ValueError("old_every must be a multiple of middle_every")
        self.period = period
        self.observe = observe
        """Told each collection's generation, seconds and unreachable objects found (the
        arena's metrics)."""
        self.middle_every = middle_every
        self.old_every = old_every
        self.whole_every = whole_every
        self.whole_due = time.monotonic() + whole_every
        """When the next old walk is a whole one."""
        self.ticks = 0
        self.full_collections = 0
        self.whole_collections = 0
        self._was_enabled = False
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._was_enabled = gc.isenabled()
        gc.disable()
        gc.collect()
        gc.freeze()
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
        found = gc.collect(generation)
        if generation == 2:
            gc.freeze()  # the survivors: the next old walk looks only at what is newer
            self.full_collections += 1
            if whole:
                self.whole_due = time.monotonic() + self.whole_every
                self.whole_collections += 1
        seconds = time.perf_counter() - started
        if whole or seconds >= LONG_WALK:
            log.info("long cycle collection", extra={
                "generation": generation, "whole": whole, "ms": round(seconds * 1000, 1)})
        if self.observe is not None:
            self.observe(generation, seconds, found)
        return generation

    def _due(self) -> int:
        if self.ticks % self.middle_every:
            return 0
        return 1 if self.ticks % self.old_every else 2
