"""A ``TableRef``: how everything outside a table's actor holds the table (routes, sockets, the
hub, housekeeping, and a tournament director). It sends typed commands and reads immutable
snapshots; it never reaches the core, so the table could as well run in another process."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ludoteca.engine.game import JSON
from ludoteca.engine.i18n import Voice
from ludoteca.server.connection import Connection
from ludoteca.server.services import TableServices
from ludoteca.server.table.actor import TableActor
from ludoteca.server.table.commands import Command, Reply, Subscribe
from ludoteca.server.table.core import TableCore
from ludoteca.server.table.snapshot import TableSnapshot
from ludoteca.server.table.state import LogEntry, Person, SeatState, TableState


class TableRef:
    __slots__ = ("_actor",)

    def __init__(self, actor: TableActor) -> None:
        self._actor = actor

    @property
    def table_id(self) -> str:
        return self._actor.table_id

    async def send(self, command: Command) -> Reply:
        """Run ``command`` in turn with the table's others; its reply, or its refusal raised
        (``Stopped``: the table is being let go of; load it again)."""
        return await self._actor.send(command)

    def tell(self, command: Command) -> None:
        """Send ``command`` without waiting (a failure is logged)."""
        self._actor.tell(command)

    def snapshot(self) -> TableSnapshot:
        """The table as its last command left it."""
        return self._actor.snapshot

    async def subscribe(self, conn: Connection) -> None:
        """The socket hears the table from now on, starting with the whole of it."""
        await self._actor.send(Subscribe(conn))

    def unsubscribe(self, conn: Connection) -> None:
        self._actor.detach(conn)

    @property
    def viewers(self) -> Iterator[Connection]:
        """The sockets watching the table in this process."""
        return iter(self._actor.viewers)

    @property
    def watched(self) -> int:
        """How many sockets watch the table in this process."""
        return len(self._actor.viewers)

    def voice(self, lang: str) -> Voice:
        """The table's game speaking ``lang`` (its messages, its score parts' sentences)."""
        return self._actor.views.voice(lang)

    # ---- the table's life in this process (``live_tables.py``, ``leases.py``) -----------------
    @property
    def owned(self) -> bool:
        """This process runs the table's clocks and bots."""
        return self._actor.owned

    @owned.setter
    def owned(self, owned: bool) -> None:
        """Said before the table starts (``set_owned`` also catches up when it changes)."""
        self._actor.owned = owned

    def set_owned(self, owned: bool) -> None:
        self._actor.set_owned(owned)

    @property
    def stopping(self) -> bool:
        return self._actor.stopping

    def let_go(self) -> None:
        """Take no new command or viewer: a viewer arriving now loads the table anew."""
        self._actor.stopping = True

    def start(self) -> None:
        self._actor.start()

    async def stop(self) -> None:
        await self._actor.stop()

    def holds(self, actor: object) -> bool:
        """This ref is ``actor``'s (an actor lets go of itself by ``TableServices.forget``)."""
        return actor is self or actor is self._actor


def table_ref(services: TableServices, table: TableState, seats: list[SeatState],
              users: dict[int, Person], log: Sequence[LogEntry] = (),
              chat: Sequence[JSON] = ()) -> TableRef:
    """A table's actor made from its plain state, log and recent chat, not yet started."""
    actor = TableActor(services, TableCore(table, seats, users, log))
    actor.core.chat.extend(chat)
    return TableRef(actor)

