"""The HTTP JSON routes: accounts, games, lobby, tables, replays, history, ratings, streams.

Every refusal is a typed error (``errors.py``) in the person's language; the handlers in
``app.py`` turn them into ``{type: "error", code, message}`` responses.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from ludoteca.bots import check_bot, level_name
from ludoteca.engine.errors import OptionError
from ludoteca.engine.game import JSON, Game
from ludoteca.engine.i18n import LANGUAGES
from ludoteca.engine.match import Match
from ludoteca.engine.parts import render_parts
from ludoteca.games import entry, game_names, get_game
from ludoteca.server import auth
from ludoteca.server import errors as E
from ludoteca.server.bots import BOT_LEVELS
from ludoteca.server.db import Table, User
from ludoteca.server.errors import ServerError, language_from_header, voice
from ludoteca.server.hub import Hub
from ludoteca.server.ratings import display
from ludoteca.server.store import Conflict, stamp
from ludoteca.server.table import TableActor, table_summary


class ErrorOut(BaseModel):
    """Every refusal: a stable ``code`` to act on and a ``message`` in the person's language."""

    type: Literal["error"] = "error"
    code: str
    message: str


router = APIRouter(prefix="/api", responses={
    "4XX": {"model": ErrorOut, "description": "A typed refusal (`code`, `message`)"},
})


# ---- who is asking ---------------------------------------------------------------------------
def hub_of(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def optional_user(request: Request) -> User | None:
    if hasattr(request.state, "user"):
        found: User | None = request.state.user
        return found
    token = request.cookies.get(auth.COOKIE)
    user = None
    if token:
        user = await hub_of(request).store.session_user(auth.token_hash(token))
    request.state.user = user
    return user


async def current_user(request: Request) -> User:
    user = await optional_user(request)
    if user is None:
        raise ServerError("not_signed_in", E.NOT_SIGNED_IN, 401)
    return user


def request_language(request: Request) -> str:
    user = getattr(request.state, "user", None)
    if user is not None:
        return str(user.language)
    return language_from_header(request.headers.get("accept-language"))


HubDep = Annotated[Hub, Depends(hub_of)]
UserDep = Annotated[User, Depends(current_user)]
MaybeUser = Annotated[User | None, Depends(optional_user)]


def client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


# ---- bodies ----------------------------------------------------------------------------------
class Credentials(BaseModel):
    name: str = Field(max_length=64)
    password: str = Field(max_length=256)
    language: str | None = Field(default=None, max_length=8)


class Claim(BaseModel):
    password: str = Field(max_length=256)
    name: str | None = Field(default=None, max_length=64)


class Profile(BaseModel):
    display_name: str | None = Field(default=None, max_length=64)
    language: str | None = Field(default=None, max_length=8)
    webhook_url: str | None = Field(default=None, max_length=500)


class NewTable(BaseModel):
    game: str = Field(max_length=32)
    players: int = 2
    options: dict[str, Any] = Field(default_factory=dict)
    mode: Literal["live", "turn"] = "live"
    bank_seconds: float = 600.0
    increment_seconds: float = 10.0
    turn_hours: float = 24.0
    rated: bool = False
    private: bool = False
    bots: list[str | None] = Field(default_factory=list, max_length=8)
    """Bot levels for the seats after the host's, in order (None leaves a seat for a person)."""


class Join(BaseModel):
    seat: int | None = None
    invite: str | None = Field(default=None, max_length=64)


class AddBot(BaseModel):
    level: str = Field(max_length=16)
    seat: int | None = None


# ---- accounts --------------------------------------------------------------------------------
def me(user: User) -> JSON:
    return {
        "id": user.id,
        "name": user.name,
        "display_name": user.display_name,
        "guest": user.guest,
        "language": user.language,
        "webhook_url": user.webhook_url,
    }


async def _sign_in(request: Request, response: Response, user: User) -> JSON:
    hub = hub_of(request)
    token = auth.new_token()
    await hub.store.add_session(auth.token_hash(token), user.id, hub.settings.session_days)
    response.set_cookie(
        auth.COOKIE, token, max_age=hub.settings.session_days * 86400, httponly=True,
        samesite="lax", secure=request.url.scheme == "https", path="/",
    )
    request.state.user = user
    return me(user)


def _language(lang: str | None, request: Request) -> str:
    if lang is None:
        return language_from_header(request.headers.get("accept-language"))
    code = lang.strip().lower()
    if code not in LANGUAGES:
        raise ServerError("bad_language", E.BAD_LANGUAGE, lang=lang, known=", ".join(LANGUAGES))
    return code


@router.post("/signup", summary="Create an account and sign in")
async def sign_up(body: Credentials, request: Request, response: Response, hub: HubDep) -> JSON:
    hub.auth_limit.hit(client_address(request))
    name = auth.check_name(body.name)
    password = auth.check_password(body.password)
    lang = _language(body.language, request)
    hashed = await run_in_threadpool(auth.hash_password, password)
    try:
        user = await hub.store.add_user(name, hashed, guest=False, language=lang)
    except Conflict:
        raise ServerError("name_taken", E.NAME_TAKEN, 409, name=name) from None
    return await _sign_in(request, response, user)


@router.post("/signin", summary="Sign in with a name and password")
async def sign_in(body: Credentials, request: Request, response: Response, hub: HubDep) -> JSON:
    hub.auth_limit.hit(client_address(request))
    user = await hub.store.user_named(body.name)
    stored = user.password_hash if user is not None else None
    ok = await run_in_threadpool(auth.verify_password, stored, body.password)
    if user is None or not ok:
        raise ServerError("bad_credentials", E.BAD_CREDENTIALS, 401)
    return await _sign_in(request, response, user)


@router.post("/guest", summary="Play as a guest with a generated name")
async def guest(request: Request, response: Response, hub: HubDep) -> JSON:
    hub.auth_limit.hit(client_address(request))
    lang = language_from_header(request.headers.get("accept-language"))
    for _ in range(5):
        try:
            user = await hub.store.add_user(auth.guest_name(), None, guest=True, language=lang)
            break
        except Conflict:
            continue
    else:
        raise ServerError("server_error", E.SERVER_FAILED, 503)
    return await _sign_in(request, response, user)


@router.post("/claim", summary="Turn the guest account into a real one (keeps its history)")
async def claim(body: Claim, request: Request, user: UserDep, hub: HubDep) -> JSON:
    if not user.guest:
        raise ServerError("not_a_guest", E.NOT_A_GUEST, 409)
    password = auth.check_password(body.password)
    values: dict[str, Any] = {"guest": False}
    if body.name is not None:
        name = auth.check_name(body.name)
        values.update(name=name, name_key=name.lower(), display_name=name)
    values["password_hash"] = await run_in_threadpool(auth.hash_password, password)
    try:
        user = await hub.store.update_user(user.id, **values)
    except Conflict:
        raise ServerError("name_taken", E.NAME_TAKEN, 409, name=body.name) from None
    _tell_tables(hub, user)
    return me(user)


@router.post("/signout", summary="Sign out (ends this session)")
async def sign_out(request: Request, response: Response, hub: HubDep) -> JSON:
    token = request.cookies.get(auth.COOKIE)
    if token:
        await hub.store.drop_session(auth.token_hash(token))
    response.delete_cookie(auth.COOKIE, path="/")
    return {"ok": True}


@router.get("/session", summary="Who is signed in: your account, or null (never 401)")
async def session(user: MaybeUser) -> JSON:
    """The browser asks this first: a signed-out visitor is an answer, not an error."""
    return {"me": me(user) if user else None}


@router.get("/me", summary="The signed-in player")
async def who_am_i(user: UserDep) -> JSON:
    return me(user)


@router.patch("/me", summary="Change the display name, language or turn webhook")
async def update_me(body: Profile, user: UserDep, hub: HubDep, request: Request) -> JSON:
    values: dict[str, Any] = {}
    if body.display_name is not None:
        values["display_name"] = auth.check_name(body.display_name)
    if body.language is not None:
        values["language"] = _language(body.language, request)
    if body.webhook_url is not None:
        url = body.webhook_url.strip()
        if url and not _web_address(url):
            raise ServerError("bad_webhook", E.BAD_WEBHOOK)
        values["webhook_url"] = url or None
    if values:
        user = await hub.store.update_user(user.id, **values)
        _tell_tables(hub, user)
    return me(user)


def _web_address(url: str) -> bool:
    """An http(s) address with a host (and a port that exists, if it names one)."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 -- raises ValueError when out of range
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname)


def _tell_tables(hub: Hub, user: User) -> None:
    """Live tables keep their players' rows (names, languages, webhooks): give them the new
    one (in every process)."""
    hub.user_changed(user)


# ---- games -----------------------------------------------------------------------------------
@router.get("/games", summary="Every registered game, with its option schema and bot levels")
async def games() -> list[JSON]:
    out = []
    for name in game_names():
        game = get_game(name)
        levels = [lv for lv in BOT_LEVELS if lv != "greedy" or entry(name).greedy is not None]
        out.append({**game.spec.to_json(), "bots": levels})
    return out


# ---- lobby -----------------------------------------------------------------------------------
@router.get("/tables", summary="Public tables that are open or being played")
async def tables(
    hub: HubDep, status: Annotated[Literal["open", "playing", "all"], Query()] = "all"
) -> list[JSON]:
    statuses = ["open", "playing"] if status == "all" else [status]
    rows = await hub.store.tables(statuses)
    seats = await hub.store.seats_of([t.id for t in rows])
    ids = {s.user_id for group in seats.values() for s in group if s.user_id is not None}
    users = await hub.store.users([*ids, *(t.host_id for t in rows)])
    return [
        table_summary(t, seats[t.id], users, get_game(t.game).spec.title) for t in rows
    ]


def _check_clock(body: NewTable) -> None:
    if body.mode == "live":
        if not 10 <= body.bank_seconds <= 3 * 3600:
            raise ServerError("bad_clock", E.BAD_CLOCK, detail="10 s - 3 h")
        if not 0 <= body.increment_seconds <= 300:
            raise ServerError("bad_clock", E.BAD_CLOCK, detail="0 - 300 s")
    elif not 1 <= body.turn_hours <= 14 * 24:
        raise ServerError("bad_clock", E.BAD_CLOCK, detail="1 h - 14 d")


@router.post("/tables", summary="Open a table (you take the first seat)")
async def create_table(body: NewTable, user: UserDep, hub: HubDep) -> JSON:
    hub.create_limit.hit(f"user:{user.id}")
    game = _game(body.game, 400)
    options = game.validate(body.options, body.players)
    _check_clock(body)
    bots: list[str | None] = []
    for level in body.bots[: body.players - 1]:
        if level is None:
            bots.append(None)
            continue
        bots.append(_bot_level(level, game.spec.name))
    table = Table(
        game=game.spec.name, players=body.players, options=options, mode=body.mode,
        bank_seconds=body.bank_seconds if body.mode == "live" else 0.0,
        increment_seconds=body.increment_seconds if body.mode == "live" else 0.0,
        turn_hours=body.turn_hours if body.mode == "turn" else 0.0,
        rated=body.rated, private=body.private, zombie=False,
    )
    actor = await hub.create(user, table, bots)
    return _for_member(actor, user)


def _game(name: str, status: int) -> Game[Any, Any]:
    try:
        return get_game(name)
    except OptionError:
        raise ServerError(
            "no_such_game", E.NO_SUCH_GAME, status, game=name, games=", ".join(game_names())
        ) from None


def _bot_level(level: str, game: str) -> str:
    try:
        name = level_name(level)
        check_bot(name, game)
    except OptionError:
        raise ServerError(
            "bad_bot", E.BAD_BOT, level=level, known=", ".join(BOT_LEVELS)
        ) from None
    return name


def _for_member(actor: TableActor, user: User | None) -> JSON:
    """The table's summary; its host and players also get the invite link's token."""
    out = actor.summary()
    if user is not None and (user.id == actor.table.host_id or actor.seat_of(user.id) is not None):
        out["invite"] = actor.table.invite
    return out


async def _actor(hub: Hub, table_id: str) -> TableActor:
    actor = await hub.actor(table_id)
    if actor is None:
        raise ServerError("no_such_table", E.NO_SUCH_TABLE, 404, table=table_id)
    return actor


def _may_see(actor: TableActor, user: User | None, invite: str | None) -> None:
    table = actor.table
    if not table.private or invite == table.invite:
        return
    if user is not None and (user.id == table.host_id or actor.seat_of(user.id) is not None):
        return
    raise ServerError("wrong_invite", E.WRONG_INVITE, 403)


@router.get("/tables/{table_id}", summary="One table (private tables need their invite)")
async def table(
    table_id: str, hub: HubDep, user: MaybeUser, invite: str | None = None
) -> JSON:
    actor = await _actor(hub, table_id)
    _may_see(actor, user, invite)
    return _for_member(actor, user)


@router.post("/tables/{table_id}/join", summary="Take a free seat (the table starts when full)")
async def join(table_id: str, body: Join, user: UserDep, hub: HubDep) -> JSON:
    actor = await _actor(hub, table_id)
    seat = _seat_index(actor, body.seat)
    await _command(actor, lambda: actor.join(user, seat, body.invite))
    return _for_member(actor, user)


@router.post("/tables/{table_id}/leave",
             summary="Leave a table (while it is played, a bot takes over your seat)")
async def leave(table_id: str, user: UserDep, hub: HubDep) -> JSON:
    actor = await _actor(hub, table_id)
    await _command(actor, lambda: actor.leave(user))
    return actor.summary()


@router.post("/tables/{table_id}/bots", summary="Seat a bot (host or a seated player)")
async def add_bot(table_id: str, body: AddBot, user: UserDep, hub: HubDep) -> JSON:
    actor = await _actor(hub, table_id)
    level = _bot_level(body.level, actor.table.game)
    seat = _seat_index(actor, body.seat)
    await _command(actor, lambda: actor.add_bot(user, level, seat))
    return _for_member(actor, user)


async def _command(actor: TableActor, command: Callable[[], Awaitable[None]]) -> None:
    """A lobby command, run in the table's actor. A finished or abandoned table loaded from
    the store has no actor running (``call`` would wait forever), and there these commands
    only refuse, changing nothing: run them here."""
    if actor.task is None or actor.task.done():
        await command()
    else:
        await actor.call(command)


def _seat_index(actor: TableActor, seat: int | None) -> int | None:
    """Seats are numbered from 0 on the wire, as in table summaries and the ``you`` of a table
    message (screens show them from 1)."""
    if seat is None:
        return None
    if not 0 <= seat < actor.table.players:
        raise ServerError("no_such_seat", E.NO_SUCH_SEAT, 400, seat=seat,
                          last=actor.table.players - 1)
    return seat


@router.post("/tables/{table_id}/rematch",
             summary="A new table with the same game, options and seats, started at once")
async def rematch(table_id: str, user: UserDep, hub: HubDep) -> JSON:
    actor = await _actor(hub, table_id)
    if actor.seat_of(user.id) is None:
        raise ServerError("not_seated", E.NOT_SEATED, 403)
    await _caught_up(hub, actor)
    if actor.table.status != "finished":
        raise ServerError("not_finished", E.NOT_FINISHED, 409)
    new = await hub.rematch(actor, user)
    return _for_member(new, user)


async def _caught_up(hub: Hub, actor: TableActor) -> None:
    """One of several processes: a table this one holds may have ended on another a moment
    ago (its notice still on the way), so a question about its end reads it again first."""
    if hub.cluster is not None and actor.table.status in ("open", "playing"):
        await _command(actor, actor.catch_up)


# ---- replays and history ---------------------------------------------------------------------
async def _finished(
    hub: Hub, table_id: str, user: User | None, invite: str | None
) -> tuple[TableActor, Match]:
    actor = await _actor(hub, table_id)
    _may_see(actor, user, invite)
    await _caught_up(hub, actor)
    if actor.table.status != "finished" or actor.match is None:
        raise ServerError("not_finished", E.NOT_FINISHED, 409)
    return actor, actor.match


@router.get("/tables/{table_id}/record", summary="The finished match's record (JSON download)")
async def record(
    table_id: str, hub: HubDep, user: MaybeUser, invite: str | None = None
) -> Response:
    actor, match = await _finished(hub, table_id, user, invite)
    data = match.record.to_json()
    data["table"] = actor.table.id
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
    say = actor.voice(lang)
    game = actor.game
    replayed = Match.unplayed(game, record)
    events = [
        {**e, "text": game.render_event(e, say)} for e in replayed.opening_step().events_for(None)
    ]
    seat = None
    for seat, data in record.actions[:at]:
        step = replayed.step(seat, game.action_from_json(data))
        events = [{**e, "text": game.render_event(e, say)} for e in step.events_for(None)]
    return {
        "table": render_parts(actor.summary(), say),
        "at": at,
        "total": total,
        "seat": seat,
        "events": events,
        "view": render_parts(replayed.view(None), say),
    }


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


@router.get("/users/{name}", summary="A player's page: ratings and finished matches")
async def player(name: str, hub: HubDep) -> JSON:
    user = await hub.store.user_named(name)
    if user is None:
        raise ServerError("no_such_user", E.NO_SUCH_USER, 404, name=name)
    history = await hub.store.history(user.id)
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


@router.get("/me/tables", summary="Your open and running tables")
async def my_tables(user: UserDep, hub: HubDep) -> list[JSON]:
    rows = await hub.store.playing(user.id)
    seats = await hub.store.seats_of([t.id for t in rows])
    ids = {s.user_id for group in seats.values() for s in group if s.user_id is not None}
    users = await hub.store.users([*ids, *(t.host_id for t in rows)])
    return [table_summary(t, seats[t.id], users, get_game(t.game).spec.title) for t in rows]


@router.get("/leaderboard/{game}", summary="The game's rated players, best first")
async def leaderboard(game: str, hub: HubDep) -> list[JSON]:
    name = _game(game, 404).spec.name
    return [
        {"name": u.name, "display_name": u.display_name, "rating": display(r.mu, r.sigma),
         "mu": r.mu, "sigma": r.sigma, "games": r.games}
        for r, u in await hub.store.leaderboard(name)
    ]


# ---- streams ---------------------------------------------------------------------------------
@router.get(
    "/events",
    summary="Server-sent events: lobby changes for everyone; your turns and finished matches",
    response_class=StreamingResponse,
)
async def events(request: Request, hub: HubDep, user: MaybeUser) -> StreamingResponse:
    uid = user.id if user is not None else None
    queue = hub.subscribe(uid)

    async def stream() -> AsyncIterator[str]:
        try:
            yield ": ludoteca\n\n"
            while not hub.closing:
                try:
                    text = await asyncio.wait_for(queue.get(), 15)
                except TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                kind = json.loads(text).get("type", "message")
                yield f"event: {kind}\ndata: {text}\n\n"
                if kind == "reconnect":
                    break
        finally:
            hub.unsubscribe(uid, queue)

    return StreamingResponse(
        stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"}
    )


def say_error(exc: Exception, lang: str) -> str:
    return str(getattr(exc, "say", lambda v: str(exc))(voice(lang)))
