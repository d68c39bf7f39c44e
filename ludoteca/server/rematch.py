"""Making a rematch once every person at a finished table accepted the offer (the offer itself
is the table's business: ``TableCore.answer_rematch``): the same game, options, time control
and seats, people and bots, dealt anew and started; every player hears of it."""

from __future__ import annotations

from ludoteca.server.db import Seat, Table
from ludoteca.server.live_tables import LiveTables
from ludoteca.server.protocol import RematchEvent
from ludoteca.server.streams import Streams
from ludoteca.server.table.core import TableCore


async def make_rematch(tables: LiveTables, streams: Streams, core: TableCore) -> str:
    """The new table's id. Of two processes making it at once, the store names one; the other
    drops its own unplayed and answers with that one."""
    old = core.table
    store = tables.services.store
    table = Table(
        game=old.game, players=old.players, options=dict(old.options), mode=old.mode,
        bank_seconds=old.bank_seconds, increment_seconds=old.increment_seconds,
        turn_hours=old.turn_hours, rated=old.rated, private=old.private, hints=old.hints,
        zombie=False,
        rematch_of=old.id,
    )
    seats = [Seat(table_id="", seat=s.seat, user_id=s.user_id, bot=s.bot, zombie=False,
                  bank_seconds=old.bank_seconds) for s in core.seats]
    host = core.users.get(old.host_id) or next(iter(core.users.values()))
    actor = await tables.open(host, table, seats, dict(core.users))
    if not await store.set_rematch(old.id, table.id):
        actor.core.table.status = "abandoned"  # another process made it first
        await store.save_table(actor.core.table)
        tables.forget(table.id, actor)
        loaded = await store.table(old.id)
        made = loaded[0].rematch if loaded is not None else None
        if made is None:
            raise RuntimeError(f"table {old.id}: its rematch vanished")
        return made
    for seat in seats:
        if seat.user_id is not None:
            streams.publish(seat.user_id, RematchEvent(table.id, old.id))
    return table.id
