"""A player's numbers per game, read from the ``results`` and ``result_seats`` rows (never
from the tables' JSON): matches, wins, mean and best score, the all-time rating after each
rated match (the chart on the player's page) and the options they play most."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ludoteca.engine.game import JSON
from ludoteca.rating_scale import shown
from ludoteca.server.db import Analysis, Result, ResultSeat, Table
from ludoteca.server.pools import ALL
from ludoteca.server.result_rows import participant
from ludoteca.server.table.state import stamp

FAVOURITES = 3
"""Option sets shown per game, most played first."""


async def player_stats(sessions: async_sessionmaker[AsyncSession], user_id: int,
                       private: bool) -> list[JSON]:
    """Per game (by most matches): ``matches``, ``wins`` (rank 1, shared or not), ``mean_score``,
    ``best_score``, ``rating`` (``[finished_at, rating]`` after each match the all-time pool
    took in, oldest first) and ``favourite_options`` (``{options, matches}``). Private
    tables count only on the player's own page (``private``)."""
    me = participant(user_id, None)
    query = (select(Result.game, Result.options, Result.finished_at, Result.changes,
                    ResultSeat.rank, ResultSeat.score)
             .join(ResultSeat, ResultSeat.table_id == Result.table_id)
             .join(Table, Table.id == Result.table_id)
             .where(ResultSeat.participant == me).order_by(Result.id))
    if not private:
        query = query.where(Table.private.is_(False))
    async with sessions() as db:
        rows = (await db.execute(query)).all()
    games: dict[str, dict[str, Any]] = {}
    for game, options, finished_at, changes, rank, score in rows:
        one = games.setdefault(game, {"game": game, "matches": 0, "wins": 0, "scores": [],
                                      "rating": [], "options": Counter()})
        one["matches"] += 1
        one["wins"] += rank == 1
        one["scores"].append(score)
        one["options"][json.dumps(options or {}, sort_keys=True)] += 1
        after = ((changes or {}).get(ALL) or {}).get(me)
        if after is not None:
            one["rating"].append([stamp(finished_at), shown(after[2])])
    out = []
    for one in sorted(games.values(), key=lambda g: (-g["matches"], g["game"])):
        scores = one.pop("scores")
        counted: Counter[str] = one.pop("options")
        out.append({
            **one, "mean_score": round(sum(scores) / len(scores), 2),
            "best_score": max(scores),
            "favourite_options": [{"options": json.loads(key), "matches": n}
                                  for key, n in sorted(counted.items(),
                                                       key=lambda kv: (-kv[1], kv[0]))
                                  [:FAVOURITES]],
        })
    return out


async def analysed(sessions: async_sessionmaker[AsyncSession], table_ids: list[str]
                   ) -> set[str]:
    """Which of the tables have a finished analysis (the page links to it)."""
    if not table_ids:
        return set()
    async with sessions() as db:
        found = await db.execute(select(Analysis.table_id).where(
            Analysis.table_id.in_(table_ids), Analysis.status == "done"))
        return set(found.scalars())
