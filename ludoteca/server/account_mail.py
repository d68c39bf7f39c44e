"""The emails of accounts: an address's confirmation link and the password-reset link.

A reset is asked for by address, and the answer must not tell whether an account has it:
the route does the same on both paths (checks, then a place in this queue) and answers at
once; the worker here looks the address up and sends, or not, after the answer left."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta

from ludoteca.server import auth
from ludoteca.server import mail_words as W
from ludoteca.server.db import User
from ludoteca.server.mail import Mailer
from ludoteca.server.mail_links import Links
from ludoteca.server.mail_server import parse_smtp_url
from ludoteca.server.mail_store import MailStore
from ludoteca.server.notify import Email
from ludoteca.server.settings import Settings

log = logging.getLogger("ludoteca.mail")
QUEUE = 1000


class AccountMail:
    def __init__(self, mailer: Mailer, store: MailStore, links: Links,
                 confirm_hours: float, reset_minutes: float) -> None:
        self.mailer = mailer
        self.store = store
        self.links = links
        self.confirm_hours = confirm_hours
        self.reset_minutes = reset_minutes
        self.resets: asyncio.Queue[str] = asyncio.Queue(QUEUE)
        self._task: asyncio.Task[None] | None = None

    async def confirm(self, user: User, address: str) -> None:
        """A link that makes ``address`` the account's once opened; earlier links of the
        account stop working."""
        await self.store.drop_tokens(user.id, "confirm")
        token = auth.new_token()
        await self.store.add_token(auth.token_hash(token), "confirm", user.id, address,
                                   timedelta(hours=self.confirm_hours))
        mail = W.confirm_mail(user.language, user.display_name, address,
                              self.links.confirm(token), self.confirm_hours)
        await self.mailer.send(user.id, address, mail.subject, mail.text, mail.html, {},
                               "confirm")

    def ask_reset(self, address: str) -> None:
        """Queue a reset for whoever has ``address`` (nobody, perhaps): no look-up here. The
        email is in the account's language, not the asker's."""
        with contextlib.suppress(asyncio.QueueFull):
            self.resets.put_nowait(address)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            address = await self.resets.get()
            try:
                await self._reset(address)
            except Exception:
                log.exception("a password-reset email could not be made")

    async def _reset(self, address: str) -> None:
        user = await self.store.user_by_email(address)
        if user is None or user.email is None or user.guest:
            return
        token = auth.new_token()
        await self.store.add_token(auth.token_hash(token), "reset", user.id, user.email,
                                   timedelta(minutes=self.reset_minutes))
        mail = W.reset_mail(user.language, user.name, self.links.reset(token),
                            self.reset_minutes)
        await self.mailer.send(user.id, user.email, mail.subject, mail.text, mail.html, {},
                               "reset")


def email_channel(settings: Settings, store: MailStore
                  ) -> tuple[Email | None, AccountMail | None]:
    """The email channel and the accounts' emails, when the operator set an SMTP server."""
    if settings.smtp_url is None or settings.mail_from is None or settings.public_url is None:
        return None, None
    mailer = Mailer(store, parse_smtp_url(settings.smtp_url), settings.mail_from)
    links = Links(settings.public_url, lambda: store.key("unsubscribe"))
    return Email(mailer, links), AccountMail(mailer, store, links, settings.confirm_hours,
                                             settings.reset_minutes)
