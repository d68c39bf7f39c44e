"""OpenSkill ratings per game: only rated matches with people in every seat and no seat a bot
took over. Partners (4-player Kami and Goita, Queendomino teams) are rated as one team."""

from __future__ import annotations

from typing import Any

from openskill.models import PlackettLuce

from ludoteca.server.db import Rating, Seat, Table
from ludoteca.server.store import Store

MODEL = PlackettLuce()


def teams(result: dict[str, Any], players: int) -> list[list[int]]:
    """Seats grouped by side, as the outcome says (``Outcome.teams``); a result stored before
    outcomes named their teams has one seat per side."""
    stored = result.get("teams")
    if stored:
        return [[int(seat) for seat in side] for side in stored]
    return [[seat] for seat in range(players)]


def rateable(table: Table, seats: list[Seat]) -> bool:
    return (
        table.rated and not table.zombie and table.result is not None
        and all(s.user_id is not None and s.bot is None and not s.zombie for s in seats)
        and len({s.user_id for s in seats}) == len(seats)
    )


async def rate(store: Store, table: Table, seats: list[Seat]) -> dict[int, tuple[float, float]]:
    """Update the ratings of a finished match; per user, (old, new) display ratings."""
    if not rateable(table, seats):
        return {}
    assert table.result is not None
    users = {s.seat: s.user_id for s in seats if s.user_id is not None}
    known = await store.ratings(list(users.values()), table.game)
    sides = teams(table.result, table.players)
    ranks = [float(table.result["ranks"][side[0]]) for side in sides]
    current = {
        seat: (
            MODEL.rating(mu=known[uid].mu, sigma=known[uid].sigma) if uid in known
            else MODEL.rating()
        )
        for seat, uid in users.items()
    }
    rated = MODEL.rate([[current[s] for s in side] for side in sides], ranks=ranks)
    changes: dict[int, tuple[float, float]] = {}
    rows = []
    for side, new_side in zip(sides, rated, strict=True):
        for seat, new in zip(side, new_side, strict=True):
            uid = users[seat]
            old = current[seat]
            games = known[uid].games if uid in known else 0
            rows.append(Rating(user_id=uid, game=table.game, mu=new.mu, sigma=new.sigma,
                               games=games + 1))
            changes[uid] = (display(old.mu, old.sigma), display(new.mu, new.sigma))
    await store.save_ratings(rows)
    return changes


def display(mu: float, sigma: float) -> float:
    """The conservative rating shown in leaderboards: mu - 3 sigma, scaled to start near 0."""
    return round(mu - 3 * sigma, 2)
