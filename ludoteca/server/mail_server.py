"""The operator's mail server (``LUDOTECA_SMTP_URL``) and one delivery to it, over aiosmtplib
on the event loop's own sockets (nothing blocks the loop)."""

from __future__ import annotations

from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import parse_qs, unquote, urlsplit

import aiosmtplib

YES = ("yes", "true", "1", "on")
NO = ("no", "false", "0", "off")


class MailServerError(ValueError):
    """A malformed SMTP URL (the message ends a sentence naming the setting)."""


class Permanent(Exception):
    """The server refused the message for good (a 5xx answer): retrying would not help."""


@dataclass(frozen=True)
class MailServer:
    host: str
    port: int
    tls: bool
    """TLS from the first byte (``smtps://``, usually port 465)."""
    starttls: bool | None
    """``smtp://``: True demands STARTTLS, False never uses it, None: when offered."""
    user: str | None
    password: str | None
    timeout: float = 30.0

    async def send(self, message: EmailMessage) -> None:
        """Hand ``message`` over; ``Permanent`` for a 5xx refusal, any other error (a
        connection refused, a timeout, a 4xx) is worth retrying later."""
        try:
            await aiosmtplib.send(
                message, hostname=self.host, port=self.port, use_tls=self.tls,
                start_tls=None if self.tls else self.starttls, username=self.user,
                password=self.password, timeout=self.timeout)
        except aiosmtplib.SMTPResponseException as exc:
            if 500 <= exc.code < 600:
                raise Permanent(f"{exc.code} {exc.message}") from None
            raise
        except aiosmtplib.SMTPRecipientsRefused as exc:
            codes = [r.code for r in exc.recipients]
            if codes and all(500 <= c < 600 for c in codes):
                raise Permanent(str(exc)) from None
            raise


def parse_smtp_url(url: str) -> MailServer:
    if not url.startswith(("smtp://", "smtps://")):
        raise MailServerError("must start with smtp:// or smtps://")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise MailServerError(f"is malformed ({exc})") from None
    if not parts.hostname:
        raise MailServerError("names no host")
    if parts.path not in ("", "/") or parts.fragment:
        raise MailServerError("takes no path (smtp://user:password@host:port?starttls=yes)")
    tls = parts.scheme == "smtps"
    query = parse_qs(parts.query, keep_blank_values=True)
    unknown = set(query) - {"starttls"}
    if unknown:
        raise MailServerError(f"takes only the option starttls, not {sorted(unknown)[0]}")
    starttls: bool | None = None
    if "starttls" in query:
        value = query["starttls"][-1].lower()
        if value not in YES + NO or tls:
            raise MailServerError("takes starttls=yes or starttls=no (with smtp:// only)")
        starttls = value in YES
    return MailServer(
        host=parts.hostname, port=port or (465 if tls else 587 if starttls else 25), tls=tls,
        starttls=starttls, user=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password else None)
