"""The narrow interface a table's actor sees of the server (lichess's ``RoundApi`` idea): the
store, the bot workers, the settings and metrics, and a few things to say to the rest of the
arena. The actor imports this, never the hub, so the two cannot grow into each other.
"""

from __future__ import annotations

from typing import Protocol

from ludoteca.engine.game import JSON
from ludoteca.server.bot_pool import BotWorkers
from ludoteca.server.metrics import Metrics
from ludoteca.server.settings import Settings
from ludoteca.server.store import Store
from ludoteca.server.table.core import TableCore


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

    def lobby_changed(self, core: TableCore) -> None:
        """The table's summary changed: the lobby's streams hear it."""

    def turns(self, core: TableCore) -> None:
        """Decisions may have begun: tell the people of a turn-based table."""

    async def finished(self, core: TableCore) -> None:
        """The match ended (and was written): ratings, the players' streams."""

    async def may_rematch(self, core: TableCore) -> None:
        """Refuse a rematch offer its host's quota has no room for (``account_limits``)."""

    async def make_rematch(self, core: TableCore) -> str:
        """Every person accepted the rematch: make the new table, return its id."""

    def rematch_offered(self, core: TableCore, seat: int) -> None:
        """Tell the other people at the table that ``seat`` offers a rematch."""

    def forget(self, table_id: str, actor: object) -> None:
        """Nobody watches this table's actor any more: let it go."""
