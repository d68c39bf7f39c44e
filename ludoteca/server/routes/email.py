"""Email and notification choices: whether the arena sends email, a player's address and its
confirmation, the password reset by email, the notification preferences, and the one-click
unsubscribe (RFC 8058) that works without signing in. With no SMTP server set, every email
route answers 404 ``email_off``; the preferences still work (page and webhook)."""

from __future__ import annotations

import logging

from fastapi import Request, Response
from fastapi.responses import HTMLResponse
from pydantic import Field
from starlette.concurrency import run_in_threadpool

from ludoteca.engine.game import JSON
from ludoteca.server import auth, mail_words, notify_prefs
from ludoteca.server import errors as E
from ludoteca.server.errors import ServerError, language_from_header, voice
from ludoteca.server.hub import Hub
from ludoteca.server.routes.deps import Body, HubDep, UserDep, api_router, client_address
from ludoteca.server.settings import SettingError, mail_address
from ludoteca.server.store import Conflict

router = api_router()
log = logging.getLogger("ludoteca.accounts")


class Address(Body):
    email: str = Field(max_length=300)


class Link(Body):
    token: str = Field(max_length=200)


class Reset(Body):
    token: str = Field(max_length=200)
    password: str = Field(max_length=256)


class Preferences(Body):
    events: dict[str, dict[str, bool]] | None = Field(default=None, max_length=8)
    """``{event: {channel: on}}``: only those named change."""
    time_zone: str | None = Field(default=None, max_length=64)
    quiet_start: str | None = Field(default=None, max_length=5)
    """``"22:00"``; with ``quiet_end``; both null (sent as such) for no quiet hours."""
    quiet_end: str | None = Field(default=None, max_length=5)


def _on(hub: Hub) -> None:
    if hub.email is None or hub.account_mail is None:
        raise ServerError("email_off", E.EMAIL_OFF, 404)


def _address(raw: str) -> str:
    try:
        return mail_address("email", raw.strip())
    except SettingError:
        raise ServerError("bad_email", E.BAD_EMAIL, 422) from None


@router.get("/email", summary="Whether this arena sends email (an SMTP server is set)")
async def email_state(hub: HubDep) -> JSON:
    return {"enabled": hub.email is not None}


@router.post("/email", summary="Add or change your email address: a confirmation link is "
             "sent to it; the address is yours once the link is opened", status_code=202)
async def add_email(body: Address, request: Request, user: UserDep, hub: HubDep) -> JSON:
    _on(hub)
    if user.guest:
        raise ServerError("guest", E.EMAIL_GUESTS, 409)
    address = _address(body.email)
    hub.mail_ask_limit.hit("user:" + str(user.id))
    hub.mail_ask_limit.hit("ip:" + client_address(request))
    assert hub.account_mail is not None
    await hub.account_mail.confirm(user, address)
    return {"ok": True, "pending": address}


@router.post("/email/confirm", summary="Confirm an address with the link's token (no "
             "sign-in needed: the token is the proof); it works once")
async def confirm_email(body: Link, hub: HubDep) -> JSON:
    _on(hub)
    row = await hub.mail_store.use_token(auth.token_hash(body.token), "confirm")
    if row is None:
        raise ServerError("bad_link", E.BAD_EMAIL_LINK, 410)
    try:
        user = await hub.store.update_user(row.user_id, email=row.email,
                                           email_key=row.email.lower())
    except Conflict:
        raise ServerError("email_taken", E.EMAIL_TAKEN, 409) from None
    log.info("email confirmed", extra={"user": user.name})
    return {"ok": True, "email": user.email}


@router.delete("/email", summary="Remove your email address (no more emails, no reset by "
               "email)")
async def remove_email(user: UserDep, hub: HubDep) -> JSON:
    await hub.store.update_user(user.id, email=None, email_key=None)
    await hub.mail_store.drop_tokens(user.id, "confirm")
    await hub.mail_store.drop_tokens(user.id, "reset")
    return {"ok": True}


@router.post("/password/forgot", summary="Ask for a password-reset link by email: the same "
             "answer, at once, whether or not an account has the address", status_code=202)
async def forgot_password(body: Address, request: Request, hub: HubDep) -> JSON:
    _on(hub)
    hub.mail_ask_limit.hit("ip:" + client_address(request))
    address = _address(body.email)
    hub.reset_limit.hit("email:" + address.lower())
    assert hub.account_mail is not None
    hub.account_mail.ask_reset(address)
    return {"ok": True}


@router.post("/password/reset", summary="Choose a new password with the emailed link's token "
             "(once, before it expires); every session of the account ends")
async def reset_password(body: Reset, hub: HubDep) -> JSON:
    _on(hub)
    password = auth.check_password(body.password)  # a bad one does not spend the link
    row = await hub.mail_store.use_token(auth.token_hash(body.token), "reset")
    user = None if row is None else await hub.store.user(row.user_id)
    if row is None or user is None or user.email_key != row.email.lower():
        raise ServerError("bad_link", E.BAD_EMAIL_LINK, 410)
    hashed = await run_in_threadpool(auth.hash_password, password)
    await hub.store.update_user(user.id, password_hash=hashed)
    await hub.mail_store.drop_tokens(user.id, "reset")
    await hub.store.drop_sessions(user.id)
    hub.signed_out(user.id)
    log.info("password reset by email", extra={"user": user.name})
    return {"ok": True, "name": user.name}


# ---- preferences -----------------------------------------------------------------------------
async def _preferences(hub: Hub, user_id: int) -> JSON:
    user = await hub.store.user(user_id)
    assert user is not None
    return {
        "email_enabled": hub.email is not None,
        "email": user.email,
        "events": list(notify_prefs.EVENTS),
        "channels": list(notify_prefs.CHANNELS),
        "prefs": notify_prefs.prefs_of(user),
        "time_zone": user.time_zone,
        "quiet_start": notify_prefs.clock(user.quiet_start),
        "quiet_end": notify_prefs.clock(user.quiet_end),
        "webhook_url": user.webhook_url,
    }


@router.get("/notifications", summary="Your notification preferences: per event and channel, "
            "quiet hours and time zone, your email address")
async def preferences(user: UserDep, hub: HubDep) -> JSON:
    return await _preferences(hub, user.id)


@router.put("/notifications", summary="Change your notification preferences")
async def set_preferences(body: Preferences, user: UserDep, hub: HubDep) -> JSON:
    values: dict[str, object] = {}
    if body.events is not None:
        values["notify"] = notify_prefs.merged(user, notify_prefs.check_prefs(body.events))
    if body.time_zone is not None:
        values["time_zone"] = notify_prefs.check_zone(body.time_zone)
    if "quiet_start" in body.model_fields_set or "quiet_end" in body.model_fields_set:
        start = notify_prefs.minutes(body.quiet_start)
        end = notify_prefs.minutes(body.quiet_end)
        if (start is None) != (end is None):
            raise ServerError("bad_quiet_hours", E.BAD_QUIET, 422)
        values.update(quiet_start=start, quiet_end=end)
    if values:
        await hub.store.update_user(user.id, **values)
    return await _preferences(hub, user.id)


# ---- unsubscribe -----------------------------------------------------------------------------
def _page_language(request: Request) -> str:
    return language_from_header(request.headers.get("accept-language"))


@router.get("/unsubscribe", summary="The page an email's unsubscribe link opens (no sign-in): "
            "a button that posts to the same address")
async def unsubscribe_page(request: Request, hub: HubDep, token: str = "") -> Response:
    lang = _page_language(request)
    speak = voice(lang, folders=())
    if hub.email is None or await hub.email.links.read_unsubscribe(token[:200]) is None:
        return HTMLResponse(mail_words.unsubscribe_page(lang, speak.t(
            mail_words.UNSUBSCRIBE_BAD)), status_code=404)
    return HTMLResponse(mail_words.unsubscribe_page(
        lang, speak.t(mail_words.UNSUBSCRIBE_ASK), f"/api/unsubscribe?token={token}"))


@router.post("/unsubscribe", summary="One-click unsubscribe (RFC 8058): the signed token turns "
             "that event's email off, with no sign-in (mail clients post "
             "List-Unsubscribe=One-Click here)")
async def unsubscribe(request: Request, hub: HubDep, token: str = "") -> Response:
    lang = _page_language(request)
    speak = voice(lang, folders=())
    found = None if hub.email is None else await hub.email.links.read_unsubscribe(token[:200])
    user = None if found is None else await hub.store.user(found[0])
    if found is None or user is None:
        return HTMLResponse(mail_words.unsubscribe_page(lang, speak.t(
            mail_words.UNSUBSCRIBE_BAD)), status_code=404)
    notify = notify_prefs.merged(user, {found[1]: {"email": False}})
    await hub.store.update_user(user.id, notify=notify)
    log.info("unsubscribed", extra={"user": user.name, "event": found[1]})
    return HTMLResponse(mail_words.unsubscribe_page(
        user.language, voice(user.language, folders=()).t(mail_words.UNSUBSCRIBED)))
