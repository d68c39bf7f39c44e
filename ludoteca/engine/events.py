"""Events: what an applied action did, as each viewer may know it (DESIGN.md §2).

A game narrates an action from the states before and after it (``Game.narrate``). Each event
is JSON-ready data with a ``type``; an event that names something hidden carries a public form
for everybody and a fuller private form for the seats that may know more. For example, a Kami
face-down lead is ``{"type": "lead", "seat": 1, "attack": "tower"}`` for the table and adds
``"card": "gold"`` only for seat 1. ``for_viewer`` picks each viewer's form; a viewer's events
never say more than that viewer's next view allows (tests/engine/test_leaks.py).

Events are built only by the match driver's narrated path: search and playouts use
``apply_legal`` and never pay for them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

Seat = int
JSON = dict[str, Any]

@dataclass(frozen=True, slots=True)
class Event:
    """One event. ``public`` is what every viewer is told (None: others are told nothing);
    ``private[seat]`` replaces it for that seat."""

    public: JSON | None
    private: Mapping[Seat, JSON] | None = None

    def for_viewer(self, viewer: Seat | None) -> JSON | None:
        if viewer is not None and self.private is not None:
            mine = self.private.get(viewer)
            if mine is not None:
                return mine
        return self.public


def event(type_: str, **fields: Any) -> Event:
    """An event every viewer sees the same way."""
    return Event({"type": type_, **fields})


def secret(type_: str, owners: Iterable[Seat], hidden: Mapping[str, Any], **fields: Any) -> Event:
    """An event whose ``hidden`` fields only ``owners`` may see; the others get the rest."""
    public = {"type": type_, **fields}
    full = {**public, **hidden}
    return Event(public, {s: full for s in owners})


def only(type_: str, owners: Iterable[Seat], **fields: Any) -> Event:
    """An event that only ``owners`` are told about."""
    data = {"type": type_, **fields}
    return Event(None, {s: data for s in owners})


def for_viewer(events: Iterable[Event], viewer: Seat | None) -> list[JSON]:
    """The events as ``viewer`` (a seat, or None for a spectator) may know them, in order.
    Each is the viewer's own copy: one viewer's rendering never shows up in another's."""
    out = []
    for e in events:
        data = e.for_viewer(viewer)
        if data is not None:
            out.append(dict(data))
    return out
