"""Web Push: the arena's public VAPID key (the page subscribes with it) and a player's
browsers (``push_subscriptions``): add this one, list them, remove one. What is pushed, and
when, is the notification service's (``notify.py``)."""

from __future__ import annotations

import base64
import binascii

from pydantic import Field

from ludoteca.engine.game import JSON
from ludoteca.server import errors as E
from ludoteca.server.errors import ServerError
from ludoteca.server.push_rows import PushSubscription
from ludoteca.server.routes.deps import Body, HubDep, UserDep, api_router

router = api_router()
ID_MAX = 2**31 - 1
"""The largest row id (an INTEGER on PostgreSQL): a bigger one in the path is no device, not a
database overflow (a 500)."""


class Keys(Body):
    p256dh: str = Field(max_length=128)
    auth: str = Field(max_length=64)


class Subscription(Body):
    """What the browser's ``PushSubscription.toJSON()`` gives, and a name for the device."""

    endpoint: str = Field(max_length=1024)
    keys: Keys
    expirationTime: int | None = None
    label: str = Field(default="", max_length=80)


def _raw(value: str, size: int) -> bytes:
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise ServerError("bad_push", E.BAD_PUSH, 422) from None
    if len(raw) != size:
        raise ServerError("bad_push", E.BAD_PUSH, 422)
    return raw


def _device(row: PushSubscription) -> JSON:
    return {"id": row.id, "label": row.label, "created_at": row.created_at.isoformat(),
            "endpoint_host": row.endpoint.split("/")[2]}


@router.get("/push", summary="Web Push: the arena's public VAPID key (the page's "
            "applicationServerKey)")
async def push_state(hub: HubDep) -> JSON:
    sender = hub.push_sender
    return {"enabled": sender is not None,
            "public_key": sender.keys.public if sender is not None else None}


@router.get("/push/devices", summary="Your browsers that get push notifications")
async def devices(user: UserDep, hub: HubDep) -> JSON:
    return {"devices": [_device(row) for row in await hub.push_store.devices(user.id)]}


@router.post("/push/devices", summary="Add this browser's push subscription to your account "
             "(an endpoint already known moves to you); at most 10 a player, the oldest goes",
             status_code=201)
async def subscribe(body: Subscription, user: UserDep, hub: HubDep) -> JSON:
    point = _raw(body.keys.p256dh, 65)
    _raw(body.keys.auth, 16)
    label = "".join(c for c in body.label if c.isprintable()).strip()
    if point[0] != 4 or hub.push_sender is None:
        raise ServerError("bad_push", E.BAD_PUSH, 422)
    try:
        target, _ = await hub.webhook_targets.check(body.endpoint)
    except ServerError:
        raise ServerError("bad_push", E.BAD_PUSH, 422) from None
    if target.scheme != "https" and not hub.push_sender.http_allowed:
        raise ServerError("bad_push", E.BAD_PUSH, 422)
    row = await hub.push_store.subscribe(user.id, body.endpoint, body.keys.p256dh,
                                         body.keys.auth, label or target.host[:80])
    return _device(row)


@router.delete("/push/devices/{device_id}", summary="Stop push notifications to one of your "
               "browsers")
async def unsubscribe(device_id: int, user: UserDep, hub: HubDep) -> JSON:
    if not 0 < device_id <= ID_MAX or not await hub.push_store.remove(device_id, user.id):
        raise ServerError("no_such_device", E.NO_SUCH_DEVICE, 404)
    return {"ok": True}
