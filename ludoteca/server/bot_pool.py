"""The server's bot pool: processes that choose bot moves, never the event loop.

A move is asked for with what the seat may know (its view), so a worker holds no table state:
any worker can answer any table, and a restarted server loses nothing. Bots are built per
move from a seed derived from the table, so a table's bot play is repeatable. Moves are handed
to the processes in turn by the account owning each table (``bot_fairness.py``), so one
account's many bots do not slow everyone else's.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable, Hashable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import Any

from ludoteca.bots import make_bot, move_seconds
from ludoteca.engine.game import JSON
from ludoteca.server.bot_fairness import FairQueue
from ludoteca.server.bot_process import BotProcessContext, start_bot_process

log = logging.getLogger("ludoteca.bots")

BOT_LEVELS = ("random", "greedy", "medium", "hard")
ZOMBIE_LEVEL = "greedy"
"""The level that plays a seat whose person ran out of time or left (BGA's zombie mode)."""


def choose(game: str, level: str, seed: int, view: JSON, seat: int, seconds: float) -> JSON:
    """Runs in a worker process: the bot's action for ``seat``, as JSON."""
    from ludoteca.games import get_game

    found = get_game(game)
    bot = make_bot(level, game, seed)
    try:
        action = bot.choose(found, view, seat, time.monotonic() + seconds)
    finally:
        bot.close()
    data: JSON = action.to_json()
    return data


def analyse_part(record: JSON, start: int, stop: int, budget: int, seed: int) -> JSON:
    """Runs in a worker process: the analysis of moves ``start..stop-1`` of a finished match
    (``ludoteca.analysis``), which holds the process for seconds, never the event loop."""
    from ludoteca.analysis.analyse import Analyst
    from ludoteca.engine.record import MatchRecord

    return Analyst(MatchRecord.from_json(record), budget, seed).part(start, stop)


def hint(game: str, view: JSON, seat: int, players: int, ply: int, budget: int) -> JSON:
    """Runs in a worker process: the coach's move for ``seat`` from its view alone."""
    from ludoteca.analysis.hint import suggest

    return suggest(game, view, seat, players, ply, budget)


def retry_value(record: JSON, ply: int, action: JSON, budget: int, seed: int) -> float:
    """Runs in a worker process: a retried move's value ("Learn from your mistakes")."""
    from ludoteca.analysis.retry import value_of

    return value_of(record, ply, action, budget, seed)


def budget(level: str, game: str) -> float:
    """The seconds a move of bot ``level`` may take in ``game`` (its deadline)."""
    return move_seconds(level, game)


def _warm() -> int:
    from ludoteca.games import all_games

    return len(all_games())


class BotWorkers:
    """A process pool the server owns; ``choose`` awaits a move without blocking the loop."""

    def __init__(self, processes: int = 0) -> None:
        self.processes = processes or max(1, os.cpu_count() or 1)
        self._pool: ProcessPoolExecutor | None = None
        self.turns = FairQueue(self.processes)
        """Moves wait here, round-robin by owner, for a free process."""
        self.answered: dict[str, int] = {"local": 0, "queue": 0}
        """Moves chosen, by where (for ``/metrics``)."""
        self.parts: dict[str, int] = {"local": 0, "queue": 0, "hints": 0}
        """Parts of post-game analyses made, by where, and the coach's hints (``/metrics``)."""

    @property
    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # quiet on Ctrl-C, and dead with this process even if it is killed (bot_process)
            self._pool = ProcessPoolExecutor(
                self.processes, mp_context=BotProcessContext(),
                initializer=start_bot_process, initargs=(os.getpid(),),
            )
        return self._pool

    async def warm(self) -> None:
        """Start the processes and import the games before the first move is asked."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(
            *(loop.run_in_executor(self.pool, _warm) for _ in range(self.processes))
        )

    async def choose(
        self, game: str, level: str, seed: int, view: JSON, seat: int, seconds: float,
        owner: Hashable = None,
    ) -> Any:
        """The bot's move, once a process is free for ``owner`` (the account whose table it
        is; None for moves nobody owns): in turn with other owners' moves."""
        found = await self._run(partial(choose, game, level, seed, view, seat, seconds), owner)
        self.answered["local"] += 1
        return found

    async def analyse_part(self, record: JSON, start: int, stop: int, budget: int, seed: int,
                           owner: Hashable = None) -> JSON:
        """Part of a post-game analysis (``analyse_part``), in turn with the bots' moves."""
        found: JSON = await self._run(
            partial(analyse_part, record, start, stop, budget, seed), owner)
        self.parts["local"] += 1
        return found

    async def hint(self, game: str, view: JSON, seat: int, players: int, ply: int,
                   budget: int, owner: Hashable = None) -> JSON:
        """The coach's move (``hint``), in turn with the bots' moves; always in this
        process's pool, which the asker waits on."""
        found: JSON = await self._run(partial(hint, game, view, seat, players, ply, budget),
                                      owner)
        self.parts["hints"] += 1
        return found

    async def retry_value(self, record: JSON, ply: int, action: JSON, budget: int, seed: int,
                          owner: Hashable = None) -> float:
        """A retried move's value (``retry_value``), in turn with the bots' moves; in this
        process's pool, which the asker waits on, as for hints."""
        found: float = await self._run(partial(retry_value, record, ply, action, budget, seed),
                                       owner)
        return found

    async def _run(self, job: Callable[[], Any], owner: Hashable) -> Any:
        loop = asyncio.get_running_loop()
        await self.turns.acquire(owner)
        try:
            try:
                return await loop.run_in_executor(self.pool, job)
            except BrokenProcessPool:
                # a worker died (killed, out of memory): start a fresh pool and ask once more
                self.close()
                return await loop.run_in_executor(self.pool, job)
        finally:
            self.turns.release()

    def close(self, wait: bool = False) -> None:
        """Stop the pool (``wait``: until its processes have exited, so none outlives the
        server)."""
        if self._pool is not None:
            self._pool.shutdown(wait=wait, cancel_futures=True)
            self._pool = None
