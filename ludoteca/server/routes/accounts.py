"""Accounts: sign up, sign in, guests and their claim, sign out, the profile."""

from __future__ import annotations

from typing import Any

from fastapi import Request, Response
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from ludoteca.engine.game import JSON
from ludoteca.engine.i18n import LANGUAGES
from ludoteca.server import auth
from ludoteca.server import errors as E
from ludoteca.server.db import User
from ludoteca.server.errors import ServerError, language_from_header
from ludoteca.server.hub import Hub
from ludoteca.server.routes.deps import (
    HubDep,
    MaybeUser,
    UserDep,
    api_router,
    client_address,
    hub_of,
)
from ludoteca.server.store import Conflict

router = api_router()


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
        if url:
            await hub.webhook_targets.check(url)  # a public address (webhook_targets.py)
        values["webhook_url"] = url or None
    if values:
        user = await hub.store.update_user(user.id, **values)
        _tell_tables(hub, user)
    return me(user)


def _tell_tables(hub: Hub, user: User) -> None:
    """Live tables keep their players' rows (names, languages, webhooks): give them the new
    one (in every process)."""
    hub.user_changed(user)


