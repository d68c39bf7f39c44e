"""Finished matches: records, replays, a player's page and their running tables."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query, Request, Response
from fastapi.responses import JSONResponse

from ludoteca.analysis.retry import decision, stored_value, verdict
from ludoteca.engine.game import JSON
from ludoteca.engine.match import Match
from ludoteca.engine.parts import render_parts
from ludoteca.engine.record import MatchRecord
from ludoteca.games import get_game
from ludoteca.rating_scale import plus_minus, shown
from ludoteca.server import errors as E
from ludoteca.server.access import may_see
from ludoteca.server.db import Table, User, utcnow
from ludoteca.server.errors import ServerError
from ludoteca.server.friend_store import FriendStore
from ludoteca.server.hub import Hub
from ludoteca.server.player_stats import analysed, player_stats
from ludoteca.server.results import side_rank
from ludoteca.server.routes.deps import (
    Body,
    HubDep,
    MaybeUser,
    UserDep,
    api_router,
    request_language,
)
from ludoteca.server.routes.tables import caught_up, table_ref
from ludoteca.server.state_rows import table_summary
from ludoteca.server.store import stamp
from ludoteca.server.table.commands import Record
from ludoteca.server.table.ref import TableRef
from ludoteca.server.table.snapshot import TableSnapshot
from ludoteca.server.waiting import your_turn

router = api_router()



# ---- replays and history ---------------------------------------------------------------------
async def _finished(
    hub: Hub, table_id: str, user: User | None, invite: str | None
) -> tuple[TableRef, MatchRecord]:
    ref = await table_ref(hub, table_id)
    may_see(ref.snapshot(), user, invite)
    await caught_up(hub, ref)
    reply = await ref.send(Record())
    if reply.snapshot.status != "finished" or reply.record is None:
        raise ServerError("not_finished", E.NOT_FINISHED, 409)
    return ref, reply.record


@router.get("/tables/{table_id}/record", summary="The finished match's record (JSON download)")
async def record(
    table_id: str, hub: HubDep, user: MaybeUser, invite: str | None = None
) -> Response:
    ref, record = await _finished(hub, table_id, user, invite)
    data = record.to_json()
    data["table"] = ref.table_id
    return JSONResponse(
        data,
        headers={"Content-Disposition": f'attachment; filename="ludoteca-{table_id}.json"'},
    )


@router.get("/tables/{table_id}/replay",
            summary="Step through a match: the table as it was after move `at`, as a seat saw it")
async def replay(
    table_id: str, hub: HubDep, request: Request, user: MaybeUser,
    at: Annotated[int, Query(ge=0)] = 0, invite: str | None = None,
    seat: Annotated[int | None, Query(ge=0)] = None,
) -> JSON:
    ref = await table_ref(hub, table_id)
    may_see(ref.snapshot(), user, invite)
    await caught_up(hub, ref)
    reply = await ref.send(Record())
    record = reply.record
    if record is None:
        raise ServerError("not_playing", E.NOT_PLAYING, 409)
    viewer = replay_viewer(reply.snapshot, user, seat)
    total = len(record.actions)
    at = min(at, total)
    lang = request_language(request)
    say = ref.voice(lang)
    game = get_game(reply.snapshot.game)
    replayed = Match.unplayed(game, record)
    events = [
        {**e, "text": game.render_event(e, say)}
        for e in replayed.opening_step().events_for(viewer)
    ]
    mover = None
    for mover, data in record.actions[:at]:
        step = replayed.step(mover, game.action_from_json(data))
        events = [{**e, "text": game.render_event(e, say)} for e in step.events_for(viewer)]
    return {
        "table": render_parts(reply.snapshot.summary(utcnow()), say),
        "at": at,
        "total": total,
        "seat": mover,
        "viewer": viewer,
        "events": events,
        "view": render_parts(replayed.view(viewer), say),
        "hints": [[ply, seat] for ply, seat in record.hints],
    }


def replay_viewer(table: TableSnapshot, user: User | None, seat: int | None) -> int | None:
    """Whose view a replay shows. Once the match is over nothing is hidden: any seat's (by
    default the asker's own, else a spectator's). Before, only what the asker saw: a player's
    own seat, a spectator's view for anyone else; asking for another seat is refused."""
    own = table.seat_of(user.id) if user is not None else None
    if seat is not None and seat >= table.players:
        raise ServerError("no_such_seat", E.NO_SUCH_SEAT, 400, seat=seat,
                          last=table.players - 1)
    if table.status == "finished":
        return seat if seat is not None else own
    if seat is not None and seat != own:
        raise ServerError("not_your_seat", E.NOT_YOUR_SEAT, 403)
    return own


@router.post("/tables/{table_id}/analysis", status_code=202,
             summary="Analyse a finished match (docs/analysis.md): made in the bot processes")
async def request_analysis(
    table_id: str, hub: HubDep, user: UserDep, request: Request, invite: str | None = None
) -> JSON:
    ref, record = await _finished(hub, table_id, user, invite)
    say = ref.voice(request_language(request))
    return await hub.analyses.request(ref.table_id, record, user.id, say)


@router.get("/tables/{table_id}/analysis",
            summary="A finished match's analysis: its progress, then the analysis itself")
async def analysis(
    table_id: str, hub: HubDep, user: MaybeUser, request: Request, invite: str | None = None
) -> JSON:
    ref, _record = await _finished(hub, table_id, user, invite)
    return await hub.analyses.state(ref.table_id, ref.voice(request_language(request)))


# ---- "Learn from your mistakes": a past decision of one's own, tried again -------------------
async def _own_decision(hub: Hub, table_id: str, user: User, invite: str | None,
                        at: int) -> tuple[TableRef, MatchRecord, JSON]:
    """The finished table, its record and the analysed move ``at``, if ``user`` played it."""
    ref, record = await _finished(hub, table_id, user, invite)
    row = await hub.store.analyses.get(ref.table_id)
    if row is None or row.status != "done" or row.result is None:
        raise ServerError("no_analysis", E.NO_ANALYSIS, 409)
    moves = row.result["moves"]
    if not 0 <= at < len(moves) or ref.snapshot().seat_of(user.id) != moves[at]["seat"]:
        raise ServerError("not_your_decision", E.NOT_YOUR_DECISION, 403)
    return ref, record, {**moves[at], "budget": row.budget, "seed": row.seed}


@router.get("/tables/{table_id}/analysis/decision",
            summary="Your own past decision (its view then and its legal moves), to try again")
async def own_decision(
    table_id: str, hub: HubDep, user: UserDep, request: Request,
    at: Annotated[int, Query(ge=0)], invite: str | None = None,
) -> JSON:
    ref, record, _move = await _own_decision(hub, table_id, user, invite, at)
    found = decision(record, at)
    say = ref.voice(request_language(request))
    return {"at": at, "seat": found.seat, "view": render_parts(found.view, say),
            "legal": [a.to_json() for a in found.legal]}


class Retry(Body):
    at: int
    action: JSON


@router.post("/tables/{table_id}/analysis/retry",
             summary="Value a move tried again at your own past decision, against the best")
async def retry(
    table_id: str, hub: HubDep, user: UserDep, body: Retry, invite: str | None = None,
) -> JSON:
    ref, record, move = await _own_decision(hub, table_id, user, invite, body.at)
    game = get_game(ref.snapshot().game)
    wanted = game.action_from_client(body.action)  # malformed_action when it cannot be read
    found = decision(record, body.at)
    if all(a.index != wanted.index for a in found.legal):
        raise ServerError("not_legal_then", E.NOT_LEGAL_THEN, 400)
    action = wanted.to_json()
    win = stored_value(move, action)
    if win is not None:
        return verdict(move, win, stored=True)
    win = await hub.bots.retry_value(record.to_json(), body.at, action, move["budget"],
                                     move["seed"], owner=("analysis", user.id))
    return verdict(move, win, stored=False)


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
        "rank": side_rank(result, seat),
        "rated": bool(result.get("ratings")),  # a rated table with a bot or a take-over is not
    }


@router.get("/users/{name}", summary="A player's page: ratings and finished matches "
            "(private tables' only to the player)")
async def player(name: str, hub: HubDep, asker: MaybeUser) -> JSON:
    user = await hub.store.user_named(name)
    if user is None:
        raise ServerError("no_such_user", E.NO_SUCH_USER, 404, name=name)
    own = asker is not None and asker.id == user.id
    history = await hub.store.history(user.id, private=own)
    done = await analysed(hub.store.sessions, [t.id for t, _ in history])
    return {
        "name": user.name,
        "display_name": user.display_name,
        "guest": user.guest,
        "ratings": [
            {"game": r.game, "pool": r.pool, "rating": shown(r.mu),
             "plus_minus": plus_minus(r.sigma), "mu": r.mu, "sigma": r.sigma, "games": r.games}
            for r in await hub.store.user_ratings(user.id)
        ],
        "matches": [{**_history_row(t, seat), "analysed": t.id in done}
                    for t, seat in history],
        "stats": await player_stats(hub.store.sessions, user.id, own),
        **(await relation(hub, asker, user)),
    }


async def relation(hub: Hub, asker: User | None, user: User) -> JSON:
    """What the asker's page buttons need: do they follow or block this player (nothing on
    one's own page or signed out)."""
    if asker is None or asker.id == user.id:
        return {}
    friends = FriendStore(hub.store.write, hub.store.sessions)
    return {"following": user.id in set(await friends.following(asker.id)),
            "blocked": await friends.blocks(asker.id, user.id)}


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
