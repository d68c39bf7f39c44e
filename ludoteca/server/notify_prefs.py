"""What a player chose to be told, and how: per event and channel, quiet hours in their own
time zone. The stored choices are only those changed from ``DEFAULTS``."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from ludoteca.server import errors as E
from ludoteca.server.db import User
from ludoteca.server.errors import ServerError

EVENTS = ("turn", "finished", "rematch", "tournament_table", "challenge")
CHANNELS = ("page", "email", "push", "webhook")
DEFAULTS: dict[str, dict[str, bool]] = {
    "turn": {"page": True, "email": True, "push": True, "webhook": True},
    "finished": {"page": True, "email": False, "push": False, "webhook": False},
    "rematch": {"page": True, "email": True, "push": True, "webhook": False},
    "tournament_table": {"page": True, "email": True, "push": True, "webhook": False},
    "challenge": {"page": True, "email": True, "push": True, "webhook": False},
}
"""The webhook hears turns only unless asked, as before there were choices. ``challenge`` is a
challenge received (one made, answered or ended reaches the page alone). Push reaches only
the browsers a player subscribed (``push_subscriptions``): on by default, as email is."""
_TIME = re.compile(r"([01]\d|2[0-3]):([0-5]\d)")


def prefs_of(user: User) -> dict[str, dict[str, bool]]:
    stored: dict[str, Any] = user.notify or {}
    out: dict[str, dict[str, bool]] = {}
    for event in EVENTS:
        mine = stored.get(event) or {}
        out[event] = {c: bool(mine.get(c, DEFAULTS[event][c])) for c in CHANNELS}
    return out


def wants(user: User, event: str, channel: str) -> bool:
    return prefs_of(user)[event][channel]


def check_prefs(given: dict[str, dict[str, bool]]) -> dict[str, dict[str, bool]]:
    """The player's choices, every event and channel named ones we have."""
    for event, channels in given.items():
        if event not in EVENTS:
            _unknown(event)
        for channel in channels:
            if channel not in CHANNELS:
                _unknown(f"{event}.{channel}")
    return given


def _unknown(item: str) -> None:
    raise ServerError("bad_notification", E.BAD_NOTIFY, 422, item=item[:40],
                      events=", ".join(EVENTS), channels=", ".join(CHANNELS))


def merged(user: User, given: dict[str, dict[str, bool]]) -> dict[str, dict[str, bool]]:
    """Stored choices after ``given``: only what differs from the defaults is kept."""
    current = prefs_of(user)
    for event, channels in given.items():
        current[event].update(channels)
    return {e: {c: v for c, v in ch.items() if v != DEFAULTS[e][c]}
            for e, ch in current.items() if any(v != DEFAULTS[e][c] for c, v in ch.items())}


def check_zone(zone: str) -> str:
    if zone != "UTC" and (len(zone) > 64 or zone not in _zones()):
        raise ServerError("bad_time_zone", E.BAD_TIME_ZONE, 422, zone=zone[:64])
    return zone


_ZONES: set[str] = set()


def _zones() -> set[str]:
    if not _ZONES:
        _ZONES.update(available_timezones())
    return _ZONES


def minutes(raw: str | None) -> int | None:
    """``"22:30"`` as 1350 minutes after midnight."""
    if raw is None:
        return None
    found = _TIME.fullmatch(raw)
    if found is None:
        raise ServerError("bad_quiet_hours", E.BAD_QUIET, 422)
    return int(found[1]) * 60 + int(found[2])


def clock(value: int | None) -> str | None:
    return None if value is None else f"{value // 60:02d}:{value % 60:02d}"


def quiet_until(user: User, now: datetime) -> datetime | None:
    """The end of the player's quiet hours if ``now`` falls in them (in their zone), else
    None. ``22:00``-``08:00`` spans midnight; equal start and end mean no quiet hours."""
    start, end = user.quiet_start, user.quiet_end
    if start is None or end is None or start == end:
        return None
    try:
        zone = ZoneInfo(user.time_zone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    local = now.astimezone(zone)
    at = local.hour * 60 + local.minute
    inside = start <= at < end if start < end else (at >= start or at < end)
    if not inside:
        return None
    midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
    ends = midnight + timedelta(minutes=end)
    if ends <= local:
        ends += timedelta(days=1)
    return ends
