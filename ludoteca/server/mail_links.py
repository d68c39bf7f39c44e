"""The addresses emails point at (``LUDOTECA_PUBLIC_URL`` plus a page of the browser client)
and the signed unsubscribe links, which work without signing in: ``player.event.signature``,
an HMAC-SHA256 under a key the server made once and keeps in its database."""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Awaitable, Callable
from urllib.parse import quote

from ludoteca.server.notify_prefs import EVENTS


class Links:
    """The addresses emails point at: pages of the browser client under the operator's
    public URL, and signed unsubscribe links that work without signing in."""

    def __init__(self, base: str, key: Callable[[], Awaitable[str]]) -> None:
        self.base = base.rstrip("/")
        self._read_key = key
        self._known: str | None = None

    async def _key(self) -> str:
        if self._known is None:
            self._known = await self._read_key()
        return self._known

    def table(self, table_id: str) -> str:
        return f"{self.base}/#/table/{table_id}"

    def player(self, name: str) -> str:
        """A player's page (their own is where challenges are answered)."""
        return f"{self.base}/#/player/{quote(name, safe='')}"

    def preferences(self) -> str:
        return f"{self.base}/#/settings"

    def confirm(self, token: str) -> str:
        return f"{self.base}/#/email/confirm?token={token}"

    def reset(self, token: str) -> str:
        return f"{self.base}/#/reset?token={token}"

    async def unsubscribe(self, user_id: int, event: str) -> str:
        return f"{self.base}/api/unsubscribe?token={await self.unsubscribe_token(user_id, event)}"

    async def unsubscribe_token(self, user_id: int, event: str) -> str:
        body = f"{user_id}.{event}"
        return f"{body}.{_sign(await self._key(), body)}"

    async def read_unsubscribe(self, token: str) -> tuple[int, str] | None:
        """The (player, event) a token names, None if it is not one of ours."""
        parts = token.split(".")
        if len(parts) != 3 or not parts[0].isdigit() or parts[1] not in EVENTS:
            return None
        if not hmac.compare_digest(parts[2], _sign(await self._key(), f"{parts[0]}.{parts[1]}")):
            return None
        return int(parts[0]), parts[1]


def _sign(key: str, body: str) -> str:
    digest = hmac.new(key.encode(), body.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")
