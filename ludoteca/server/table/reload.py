"""Reading a table back from the store: after another process wrote to it, or after a write
of ours failed (the store is the truth; the core takes what it holds, as plain state)."""

from __future__ import annotations

from ludoteca.server.store import Store
from ludoteca.server.table.core import TableCore


async def read_back(core: TableCore, store: Store, whole: bool) -> bool | None:
    """Take the table's state and the log entries after the core's (``whole``: the whole log)
    from one snapshot. True if the match was rebuilt from its whole log (an undo elsewhere
    also means that), False if new entries were applied, None if the table is gone."""
    whole = whole or core.match is None or core.table.status == "open"
    found = await store.read_table(core.table.id, 0 if whole else core.seq)
    if found is None:
        return None
    table, seats, moves = found
    core.take_state(table, seats, {})
    missing = core.missing_users()
    if missing:
        core.take_state(table, seats, await store.people(missing))
    if whole:
        core.load(moves)
    elif any(m.kind == "undo" for m in moves):
        again = await store.read_table(table.id)
        if again is None:
            return None
        core.take_state(*again[:2], {})
        core.load(again[2])
        whole = True
    elif moves:
        core.absorb(moves)
    return whole
