"""Ratings at the end of a match: the finished match's result row is taken into its rating
pools (``pools.py``), and the end screen is told each person's change on the one shown scale
(``rating_scale``): all-time for a match of people, the bots pool for one against bots."""

from __future__ import annotations

from ludoteca.rating_scale import shown
from ludoteca.server.db import Seat, Table
from ludoteca.server.pools import ALL, BOTS
from ludoteca.server.result_rows import user_of
from ludoteca.server.store import Store


async def rate(store: Store, table: Table, seats: list[Seat]) -> dict[int, tuple[float, float]]:
    """Take the finished match into its pools; per user, (old, new) shown ratings. Empty when
    it counts nowhere (unrated, a seat taken over, a bot with no ladder rating)."""
    if table.status != "finished" or table.result is None or not table.rated or table.zombie:
        return {}
    changes = await store.take_in(table.game, table.id)
    pool = next((p for p in (ALL, BOTS) if p in changes), None)
    if pool is None:
        return {}
    return {uid: (shown(values[0]), shown(values[2]))
            for name, values in changes[pool].items() if (uid := user_of(name)) is not None}
