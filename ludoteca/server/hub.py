"""The hub: what the server is made of, wired once (the live tables, the streams, the turn
notices, the store, the bot workers, the settings and metrics), and the narrow services a
table's actor may ask for (``services.TableServices``). It holds no behaviour of its own
beyond passing each request to the part that owns it."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping
from datetime import timedelta
from typing import Protocol

from ludoteca.engine.game import JSON
from ludoteca.engine.record import MatchRecord
from ludoteca.server import errors as E
from ludoteca.server import ratings
from ludoteca.server.account_limits import AccountLimits
from ludoteca.server.account_mail import email_channel
from ludoteca.server.analysis_jobs import AnalysisJobs
from ludoteca.server.auth import RateLimit
from ludoteca.server.bot_pool import BotWorkers
from ludoteca.server.connection import CLOSE
from ludoteca.server.db import User
from ludoteca.server.director import Director
from ludoteca.server.errors import Stopped, voice
from ludoteca.server.finisher import Finisher, MatchFinished
from ludoteca.server.live_tables import LiveTables
from ludoteca.server.mail_store import MailStore
from ludoteca.server.metrics import Metrics
from ludoteca.server.notifications import TurnNotices
from ludoteca.server.notify import Notifier
from ludoteca.server.presence import Presence, SharedPresence, looking
from ludoteca.server.protocol import (
    ReconnectEvent,
    ReconnectMessage,
    RematchOfferEvent,
)
from ludoteca.server.push import PushSender, keys_of, new_private_key
from ludoteca.server.push_channel import Push
from ludoteca.server.push_store import PushStore
from ludoteca.server.rematch import make_rematch
from ludoteca.server.results import rating_change
from ludoteca.server.settings import Settings
from ludoteca.server.socket_limits import SocketCounts
from ludoteca.server.state_rows import table_rows
from ludoteca.server.store import Store
from ludoteca.server.streams import Streams
from ludoteca.server.table.commands import Record, UserChanged
from ludoteca.server.table.snapshot import TableSnapshot
from ludoteca.server.table.state import Person
from ludoteca.server.tournament_pages import TournamentPages
from ludoteca.server.tournament_store import TournamentStore
from ludoteca.server.webhook_targets import WebhookTargets


class Cluster(Protocol):
    """What the hub asks of the arena's other processes (``cluster.Cluster``)."""

    name: str
    connected: bool
    presence: SharedPresence

    async def claim(self, table_id: str) -> bool: ...

    async def release(self, table_id: str) -> None: ...

    def loaded(self, table_id: str) -> bool: ...

    def table_changed(self, table_id: str, seq: int) -> None: ...

    def chat(self, table_id: str, line: JSON) -> None: ...

    def user(self, user_id: int, data: JSON) -> None: ...

    def profile(self, user_id: int) -> None: ...

    def signed_out(self, user_id: int) -> None: ...

    def lobby(self, text: str) -> None: ...

    async def close(self) -> None: ...


class Hub:
    def __init__(self, settings: Settings, store: Store, bots: BotWorkers) -> None:
        self.settings = settings
        self.store = store
        self.bots = bots
        self.metrics = Metrics()
        self.tables = LiveTables(self)
        self.metrics.watch_tables(self.tables.by_status)
        self.presence = Presence()
        """Who has a page open or a table in view (``presence.py``)."""
        self.streams = Streams(self.presence)
        self.webhook_targets = WebhookTargets(settings.webhook_test_networks,
                                              settings.webhook_test_hosts)
        self.mail_store = MailStore(store.write, store.sessions)
        self.email, self.account_mail = email_channel(settings, self.mail_store)
        """None, None: no SMTP server set, no email at all."""
        self.notifier = Notifier(self.streams, store.user, self.mail_store, self.email,
                                 self.webhook_targets, settings.webhook_timeout,
                                 store.turn_began)
        self.notices = TurnNotices(self.streams, self.notifier.turn)
        self.notifier.watch_turns(settings, self.notices.waiting, self.watching)
        self.push_store = PushStore(store.write, store.sessions)
        self.push_sender: PushSender | None = None
        """Made by ``start_push`` (its keys live in the database)."""
        self.closing = False
        self.auth_limit = RateLimit(settings.auth_rate, 60)
        self.create_limit = RateLimit(settings.create_rate, 60)
        self.account_limits = AccountLimits(store, settings.tables_per_account,
                                            settings.search_bots_per_account)
        self.socket_counts = SocketCounts(settings.sockets_per_address,
                                          settings.sockets_per_account)
        self.account_signin_limit = RateLimit(settings.account_signin_rate, 15 * 60)
        """Failed sign-ins (and password checks) per account name, from every address."""
        self.reset_limit = RateLimit(settings.reset_rate, 3600)
        """Password-reset emails per address asked for (whether or not an account has it)."""
        self.mail_ask_limit = RateLimit(settings.mail_ask_rate, 3600)
        """Emails asked for per client address and per account."""
        store.seen_every = min(store.seen_every, timedelta(days=settings.guest_days) / 10)
        self.cluster: Cluster | None = None
        """Set when this process is one of several (``LUDOTECA_REDIS_URL``)."""
        self.analyses = AnalysisJobs(store, bots, self.finished_record, settings.analysis_budget)
        self.tournaments = TournamentStore(store.write, store.sessions,
                                           store.engine.dialect.name == "postgresql")
        self.tournament_pages = TournamentPages(self.tournaments, store)
        self.director = Director(self, settings.director_seconds, settings.lease_seconds)
        self.finisher = Finisher([self._rate, self._finished_lobby, self._finished_notices,
                                  self._finished_players, self.director.table_finished])
        """Who hears a match end, in order: the ratings first (the last move's message
        carries their changes), then the lobby, the turn notices, the players' streams and
        the tournaments' director."""

    async def finished_record(self, table_id: str) -> MatchRecord | None:
        """A finished table's match record (for its analysis), None if it has none."""
        ref = await self.tables.ref(table_id)
        if ref is None or not ref.snapshot().over:
            return None
        return (await ref.send(Record())).record

    def join_cluster(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.tables.leases = cluster
        self.streams.bus = cluster
        self.presence.shared = cluster.presence
        # before the director starts (app.py): its lease names the process as /healthz does
        self.director.owner = cluster.name

    # ---- what a table's actor may ask (services.TableServices) -------------------------------
    def several(self) -> bool:
        return self.cluster is not None

    async def claim(self, table_id: str) -> bool:
        """Alone, a process runs every table's clocks and bots; one of several, those whose
        lease it holds."""
        return True if self.cluster is None else await self.cluster.claim(table_id)

    def table_changed(self, table_id: str, seq: int) -> None:
        if self.cluster is not None:
            self.cluster.table_changed(table_id, seq)

    def chat_said(self, table_id: str, line: JSON) -> None:
        if self.cluster is not None:
            self.cluster.chat(table_id, line)

    def lobby_changed(self, snapshot: TableSnapshot) -> None:
        self.streams.lobby_changed(snapshot)

    def turns(self, snapshot: TableSnapshot, webhooks: Mapping[int, str]) -> None:
        self.notices.turns(snapshot, webhooks)

    async def finished(self, event: MatchFinished) -> MatchFinished:
        return await self.finisher.finish(event)

    # ---- a match's end, heard in the finisher's order ------------------------------------------
    async def _rate(self, event: MatchFinished) -> JSON | None:
        """The ratings, each seat's before and after written into the result."""
        table, seats = table_rows(event.snapshot)
        changes = await ratings.rate(self.store, table, seats)
        if not changes:
            return None
        result = {
            **(event.result or {}),
            "ratings": [rating_change(s.seat, *changes[s.user_id])
                        for s in seats if s.user_id in changes],
        }
        await self.store.set_result(event.table_id, result)
        return result

    async def _finished_lobby(self, event: MatchFinished) -> None:
        self.lobby_changed(event.snapshot)

    async def _finished_notices(self, event: MatchFinished) -> None:
        self.notices.forget(event.table_id, event.snapshot.players)

    async def _finished_players(self, event: MatchFinished) -> None:
        for user_id in {seat.user_id for seat in event.seats} - {None}:
            assert user_id is not None
            self.notifier.finished(user_id, event.table_id, event.snapshot.game)

    async def watching(self, user_id: int, table_ids: Iterable[str]) -> set[str]:
        """Those of the tables a socket of the player's shows, in any process (their turn
        email or push waits)."""
        marks = {looking(user_id, t): t for t in table_ids}
        return {marks[mark] for mark in await self.presence.found(marks)}

    # ---- a rematch ---------------------------------------------------------------------------
    async def may_rematch(self, snapshot: TableSnapshot) -> None:
        await self.account_limits.check_table(snapshot.host_id, [s.bot for s in snapshot.seats])

    async def make_rematch(self, snapshot: TableSnapshot, users: dict[int, Person]) -> str:
        return await make_rematch(self.tables, self.streams, snapshot, users)

    def rematch_offered(self, snapshot: TableSnapshot, seat: int) -> None:
        """Tell the other people at the table that ``seat`` offers a rematch."""
        offerer = snapshot.seats[seat].user_id
        event = RematchOfferEvent(snapshot.id, snapshot.names[seat])
        for user_id in {row.user_id for row in snapshot.seats} - {None, offerer}:
            assert user_id is not None
            self.notifier.rematch(user_id, event, snapshot.game)

    async def hint(self, snapshot: TableSnapshot, view: JSON, seat: int, ply: int) -> JSON:
        """The coach's move, in turn with the host's bots (``bot_fairness.py``)."""
        return await self.bots.hint(snapshot.game, view, seat, snapshot.players, ply,
                                    self.analyses.budget_for(snapshot.game, snapshot.players),
                                    owner=("hint", snapshot.host_id))

    def forget(self, table_id: str, actor: object) -> None:
        self.tables.forget(table_id, actor)

    # ---- players -----------------------------------------------------------------------------
    async def user_changed(self, user: User) -> None:
        """A player's row changed (name, language, webhook): every live table takes the new
        one, in every process."""
        await self._take_user(user.id)
        if self.cluster is not None:
            self.cluster.profile(user.id)

    def signed_out(self, user_id: int) -> None:
        """The person's sessions ended: close their table sockets and event streams in every
        process, so none opened with an ended session goes on acting. The browsers whose
        session lives on (with a new cookie) reconnect as usual."""
        self.sign_out_here(user_id)
        if self.cluster is not None:
            self.cluster.signed_out(user_id)

    def sign_out_here(self, user_id: int) -> None:
        for ref in self.tables.refs.values():
            for conn in ref.viewers:
                if conn.user_id == user_id:
                    conn.send(ReconnectMessage(voice(conn.lang).t(E.SIGNED_OUT)).text())
                    conn.send(CLOSE)
        self.streams.signed_out(user_id)

    async def reread_user(self, user_id: int) -> None:
        """Another process changed this player's row."""
        await self._take_user(user_id)

    async def _take_user(self, user_id: int) -> None:
        """Each live table that knows the person reads their row again, in its actor."""
        for ref in list(self.tables.refs.values()):
            if user_id in ref.snapshot().people:
                with contextlib.suppress(Stopped):
                    await ref.send(UserChanged(user_id))

    # ---- the end -----------------------------------------------------------------------------
    async def shutdown(self) -> None:
        """Finish every table's command in hand, then tell clients to reconnect (once)."""
        if self.closing:
            return
        self.closing = True
        await self.director.stop()
        await self.analyses.stop()  # the parts made are written: a restart goes on from them
        await self.tables.stop()
        if self.cluster is not None:
            await self.cluster.close()  # its leases go at once: the others take over
        for ref in self.tables.refs.values():
            for conn in ref.viewers:
                conn.send(ReconnectMessage(voice(conn.lang).t(E.SHUTTING_DOWN)).text())
                conn.send(CLOSE)
        self.streams.deliver_all(ReconnectEvent().text())
        await self.notifier.close()
        if self.account_mail is not None:
            await self.account_mail.stop()
        if self.email is not None:
            await self.email.mailer.stop()
        if self.push_sender is not None:
            await self.push_sender.stop()

    async def start_push(self) -> None:
        """Web Push: the VAPID keys (made by the first process ever to start), the push
        outbox's sender, and the notifier's push channel."""
        keys = keys_of(await self.mail_store.key("vapid", new_private_key))
        s = self.settings
        contact = s.push_contact or (f"mailto:{s.mail_from}" if s.mail_from else s.public_url)
        self.push_sender = PushSender(self.push_store, keys, contact, self.webhook_targets,
                                      http_allowed=bool(s.webhook_test_networks))
        self.notifier.watch_push(Push(self.push_store, self.push_sender), s,
                                 self.notices.waiting, self.watching)
        self.push_sender.start()

    def start_mail(self) -> None:
        """The outbox's sender and the reset queue's worker (with an SMTP server set)."""
        if self.email is not None:
            self.email.mailer.start()
        if self.account_mail is not None:
            self.account_mail.start()
