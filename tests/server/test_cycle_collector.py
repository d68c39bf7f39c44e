"""The cycle collector run by the clock (``cycle_collector.py``; docs/server.md "Measured")."""

from __future__ import annotations

import asyncio
import gc
import time
import weakref

import pytest

from ludoteca.server.cycle_collector import CycleCollector


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def self_loops(n: int) -> tuple[list[Node], list[weakref.ref[Node]]]:
    """``n`` nodes that each hold themselves (held by the list only), and a weak reference to
    each: once the list goes, only a cycle collection frees them."""
    held = [Node() for _ in range(n)]
    for node in held:
        node.other = node
    return held, [weakref.ref(node) for node in held]


def test_young_every_tick_middle_every_nth_old_every_mth() -> None:
    collector = CycleCollector(0.1, middle_every=3, old_every=9)
    assert [collector.tick() for _ in range(18)] == [0, 0, 1, 0, 0, 1, 0, 0, 2] * 2
    assert collector.full_collections == 2 and collector.whole_collections == 0
    gc.unfreeze()  # never started: nothing else would


def test_each_collection_is_told_with_the_garbage_it_found() -> None:
    """What ``/metrics`` shows per generation (``ludoteca_cycle_garbage_total``): the operator
    sees whether a generation's walks find anything worth their stop."""
    told: list[tuple[int, float, int]] = []
    collector = CycleCollector(0.1, middle_every=2, old_every=4,
                               observe=lambda g, s, found: told.append((g, s, found)))
    was = gc.isenabled()
    gc.disable()
    try:
        held, refs = self_loops(50)
        del held
        collector.tick()
        assert all(ref() is None for ref in refs)
        assert told[0][0] == 0 and told[0][2] >= 50 and told[0][1] >= 0
        assert [collector.tick() for _ in range(3)] == [1, 0, 2]
        assert [g for g, _, _ in told] == [0, 1, 0, 2]
    finally:
        gc.unfreeze()  # never started: nothing else would
        if was:
            gc.enable()


def test_the_old_walk_must_fall_on_a_middle_one() -> None:
    with pytest.raises(ValueError, match="multiple"):
        CycleCollector(0.1, middle_every=3, old_every=10)


def test_the_interpreter_collector_is_off_while_it_runs_and_back_after() -> None:
    async def run() -> tuple[bool, int]:
        collector = CycleCollector(0.01, middle_every=2, old_every=1000)
        collector.start()
        young = cycle()
        for _ in range(200):  # a cycle made now is freed by the timer, not by allocations
            if young() is None:
                break
            await asyncio.sleep(0.01)
        enabled = gc.isenabled()
        await collector.stop()
        return enabled, collector.ticks if young() is None else -1

    assert gc.isenabled()
    enabled, ticks = asyncio.run(run())
    assert not enabled and ticks > 0
    assert gc.isenabled()


def test_an_old_walk_frees_old_cycles_and_freezes_what_survives_it() -> None:
    async def run() -> None:
        collector = CycleCollector(1.0, middle_every=1, old_every=2)
        collector.start()
        try:
            held, old = self_loops(1000)
            gc.collect(1)
            gc.collect(1)  # survivors of the middle generation are now old
            del held  # garbage now, in the old generation
            assert collector.tick() == 1
            assert all(ref() is not None for ref in old)
            kept = [Node() for _ in range(1000)]
            frozen = gc.get_freeze_count()
            assert collector.tick() == 2
            assert all(ref() is None for ref in old)
            assert gc.get_freeze_count() >= frozen + len(kept)  # the next walk skips them
            assert collector.full_collections == 1 and collector.whole_collections == 0
        finally:
            await collector.stop()

    asyncio.run(run())


def test_what_lived_at_the_start_is_frozen_out_of_the_walks_until_it_stops() -> None:
    """The start-up heap (modules, the app) is never walked while the collector runs; after
    it stops, a cycle made before the start is collectable again."""

    async def run() -> tuple[int, bool, bool]:
        before = cycle()  # alive at the start: held by ``before``'s referent only as a cycle
        strong = before()
        collector = CycleCollector(1.0, middle_every=1)
        collector.start()
        frozen = gc.get_freeze_count()
        del strong  # garbage now, but frozen: no walk reaches it
        collector.tick()
        gc.collect()
        kept = before() is not None
        await collector.stop()
        gc.collect()
        return frozen, kept, before() is None

    frozen, kept, freed = asyncio.run(run())
    assert frozen > 10_000 and kept and freed
    assert gc.get_freeze_count() == 0


def test_what_survived_an_old_walk_waits_for_the_whole_walk() -> None:
    """A cycle among the frozen survivors is freed by neither the next old walk nor the
    interpreter's collection, but by the whole walk, which comes once ``whole_every``."""

    async def run() -> None:
        collector = CycleCollector(1.0, middle_every=1, old_every=1)
        collector.start()
        try:
            held, refs = self_loops(1000)
            assert collector.tick() == 2  # held survives it: frozen
            del held
            assert collector.tick() == 2
            gc.collect()
            assert all(ref() is not None for ref in refs)
            assert collector.whole_collections == 0
            collector.whole_due = time.monotonic()  # an hour later
            assert collector.tick() == 2
            assert collector.whole_collections == 1 and collector.full_collections == 3
            assert all(ref() is None for ref in refs)
            assert collector.whole_due > time.monotonic() + 3000
            assert gc.get_freeze_count() > 10_000  # frozen again, the start-up's too
        finally:
            await collector.stop()

    asyncio.run(run())
