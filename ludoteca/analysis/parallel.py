"""An analysis spread over processes, part by part.

Each part's samples are seeded by move number (``Analyst.part``), so parts made in any process
and any order add up to the same JSON as one run: with ``jobs`` processes an analysis takes
about ``1/jobs`` of the time on as many cores, byte for byte the same.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

from ludoteca.analysis.analyse import PART, Analyst, Progress
from ludoteca.engine.game import JSON
from ludoteca.engine.record import MatchRecord

_analyst: Analyst | None = None
"""A worker process's analyst, built once by ``_start`` and used for every part it makes."""


def _start(record: JSON, budget: int | None, seed: int) -> None:
    global _analyst
    _analyst = Analyst(MatchRecord.from_json(record), budget, seed)


def _part(start: int, stop: int) -> tuple[JSON, int]:
    """The part, and the playouts it took."""
    assert _analyst is not None, "the pool's initializer builds the analyst"
    before = _analyst.evaluator.playouts
    part = _analyst.part(start, stop)
    return part, _analyst.evaluator.playouts - before


def default_jobs() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)


def analyse_parallel(record: MatchRecord, budget: int | None = None, seed: int = 0,
                     jobs: int | None = None, progress: Progress | None = None,
                     stats: dict[str, int] | None = None) -> JSON:
    """``analyse`` in ``jobs`` processes (default: one per core; one runs here). ``stats``,
    when given, gets the playouts run (``"playouts"``)."""
    analyst = Analyst(record, budget, seed)
    jobs = default_jobs() if jobs is None else jobs
    if jobs <= 1:
        result = analyst.run(progress)
        if stats is not None:
            stats["playouts"] = analyst.evaluator.playouts
        return result
    final = analyst.finished()
    total = len(record.actions)
    bounds = [(start, min(total, start + PART)) for start in range(0, total, PART)]
    parts: dict[int, JSON] = {}
    done = playouts = 0
    # spawn, not fork: the caller may run threads (a progress bar) that fork would copy mid-step
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"),
                             initializer=_start,
                             initargs=(record.to_json(), budget, seed)) as pool:
        pending: dict[Future[tuple[JSON, int]], tuple[int, int]] = {
            pool.submit(_part, a, b): (a, b) for a, b in bounds}
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                start, stop = pending.pop(future)
                parts[start], ran = future.result()
                playouts += ran
                done += stop - start
                if progress is not None:
                    progress(done, total)
    if stats is not None:
        stats["playouts"] = playouts
    moves: list[JSON] = []
    luck: list[JSON] = []
    for start, _ in bounds:
        moves += parts[start]["moves"]
        luck += parts[start]["luck"]
    return analyst.report(moves, luck, final)
