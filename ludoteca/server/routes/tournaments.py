"""Tournaments (docs/protocol.md "Tournaments"): create, list, read one (rules in words, entrants,
rounds, pairings, standings, your table), register, withdraw, and seed bots. The director
(``director.py``) runs them; these routes only write registrations and wake it."""

from __future__ import annotations

import contextlib
import secrets
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import Query
from pydantic import Field

from ludoteca.bots import identity
from ludoteca.engine.errors import LudotecaError, OptionError
from ludoteca.engine.game import JSON
from ludoteca.server import errors as E
from ludoteca.server.db import Tournament, utcnow
from ludoteca.server.errors import ServerError, voice
from ludoteca.server.hub import Hub
from ludoteca.server.routes.deps import (
    Body,
    HubDep,
    MaybeUser,
    UserDep,
    api_router,
    bot_level,
    game_named,
)
from ludoteca.server.routes.lobby import check_clock, check_types
from ludoteca.server.table.commands import Leave
from ludoteca.server.tournament_views import summary
from ludoteca.tournament.pairing import Format

router = api_router()
LISTS = {"upcoming": ("registering",), "running": ("running",),
         "finished": ("finished", "cancelled")}


class NewTournament(Body):
    name: str = Field(min_length=1, max_length=80)
    game: str = Field(max_length=32)
    players: int = 2
    """The table size."""
    options: dict[str, Any] = Field(default_factory=dict)
    format: Literal["swiss", "round-robin", "knockout", "arena"] = "swiss"
    rounds: int | None = Field(default=None, ge=1, le=50)
    place_points: list[float] = Field(default_factory=list, max_length=8)
    rated: bool = False
    mode: Literal["live", "turn"] = "live"
    bank_seconds: float = 300.0
    increment_seconds: float = 5.0
    turn_hours: float = 24.0
    round_minutes: float | None = Field(default=None, ge=1, le=60 * 24 * 30)
    """How long a round lasts at most (default: 60 minutes live, 7 days turn-based); an
    arena: how long after its end a table still playing is decided."""
    minutes: float | None = Field(default=None, ge=1, le=24 * 60)
    """An arena's length from its start (required for an arena, ignored otherwise)."""
    starts_at: str | None = Field(default=None, max_length=40)
    """ISO 8601 time; None: it starts once full."""
    min_entrants: int = Field(default=2, ge=2, le=10_000)
    max_entrants: int = Field(default=16, ge=2, le=10_000)
    invite_only: bool = False


class Registration(Body):
    invite: str | None = Field(default=None, max_length=40)


class NewBot(Body):
    level: str = Field(max_length=16)


def _start_time(raw: str | None) -> datetime | None:
    if raw is None:
        return None
    try:
        when = datetime.fromisoformat(raw)
    except ValueError:
        raise ServerError("bad_tournament", E.BAD_TOURNAMENT, 400,
                          detail=f"starts_at {raw[:40]!r}") from None
    if when.tzinfo is None:
        raise ServerError("bad_tournament", E.BAD_TOURNAMENT, 400,
                          detail="starts_at needs its time zone (e.g. Z)")
    return when


def _format(body: NewTournament) -> Format:
    arena = body.format == "arena"
    if arena and body.minutes is None:
        raise ServerError("bad_tournament", E.ARENA_MINUTES, 400)
    if arena and body.mode != "live":
        raise ServerError("bad_tournament", E.ARENA_LIVE, 400)
    try:
        if arena:
            return Format("arena", body.players, minutes=body.minutes)
        return Format(body.format, body.players, body.rounds,
                      place_points=tuple(body.place_points))
    except OptionError as exc:
        raise ServerError("bad_tournament", E.BAD_TOURNAMENT, 400, detail=str(exc)) from None


async def _tournament(hub: Hub, tournament_id: str) -> Tournament:
    found = await hub.tournaments.get(tournament_id)
    if found is None:
        raise ServerError("no_such_tournament", E.NO_SUCH_TOURNAMENT, 404,
                          id=tournament_id[:16])
    return found


@router.post("/tournaments", summary="Create a tournament (you are its host; you are not "
             "entered: register like anyone)")
async def create(body: NewTournament, user: UserDep, hub: HubDep) -> JSON:
    settings = hub.settings
    if settings.tournaments == "operators" and user.name_key not in settings.operators:
        raise ServerError("operators_only", E.TOURNAMENTS_OPERATORS, 403)
    if user.guest:
        raise ServerError("guest", E.GUEST_TOURNAMENT, 403)
    hub.create_limit.hit(f"user:{user.id}")
    game = game_named(body.game, 400)
    check_types(game, body.options)
    options = game.validate(body.options, body.players)
    check_clock(body.mode, body.bank_seconds, body.increment_seconds, body.turn_hours)
    fmt = _format(body)
    if body.min_entrants > body.max_entrants:
        raise ServerError("bad_tournament", E.BAD_TOURNAMENT, 400,
                          detail=f"min_entrants {body.min_entrants} > max_entrants "
                                 f"{body.max_entrants}")
    starts_at = _start_time(body.starts_at)
    round_minutes = body.round_minutes or (60.0 if body.mode == "live" else 7 * 24 * 60.0)
    tournament = Tournament(
        id=secrets.token_urlsafe(9).replace("-", "x").replace("_", "y"), name=body.name,
        game=game.spec.name, players=body.players, options=options, format=fmt.to_json(),
        rated=body.rated, mode=body.mode,
        bank_seconds=body.bank_seconds if body.mode == "live" else 0.0,
        increment_seconds=body.increment_seconds if body.mode == "live" else 0.0,
        turn_hours=body.turn_hours if body.mode == "turn" else 0.0,
        round_minutes=round_minutes, starts_at=starts_at, min_entrants=body.min_entrants,
        max_entrants=body.max_entrants,
        invite=secrets.token_urlsafe(12) if body.invite_only else None,
        seed=secrets.randbits(62), status="registering", created_by=user.id, round=0,
        round_deadline=None, created_at=utcnow(),
    )
    await hub.tournaments.add(tournament)
    hub.director.poke()
    return {**summary(tournament, 0, user.name), "invite": tournament.invite}


@router.get("/tournaments", summary="Tournaments: upcoming (registering), running, or "
            "finished (and cancelled), newest first; invite-only ones are left out")
async def listed(
    hub: HubDep,
    status: Annotated[Literal["upcoming", "running", "finished"], Query()] = "upcoming",
) -> list[JSON]:
    found = [t for t in await hub.tournaments.listed(LISTS[status]) if t.invite is None]
    hosts = await hub.store.users([t.created_by for t in found])
    out = []
    for t in found:
        host = hosts.get(t.created_by)
        out.append(summary(t, await hub.tournaments.active_count(t.id),
                           host.name if host else None))
    return out


@router.get("/tournaments/{tournament_id}", summary="One tournament: its rules in words, "
            "entrants, rounds with their pairings and tables, standings with tie-breaks, "
            "and your table if you have one")
async def one(tournament_id: str, hub: HubDep, user: MaybeUser, lang: str = "en") -> JSON:
    t = await _tournament(hub, tournament_id)
    page = await hub.tournament_pages.page(t, voice(user.language if user else lang))
    mine = f"user:{user.id}" if user else None
    your_table = page.open_tables.get(mine) if mine is not None else None
    registered = mine in page.registered
    out = summary(t, len(page.registered), page.host)
    if user is not None and user.id == t.created_by:
        out["invite"] = t.invite
    out.update(page.shared)
    out.update({
        "registered": registered,
        "your_table": your_table,
        "your_status": _status(t, registered, your_table, mine in page.entered),
    })
    return out


def _status(t: Tournament, registered: bool, table: str | None, entered: bool) -> str | None:
    """Where you are in a running tournament: ``playing`` (at your table), ``waiting`` (for an
    opponent or the next round), ``paused`` (withdrawn from an arena: enter again to come
    back); None when it is not running or you are not in it."""
    if t.status != "running":
        return None
    if table is not None:
        return "playing"
    if registered:
        return "waiting"
    if entered:
        return "paused" if t.format.get("kind") == "arena" else None
    return None


async def _register(hub: Hub, t: Tournament, participant: str, user_id: int | None) -> JSON:
    rating = await hub.tournaments.rating(t.game, participant)
    if rating is None and user_id is None:
        anchor = hub.store.pools.rules.anchor(t.game, t.players, participant.split("#", 1)[0])
        rating = anchor[0] if anchor is not None else None
    done = await hub.tournaments.register(t.id, participant, user_id, rating or 0.0,
                                          while_running=t.format.get("kind") == "arena")
    if done == "started":
        raise ServerError("tournament_started", E.TOURNAMENT_STARTED, 409)
    if done == "full":
        raise ServerError("tournament_full", E.TOURNAMENT_FULL, 409, max=t.max_entrants)
    if done == "already":
        raise ServerError("already_registered", E.ALREADY_REGISTERED, 409)
    hub.director.poke()
    await hub.director.tell_changed(t.id)
    return {"tournament": t.id, "participant": participant}


@router.post("/tournaments/{tournament_id}/register", summary="Enter the tournament (an "
             "invite-only one wants its invite code)")
async def register(tournament_id: str, body: Registration, user: UserDep, hub: HubDep) -> JSON:
    t = await _tournament(hub, tournament_id)
    if t.invite is not None and body.invite != t.invite:
        raise ServerError("wrong_invite", E.WRONG_TOURNAMENT_INVITE, 403)
    return await _register(hub, t, f"user:{user.id}", user.id)


@router.post("/tournaments/{tournament_id}/bots", summary="The host enters a bot (before the "
             "start); each bot entrant is its level's identity with a number")
async def add_bot(tournament_id: str, body: NewBot, user: UserDep, hub: HubDep) -> JSON:
    t = await _tournament(hub, tournament_id)
    if user.id != t.created_by:
        raise ServerError("not_host", E.NOT_TOURNAMENT_HOST, 403)
    level = bot_level(body.level, t.game)
    if t.rated and not hub.store.pools.rules.rated_with_bots(t.game, t.players, [level]):
        raise ServerError("no_ladder", E.NO_LADDER, 400, level=level, game=t.game,
                          players=t.players)
    taken = {e.participant for e in await hub.tournaments.entrants(t.id)}
    base = identity(level)
    number = next(n for n in range(1, len(taken) + 2) if f"{base}#{n}" not in taken)
    return await _register(hub, t, f"{base}#{number}", None)


@router.post("/tournaments/{tournament_id}/withdraw", summary="Leave the tournament: before "
             "the start your entry goes; once running you are paired no more, and your "
             "table of the current round is handed to a bot (you forfeit it)")
async def withdraw(tournament_id: str, user: UserDep, hub: HubDep) -> JSON:
    t = await _tournament(hub, tournament_id)
    if t.status not in ("registering", "running"):
        raise ServerError("tournament_started", E.TOURNAMENT_STARTED, 409)
    participant = f"user:{user.id}"
    was = await hub.tournaments.withdraw(t.id, participant)
    if was is None:
        raise ServerError("not_registered", E.NOT_REGISTERED, 409)
    if was == "running" and t.format.get("kind") != "arena":  # an arena: finish your table
        for g in await hub.tournaments.games(t.id):
            if participant in g.seats and g.result is None and g.opened:
                ref = await hub.tables.ref(g.table_id)
                if ref is not None and ref.snapshot().status == "playing":
                    with contextlib.suppress(LudotecaError):
                        await ref.send(Leave(user.id))
    hub.director.poke()
    await hub.director.tell_changed(t.id)
    return {"tournament": t.id, "withdrawn": True}

