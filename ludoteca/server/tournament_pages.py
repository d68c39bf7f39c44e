"""A tournament's page (``GET /api/tournaments/{id}``), built once per change of the tournament.

Every result tells everyone watching (a ``tournament`` event), and each open tournament page
asks for the whole page again: in a busy arena that is every watcher reading every game and
recomputing the standings for every result. The page's shared part (entrants, rounds, pairings,
standings, rules in words) is the same for everyone reading it in one language, so it is kept
per (tournament, language) and rebuilt only when the tournament's ``version`` moved: every
write to the tournament or its entrants, rounds or games moves it in the same transaction
(``tournament_store``), in whichever process wrote, so a page is never staler than the row read
with it. The reader's own part (registered, your table, your status) is looked up in indexes
the page keeps. Names are read when the page is built: a renamed entrant shows the new name
at the tournament's next change, or after ``TTL_SECONDS`` at most.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass

from ludoteca.engine.game import JSON
from ludoteca.engine.i18n import Voice
from ludoteca.server.db import Tournament, User
from ludoteca.server.result_rows import user_of
from ludoteca.server.store import Store
from ludoteca.server.tournament_store import TournamentStore
from ludoteca.server.tournament_views import (
    active,
    results_of,
    rules_in_words,
    standings_json,
    standings_of,
)
from ludoteca.tournament.arena import win_streaks
from ludoteca.tournament.model import RoundDraw
from ludoteca.tournament.pairing import Format

PAGES = 64
"""(tournament, language) pages kept; the least recently read goes first."""
TTL_SECONDS = 60.0
"""A page older than this is rebuilt even if the tournament did not change (renames)."""


@dataclass(frozen=True, slots=True)
class Page:
    """A tournament's page as everyone reading it in one language sees it, with what answers
    each reader's own questions. Read-only once built: it is shared by every request."""

    version: int
    built_at: float
    shared: JSON
    """``rules``, ``entrants``, ``rounds``, ``standings``."""
    host: str | None
    entered: frozenset[str]
    """Everyone who ever entered (one who withdrew included)."""
    registered: frozenset[str]
    """Those entered and not withdrawn."""
    open_tables: dict[str, str]
    """participant -> the table they sit at now (opened, undecided)."""


class TournamentPages:
    def __init__(self, tournaments: TournamentStore, store: Store) -> None:
        self.tournaments = tournaments
        self.store = store
        self.pages: OrderedDict[tuple[str, str], Page] = OrderedDict()
        self.built = 0
        """Pages built (the rest were served from the cache): for tests and metrics."""

    async def page(self, t: Tournament, speak: Voice) -> Page:
        key = (t.id, speak.lang)
        found = self.pages.get(key)
        if (found is not None and found.version == t.version
                and time.monotonic() - found.built_at < TTL_SECONDS):
            self.pages.move_to_end(key)
            return found
        fresh = await self._build(t, speak)
        self.pages[key] = fresh
        self.pages.move_to_end(key)
        while len(self.pages) > PAGES:
            self.pages.popitem(last=False)
        return fresh

    async def _build(self, t: Tournament, speak: Voice) -> Page:
        store = self.tournaments
        # Read the entrants, rounds and games after the row: a write between the two reads
        # gives a page newer than its version, never older, and the next read rebuilds it.
        entrants, rounds, games = (await store.entrants(t.id), await store.rounds(t.id),
                                   await store.games(t.id))
        people = await self.store.users([u for e in entrants if (u := e.user_id) is not None])
        host = await self.store.user(t.created_by)
        names = {e.participant: _name(e.participant, people) for e in entrants}
        fmt = Format.from_json(t.format)
        by_round: dict[int, list[JSON]] = {}
        open_tables: dict[str, str] = {}
        for g in games:
            by_round.setdefault(g.round, []).append({
                "board": g.board, "seats": g.seats, "names": [names.get(p, p) for p in g.seats],
                "table": g.table_id if g.opened and g.decided_by != "forfeit" else None,
                "result": g.result, "decided_by": g.decided_by})
            if g.result is None and g.opened:
                # only the current round's can be undecided (an arena: one table at a time)
                open_tables.update((p, g.table_id) for p in g.seats)
        shared: JSON = {
            "rules": rules_in_words(fmt, speak, t.round_minutes),
            "entrants": [{"participant": e.participant, "name": names[e.participant],
                          "rating": e.rating, "withdrawn": e.withdrawn_at is not None}
                         for e in entrants],
            "rounds": [{"round": r.round,
                        "byes": [b.entrant for b in RoundDraw.from_json(r.draw).byes],
                        "games": by_round.get(r.round, [])} for r in rounds],
            "standings": standings_json(
                standings_of(t, entrants, rounds, games), speak, names,
                win_streaks(results_of(games)) if fmt.kind == "arena" else None),
        }
        self.built += 1
        return Page(version=t.version, built_at=time.monotonic(), shared=shared,
                    host=host.name if host else None,
                    entered=frozenset(e.participant for e in entrants),
                    registered=frozenset(e.participant for e in active(entrants)),
                    open_tables=open_tables)


def _name(participant: str, people: dict[int, User]) -> str:
    user_id = user_of(participant)
    if user_id is None:
        return participant.removeprefix("bot:").split("@", 1)[0] + " bot"
    found = people.get(user_id)
    return found.display_name if found else participant
