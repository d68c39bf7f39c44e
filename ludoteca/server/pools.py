"""Rating pools: a projection of the ``results`` rows, kept per game, pool and participant.

A rated match of people counts in ``all`` and in its season's pool (``season:2026Q4``); a
rated match of people against bots counts only in ``bots``, where the bots' ratings are the
shipped ladder's anchors and never move. Results are taken in in ``id`` order, each once
(``take_in``), and ``recompute`` replays a pool from the results alone, giving exactly the
same rows. docs/ratings.md says it in words.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Connection, Index, Select, delete, insert, select, text, update

from ludoteca.bots import identity
from ludoteca.ladder import ladder
from ludoteca.server.db import PoolRating, Result, ResultSeat, User, utcnow
from ludoteca.server.result_rows import user_of
from ludoteca.server.seasons import Seasons

MODEL = PlackettLuce()
ALL = "all"
BOTS = "bots"
LOCK = 0x52617465
"""PostgreSQL advisory lock class: one game's results are taken in one transaction at a time
(with the game's hash as the second key), so no result is counted twice or out of order."""

Rating = tuple[float, float]
"""``(mu, sigma)``."""
Changes = dict[str, dict[str, list[float]]]
WAITING = Index("ix_results_waiting", Result.game, Result.rated, Result.id,
                sqlite_where=Result.rated_at.is_(None), postgresql_where=Result.rated_at.is_(None))
"""The results not yet taken in (migration 0011): each match's take-in finds them without
reading every result of its game (13 ms at 100,000 results on SQLite, 0.01 ms with it)."""
"""Per pool and participant ``[mu, sigma, new mu, new sigma]`` (``Result.changes``)."""


@dataclass(frozen=True)
class PoolRules:
    """Which pools a result counts in, and the bots' anchors: the operator's seasons and,
    for tests and an operator's own calibration, a folder of ladders."""

    seasons: Seasons = field(default_factory=Seasons)
    ladder_dir: Path | None = None

    def anchor(self, game: str, players: int, participant: str) -> Rating | None:
        """A bot's fixed rating: its level's rung on the game's ladder for this player count,
        calibrated with today's bots; None where there is none (the match is not rated)."""
        level = participant.removeprefix("bot:").split("@", 1)[0]
        found = ladder(game, self.ladder_dir)
        if found is None or found.players != players:
            return None
        rung = found.rung(level)
        return (rung.mu, rung.sigma) if rung is not None and rung.identity == participant else None

    def rated_with_bots(self, game: str, players: int, levels: Iterable[str]) -> bool:
        """Every bot level named has an anchor: a rated table with them counts in ``bots``."""
        return all(self.anchor(game, players, identity(level)) is not None for level in levels)

    def pools(self, game: str, players: int, finished_at: datetime,
              participants: Sequence[str]) -> list[str]:
        """The pools a rated result counts in: people only (each once) in ``all`` and its
        season; people and anchored bots in ``bots``; anything else nowhere."""
        people = [p for p in participants if user_of(p) is not None]
        if not people or len(set(people)) != len(people):
            return []
        if len(people) == len(participants):
            season = self.seasons.of(finished_at)
            return [ALL] if season is None else [ALL, season.pool]
        if all(self.anchor(game, players, p) is not None
               for p in participants if user_of(p) is None):
            return [BOTS]
        return []


def rate_sides(sides: Sequence[Sequence[Rating]], ranks: Sequence[int]) -> list[list[Rating]]:
    """OpenSkill Plackett-Luce over the sides (partners as one team), lower rank better."""
    rated = MODEL.rate([[MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in side]
                        for side in sides], ranks=[float(r) for r in ranks])
    return [[(new.mu, new.sigma) for new in side] for side in rated]


def sides_of(seats: Sequence[Any]) -> tuple[list[list[str]], list[int]]:
    """The participants of each side, in side order, and each side's rank."""
    by_side: dict[int, list[Any]] = {}
    for seat in sorted(seats, key=lambda s: s.seat):
        by_side.setdefault(seat.side, []).append(seat)
    order = sorted(by_side)
    return ([[s.participant for s in by_side[i]] for i in order],
            [by_side[i][0].rank for i in order])


def one_match(known: dict[str, Rating], fixed: dict[str, Rating], seats: Sequence[Any]
              ) -> dict[str, list[float]]:
    """One result in one pool: each participant's ``[mu, sigma, new mu, new sigma]``; people
    start from ``known`` (else a new player's rating), bots stay at ``fixed``."""
    sides, ranks = sides_of(seats)
    default = (MODEL.rating().mu, MODEL.rating().sigma)
    before = {p: fixed.get(p) or known.get(p) or default for side in sides for p in side}
    after = rate_sides([[before[p] for p in side] for side in sides], ranks)
    out: dict[str, list[float]] = {}
    for side, new_side in zip(sides, after, strict=True):
        for name, new in zip(side, new_side, strict=True):
            kept = before[name] if name in fixed else new  # a bot's rating never moves
            out[name] = [*before[name], *kept]
    return out


# ---- the projection, one transaction at a time (called through ``Store.write``) -----------------
def waiting(game: str) -> Select[Result]:
    """The rated results of ``game`` not yet taken in, in ``id`` order (by ``WAITING``)."""
    return select(Result).where(
        Result.game == game, Result.rated, Result.rated_at.is_(None)).order_by(Result.id)


def take_in(conn: Connection, rules: PoolRules, game: str) -> None:
    """Count every rated result of ``game`` not yet taken in, in ``id`` order."""
    _lock(conn, game)
    pending = conn.execute(waiting(game)).all()
    now = utcnow()
    for result in pending:
        seats = _seats(conn, [result.table_id])[result.table_id]
        names = [s.participant for s in seats]
        pools = rules.pools(game, result.players, result.finished_at, names)
        gone = _deleted(conn, names)
        changes: Changes = {}
        for pool in pools:
            fixed = {p: anchor for p in names if user_of(p) is None
                     and (anchor := rules.anchor(game, result.players, p)) is not None}
            rows = _rows(conn, game, pool, [p for p in names if p not in fixed])
            known = {p: (row.mu, row.sigma) for p, row in rows.items()}
            changes[pool] = one_match(known, fixed, seats)
            _save(conn, game, pool, {
                p: (v[2], v[3], rows[p].games + 1 if p in rows else 1)
                for p, v in changes[pool].items() if p not in fixed and p not in gone})
        conn.execute(update(Result).where(Result.id == result.id).values(
            rated_at=now, pools=pools, changes=changes))


def recompute(conn: Connection, game: str, pool: str) -> int:
    """Rebuild the pool from the results alone (each counted where it was counted, bots at the
    anchors they had); how many results it replayed."""
    _lock(conn, game)
    counted = [r for r in conn.execute(select(Result).where(
        Result.game == game, Result.rated_at.is_not(None)).order_by(Result.id)).all()
        if pool in (r.pools or [])]
    seats = _seats(conn, [r.table_id for r in counted])
    state: dict[str, tuple[float, float, int]] = {}
    for result in counted:
        stored = (result.changes or {}).get(pool, {})
        fixed = {p: (v[0], v[1]) for p, v in stored.items() if user_of(p) is None}
        known = {p: (mu, sigma) for p, (mu, sigma, _) in state.items()}
        for name, values in one_match(known, fixed, seats[result.table_id]).items():
            if name not in fixed:
                state[name] = (values[2], values[3], state[name][2] + 1 if name in state else 1)
    conn.execute(delete(PoolRating).where(PoolRating.game == game, PoolRating.pool == pool))
    gone = _deleted(conn, list(state))
    _save(conn, game, pool, {p: v for p, v in state.items() if p not in gone})
    return len(counted)


def _lock(conn: Connection, game: str) -> None:
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:cls, hashtext(:game))"),
                     {"cls": LOCK, "game": game})


def _seats(conn: Connection, table_ids: Sequence[str]) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {t: [] for t in table_ids}
    for chunk in range(0, len(table_ids), 500):
        for row in conn.execute(select(ResultSeat).where(
                ResultSeat.table_id.in_(table_ids[chunk:chunk + 500])).order_by(
                ResultSeat.table_id, ResultSeat.seat)).all():
            out[row.table_id].append(row)
    return out


def _rows(conn: Connection, game: str, pool: str, names: Sequence[str]) -> dict[str, Any]:
    found = conn.execute(select(PoolRating).where(
        PoolRating.game == game, PoolRating.pool == pool,
        PoolRating.participant.in_(list(names)))).all()
    return {row.participant: row for row in found}


def _deleted(conn: Connection, names: Sequence[str]) -> set[str]:
    """The participants whose accounts were deleted: they keep no rating (their opponents'
    ratings still count the matches they played)."""
    ids = [uid for name in names if (uid := user_of(name)) is not None]
    if not ids:
        return set()
    found = conn.execute(select(User.id).where(User.id.in_(ids), User.deleted_at.is_not(None)))
    return {f"user:{uid}" for uid in found.scalars()}


def _save(conn: Connection, game: str, pool: str,
          ratings: dict[str, tuple[float, float, int]]) -> None:
    if not ratings:
        return
    have = set(_rows(conn, game, pool, list(ratings)))
    key = (PoolRating.game == game, PoolRating.pool == pool)
    for name, (mu, sigma, games) in ratings.items():
        if name in have:
            conn.execute(update(PoolRating).where(*key, PoolRating.participant == name)
                         .values(mu=mu, sigma=sigma, games=games))
    new = [{"game": game, "pool": pool, "participant": name, "user_id": user_of(name),
            "mu": mu, "sigma": sigma, "games": games}
           for name, (mu, sigma, games) in ratings.items() if name not in have]
    if new:
        conn.execute(insert(PoolRating), new)
