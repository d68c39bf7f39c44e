"""Web Push (RFC 8030, 8291, 8292): the arena's VAPID key pair, made once and kept in the
database like the unsubscribe key; each message is an outbox row first (``push_store``), and
one sender task per process claims due rows, encrypts them (aes128gcm) for the browser's keys,
signs a VAPID JWT and posts them to the browser's push service, retrying with backoff. A push
service that answers 404 or 410 has dropped the subscription: so does the arena.

pywebpush does the encryption (``WebPusher.encode``, over http_ece) and py_vapid the signing;
both are a few milliseconds of elliptic-curve work, run in a worker thread. pywebpush's own
sending goes through ``requests``, which would block the event loop, so the POST is made here
with httpx, to the address the endpoint's host was just checked to resolve to (as a webhook:
``webhook_targets``), so a subscription cannot make the arena post into its own network."""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02  # type: ignore[import-untyped]
from pywebpush import WebPusher  # type: ignore[import-untyped]

from ludoteca.server.db import utcnow
from ludoteca.server.errors import ServerError
from ludoteca.server.mail import ATTEMPTS, backoff
from ludoteca.server.outbox_loop import OutboxLoop
from ludoteca.server.push_rows import PushOutbox, PushSubscription
from ludoteca.server.push_store import PushStore
from ludoteca.server.webhook_targets import WebhookTargets

log = logging.getLogger("ludoteca.push")

TTL = 86400
"""Seconds a push service keeps a message for a browser that is offline."""
GONE = (404, 410)
"""The push service no longer knows the subscription: it is forgotten."""
TIMEOUT = 10.0


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def new_private_key() -> str:
    """A P-256 private key as the 32 raw bytes, base64url (what ``server_keys`` keeps)."""
    key = ec.generate_private_key(ec.SECP256R1())
    return b64(key.private_numbers().private_value.to_bytes(32, "big"))


@dataclass(frozen=True)
class Keys:
    vapid: Any
    """py_vapid's ``Vapid02``, which signs the JWT."""
    public: str
    """The uncompressed public point, base64url: the page's ``applicationServerKey``."""


def keys_of(private: str) -> Keys:
    vapid = Vapid02.from_raw(private.encode())
    point = vapid.public_key.public_bytes(serialization.Encoding.X962,
                                          serialization.PublicFormat.UncompressedPoint)
    return Keys(vapid, b64(point))


class Gone(Exception):
    """The push service dropped the subscription (404/410)."""


class Refused(Exception):
    """The message can never go (a 4xx other than 404/410/429, an endpoint not allowed)."""


class PushSender:
    def __init__(self, store: PushStore, keys: Keys, contact: str | None,
                 targets: WebhookTargets, http_allowed: bool) -> None:
        self.store = store
        self.keys = keys
        self.contact = contact
        """The VAPID ``sub`` claim (``mailto:`` or an https URL); some push services want it."""
        self.targets = targets
        self.http_allowed = http_allowed
        """Tests only: an ``http://`` endpoint on a test network."""
        self.loop: OutboxLoop[PushOutbox] = OutboxLoop(store, self._deliver, log)
        self._http: httpx.AsyncClient | None = None

    def wake(self) -> None:
        self.loop.wake()

    def start(self) -> None:
        self.loop.start()

    async def stop(self) -> None:
        await self.loop.stop()
        if self._http is not None:
            await self._http.aclose()

    async def _deliver(self, row: PushOutbox) -> None:
        attempts = row.attempts + 1
        sub = await self.store.subscription(row.subscription_id)
        if sub is None:
            return  # forgotten meanwhile: its rows went with it
        try:
            await self.post(sub, row.payload, urgent=row.kind == "turn")
        except Gone as exc:
            log.info("push subscription %s gone: %s", sub.id, exc)
            await self.store.remove(sub.id)
            return
        except Refused as exc:
            log.warning("push %s refused for good: %s", row.id, exc)
            await self.store.retry(row.id, attempts, None, str(exc))
            return
        except Exception as exc:  # connection, timeout, 429, 5xx: later
            again = None if attempts >= ATTEMPTS else utcnow() + backoff(attempts)
            log.info("push %s not sent (attempt %d): %r", row.id, attempts, exc)
            await self.store.retry(row.id, attempts, again, repr(exc))
            return
        await self.store.sent(row.id)
        log.info("push sent", extra={"outbox": row.id, "kind": row.kind})

    def _seal(self, sub: PushSubscription, payload: dict[str, Any]) -> tuple[bytes, str]:
        """The encrypted body and the ``Authorization`` header (CPU work: a worker thread)."""
        body = WebPusher({"endpoint": sub.endpoint,
                          "keys": {"p256dh": sub.p256dh, "auth": sub.auth}}).encode(
            json.dumps(payload, ensure_ascii=False).encode(), "aes128gcm")["body"]
        parts = urlsplit(sub.endpoint)
        claims: dict[str, Any] = {"aud": f"{parts.scheme}://{parts.netloc}",
                                  "exp": int(time.time()) + 12 * 3600}
        if self.contact:
            claims["sub"] = self.contact
        signed: dict[str, str] = self.keys.vapid.sign(claims)
        return bytes(body), signed["Authorization"]

    async def post(self, sub: PushSubscription, payload: dict[str, Any], urgent: bool) -> None:
        try:
            target, address = await self.targets.check(sub.endpoint)
        except ServerError as exc:
            raise Refused(f"endpoint not allowed: {exc.code}") from None
        if target.scheme != "https" and not self.http_allowed:
            raise Refused("endpoint not https")
        body, authorization = await asyncio.to_thread(self._seal, sub, payload)
        if self._http is None:
            self._http = httpx.AsyncClient(timeout=TIMEOUT)
        literal = f"[{address}]" if address.version == 6 else str(address)
        default = 443 if target.scheme == "https" else 80
        host = target.host if ":" not in target.host else f"[{target.host}]"
        answer = await self._http.post(
            f"{target.scheme}://{literal}:{target.port}{target.path}", content=body,
            headers={"host": host if target.port == default else f"{host}:{target.port}",
                     "authorization": authorization, "content-encoding": "aes128gcm",
                     "content-type": "application/octet-stream", "ttl": str(TTL),
                     "urgency": "high" if urgent else "normal"},
            extensions={"sni_hostname": target.host} if target.scheme == "https" else None)
        if answer.status_code in GONE:
            raise Gone(str(answer.status_code))
        if answer.status_code == 429 or answer.status_code >= 500:
            raise RuntimeError(f"push service answered {answer.status_code}")
        if answer.status_code >= 400:
            raise Refused(f"push service answered {answer.status_code} {answer.text[:200]}")
