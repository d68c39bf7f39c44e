"""A push service on loopback for the tests (aiohttp, in a thread of the test process): the
arena under test posts Web Push messages to it over a real socket, and the test reads what
arrived and checks it as a browser's push service and the browser would: the VAPID JWT
verified with the arena's public key (RFC 8292), the body decrypted with the subscription's
private key (RFC 8291, aes128gcm, done here with ``cryptography`` alone: an implementation
independent of the arena's pywebpush/http_ece)."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import pytest
from aiohttp import web
from arena_process import free_port
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF


def b64d(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64e(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _hkdf(salt: bytes, ikm: bytes, info: bytes, length: int) -> bytes:
    return HKDF(hashes.SHA256(), length, salt, info).derive(ikm)


@dataclass
class Browser:
    """A browser's side of one subscription: its key pair and auth secret."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def public(self) -> bytes:
        return self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                  serialization.PublicFormat.UncompressedPoint)

    def subscription(self, label: str = "Test browser") -> dict[str, Any]:
        return {"endpoint": self.endpoint, "expirationTime": None, "label": label,
                "keys": {"p256dh": b64e(self.public), "auth": b64e(self.auth)}}

    def decrypt(self, body: bytes) -> dict[str, Any]:
        """RFC 8291 / RFC 8188 with one record: the JSON the service worker would get."""
        salt, rs, idlen = body[:16], int.from_bytes(body[16:20], "big"), body[20]
        server_public = body[21:21 + idlen]
        assert idlen == 65 and rs >= 18, (idlen, rs)
        ciphertext = body[21 + idlen:]
        shared = self.key.exchange(ec.ECDH(), ec.EllipticCurvePublicKey.from_encoded_point(
            ec.SECP256R1(), server_public))
        ikm = _hkdf(self.auth, shared, b"WebPush: info\x00" + self.public + server_public, 32)
        cek = _hkdf(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
        nonce = _hkdf(salt, ikm, b"Content-Encoding: nonce\x00", 12)
        padded = AESGCM(cek).decrypt(nonce, ciphertext, None)
        text = padded.rstrip(b"\x00")
        assert text.endswith(b"\x02"), "the last record's delimiter"
        found: dict[str, Any] = json.loads(text[:-1])
        return found


def verify_vapid(authorization: str, public_key: str, audience: str) -> dict[str, Any]:
    """The JWT's claims once its ES256 signature checks out with ``public_key``."""
    scheme, _, params = authorization.partition(" ")
    assert scheme == "vapid", authorization
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == public_key
    header, claims, signature = fields["t"].split(".")
    assert json.loads(b64d(header)) == {"typ": "JWT", "alg": "ES256"}
    raw = b64d(signature)
    assert len(raw) == 64
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64d(public_key))
    key.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"),
                                    int.from_bytes(raw[32:], "big")),
               f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    found: dict[str, Any] = json.loads(b64d(claims))
    assert found["aud"] == audience
    assert time.time() < found["exp"] <= time.time() + 24 * 3600
    return found


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


class PushService:
    """Answers 201 to every message, or what ``answer`` says for a path; keeps each."""

    def __init__(self) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.received: queue.Queue[Received] = queue.Queue()
        self.answer: dict[str, int] = {}
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()
        assert self._ready.wait(10)

    async def _handle(self, request: web.Request) -> web.Response:
        body = await request.read()
        headers = {k.lower(): v for k, v in request.headers.items()}
        self.received.put(Received(request.path, headers, body))
        return web.Response(status=self.answer.get(request.path, 201))

    def _serve(self) -> None:
        asyncio.set_event_loop(self._loop)
        app = web.Application()
        app.router.add_post("/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app)
        self._loop.run_until_complete(self._runner.setup())
        self._loop.run_until_complete(web.TCPSite(self._runner, "127.0.0.1", self.port).start())
        self._ready.set()
        self._loop.run_forever()

    def browser(self, name: str) -> Browser:
        return Browser(f"{self.base}/push/{name}")

    def next(self, timeout: float = 30) -> Received:
        return self.received.get(timeout=timeout)

    def nothing(self, seconds: float) -> None:
        with pytest.raises(queue.Empty):
            found = self.received.get(timeout=seconds)
            raise AssertionError(f"unexpected push to {found.path}")

    def close(self) -> None:
        async def stop() -> None:
            await self._runner.cleanup()

        asyncio.run_coroutine_threadsafe(stop(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()
