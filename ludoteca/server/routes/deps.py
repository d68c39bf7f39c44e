"""What every HTTP route shares: who is asking (session, language, the hub) and the typed
refusal every route may answer with (``errors.py``; ``app.py`` turns errors into responses)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict

from ludoteca.bots import check_bot, level_name
from ludoteca.engine.errors import OptionError
from ludoteca.engine.game import Game
from ludoteca.games import game_names, get_game
from ludoteca.server import auth
from ludoteca.server import errors as E
from ludoteca.server.bot_pool import BOT_LEVELS
from ludoteca.server.db import User
from ludoteca.server.errors import ServerError, language_from_header
from ludoteca.server.hub import Hub


class ErrorOut(BaseModel):
    """Every refusal: a stable ``code`` to act on and a ``message`` in the person's language."""

    type: Literal["error"] = "error"
    code: str
    message: str



class Body(BaseModel):
    """A request body read as sent: no coercion (``"3"`` is not a number, ``"yes"`` not a
    boolean) and no unknown fields (a misspelt option is refused, not dropped)."""

    model_config = ConfigDict(strict=True, extra="forbid")


def api_router() -> APIRouter:
    """A router of ``/api`` routes that declares the typed refusal in the OpenAPI schema."""
    return APIRouter(prefix="/api", responses={
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


def game_named(name: str, status: int) -> Game[Any, Any]:
    try:
        return get_game(name)
    except OptionError:
        raise ServerError(
            "no_such_game", E.NO_SUCH_GAME, status, game=name, games=", ".join(game_names())
        ) from None


def bot_level(level: str, game: str) -> str:
    try:
        name = level_name(level)
        check_bot(name, game)
    except OptionError:
        raise ServerError(
            "bad_bot", E.BAD_BOT, level=level, known=", ".join(BOT_LEVELS)
        ) from None
    return name
