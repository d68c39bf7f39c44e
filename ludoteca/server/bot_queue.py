"""Bot moves and parts of post-game analyses through Redis (``LUDOTECA_BOTS=queue``): the web
processes' side (``QueuedBots``) and the ``ludoteca worker`` command that answers them on any
machine."""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Hashable
from typing import Any, TypeVar

from redis.asyncio import Redis

from ludoteca.engine.game import JSON
from ludoteca.server.bot_pool import BotWorkers
from ludoteca.server.redis_link import connect, process_name

log = logging.getLogger("ludoteca.bots")
T = TypeVar("T")
JOBS = "ludoteca:bots:jobs"
WORKERS = "ludoteca:bots:workers"
"""A sorted set: each worker's name, scored by when it last said it was alive."""
ALIVE = 10.0
"""Seconds a worker's last heartbeat counts for."""
PART_SECONDS = 600
"""Longest wait for a worker's part of an analysis before this process makes it itself."""


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
        self, game: str, level: str, seed: int, view: JSON, seat: int, seconds: float,
        owner: Hashable = None,
    ) -> Any:
        job = {"game": game, "level": level, "seed": seed, "view": view, "seat": seat,
               "seconds": seconds}
        answer = await self._by_worker(job, "action", seconds + 10, "chooses")
        if answer is not None:
            self.answered["queue"] += 1
            return answer
        return await super().choose(game, level, seed, view, seat, seconds, owner)

    async def analyse_part(self, record: JSON, start: int, stop: int, budget: int, seed: int,
                           owner: Hashable = None) -> JSON:
        """Part of a post-game analysis, by a worker when one is alive (else here)."""
        job = {"kind": "analysis", "record": record, "start": start, "stop": stop,
               "budget": budget, "seed": seed}
        answer = await self._by_worker(job, "part", PART_SECONDS, "analyses")
        if answer is not None:
            self.parts["queue"] += 1
            found: JSON = answer
            return found
        return await super().analyse_part(record, start, stop, budget, seed, owner)

    async def _by_worker(self, job: JSON, key: str, timeout: float, here: str) -> Any:
        """A worker's answer to ``job`` (its ``key``), or None when no worker is alive,
        Redis cannot be reached or nobody answers within ``timeout``: then this process
        does the work itself (``here`` says what it does, in the log)."""
        if not await self._workers_alive():
            return None
        reply = f"ludoteca:bots:reply:{secrets.token_hex(8)}"
        try:
            await _done(self.redis.lpush(JOBS, json.dumps({**job, "reply": reply})))
            got = await _done(self.redis.blpop([reply], timeout=timeout))
        except Exception as exc:
            log.warning("bot queue unreachable (%s): this process %s", exc, here)
            return None
        if got is None:
            log.warning("no worker answered in %.0f s: this process %s", timeout, here)
            return None
        answer = json.loads(got[1])
        if key not in answer:
            raise RuntimeError(f"the worker failed: {answer.get('error')}")
        return answer[key]


async def _done(result: Awaitable[T] | T) -> T:
    """redis-py's commands are typed for its blocking and asyncio clients at once."""
    if inspect.isawaitable(result):
        return await result
    return result


async def work(redis_url: str, processes: int = 0, stop: asyncio.Event | None = None) -> None:
    """``ludoteca worker``: take bot jobs from Redis, as many at once as there are
    processes, until ``stop`` is set (the jobs in hand are finished first)."""
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
                if job.get("kind") == "analysis":
                    reply: JSON = {"part": await pool.analyse_part(
                        job["record"], int(job["start"]), int(job["stop"]), int(job["budget"]),
                        int(job["seed"]))}
                else:
                    action = await pool.choose(job["game"], job["level"], int(job["seed"]),
                                               job["view"], int(job["seat"]),
                                               float(job["seconds"]))
                    reply = {"action": action}
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
