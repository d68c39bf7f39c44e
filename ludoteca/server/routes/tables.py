"""One table: seeing it, joining, leaving, seating a bot, a rematch. Every change runs in the
table's actor (``table/actor.py``)."""

from __future__ import annotations

from fastapi import Request
from pydantic import Field

from ludoteca.engine.game import JSON
from ludoteca.engine.parts import render_parts
from ludoteca.server import errors as E
from ludoteca.server.access import for_member, may_see
from ludoteca.server.errors import ServerError
from ludoteca.server.hub import Hub
from ludoteca.server.protocol import RemovedEvent
from ludoteca.server.routes.deps import (
    Body,
    HubDep,
    MaybeUser,
    UserDep,
    api_router,
    bot_level,
    request_language,
)
from ludoteca.server.table.actor import TableActor, in_actor

router = api_router()


class Join(Body):
    seat: int | None = None
    invite: str | None = Field(default=None, max_length=64)


class AddBot(Body):
    level: str = Field(max_length=16)
    seat: int | None = None



async def table_actor(hub: Hub, table_id: str) -> TableActor:
    actor = await hub.tables.actor(table_id)
    if actor is None:
        raise ServerError("no_such_table", E.NO_SUCH_TABLE, 404, table=table_id)
    return actor


@router.get("/tables/{table_id}", summary="One table (private tables need their invite)")
async def table(
    table_id: str, hub: HubDep, user: MaybeUser, request: Request, invite: str | None = None
) -> JSON:
    actor = await table_actor(hub, table_id)
    may_see(actor.core, user, invite)
    return said(actor, for_member(actor.core, user), request)


@router.post("/tables/{table_id}/join", summary="Take a free seat (the table starts when full)")
async def join(table_id: str, body: Join, user: UserDep, hub: HubDep) -> JSON:
    actor = await table_actor(hub, table_id)
    seat = _seat_index(actor, body.seat)
    await in_actor(actor, lambda: actor.seating.join(user, seat, body.invite))
    return for_member(actor.core, user)


@router.post("/tables/{table_id}/leave",
             summary="Leave a table (while it is played, a bot takes over your seat)")
async def leave(table_id: str, user: UserDep, hub: HubDep) -> JSON:
    actor = await table_actor(hub, table_id)
    await in_actor(actor, lambda: actor.seating.leave(user))
    return actor.core.summary()


@router.post("/tables/{table_id}/bots", summary="Seat a bot (host or a seated player)")
async def add_bot(table_id: str, body: AddBot, user: UserDep, hub: HubDep) -> JSON:
    actor = await table_actor(hub, table_id)
    level = bot_level(body.level, actor.core.table.game)
    seat = _seat_index(actor, body.seat)
    host = actor.core.table.host_id  # a table's bots count against its host
    async with hub.account_limits.hold(host):
        await hub.account_limits.check_bot(host, level)
        await in_actor(actor, lambda: actor.seating.add_bot(user, level, seat))
    return for_member(actor.core, user)


@router.delete("/tables/{table_id}/seats/{seat}",
               summary="The host frees another person's seat or a bot's, before the start")
async def remove_seat(table_id: str, seat: int, user: UserDep, hub: HubDep) -> JSON:
    actor = await table_actor(hub, table_id)
    index = _seat_index(actor, seat)
    assert index is not None
    removed: list[int | None] = []

    async def remove() -> None:
        removed.append(await actor.seating.remove(user, index))

    await in_actor(actor, remove)
    person = removed[0] if removed else None
    if person is not None:  # their table page hears the seat change; their stream, why
        hub.streams.publish(person, RemovedEvent(table_id))
    return for_member(actor.core, user)


def _seat_index(actor: TableActor, seat: int | None) -> int | None:
    """Seats are numbered from 0 on the wire, as in table summaries and the ``you`` of a table
    message (screens show them from 1)."""
    if seat is None:
        return None
    if not 0 <= seat < actor.core.table.players:
        raise ServerError("no_such_seat", E.NO_SUCH_SEAT, 400, seat=seat,
                          last=actor.core.table.players - 1)
    return seat


class RematchAnswer(Body):
    accept: bool = True
    """True offers a rematch (or accepts the open offer); false declines it."""


@router.post("/tables/{table_id}/rematch",
             summary="Offer, accept or decline a rematch of a finished table; made (same "
             "game, options and seats) once every person accepted (bots always do)")
async def rematch(table_id: str, user: UserDep, hub: HubDep, request: Request,
                  body: RematchAnswer | None = None) -> JSON:
    actor = await table_actor(hub, table_id)
    seat = actor.core.seat_of(user.id)
    if seat is None:
        raise ServerError("not_seated", E.NOT_SEATED, 403)
    await caught_up(hub, actor)
    accept = True if body is None else body.accept
    await in_actor(actor, lambda: actor.rematcher.answer(seat, accept))
    return said(actor, for_member(actor.core, user), request)


def said(actor: TableActor, summary: JSON, request: Request) -> JSON:
    """A summary whose result's score parts carry their sentences in the asker's language."""
    return dict(render_parts(summary, actor.views.voice(request_language(request))))


async def caught_up(hub: Hub, actor: TableActor) -> None:
    """One of several processes: a table this one holds may have ended on another a moment
    ago (its notice still on the way), so a question about its end reads it again first."""
    if hub.cluster is not None and actor.core.table.status in ("open", "playing"):
        await in_actor(actor, actor.catch_up)


