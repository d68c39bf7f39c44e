"""Turn notices of turn-based tables: a player whose decision began hears it on their stream
(the page's channel: the header's count of tables waiting is kept from it) and through the
notification service's other channels (``notify.py``: their webhook, email), which decide
by the player's choices."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ludoteca.server.protocol import TurnEvent, TurnOverEvent
from ludoteca.server.streams import Streams
from ludoteca.server.table.snapshot import TableSnapshot


class TurnNotices:
    def __init__(self, streams: Streams, away: Callable[[int, TurnEvent], None]) -> None:
        self.streams = streams
        self.away = away
        """The other channels of a turn (``notify.Notifier.turn``)."""
        self.notified: dict[tuple[str, int], int] = {}
        """(table, seat) -> the ``seq`` of the decision last told, so each is told once."""
        self.told: dict[tuple[str, int], int] = {}
        """(table, seat) -> the person told of the seat's pending decision (until it ends)."""

    def turns(self, table: TableSnapshot, webhooks: Mapping[int, str]) -> None:
        """Tell each person whose decision began. (``webhooks``, by user id, is what the
        table knows; the notification service reads each player's row for its channels.)"""
        if table.mode != "turn":
            return
        decisions = table.decisions
        self._turns_over(table, decisions)
        for seat, since in decisions.items():
            row = table.seats[seat]
            if row.user_id is None or row.is_bot:
                continue
            key = (table.id, seat)
            if self.notified.get(key) == since:
                continue
            self.notified[key] = since
            self.told[key] = row.user_id
            event = TurnEvent(table.id, table.game, since)
            self.streams.publish(row.user_id, event)
            self.away(row.user_id, event)

    def waiting(self, table_id: str, user_id: int) -> bool:
        """A decision of ``user_id``'s at the table is still pending (told, not ended)."""
        return any(t == table_id and u == user_id for (t, _), u in self.told.items())

    def _turns_over(self, table: TableSnapshot, decisions: Mapping[int, int]) -> None:
        """A decision told of ended (answered, taken back by another's undo, or taken over
        by a bot): its player hears ``turn_over``, so a count of tables waiting for them
        drops at once (the header's badge)."""
        for seat in range(table.players):
            key = (table.id, seat)
            user_id = self.told.get(key)
            if user_id is None:
                continue
            row = table.seats[seat]
            if seat in decisions and not row.is_bot and row.user_id == user_id:
                continue
            del self.told[key]
            self.notified.pop(key, None)
            self.streams.publish(user_id, TurnOverEvent(table.id))

    def forget(self, table_id: str, seats: int) -> None:
        for seat in range(seats):
            self.notified.pop((table_id, seat), None)
            self.told.pop((table_id, seat), None)
