"""One table: seeing it, joining, leaving, seating a bot, a rematch. Every change is a typed
command sent to the table (``table/commands.py``); what is shown is its snapshot."""

from __future__ import annotations

from fastapi import Request
from pydantic import Field

from ludoteca.engine.game import JSON
from ludoteca.engine.parts import render_parts
from ludoteca.server import errors as E
from ludoteca.server.access import for_member, may_see
from ludoteca.server.db import utcnow
from ludoteca.server.errors import ServerError
from ludoteca.server.friend_store import FriendStore
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
from ludoteca.server.table import commands
from ludoteca.server.table.ref import TableRef
from ludoteca.server.table.snapshot import TableSnapshot

router = api_router()


class Join(Body):
    seat: int | None = None
    invite: str | None = Field(default=None, max_length=64)


class AddBot(Body):
    level: str = Field(max_length=16)
    seat: int | None = None



async def table_ref(hub: Hub, table_id: str) -> TableRef:
    ref = await hub.tables.ref(table_id)
    if ref is None:
        raise ServerError("no_such_table", E.NO_SUCH_TABLE, 404, table=table_id)
    return ref


@router.get("/tables/{table_id}", summary="One table (private tables need their invite)")
async def table(
    table_id: str, hub: HubDep, user: MaybeUser, request: Request, invite: str | None = None
) -> JSON:
    ref = await table_ref(hub, table_id)
    snapshot = ref.snapshot()
    may_see(snapshot, user, invite)
    return said(ref, for_member(snapshot, user), request)


@router.post("/tables/{table_id}/join", summary="Take a free seat (the table starts when full)")
async def join(table_id: str, body: Join, user: UserDep, hub: HubDep) -> JSON:
    ref = await table_ref(hub, table_id)
    snapshot = ref.snapshot()
    seat = _seat_index(snapshot, body.seat)
    if not snapshot.rated and snapshot.host_id != user.id:  # a casual host's blocks hold
        await refuse_blocked(hub, snapshot.host_id, user.id)
    reply = await ref.send(commands.Join(user.id, seat, body.invite))
    return for_member(reply.snapshot, user)


@router.post("/tables/{table_id}/leave",
             summary="Leave a table (while it is played, a bot takes over your seat)")
async def leave(table_id: str, user: UserDep, hub: HubDep) -> JSON:
    ref = await table_ref(hub, table_id)
    reply = await ref.send(commands.Leave(user.id))
    return reply.snapshot.summary(utcnow())


@router.post("/tables/{table_id}/bots", summary="Seat a bot (host or a seated player)")
async def add_bot(table_id: str, body: AddBot, user: UserDep, hub: HubDep) -> JSON:
    ref = await table_ref(hub, table_id)
    snapshot = ref.snapshot()
    level = bot_level(body.level, snapshot.game)
    seat = _seat_index(snapshot, body.seat)
    host = snapshot.host_id  # a table's bots count against its host
    async with hub.account_limits.hold(host):
        await hub.account_limits.check_bot(host, level)
        reply = await ref.send(commands.AddBot(user.id, level, seat))
    return for_member(reply.snapshot, user)


@router.delete("/tables/{table_id}/seats/{seat}",
               summary="The host frees another person's seat or a bot's, before the start")
async def remove_seat(table_id: str, seat: int, user: UserDep, hub: HubDep) -> JSON:
    ref = await table_ref(hub, table_id)
    index = _seat_index(ref.snapshot(), seat)
    assert index is not None
    reply = await ref.send(commands.RemoveSeat(user.id, index))
    if reply.removed is not None:  # their table page hears the seat change; their stream, why
        hub.streams.publish(reply.removed, RemovedEvent(table_id))
    return for_member(reply.snapshot, user)


async def refuse_blocked(hub: Hub, host_id: int, user_id: int) -> None:
    """The host of a casual table blocks the person joining: refused (``blocked``)."""
    if await FriendStore(hub.store.write, hub.store.sessions).blocks(host_id, user_id):
        host = await hub.store.user(host_id)
        raise ServerError("blocked", E.BLOCKED, 403,
                          name=host.display_name if host is not None else "?")


def _seat_index(table: TableSnapshot, seat: int | None) -> int | None:
    """Seats are numbered from 0 on the wire, as in table summaries and the ``you`` of a table
    message (screens show them from 1)."""
    if seat is None:
        return None
    if not 0 <= seat < table.players:
        raise ServerError("no_such_seat", E.NO_SUCH_SEAT, 400, seat=seat,
                          last=table.players - 1)
    return seat


class RematchAnswer(Body):
    accept: bool = True
    """True offers a rematch (or accepts the open offer); false declines it."""


@router.post("/tables/{table_id}/rematch",
             summary="Offer, accept or decline a rematch of a finished table; made (same "
             "game, options and seats) once every person accepted (bots always do)")
async def rematch(table_id: str, user: UserDep, hub: HubDep, request: Request,
                  body: RematchAnswer | None = None) -> JSON:
    ref = await table_ref(hub, table_id)
    seat = ref.snapshot().seat_of(user.id)
    if seat is None:
        raise ServerError("not_seated", E.NOT_SEATED, 403)
    await caught_up(hub, ref)
    accept = True if body is None else body.accept
    reply = await ref.send(commands.Rematch(seat, accept))
    return said(ref, for_member(reply.snapshot, user), request)


def said(ref: TableRef, summary: JSON, request: Request) -> JSON:
    """A summary whose result's score parts carry their sentences in the asker's language."""
    return dict(render_parts(summary, ref.voice(request_language(request))))


async def caught_up(hub: Hub, ref: TableRef) -> None:
    """One of several processes: a table this one holds may have ended on another a moment
    ago (its notice still on the way), so a question about its end reads it again first."""
    if hub.cluster is not None and ref.snapshot().status in ("open", "playing"):
        await ref.send(commands.CatchUp())
