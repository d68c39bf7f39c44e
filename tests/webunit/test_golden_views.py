"""The golden views the renderers' Node tests draw (``golden/*.json``) are what the server's view
builder makes now: a change in a game's view shows up as a failure here, to be accepted with
``make golden-views`` (then ``make snapshots`` redraws the renderers from the new views)."""

from __future__ import annotations

from tests.webunit.golden import GOLDEN, files


def test_golden_views_are_up_to_date() -> None:
    made = files()
    stored = {p.name: p.read_text(encoding="utf-8") for p in GOLDEN.glob("*.json")}
    assert sorted(stored) == sorted(made), "golden views added or removed: make golden-views"
    stale = [name for name, text in made.items() if stored[name] != text]
    assert stale == [], f"out of date (make golden-views): {stale}"
