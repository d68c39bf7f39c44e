"""Finished matches: records, replays, a player's page and their running tables."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query, Request, Response
from fastapi.responses import JSONResponse

from ludoteca.engine.game import JSON
from ludoteca.engine.match import Match
from ludoteca.engine.parts import render_parts
from ludoteca.games import get_game
from ludoteca.server import errors as E
from ludoteca.server.access import may_see
from ludoteca.server.db import Table, User
from ludoteca.server.errors import ServerError
from ludoteca.server.hub import Hub
from ludoteca.server.ratings import display
from ludoteca.server.routes.deps import (
    HubDep,
    MaybeUser,
    UserDep,
    api_router,
    request_language,
)
from ludoteca.server.routes.tables import caught_up, table_actor
from ludoteca.server.store import stamp
from ludoteca.server.table.actor import TableActor
from ludoteca.server.table.core import table_summary
from ludoteca.server.waiting import your_turn

router = api_router()



# ---- replays and history ---------------------------------------------------------------------
async def _finished(
    hub: Hub, table_id: str, user: User | None, invite: str | None
) -> tuple[TableActor, Match]:
    actor = await table_actor(hub, table_id)
    may_see(actor.core, user, invite)
    await caught_up(hub, actor)
    match = actor.core.match
    if actor.core.table.status != "finished" or match is None:
        raise ServerError("not_finished", E.NOT_FINISHED, 409)
    return actor, match


@router.get("/tables/{table_id}/record", summary="The finished match's record (JSON download)")
async def record(
    table_id: str, hub: HubDep, user: MaybeUser, invite: str | None = None
) -> Response:
    actor, match = await _finished(hub, table_id, user, invite)
    data = match.record.to_json()
    data["table"] = actor.table_id
    return JSONResponse(
        data,
        headers={"Content-Disposition": f'attachment; filename="ludoteca-{table_id}.json"'},
    )


@router.get("/tables/{table_id}/replay",
            summary="Step through a finished match: the table as it was after move `at`")
async def replay(
    table_id: str, hub: HubDep, request: Request, user: MaybeUser,
    at: Annotated[int, Query(ge=0)] = 0, invite: str | None = None,
) -> JSON:
    actor, match = await _finished(hub, table_id, user, invite)
    record = match.record
    total = len(record.actions)
    at = min(at, total)
    lang = request_language(request)
    say = actor.views.voice(lang)
    game = actor.core.game
    replayed = Match.unplayed(game, record)
    events = [
        {**e, "text": game.render_event(e, say)} for e in replayed.opening_step().events_for(None)
    ]
    seat = None
    for seat, data in record.actions[:at]:
        step = replayed.step(seat, game.action_from_json(data))
        events = [{**e, "text": game.render_event(e, say)} for e in step.events_for(None)]
    return {
        "table": render_parts(actor.core.summary(), say),
        "at": at,
        "total": total,
        "seat": seat,
        "events": events,
        "view": render_parts(replayed.view(None), say),
        "hints": [[ply, seat] for ply, seat in record.hints],
    }


@router.post("/tables/{table_id}/analysis", status_code=202,
             summary="Analyse a finished match (docs/analysis.md): made in the bot processes")
async def request_analysis(
    table_id: str, hub: HubDep, user: UserDep, request: Request, invite: str | None = None
) -> JSON:
    actor, match = await _finished(hub, table_id, user, invite)
    say = actor.views.voice(request_language(request))
    return await hub.analyses.request(actor.table_id, match.record, user.id, say)


@router.get("/tables/{table_id}/analysis",
            summary="A finished match's analysis: its progress, then the analysis itself")
async def analysis(
    table_id: str, hub: HubDep, user: MaybeUser, request: Request, invite: str | None = None
) -> JSON:
    actor, _match = await _finished(hub, table_id, user, invite)
    return await hub.analyses.state(actor.table_id,
                                    actor.views.voice(request_language(request)))


def _history_row(table: Table, seat: int) -> JSON:
    result = table.result or {}
    return {
        "id": table.id,
        "game": table.game,
        "players": table.players,
        "seat": seat,
        "finished_at": stamp(table.finished_at),
        "scores": result.get("scores"),
        "ranks": result.get("ranks"),
        "rated": bool(result.get("ratings")),  # a rated table with a bot or a take-over is not
    }


@router.get("/users/{name}", summary="A player's page: ratings and finished matches "
            "(private tables' only to the player)")
async def player(name: str, hub: HubDep, asker: MaybeUser) -> JSON:
    user = await hub.store.user_named(name)
    if user is None:
        raise ServerError("no_such_user", E.NO_SUCH_USER, 404, name=name)
    history = await hub.store.history(
        user.id, private=asker is not None and asker.id == user.id)
    return {
        "name": user.name,
        "display_name": user.display_name,
        "guest": user.guest,
        "ratings": [
            {"game": r.game, "rating": display(r.mu, r.sigma), "mu": r.mu, "sigma": r.sigma,
             "games": r.games}
            for r in await hub.store.user_ratings(user.id)
        ],
        "matches": [_history_row(t, seat) for t, seat in history],
    }


@router.get("/me/tables", summary="Your open and running tables, each saying whether it "
            "waits for your move (`your_turn`)")
async def my_tables(user: UserDep, hub: HubDep) -> list[JSON]:
    rows = await hub.store.playing(user.id)
    seats = await hub.store.seats_of([t.id for t in rows])
    ids = {s.user_id for group in seats.values() for s in group if s.user_id is not None}
    users = await hub.store.users([*ids, *(t.host_id for t in rows)])
    return [
        {**table_summary(t, seats[t.id], users, get_game(t.game).spec.title),
         "your_turn": your_turn(t, seats[t.id], user.id)}
        for t in rows
    ]
