"""The narrow interface a table's actor sees of the server (lichess's ``RoundApi`` idea): the
store, the bot workers, the settings and metrics, and a few things to say to the rest of the
arena. The actor imports this, never the hub, so the two cannot grow into each other.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from ludoteca.engine.game import JSON
from ludoteca.server.bot_pool import BotWorkers
from ludoteca.server.finisher import MatchFinished
from ludoteca.server.metrics import Metrics
from ludoteca.server.settings import Settings
from ludoteca.server.store import Store
from ludoteca.server.table.snapshot import TableSnapshot
from ludoteca.server.table.state import Person


class TableServices(Protocol):
    store: Store
    bots: BotWorkers
    settings: Settings
    metrics: Metrics

    def several(self) -> bool:
        """This process is one of several (``LUDOTECA_REDIS_URL``): others may write."""

    async def claim(self, table_id: str) -> bool:
        """Take the table's lease (its clocks and bots run here); True when alone."""

    def table_changed(self, table_id: str, seq: int) -> None:
        """The table's rows or log changed: the other processes catch up."""

    def chat_said(self, table_id: str, line: JSON) -> None:
        """A chat line was written: the other processes' viewers hear it."""

    def lobby_changed(self, snapshot: TableSnapshot) -> None:
        """The table's summary changed: the lobby's streams hear it."""

    def turns(self, snapshot: TableSnapshot, webhooks: Mapping[int, str]) -> None:
        """Decisions may have begun: tell the people of a turn-based table (at their
        ``webhooks`` too, by user id)."""

    async def finished(self, event: MatchFinished) -> MatchFinished:
        """The match ended (and was written): its subscribers (``finisher.py``); the event as
        they left it (the ratings in its result)."""

    async def hint(self, snapshot: TableSnapshot, view: JSON, seat: int, ply: int) -> JSON:
        """The coach's move for ``seat`` from its ``view`` (in the bot processes)."""

    async def may_rematch(self, snapshot: TableSnapshot) -> None:
        """Refuse a rematch offer its host's quota has no room for (``account_limits``)."""

    async def make_rematch(self, snapshot: TableSnapshot, users: dict[int, Person]) -> str:
        """Every person accepted the rematch: make the new table, return its id."""

    def rematch_offered(self, snapshot: TableSnapshot, seat: int) -> None:
        """Tell the other people at the table that ``seat`` offers a rematch."""

    def forget(self, table_id: str, actor: object) -> None:
        """Nobody watches this table's actor any more: let it go."""
