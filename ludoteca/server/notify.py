"""The one notification service: every notice a player may get (your turn, a match finished,
a rematch offered, a tournament table ready, a challenge received) goes through
``Notifier``, which tells it on the channels the player chose (``notify_prefs``): the page
(their event stream), email (through the outbox, never in quiet hours; turns gathered by
``TurnMails``), Web Push to their subscribed browsers (the same rules, its own outbox:
``push_channel``) and their webhook (a public address checked again at each delivery:
``webhook_targets.py``)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from datetime import datetime, timedelta
from typing import Any

import httpx

from ludoteca.engine.game import JSON
from ludoteca.games import get_game
from ludoteca.server import mail_words as W
from ludoteca.server.db import User, utcnow
from ludoteca.server.errors import ServerError
from ludoteca.server.mail import Mailer
from ludoteca.server.mail_links import Links
from ludoteca.server.mail_store import MailStore
from ludoteca.server.notify_prefs import quiet_until, wants
from ludoteca.server.protocol import (
    ChallengeEvent,
    FinishedEvent,
    RematchOfferEvent,
    StreamEvent,
    TournamentTableEvent,
    TurnEvent,
)
from ludoteca.server.push_channel import (
    Payload,
    Push,
    challenge_payload,
    finished_payload,
    rematch_payload,
    tournament_payload,
)
from ludoteca.server.settings import Settings
from ludoteca.server.streams import Streams
from ludoteca.server.turn_mails import TurnMails
from ludoteca.server.webhook_targets import WebhookTargets

log = logging.getLogger("ludoteca.notify")


def game_title(game: str) -> str:
    try:
        return get_game(game).spec.title
    except Exception:
        return game


def _minute(stamp: Any) -> str:
    """An ISO 8601 moment (UTC) as ``YYYY-MM-DD HH:MM``, the way a notice says it."""
    try:
        return datetime.fromisoformat(str(stamp)).strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return str(stamp)


class Email:
    """The email channel: what a notice says, in the player's language, with its one-click
    unsubscribe (RFC 8058) and the link to the preferences."""

    def __init__(self, mailer: Mailer, links: Links) -> None:
        self.mailer = mailer
        self.links = links

    async def notice(self, user: User, event: str, mail: Callable[[list[W.Line]], W.Mail]
                     ) -> None:
        assert user.email is not None
        unsubscribe = await self.links.unsubscribe(user.id, event)
        built = mail(W.footer(user.language, self.links.preferences(), unsubscribe))
        headers = {"List-Unsubscribe": f"<{unsubscribe}>",
                   "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
        at = quiet_until(user, utcnow())
        await self.mailer.send(user.id, user.email, built.subject, built.text, built.html,
                               headers, event, at)

    async def turns(self, user: User, tables: list[tuple[str, str]]) -> None:
        """One email for the tables (id, game) waiting: a digest when several."""
        listed = [(game_title(g), self.links.table(t)) for t, g in tables]
        await self.notice(user, "turn", lambda foot: W.turn_mail(user.language, listed, foot))


class Notifier:
    def __init__(self, streams: Streams, users: Callable[[int], Awaitable[User | None]],
                 mail_store: MailStore, email: Email | None, targets: WebhookTargets,
                 webhook_timeout: float,
                 began: Callable[[str, int], Awaitable[datetime | None]]) -> None:
        self.streams = streams
        self.users = users
        self.began = began
        """When a table's decision began (``Store.turn_began``): a turn told is not told
        again after a restart."""
        self.mail_store = mail_store
        self.email = email
        """None: the arena sends no email."""
        self.targets = targets
        self.timeout = webhook_timeout
        self.turn_mails: TurnMails | None = None
        self.push: Push | None = None
        """Set by ``watch_push`` (the hub's keys are read at start)."""
        self.turn_pushes: TurnMails | None = None
        self.http: httpx.AsyncClient | None = None
        self._background: set[asyncio.Task[Any]] = set()

    def watch_turns(self, settings: Settings, waiting: Callable[[str, int], bool],
                    watching: Callable[[int, Iterable[str]], Awaitable[set[str]]]) -> None:
        """Turn emails, gathered (``turn_mails``): told which decisions still wait and which
        tables a player is looking at."""
        if self.email is not None:
            self.turn_mails = TurnMails(
                self.email.turns, self.mail_store, self.users, waiting, watching, self.began,
                settings.turn_email_delay, timedelta(minutes=settings.turn_email_minutes))

    def watch_push(self, push: Push, settings: Settings, waiting: Callable[[str, int], bool],
                   watching: Callable[[int, Iterable[str]], Awaitable[set[str]]]) -> None:
        """Push turns follow the email's rules (delay, interval, digest, not while looking)."""
        self.push = push

        def send(user: User, tables: list[tuple[str, str]]) -> Awaitable[None]:
            return push.turns(user, [(t, game_title(g)) for t, g in tables])

        self.turn_pushes = TurnMails(
            send, push.store, self.users, waiting, watching, self.began,
            settings.turn_email_delay,
            timedelta(minutes=settings.turn_email_minutes), "push", lambda user: True)

    # ---- the notices -------------------------------------------------------------------------
    def turn(self, user_id: int, event: TurnEvent) -> None:
        """A decision began (the page was told by ``TurnNotices``): the other channels."""
        def by_email(user: User) -> Awaitable[None]:
            assert self.turn_mails is not None
            return self.turn_mails.add(user, event.table, event.game, event.seq)

        def by_push(user: User) -> Awaitable[None]:
            assert self.turn_pushes is not None
            return self.turn_pushes.add(user, event.table, event.game, event.seq)

        self._away("turn", user_id, event, by_email, by_push)

    def finished(self, user_id: int, table_id: str, game: str) -> None:
        event = FinishedEvent(table_id)
        self.streams.publish(user_id, event)
        link = self._table_link(table_id)
        self._away("finished", user_id, event, lambda user: self._mail(
            user, "finished", lambda foot: W.finished_mail(
                user.language, game_title(game), link, foot)),
            lambda user: self._push(user, "finished", finished_payload(
                user.language, game_title(game), table_id)))

    def rematch(self, user_id: int, event: RematchOfferEvent, game: str) -> None:
        self.streams.publish(user_id, event)
        link = self._table_link(event.table)
        self._away("rematch", user_id, event, lambda user: self._mail(
            user, "rematch", lambda foot: W.rematch_mail(
                user.language, event.by, game_title(game), link, foot)),
            lambda user: self._push(user, "rematch", rematch_payload(
                user.language, event.by, game_title(game), event.table)))

    def tournament_table(self, user_id: int, event: TournamentTableEvent, game: str) -> None:
        self.streams.publish(user_id, event)
        link = self._table_link(event.table)
        self._away("tournament_table", user_id, event, lambda user: self._mail(
            user, "tournament_table", lambda foot: W.tournament_mail(
                user.language, game_title(game), event.round, link, foot)),
            lambda user: self._push(user, "tournament_table", tournament_payload(
                user.language, game_title(game), event.round, event.table)))

    def challenge(self, user_id: int, summary: JSON, away: bool) -> None:
        """A challenge the person made or received changed: their page always hears it (it
        keeps its list from these events); with ``away`` (one just received) it also goes to
        the other channels, pointing at the person's own page, where challenges are
        answered."""
        event = ChallengeEvent(summary)
        self.streams.publish(user_id, event)
        if not away:
            return
        name = str(summary.get("challenger_name") or summary.get("challenger") or "?")
        game = game_title(str(summary.get("game") or ""))
        until = _minute(summary.get("expires_at"))
        self._away("challenge", user_id, event, lambda user: self._mail(
            user, "challenge", lambda foot: W.challenge_mail(
                user.language, name, game, until, self._player_link(user.name), foot)),
            lambda user: self._push(user, "challenge", challenge_payload(
                user.language, name, game, until, user.name, str(summary["id"]))))

    # ---- the channels away from the page -----------------------------------------------------
    def _table_link(self, table_id: str) -> str:
        return self.email.links.table(table_id) if self.email is not None else ""

    def _player_link(self, name: str) -> str:
        return self.email.links.player(name) if self.email is not None else ""

    async def _mail(self, user: User, event: str,
                    mail: Callable[[list[W.Line]], W.Mail]) -> None:
        assert self.email is not None
        await self.email.notice(user, event, mail)

    async def _push(self, user: User, event: str, data: Payload) -> None:
        assert self.push is not None
        await self.push.notice(user, event, data)

    def _away(self, event: str, user_id: int, data: StreamEvent,
              by_email: Callable[[User], Awaitable[None]],
              by_push: Callable[[User], Awaitable[None]]) -> None:
        task = asyncio.get_running_loop().create_task(
            self._tell_away(event, user_id, data.to_wire(), by_email, by_push))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _tell_away(self, event: str, user_id: int, data: JSON,
                         by_email: Callable[[User], Awaitable[None]],
                         by_push: Callable[[User], Awaitable[None]]) -> None:
        try:
            user = await self.users(user_id)
            if user is None or user.deleted_at is not None:
                return
            if user.webhook_url and wants(user, event, "webhook"):
                await self._webhook(user.webhook_url, data)
            if self.email is not None and user.email and wants(user, event, "email"):
                await by_email(user)
            if (self.push is not None and wants(user, event, "push")
                    and await self.push.store.any(user.id)):
                await by_push(user)
        except Exception:
            log.exception("a %s notice to player %s failed", event, user_id)

    async def _webhook(self, url: str, data: JSON) -> None:
        try:
            await asyncio.wait_for(self._deliver(url, data), self.timeout)
        except ServerError as exc:
            log.warning("webhook %s refused: %s", url, exc, extra={"url": url})
        except (TimeoutError, httpx.HTTPError, httpx.InvalidURL) as exc:
            log.info("webhook %s failed: %s", url, repr(exc), extra={"url": url})

    async def _deliver(self, url: str, data: JSON) -> None:
        """Resolve and check the host again (it may point elsewhere since it was set), then
        connect to the checked address itself, naming the host in ``Host`` and TLS's SNI."""
        target, address = await self.targets.check(url)
        if self.http is None:
            self.http = httpx.AsyncClient(timeout=self.timeout)
        literal = f"[{address}]" if address.version == 6 else str(address)
        default = 443 if target.scheme == "https" else 80
        host = target.host if ":" not in target.host else f"[{target.host}]"
        await self.http.post(
            f"{target.scheme}://{literal}:{target.port}{target.path}", json=data,
            headers={"host": host if target.port == default else f"{host}:{target.port}"},
            extensions={"sni_hostname": target.host} if target.scheme == "https" else None,
        )

    async def close(self) -> None:
        if self.turn_mails is not None:
            self.turn_mails.close()
        if self.turn_pushes is not None:
            self.turn_pushes.close()
        for task in list(self._background):
            task.cancel()
        if self.http is not None:
            await self.http.aclose()
