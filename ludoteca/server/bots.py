"""The server's bot workers: processes that choose bot moves, never the event loop.

A move is asked for with what the seat may know (its view), so a worker holds no table state:
any worker can answer any table, and a restarted server loses nothing. Bots are built per
move from a seed derived from the table, so a table's bot play is repeatable.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import os
import secrets
import time
from collections.abc import Awaitable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from multiprocessing import get_context
from typing import TYPE_CHECKING, Any, TypeVar

from ludoteca.bots import SEARCH_SECONDS, make_bot
from ludoteca.bots.pool import start_method
from ludoteca.engine.game import JSON

if TYPE_CHECKING:
    from redis.asyncio import Redis

    from ludoteca.server.settings import Settings

log = logging.getLogger("ludoteca.bots")
T = TypeVar("T")
JOBS = "ludoteca:bots:jobs"
WORKERS = "ludoteca:bots:workers"
"""A sorted set: each worker's name, scored by when it last said it was alive."""
ALIVE = 10.0
"""Seconds a worker's last heartbeat counts for."""

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


def budget(level: str) -> float:
    return SEARCH_SECONDS.get(level, 0.05)


def _warm() -> int:
    from ludoteca.games import all_games

    return len(all_games())


class BotWorkers:
    """A process pool the server owns; ``choose`` awaits a move without blocking the loop."""

    def __init__(self, processes: int = 0) -> None:
        self.processes = processes or max(1, os.cpu_count() or 1)
        self._pool: ProcessPoolExecutor | None = None
        self.answered: dict[str, int] = {"local": 0, "queue": 0}
        """Moves chosen, by where (for ``/metrics``)."""

    @property
    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.processes, mp_context=get_context(start_method())
            )
        return self._pool

    async def warm(self) -> None:
        """Start the processes and import the games before the first move is asked."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(
            *(loop.run_in_executor(self.pool, _warm) for _ in range(self.processes))
        )

    async def choose(
        self, game: str, level: str, seed: int, view: JSON, seat: int, seconds: float
    ) -> Any:
        loop = asyncio.get_running_loop()
        job = partial(choose, game, level, seed, view, seat, seconds)
        try:
            found = await loop.run_in_executor(self.pool, job)
        except BrokenProcessPool:
            # a worker died (killed, out of memory): start a fresh pool and ask once more
            self.close()
            found = await loop.run_in_executor(self.pool, job)
        self.answered["local"] += 1
        return found

    def close(self, wait: bool = False) -> None:
        """Stop the pool (``wait``: until its processes have exited, so none outlives the
        server)."""
        if self._pool is not None:
            self._pool.shutdown(wait=wait, cancel_futures=True)
            self._pool = None


class QueuedBots(BotWorkers):
    """Bot moves sent through Redis to ``ludoteca worker`` processes (``LUDOTECA_BOTS=queue``),
    so bot-heavy arenas add CPU without adding web processes. While no worker is alive (or
    one does not answer in time) this process's own pool answers, so a table never waits on a
    queue nobody reads."""

    def __init__(self, redis: Redis, processes: int = 0) -> None:
        super().__init__(processes)
        self.redis = redis
        self._alive_until = 0.0
        self._warned = 0.0

    async def warm(self) -> None:
        """The local pool starts only if it is needed."""

    async def _workers_alive(self) -> bool:
        now = time.time()
        if now < self._alive_until:
            return True
        try:
            count = await self.redis.zcount(WORKERS, now - ALIVE, "+inf")
        except Exception:
            return False
        if count:
            self._alive_until = now + 2.0
        elif now - self._warned > 60:
            self._warned = now
            log.warning("no bot worker seen for %.0f s: this process chooses bot moves", ALIVE)
        return bool(count)

    async def choose(
        self, game: str, level: str, seed: int, view: JSON, seat: int, seconds: float
    ) -> Any:
        if await self._workers_alive():
            reply = f"ludoteca:bots:reply:{secrets.token_hex(8)}"
            job = {"game": game, "level": level, "seed": seed, "view": view, "seat": seat,
                   "seconds": seconds, "reply": reply}
            try:
                await _done(self.redis.lpush(JOBS, json.dumps(job)))
                got = await _done(self.redis.blpop([reply], timeout=seconds + 10))
            except Exception as exc:
                log.warning("bot queue unreachable (%s): this process chooses", exc)
            else:
                if got is not None:
                    answer = json.loads(got[1])
                    if "action" in answer:
                        self.answered["queue"] += 1
                        return answer["action"]
                    raise RuntimeError(f"the worker failed: {answer.get('error')}")
                log.warning("no worker answered in %.0f s: this process chooses", seconds + 10)
        return await super().choose(game, level, seed, view, seat, seconds)


async def _done(result: Awaitable[T] | T) -> T:
    """redis-py's commands are typed for its blocking and asyncio clients at once."""
    if inspect.isawaitable(result):
        return await result
    return result


def make_bots(settings: Settings) -> BotWorkers:
    if settings.redis_url and not settings.database_url.startswith(("postgres", "postgresql")):
        raise ValueError("several processes (LUDOTECA_REDIS_URL) need a PostgreSQL database")
    if settings.bots == "queue":
        if not settings.redis_url:
            raise ValueError("LUDOTECA_BOTS=queue needs LUDOTECA_REDIS_URL")
        from ludoteca.server.cluster import connect

        return QueuedBots(connect(settings.redis_url), settings.bot_processes)
    if settings.bots != "local":
        raise ValueError(f"LUDOTECA_BOTS must be local or queue, not {settings.bots!r}")
    return BotWorkers(settings.bot_processes)


async def work(redis_url: str, processes: int = 0, stop: asyncio.Event | None = None) -> None:
    """``ludoteca worker``: take bot jobs from Redis, as many at once as there are
    processes, until ``stop`` is set (the jobs in hand are finished first)."""
    from ludoteca.server.cluster import connect, process_name

    pool = BotWorkers(processes)
    await pool.warm()
    redis = connect(redis_url)
    name = process_name()
    stop = stop or asyncio.Event()
    slots = asyncio.Semaphore(pool.processes)
    running: set[asyncio.Task[None]] = set()

    async def heartbeat() -> None:
        while True:
            try:
                await redis.zadd(WORKERS, {name: time.time()})
                await redis.zremrangebyscore(WORKERS, "-inf", time.time() - 10 * ALIVE)
            except Exception as exc:
                log.warning("redis unreachable: %s", exc)
            await asyncio.sleep(ALIVE / 3)

    async def answer(raw: bytes) -> None:
        try:
            job = json.loads(raw)
            try:
                action = await pool.choose(job["game"], job["level"], int(job["seed"]),
                                           job["view"], int(job["seat"]), float(job["seconds"]))
                reply: JSON = {"action": action}
            except Exception as exc:
                log.exception("a bot job failed")
                reply = {"error": repr(exc)[:500]}
            await _done(redis.rpush(job["reply"], json.dumps(reply)))
            await redis.expire(job["reply"], 60)
        except Exception:
            log.exception("a bot job could not be answered")
        finally:
            slots.release()

    beating = asyncio.create_task(heartbeat())
    log.info("worker %s ready with %d processes", name, pool.processes)
    try:
        while not stop.is_set():
            await slots.acquire()
            try:
                got = await _done(redis.brpop([JOBS], timeout=1))
            except Exception as exc:
                slots.release()
                log.warning("redis unreachable: %s", exc)
                await asyncio.sleep(1)
                continue
            if got is None:
                slots.release()
                continue
            task = asyncio.create_task(answer(got[1]))
            running.add(task)
            task.add_done_callback(running.discard)
    finally:
        await asyncio.gather(*running, return_exceptions=True)
        beating.cancel()
        try:
            await redis.zrem(WORKERS, name)
        except Exception:
            log.debug("could not sign off", exc_info=True)
        await redis.aclose()
        await asyncio.to_thread(pool.close, True)
