"""Sending email: every message is an outbox row first (``mail_store``), so one the server
promised survives a restart; one sender task per process claims due rows, hands them to the
operator's SMTP server (``mail_server``) and retries failures with backoff. A row is claimed
before it is sent and marked sent right after, so no two senders send it."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import formatdate

from ludoteca.server.db import Outbox, utcnow
from ludoteca.server.mail_server import MailServer, Permanent
from ludoteca.server.mail_store import MailStore
from ludoteca.server.outbox_loop import OutboxLoop

log = logging.getLogger("ludoteca.mail")

ATTEMPTS = 8
"""Tries before a message is given up (about four hours of backoff in all)."""


def backoff(attempts: int) -> timedelta:
    """30 s, 1 min, 2 min ... at most an hour."""
    return timedelta(seconds=min(30 * 2 ** (attempts - 1), 3600))


def build(row: Outbox, sender: str) -> EmailMessage:
    """The message of an outbox row: a text part and an HTML one. The SMTP policy refuses a
    header with a line break, so no name or address can add headers (they are checked before
    too: ``settings.mail_address``)."""
    message = EmailMessage(policy=SMTP)
    message["From"] = sender
    message["To"] = row.to_addr
    message["Subject"] = row.subject
    message["Date"] = formatdate(localtime=False)
    domain = sender.rsplit("@", 1)[1]
    message["Message-ID"] = f"<outbox-{row.id}.{int(row.created_at.timestamp())}@{domain}>"
    message["Auto-Submitted"] = "auto-generated"
    for key, value in row.headers.items():
        message[key] = value
    message.set_content(row.text)
    message.add_alternative(row.html, subtype="html")
    return message


class Mailer:
    def __init__(self, store: MailStore, server: MailServer, sender: str) -> None:
        self.store = store
        self.server = server
        self.sender = sender
        self.loop: OutboxLoop[Outbox] = OutboxLoop(store, self._deliver, log)

    async def send(self, user_id: int | None, to: str, subject: str, text: str, html: str,
                   headers: dict[str, str], kind: str, at: datetime | None = None) -> None:
        """Write the message to the outbox and wake the sender; it goes out soon after (or
        ``at``: the end of the player's quiet hours)."""
        await self.store.enqueue(user_id, to, subject, text, html, headers, kind, at)
        self.loop.wake()

    def start(self) -> None:
        self.loop.start()

    async def stop(self) -> None:
        await self.loop.stop()

    async def _deliver(self, row: Outbox) -> None:
        attempts = row.attempts + 1
        try:
            await self.server.send(build(row, self.sender))
        except Permanent as exc:
            log.warning("email %s refused for good: %s", row.id, exc)
            await self.store.retry(row.id, attempts, None, str(exc))
            return
        except Exception as exc:  # a connection, TLS, timeout or 4xx failure: later
            again = None if attempts >= ATTEMPTS else utcnow() + backoff(attempts)
            log.info("email %s not sent (attempt %d): %r", row.id, attempts, exc)
            await self.store.retry(row.id, attempts, again, repr(exc))
            return
        await self.store.sent(row.id)
        log.info("email sent", extra={"outbox": row.id, "kind": row.kind})
