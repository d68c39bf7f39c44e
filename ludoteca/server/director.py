"""The tournament director (DESIGN.md §3, docs/tournaments.md "Lifecycle"): one per arena (by a
lease when several processes serve it; alone, this process directs). It keeps nothing of its
own: each step reads a tournament from the database, asks ``tournament_lifecycle.next_step``,
and writes what that decided (start, cancel, pair a round, open its tables, decide late
tables, finish), so a director that restarts, or another process taking over, goes on from
the rows. It wakes every ``every`` seconds, and at once when a tournament's table ends (the
``Finisher`` tells it, in whichever process ran the table)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta
from typing import Protocol

from ludoteca.bots import level_name
from ludoteca.server.db import Seat, Table, Tournament, User, utcnow
from ludoteca.server.finisher import MatchFinished
from ludoteca.server.live_tables import LiveTables
from ludoteca.server.notify import Notifier
from ludoteca.server.protocol import TournamentEvent, TournamentTableEvent
from ludoteca.server.redis_link import process_name
from ludoteca.server.result_rows import user_of
from ludoteca.server.store import Store
from ludoteca.server.streams import Streams
from ludoteca.server.tournament_lifecycle import (
    GameLook,
    Look,
    absent_result,
    late_result,
    next_step,
    played_result,
    table_id_for,
)
from ludoteca.server.tournament_store import GameRow, TournamentStore
from ludoteca.server.tournament_views import active, as_entrants, byes_of, results_of, summary
from ludoteca.tournament.arena import arena_tables, free_entrants
from ludoteca.tournament.model import Entrant
from ludoteca.tournament.pairing import Format, pair_round

log = logging.getLogger("ludoteca.director")
STEPS = 50
"""At most this many steps per tournament per wake (a round is a few: pair, open, ...)."""


class DirectorHost(Protocol):
    """What the director needs of this process (``hub.Hub``)."""

    store: Store
    tournaments: TournamentStore
    tables: LiveTables
    streams: Streams
    notifier: Notifier
    closing: bool

    def several(self) -> bool: ...


def bot_of(participant: str) -> str | None:
    """The bot level a participant names (``bot:random@1#2`` -> ``random``), None: a person."""
    if not participant.startswith("bot:"):
        return None
    return level_name(participant.removeprefix("bot:").split("@", 1)[0])


def is_arena(t: Tournament) -> bool:
    return bool(t.format.get("kind") == "arena")


class Director:
    def __init__(self, host: DirectorHost, every: float, lease_seconds: float) -> None:
        self.host = host
        self.every = every
        self.lease_seconds = lease_seconds
        self.owner = process_name()
        self.wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="tournament director")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self.host.several():
            with contextlib.suppress(Exception):
                await self.host.tournaments.let_go(self.owner)

    def poke(self) -> None:
        """Look again now (a registration, a table's end)."""
        self.wake.set()

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), self.every)
            self.wake.clear()
            if self.host.closing:
                return
            try:
                await self.step_all()
            except Exception:
                log.exception("the director's step failed; it tries again")

    async def leads(self) -> bool:
        """Alone, this process directs; one of several, the one holding the lease."""
        if not self.host.several():
            return True
        return await self.host.tournaments.lead(self.owner, self.lease_seconds)

    async def step_all(self) -> None:
        if not await self.leads():
            return
        for tournament_id in await self.host.tournaments.active_ids():
            try:
                await self.direct(tournament_id)
            except Exception:
                log.exception("tournament %s: the director's step failed", tournament_id)

    # ---- a table's end (a Finisher subscriber, in the process that ran the table) -----------
    async def table_finished(self, event: MatchFinished) -> None:
        tournament_id = event.snapshot.tournament
        if tournament_id is None or event.result is None:
            return None
        game = await self.host.tournaments.game_of_table(event.table_id)
        if game is None:
            return None
        result = played_result(game.round, game.board, game.seats, event.result,
                               [s.zombie for s in event.seats])
        await self.host.tournaments.decide(tournament_id, game.round, game.board,
                                           result.to_json(), "played")
        await self.tell_changed(tournament_id)  # its standings moved, the round may go on
        self.poke()
        return None

    # ---- one tournament ----------------------------------------------------------------------
    async def direct(self, tournament_id: str) -> None:
        """Step the tournament until it has nothing to do now."""
        changed = False
        t = await self.host.tournaments.get(tournament_id)
        if t is not None and t.status == "running" and is_arena(t):
            await self.sweep(t, await self.host.tournaments.games(tournament_id, undecided=True))
        for _ in range(STEPS):
            done = await self.step(tournament_id)
            if not done:
                break
            changed = True
        if changed:
            await self.tell_changed(tournament_id)

    async def step(self, tournament_id: str) -> bool:
        """One decision and its write; False when there was nothing to do."""
        store = self.host.tournaments
        t = await store.get(tournament_id)
        if t is None:
            return False
        if is_arena(t):
            return await self.arena_step(t)
        entrants = await store.entrants(tournament_id)
        games = [g for g in await store.games(tournament_id) if g.round == t.round]
        if t.status == "running":
            await self.sweep(t, games)
            games = [g for g in await store.games(tournament_id) if g.round == t.round]
        now = utcnow()
        look = Look(t.status, t.starts_at, t.min_entrants, t.max_entrants,
                    len(active(entrants)), t.round, t.round_deadline,
                    tuple(GameLook(g.board, g.opened, g.result is not None) for g in games))
        step = next_step(look, now)
        if step == "wait":
            return False
        if step == "start":
            return await store.move_status(t.id, "registering", "running", started_at=now)
        if step == "cancel":
            return await store.move_status(t.id, "registering", "cancelled", finished_at=now)
        if step == "pair":
            return await self.pair(t)
        if step == "open":
            for game in games:
                if not game.opened:
                    await self.open(t, game)
            return True
        if step == "late":
            await self.decide_late(t, games)
            return True
        return False

    async def pair(self, t: Tournament) -> bool:
        """Pair the next round (written once), or finish when the format has none."""
        store = self.host.tournaments
        fmt = Format.from_json(t.format)
        entrants = await store.entrants(t.id)
        rounds = await store.rounds(t.id)
        results = results_of(await store.games(t.id))
        fixed = fmt.kind in ("round-robin", "knockout")  # a schedule made from everyone
        playing = as_entrants(entrants if fixed else active(entrants))
        draw = None
        if len(active(entrants)) >= 2:
            draw = pair_round(fmt, playing, results, byes_of(rounds), t.round + 1, t.seed)
        if draw is None or not draw.tables:
            return await store.move_status(t.id, "running", "finished", finished_at=utcnow(),
                                           round_deadline=None)
        withdrawn = {e.participant for e in entrants if e.withdrawn_at is not None}
        rows = []
        for table in draw.tables:
            row = {"board": table.board, "seats": list(table.seats),
                   "table_id": table_id_for(t.id, table.round, table.board)}
            gone = [s in withdrawn for s in table.seats]
            if any(gone):  # nobody to play this board: decided as it is paired
                result = absent_result(table.round, table.board, table.seats, gone)
                row.update(opened=True, result=result.to_json(), decided_by="forfeit",
                           decided_at=utcnow())
            rows.append(row)
        deadline = utcnow() + timedelta(minutes=t.round_minutes)
        paired = await store.pair(t.id, t.round + 1, draw.to_json(), rows, deadline)
        if paired:
            log.info("tournament %s: round %d paired (%d tables, %d byes)", t.id,
                     t.round + 1, len(draw.tables), len(draw.byes))
        return paired

    # ---- an arena (docs/tournaments.md "Arena") -----------------------------------------------
    async def arena_step(self, t: Tournament) -> bool:
        """One decision of an arena and its write; False when there was nothing to do. Who is
        free is read from the rows each time (active, and at no undecided table), and a wave
        is written only if the tournament is still at the wave it was read at, so nobody is
        ever seated at two tables, whichever director (or restart) pairs."""
        store = self.host.tournaments
        entrants = active(await store.entrants(t.id))
        undecided = await store.games(t.id, undecided=True)
        seated = {p for g in undecided for p in g.seats}
        free = free_entrants(as_entrants(entrants), seated)
        now = utcnow()
        look = Look(t.status, t.starts_at, t.min_entrants, t.max_entrants, len(entrants),
                    t.round, t.round_deadline,
                    tuple(GameLook(g.board, g.opened, False) for g in undecided),
                    arena=True, ends_at=t.ends_at, free=len(free), table_size=t.players)
        step = next_step(look, now)
        if step == "start":
            ends = now + timedelta(minutes=Format.from_json(t.format).minutes or 0.0)
            return await store.move_status(
                t.id, "registering", "running", started_at=now, ends_at=ends,
                round_deadline=ends + timedelta(minutes=t.round_minutes))
        if step == "cancel":
            return await store.move_status(t.id, "registering", "cancelled", finished_at=now)
        if step == "open":
            for game in undecided:
                if not game.opened:
                    await self.open(t, game)
            return True
        if step == "pair":  # every result read only now: the points and latest games
            return await self.pair_arena(t, free, await store.games(t.id), busy=bool(seated))
        if step == "late":
            await self.decide_late(t, undecided)
            return True
        if step == "finish":
            return await store.move_status(t.id, "running", "finished", finished_at=now)
        return False

    async def pair_arena(self, t: Tournament, free: list[Entrant], games: list[GameRow],
                         busy: bool) -> bool:
        """Seat the free entrants (arena.arena_tables) as the next wave: written once, and
        only before the arena's end."""
        wave = t.round + 1
        draw, _ = arena_tables(free, results_of(games), wave, t.players, t.seed,
                               hold_rematches=busy)
        if not draw.tables:
            return False
        rows = [{"board": table.board, "seats": list(table.seats),
                 "table_id": table_id_for(t.id, wave, table.board)} for table in draw.tables]
        assert t.round_deadline is not None
        paired = await self.host.tournaments.pair(t.id, wave, draw.to_json(), rows,
                                                  t.round_deadline, before_end=True)
        if paired:
            log.info("arena %s: wave %d paired (%d tables)", t.id, wave, len(draw.tables))
        return paired

    async def open(self, t: Tournament, game: GameRow) -> None:
        """Open the board's table (its id is the board's: opened once), seat the entrants,
        and tell its people their table is ready."""
        store = self.host.store
        people = [u for u in (user_of(p) for p in game.seats) if u is not None]
        users = await store.users([*people, t.created_by])
        host: User | None = users.get(t.created_by)
        assert host is not None
        table = Table(
            game=t.game, players=len(game.seats), options=dict(t.options), mode=t.mode,
            bank_seconds=t.bank_seconds, increment_seconds=t.increment_seconds,
            turn_hours=t.turn_hours, rated=t.rated, private=False, hints=False, zombie=False,
            tournament=t.id,
        )
        seats = [Seat(table_id="", seat=i, user_id=user_of(p), bot=bot_of(p), zombie=False,
                      bank_seconds=t.bank_seconds) for i, p in enumerate(game.seats)]
        await self.host.tables.open(host, table, seats, users, game.table_id)
        await self.host.tournaments.set_opened(t.id, game.round, game.board)
        event = TournamentTableEvent(t.id, game.round, game.board, game.table_id)
        for user_id in people:
            self.host.notifier.tournament_table(user_id, event, t.game)

    async def sweep(self, t: Tournament, games: list[GameRow]) -> None:
        """Decide the round's tables that finished without the director hearing it (it
        was not running then): the table's stored result is the same."""
        waiting = [g for g in games if g.opened and g.result is None]
        if not waiting:
            return
        ended = await self.host.tournaments.finished_tables([g.table_id for g in waiting])
        waiting = [g for g in waiting if g.table_id in ended]
        if not waiting:
            return
        seats = await self.host.store.seats_of([g.table_id for g in waiting])
        for game in waiting:
            result = played_result(game.round, game.board, game.seats, ended[game.table_id],
                                   [s.zombie for s in seats[game.table_id]])
            await self.host.tournaments.decide(t.id, game.round, game.board,
                                               result.to_json(), "played")

    async def decide_late(self, t: Tournament, games: list[GameRow]) -> None:
        """The round's deadline passed: each table still playing is decided as a draw, a
        seat a bot took over forfeiting (docs/tournaments.md). The table may play on; its
        end changes nothing then."""
        waiting = [g for g in games if g.result is None]
        seats = await self.host.store.seats_of([g.table_id for g in waiting])
        for game in waiting:
            zombies = [s.zombie for s in seats[game.table_id]] or [False] * len(game.seats)
            result = late_result(game.round, game.board, game.seats, zombies)
            await self.host.tournaments.decide(t.id, game.round, game.board,
                                               result.to_json(), "deadline")

    async def tell_changed(self, tournament_id: str) -> None:
        """Everyone watching hears the tournament's new summary (an invite-only one: its
        entrants and host only)."""
        store = self.host.tournaments
        t = await store.get(tournament_id)
        if t is None:
            return
        host = await self.host.store.user(t.created_by)
        event = TournamentEvent(summary(t, await store.active_count(tournament_id),
                                        host.name if host else None))
        if t.invite is None:
            self.host.streams.everyone(event)
            return
        entrants = await store.entrants(tournament_id)
        for user_id in {e.user_id for e in entrants if e.user_id is not None} | {t.created_by}:
            self.host.streams.publish(user_id, event)

