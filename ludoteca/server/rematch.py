"""Making a rematch once every person at a finished table accepted the offer (the offer itself
is the table's business: ``Rematch``, in its actor): the same game, options, time control
and seats, people and bots, dealt anew and started; every player hears of it."""

from __future__ import annotations

from ludoteca.server.db import Seat, Table
from ludoteca.server.live_tables import LiveTables
from ludoteca.server.protocol import RematchEvent
from ludoteca.server.streams import Streams
from ludoteca.server.table.commands import Drop
from ludoteca.server.table.snapshot import TableSnapshot
from ludoteca.server.table.state import Person


async def make_rematch(tables: LiveTables, streams: Streams, old: TableSnapshot,
                       users: dict[int, Person]) -> str:
    """The new table's id (``users``: the people the finished table knows, by id). Of two
    processes making it at once, the store names one; the other drops its own unplayed and
    answers with that one."""
    store = tables.services.store
    table = Table(
        game=old.game, players=old.players, options=dict(old.options), mode=old.mode,
        bank_seconds=old.bank_seconds, increment_seconds=old.increment_seconds,
        turn_hours=old.turn_hours, rated=old.rated, private=old.private, hints=old.hints,
        zombie=False,
        rematch_of=old.id,
    )
    seats = [Seat(table_id="", seat=s.seat, user_id=s.user_id, bot=s.bot, zombie=False,
                  bank_seconds=old.bank_seconds) for s in old.seats]
    host = users.get(old.host_id) or next(iter(users.values()))
    ref = await tables.open(host, table, seats, dict(users))
    if not await store.set_rematch(old.id, table.id):
        await ref.send(Drop())  # another process made it first
        tables.forget(table.id, ref)
        loaded = await store.table(old.id)
        made = loaded[0].rematch if loaded is not None else None
        if made is None:
            raise RuntimeError(f"table {old.id}: its rematch vanished")
        return made
    for seat in seats:
        if seat.user_id is not None:
            streams.publish(seat.user_id, RematchEvent(table.id, old.id))
    return table.id
