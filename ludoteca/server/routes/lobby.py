"""The lobby: the games and their options, public tables, opening a table, leaderboards."""

from __future__ import annotations

import functools
import gzip
import json
from typing import Annotated, Any, Literal

from fastapi import Query, Request, Response
from pydantic import Field

from ludoteca.engine.game import JSON, Game
from ludoteca.games import entry, game_names, get_game
from ludoteca.rating_scale import plus_minus, shown
from ludoteca.server import errors as E
from ludoteca.server.access import for_member
from ludoteca.server.bot_pool import BOT_LEVELS
from ludoteca.server.db import Table, utcnow
from ludoteca.server.errors import ServerError
from ludoteca.server.game_assets import web_info
from ludoteca.server.pools import ALL, BOTS, PoolRules
from ludoteca.server.routes.deps import (
    Body,
    HubDep,
    UserDep,
    api_router,
    bot_level,
    game_named,
)
from ludoteca.server.seasons import SEASON_NAME
from ludoteca.server.state_rows import table_summary

router = api_router()


class NewTable(Body):
    game: str = Field(max_length=32)
    players: int = 2
    options: dict[str, Any] = Field(default_factory=dict)
    mode: Literal["live", "turn"] = "live"
    bank_seconds: float = 600.0
    increment_seconds: float = 10.0
    turn_hours: float = 24.0
    rated: bool = False
    private: bool = False
    hints: bool = False
    """The coach's hints are allowed (never in a rated match)."""
    bots: list[str | None] = Field(default_factory=list, max_length=8)
    """Bot levels for the seats after the host's, in order (None leaves a seat for a person)."""



# ---- games -----------------------------------------------------------------------------------
@router.get("/games", summary="Every registered game: its option schema and labels, bot levels, "
            "and its web renderer's URL", response_model=list[JSON])
async def games(request: Request) -> Response:
    """The same for everyone and every request, so made once and sent compressed when the
    browser takes gzip: 12 KB of JSON, the biggest answer a page waits for, is 2 KB so."""
    plain, packed = games_body(tuple(game_names()), request.app.state.pool_rules)
    vary = {"vary": "Accept-Encoding"}
    if "gzip" in request.headers.get("accept-encoding", "").lower():
        return Response(packed, media_type="application/json",
                        headers={**vary, "content-encoding": "gzip"})
    return Response(plain, media_type="application/json", headers=vary)


@functools.lru_cache(maxsize=4)
def games_body(names: tuple[str, ...], rules: PoolRules) -> tuple[bytes, bytes]:
    """``/api/games`` as JSON bytes, plain and gzipped (keyed by the registered games and the
    rating rules, whose ladders say which bots a rated table takes)."""
    out = []
    for name in names:
        game = get_game(name)
        levels = [lv for lv in BOT_LEVELS if lv != "greedy" or entry(name).greedy is not None]
        rated = {str(n): anchored for n in range(game.spec.min_players, game.spec.max_players + 1)
                 if (anchored := [lv for lv in levels if rules.rated_with_bots(name, n, [lv])])}
        out.append({**game.spec.to_json(), "bots": levels, "rated_bots": rated, **web_info(name)})
    plain = json.dumps(out, ensure_ascii=False, separators=(",", ":")).encode()
    return plain, gzip.compress(plain, mtime=0)


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


def check_types(game: Game[Any, Any], options: dict[str, Any]) -> None:
    """Options as JSON types: the engine also reads the command line's text (``"true"``,
    ``"10"``), which a JSON client has no reason to send."""
    for option in game.spec.options:
        raw = options.get(option.name)
        if raw is None:
            continue
        if option.type is bool and not isinstance(raw, bool):
            raise ServerError("bad_option", E.OPTION_NOT_BOOL, 400, option=option.name,
                              value=json.dumps(raw)[:100])
        if option.type is int and (isinstance(raw, bool) or not isinstance(raw, int)):
            raise ServerError("bad_option", E.OPTION_NOT_INT, 400, option=option.name,
                              value=json.dumps(raw)[:100])


def check_clock(mode: str, bank_seconds: float, increment_seconds: float,
                turn_hours: float) -> None:
    if mode == "live":
        if not 10 <= bank_seconds <= 3 * 3600:
            raise ServerError("bad_clock", E.BAD_CLOCK, detail="10 s - 3 h")
        if not 0 <= increment_seconds <= 300:
            raise ServerError("bad_clock", E.BAD_CLOCK, detail="0 - 300 s")
    elif not 1 <= turn_hours <= 14 * 24:
        raise ServerError("bad_clock", E.BAD_CLOCK, detail="1 h - 14 d")


@router.post("/tables", summary="Open a table (you take the first seat)")
async def create_table(body: NewTable, user: UserDep, hub: HubDep) -> JSON:
    hub.create_limit.hit(f"user:{user.id}")
    game = game_named(body.game, 400)
    check_types(game, body.options)
    options = game.validate(body.options, body.players)
    check_clock(body.mode, body.bank_seconds, body.increment_seconds, body.turn_hours)
    if len(body.bots) > body.players - 1:
        raise ServerError("extra_bots", E.EXTRA_BOTS, 422, count=len(body.bots),
                          seats=body.players)
    bots: list[str | None] = []
    for level in body.bots:
        if level is None:
            bots.append(None)
            continue
        bots.append(bot_level(level, game.spec.name))
    if body.rated:  # a bot without a ladder rating would quietly leave it unrated: say so
        for level in dict.fromkeys(b for b in bots if b is not None):
            if not hub.store.pools.rules.rated_with_bots(game.spec.name, body.players, [level]):
                raise ServerError("no_ladder", E.NO_LADDER, 400, level=level,
                                  game=game.spec.title, players=body.players)
    if body.rated and body.hints:
        raise ServerError("hints_rated", E.HINTS_RATED, 400)
    table = Table(
        game=game.spec.name, players=body.players, options=options, mode=body.mode,
        bank_seconds=body.bank_seconds if body.mode == "live" else 0.0,
        increment_seconds=body.increment_seconds if body.mode == "live" else 0.0,
        turn_hours=body.turn_hours if body.mode == "turn" else 0.0,
        rated=body.rated, private=body.private, hints=body.hints, zombie=False,
    )
    async with hub.account_limits.hold(user.id):  # what the account may run at once
        await hub.account_limits.check_table(user.id, bots)
        ref = await hub.tables.create(user, table, bots)
    return for_member(ref.snapshot(), user)



@router.get("/leaderboard/{game}", summary="The game's rated players in one rating pool "
            "(all-time, a season's, or against bots), surest strongest first")
async def leaderboard(
    game: str, hub: HubDep, pool: Annotated[str, Query(max_length=40)] = ALL
) -> list[JSON]:
    name = game_named(game, 404).spec.name
    season = pool.removeprefix("season:")
    if pool not in (ALL, BOTS) and (season == pool or not SEASON_NAME.fullmatch(season)):
        raise ServerError("bad_pool", E.BAD_POOL, 400, pool=pool[:40], game=name)
    return [
        {"name": u.name, "display_name": u.display_name, "rating": shown(r.mu),
         "plus_minus": plus_minus(r.sigma), "mu": r.mu, "sigma": r.sigma, "games": r.games}
        for r, u in await hub.store.leaderboard(name, pool)
    ]


@router.get("/seasons/{game}", summary="The game's rating seasons: the current one and every "
            "season with standings, newest first")
async def seasons(game: str, hub: HubDep) -> list[JSON]:
    name = game_named(game, 404).spec.name
    rules = hub.store.pools.rules.seasons
    current = rules.of(utcnow())
    ids = {pool.removeprefix("season:") for pool in await hub.store.season_pools(name)}
    if current is not None:
        ids.add(current.id)
    found = sorted((rules.named(i) for i in ids), reverse=True,
                   key=lambda s: (s.start is not None, s.start or utcnow(), s.id))
    return [{**s.to_json(), "current": current is not None and s.id == current.id}
            for s in found]
