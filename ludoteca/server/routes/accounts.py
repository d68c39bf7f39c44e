"""Accounts: sign up, sign in, guests and their claim, sign out (here or everywhere else),
the profile, the password, and deleting one's account."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import Request, Response
from pydantic import Field
from starlette.concurrency import run_in_threadpool

from ludoteca.engine.game import JSON
from ludoteca.engine.i18n import LANGUAGES
from ludoteca.server import auth, names
from ludoteca.server import errors as E
from ludoteca.server.account_deletion import forget_account
from ludoteca.server.db import User
from ludoteca.server.errors import ServerError, language_from_header
from ludoteca.server.hub import Hub
from ludoteca.server.routes.deps import (
    Body,
    HubDep,
    MaybeUser,
    UserDep,
    api_router,
    client_address,
    hub_of,
)
from ludoteca.server.store import Conflict

router = api_router()
log = logging.getLogger("ludoteca.accounts")


class Credentials(Body):
    name: str = Field(max_length=64)
    password: str = Field(max_length=256)
    language: str | None = Field(default=None, max_length=8)


class Claim(Body):
    password: str = Field(max_length=256)
    name: str | None = Field(default=None, max_length=64)


class PasswordChange(Body):
    current: str = Field(max_length=256)
    new: str = Field(max_length=256)


class Deletion(Body):
    password: str | None = Field(default=None, max_length=256)
    """The account's password (guests have none)."""


class Profile(Body):
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


async def _sign_in(request: Request, response: Response, user: User,
                   rotate: bool = True) -> JSON:
    """A new session (and cookie) for ``user``. With ``rotate``, the session the request came
    with ends: a token is never carried across a sign-in, so one planted in a browser or read
    before cannot follow it. (Signing up or taking a guest account keeps it: it may be a
    guest's, whose only key it is.)"""
    hub = hub_of(request)
    old = request.cookies.get(auth.COOKIE)
    if old and rotate:
        await hub.store.drop_session(auth.token_hash(old))
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


async def _unlike_others(hub: Hub, name: str, user_id: int | None) -> None:
    """Refuse a name that looks like another account's sign-in or display name."""
    if await hub.store.name_clash(names.fold(name), user_id):
        raise ServerError("name_lookalike", E.NAME_LOOKALIKE, 409, name=name)


@router.post("/signup", summary="Create an account and sign in")
async def sign_up(body: Credentials, request: Request, response: Response, hub: HubDep) -> JSON:
    hub.auth_limit.hit(client_address(request))
    name = names.check_sign_in_name(body.name)
    password = auth.check_password(body.password)
    if await hub.store.user_named(name) is None:  # the same name: name_taken, below
        await _unlike_others(hub, name, None)
    lang = _language(body.language, request)
    hashed = await run_in_threadpool(auth.hash_password, password)
    try:
        user = await hub.store.add_user(name, hashed, guest=False, language=lang)
    except Conflict:
        raise ServerError("name_taken", E.NAME_TAKEN, 409, name=name) from None
    return await _sign_in(request, response, user, rotate=False)


@router.post("/signin", summary="Sign in with a name and password")
async def sign_in(body: Credentials, request: Request, response: Response, hub: HubDep) -> JSON:
    hub.auth_limit.hit(client_address(request))
    account = "name:" + names.fold(body.name)  # look-alike spellings share one count
    hub.account_signin_limit.check(account)
    user = await hub.store.user_named(body.name)
    stored = user.password_hash if user is not None else None
    ok = await run_in_threadpool(auth.verify_password, stored, body.password)
    if user is None or not ok:
        hub.account_signin_limit.count_one(account)
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
    return await _sign_in(request, response, user, rotate=False)


@router.post("/claim", summary="Turn the guest account into a real one (keeps its history); "
             "the session's token is replaced")
async def claim(body: Claim, request: Request, response: Response, user: UserDep,
                hub: HubDep) -> JSON:
    if not user.guest:
        raise ServerError("not_a_guest", E.NOT_A_GUEST, 409)
    password = auth.check_password(body.password)
    values: dict[str, Any] = {"guest": False}
    if body.name is not None:
        name = names.check_sign_in_name(body.name)
        other = await hub.store.user_named(name)
        if other is not None and other.id != user.id:
            raise ServerError("name_taken", E.NAME_TAKEN, 409, name=name)
        await _unlike_others(hub, name, user.id)
        values.update(name=name, name_key=name.lower(), display_name=name,
                      name_fold=names.fold(name), display_fold=names.fold(name))
    values["password_hash"] = await run_in_threadpool(auth.hash_password, password)
    try:
        user = await hub.store.update_user(user.id, **values)
    except Conflict:
        raise ServerError("name_taken", E.NAME_TAKEN, 409, name=body.name) from None
    await _tell_tables(hub, user)
    # whoever knew the guest's token (it was the whole account) must not keep the account
    answer = await _sign_in(request, response, user)
    hub.signed_out(user.id)
    return answer


@router.post("/password", summary="Change your password (needs the current one); every other "
             "session ends and this one's token is replaced")
async def change_password(body: PasswordChange, request: Request, response: Response,
                          user: UserDep, hub: HubDep) -> JSON:
    if user.password_hash is None:
        raise ServerError("no_password", E.NO_PASSWORD, 409)
    hub.account_signin_limit.check("name:" + user.name_fold)
    ok = await run_in_threadpool(auth.verify_password, user.password_hash, body.current)
    if not ok:
        hub.account_signin_limit.count_one("name:" + user.name_fold)
        raise ServerError("wrong_password", E.WRONG_PASSWORD, 403)
    password = auth.check_password(body.new)
    hashed = await run_in_threadpool(auth.hash_password, password)
    user = await hub.store.update_user(user.id, password_hash=hashed)
    await hub.store.drop_sessions(user.id)
    log.info("password changed", extra={"user": user.name})
    answer = await _sign_in(request, response, user)
    hub.signed_out(user.id)
    return answer


@router.post("/signout/others", summary="Sign out everywhere else: every other session of "
             "your account ends; this one stays, with a new token")
async def sign_out_others(request: Request, response: Response, user: UserDep,
                          hub: HubDep) -> JSON:
    token = request.cookies.get(auth.COOKIE) or ""
    ended = await hub.store.drop_sessions(user.id, keep=auth.token_hash(token))
    log.info("signed out everywhere else", extra={"user": user.name, "sessions": ended})
    answer = {**await _sign_in(request, response, user), "sessions_ended": ended}
    hub.signed_out(user.id)
    return answer


@router.delete("/me", summary="Delete your account: sessions end, seats at open tables are "
               "freed (a bot plays on at running ones), history stays under an anonymous name")
async def delete_me(request: Request, response: Response, user: UserDep, hub: HubDep,
                    body: Deletion | None = None) -> JSON:
    if user.password_hash is not None:
        given = body.password if body is not None and body.password is not None else ""
        hub.account_signin_limit.check("name:" + user.name_fold)
        if not await run_in_threadpool(auth.verify_password, user.password_hash, given):
            hub.account_signin_limit.count_one("name:" + user.name_fold)
            raise ServerError("wrong_password", E.WRONG_PASSWORD, 403)
    anonymous = await forget_account(hub, user) or None  # None: the row went whole
    response.delete_cookie(auth.COOKIE, path="/")
    log.info("account deleted", extra={"user_id": user.id, "now": anonymous})
    return {"ok": True, "name": anonymous}


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
        display = names.check_display_name(body.display_name)
        if names.fold(display) != user.name_fold:  # one's own name is one's own
            await _unlike_others(hub, display, user.id)
        values.update(display_name=display, display_fold=names.fold(display))
    if body.language is not None:
        values["language"] = _language(body.language, request)
    if body.webhook_url is not None:
        url = body.webhook_url.strip()
        if url:
            await hub.webhook_targets.check(url)  # a public address (webhook_targets.py)
        values["webhook_url"] = url or None
    if values:
        user = await hub.store.update_user(user.id, **values)
        await _tell_tables(hub, user)
    return me(user)


async def _tell_tables(hub: Hub, user: User) -> None:
    """Live tables keep their players' rows (names, languages, webhooks): give them the new
    one (in every process)."""
    await hub.user_changed(user)


