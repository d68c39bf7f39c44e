"""Seasons: the stretches of time whose rated matches make a season's rating pool.

By default a season is a calendar quarter in UTC (``2026Q4``: October to December 2026). An
operator may name their own with ``LUDOTECA_SEASONS`` (docs/server.md): each season runs from
its start to the next one's, the last until another is added; a match before the first start
belongs to no season (it still counts all-time). A match's season is decided once, when it is
rated, and kept with its result, so a season's standings stay as they ended whatever the
setting says later.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

SEASON_NAME = re.compile(r"[A-Za-z0-9_-]{1,16}")
QUARTER = re.compile(r"(\d{4})Q([1-4])")


@dataclass(frozen=True)
class Season:
    id: str
    start: datetime | None
    """None: a season no longer in the settings (its standings stay)."""
    end: datetime | None
    """None: it runs until another starts."""

    @property
    def pool(self) -> str:
        return f"season:{self.id}"

    def to_json(self) -> dict[str, str | None]:
        return {"id": self.id, "pool": self.pool,
                "start": _stamp(self.start), "end": _stamp(self.end)}


def _stamp(when: datetime | None) -> str | None:
    return when.isoformat(timespec="seconds") if when is not None else None


def quarter(when: datetime) -> Season:
    """The calendar quarter (UTC) ``when`` falls in."""
    when = when.astimezone(UTC)
    index = (when.month - 1) // 3
    start = datetime(when.year, 3 * index + 1, 1, tzinfo=UTC)
    end = (datetime(when.year + 1, 1, 1, tzinfo=UTC) if index == 3
           else datetime(when.year, 3 * index + 4, 1, tzinfo=UTC))
    return Season(f"{when.year}Q{index + 1}", start, end)


@dataclass(frozen=True)
class Seasons:
    starts: tuple[tuple[str, datetime], ...] = ()
    """The operator's seasons, ``(name, start)`` in order; empty: calendar quarters."""

    def of(self, when: datetime) -> Season | None:
        """The season a match that ended at ``when`` counts in (None: before the first)."""
        if not self.starts:
            return quarter(when)
        found: Season | None = None
        for index, (name, start) in enumerate(self.starts):
            if start <= when:
                following = self.starts[index + 1][1] if index + 1 < len(self.starts) else None
                found = Season(name, start, following)
        return found

    def named(self, season_id: str) -> Season:
        """The season called ``season_id``, with its dates where the settings still say them."""
        if not self.starts:
            found = QUARTER.fullmatch(season_id)
            if found:
                return quarter(datetime(int(found[1]), 3 * int(found[2]) - 2, 1, tzinfo=UTC))
        for index, (name, start) in enumerate(self.starts):
            if name == season_id:
                following = self.starts[index + 1][1] if index + 1 < len(self.starts) else None
                return Season(name, start, following)
        return Season(season_id, None, None)
