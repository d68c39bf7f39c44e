"""Post-game analyses asked for in the arena: each made part by part (``analysis.PART`` moves
at a time) in the bot processes (``ludoteca worker`` with several processes), in turn with the
bots' moves, never on the event loop. Progress and the parts made so far are written to the
store after every part, so a server that dies goes on where it stopped when it or another
process is asked again (or, one process alone, when it starts)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from ludoteca.analysis.analyse import PART, VERSION, Analyst
from ludoteca.engine.game import JSON
from ludoteca.engine.i18n import Voice
from ludoteca.engine.record import MatchRecord
from ludoteca.games import entry
from ludoteca.server import errors as E
from ludoteca.server.bot_pool import BotWorkers
from ludoteca.server.db import Analysis, utcnow
from ludoteca.server.errors import ServerError
from ludoteca.server.store import Store

log = logging.getLogger("ludoteca.server")
STALE = timedelta(minutes=2)
"""A running analysis nobody wrote to for this long lost its process: another may take it."""
SEED = 0
"""Every arena analysis uses this seed: the same match always reads the same."""


Records = Callable[[str], Awaitable[MatchRecord | None]]
"""A finished table's match record by table id (None if it has none)."""


def state_of(row: Analysis | None, say: Voice) -> JSON:
    """What the API says of an analysis (docs/protocol.md, "Post-game analysis"), a failure
    in the asker's language (the row keeps its message id; the error itself is only logged)."""
    if row is None:
        return {"status": "none"}
    out: JSON = {"status": row.status, "done": row.done, "total": row.total,
                 "budget": row.budget, "seed": row.seed}
    if row.status == "done":
        out["analysis"] = row.result
    elif row.status == "failed":
        out["error"] = say.t((row.result or {}).get("error") or E.ANALYSIS_FAILED)
    return out


class AnalysisJobs:
    def __init__(self, store: Store, bots: BotWorkers, records: Records, budget: int = 0) -> None:
        self.store = store
        self.bots = bots
        self.records = records
        self.budget = budget
        """Playouts per candidate move (``LUDOTECA_ANALYSIS_BUDGET``); 0: each game's own."""
        self.running: dict[str, asyncio.Task[None]] = {}

    def budget_for(self, game: str, players: int) -> int:
        return self.budget or entry(game).search_profile().budget_for(players)

    async def request(self, table_id: str, record: MatchRecord, user_id: int | None,
                      say: Voice) -> JSON:
        """Start the table's analysis unless it has one; its state either way."""
        total = len(record.actions)
        if user_id is not None and await self.store.analyses.get(table_id) is None \
                and await self.store.analyses.running_for(user_id) >= 1:
            raise ServerError("too_many_analyses", E.TOO_MANY_ANALYSES, 429)
        budget = self.budget_for(record.game, record.players)
        if await self.store.analyses.start(table_id, total, budget, SEED, user_id) \
                or await self.store.analyses.retry(table_id):
            self._launch(table_id, record, user_id)
        else:
            await self._revive(table_id)
        return state_of(await self.store.analyses.get(table_id), say)

    async def state(self, table_id: str, say: Voice) -> JSON:
        await self._revive(table_id)
        return state_of(await self.store.analyses.get(table_id), say)

    async def resume(self) -> int:
        """One process alone, at start: go on with the analyses a stop left unfinished."""
        resumed = 0
        for table_id in await self.store.analyses.unfinished(utcnow() + STALE):
            resumed += await self._revive(table_id, stale_before=utcnow() + STALE)
        return resumed

    async def _revive(self, table_id: str, stale_before: Any = None) -> bool:
        """Take over an analysis whose process stopped writing to it."""
        if table_id in self.running:
            return False
        row = await self.store.analyses.get(table_id)
        if row is None or row.status != "running":
            return False
        if not await self.store.analyses.claim(table_id, stale_before or utcnow() - STALE):
            return False
        record = await self.records(table_id)
        if record is None:
            await self.store.analyses.fail(table_id, E.ANALYSIS_GONE)
            return False
        self._launch(table_id, record, row.requested_by)
        return True

    def _launch(self, table_id: str, record: MatchRecord, user_id: int | None) -> None:
        task = asyncio.get_running_loop().create_task(
            self._make(table_id, record, user_id), name=f"analysis {table_id}")
        self.running[table_id] = task
        task.add_done_callback(lambda _t: self.running.pop(table_id, None))

    async def _make(self, table_id: str, record: MatchRecord, user_id: int | None) -> None:
        analyses = self.store.analyses
        try:
            row = await analyses.get(table_id)
            if row is None:  # the table was deleted meanwhile
                return
            parts = row.result or {}
            if parts.get("version") != VERSION:  # parts made by an older analysis: made again
                parts = {}
            moves: list[JSON] = list(parts.get("moves", []))
            luck: list[JSON] = list(parts.get("luck", []))
            total, budget, seed = row.total, row.budget, row.seed
            data = record.to_json()
            owner = ("analysis", user_id)  # in turn with everyone's bots (bot_fairness.py)
            for start in range(len(moves), total, PART):
                part = await self.bots.analyse_part(data, start, min(total, start + PART),
                                                    budget, seed, owner)
                moves += part["moves"]
                luck += part["luck"]
                await analyses.progress(table_id, len(moves),
                                        {"version": VERSION, "moves": moves, "luck": luck})
            result = await asyncio.to_thread(_report, record, budget, seed, moves, luck)
            await analyses.finish(table_id, result)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("an analysis failed", extra={"table": table_id})
            await analyses.fail(table_id, E.ANALYSIS_FAILED)

    async def stop(self) -> None:
        tasks = list(self.running.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _report(record: MatchRecord, budget: int, seed: int, moves: list[JSON],
            luck: list[JSON]) -> JSON:
    analyst = Analyst(record, budget, seed)
    return analyst.report(moves, luck, analyst.finished())
