"""A tournament board's table stored but never dealt (its process died between writing the
table and dealing it) is dealt when the director opens the board again after the restart:
``LiveTables.open`` with the board's id finds the stored table and deals it, instead of leaving
a full table waiting forever. In this process (the arena's app with its lifespan), on SQLite."""

from __future__ import annotations

import asyncio
from pathlib import Path

from ludoteca.server.app import create_app
from ludoteca.server.db import Seat, Table
from ludoteca.server.hub import Hub
from ludoteca.server.settings import Settings
from ludoteca.server.tournament_lifecycle import table_id_for


def board_table() -> tuple[Table, list[Seat]]:
    """A 2-player Kingdomino table of two bots, as the director makes a board's."""
    table = Table(game="kingdomino", players=2, options={}, mode="live", bank_seconds=300.0,
                  increment_seconds=5.0, turn_hours=0.0, rated=False, private=False,
                  hints=False, zombie=False, tournament="t1")
    seats = [Seat(table_id="", seat=i, user_id=None, bot="random", zombie=False,
                  bank_seconds=300.0) for i in range(2)]
    return table, seats


async def reopen(settings: Settings) -> str:
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        hub: Hub = app.state.hub
        host = await hub.store.add_user("boardhost", None, guest=False, language="en")
        board = table_id_for("t1", 1, 1)

        # the first opening: the table is written, then the process dies before the deal
        table, seats = board_table()
        table.id, table.invite, table.host_id, table.status, table.seed = (
            board, "invite", host.id, "open", 1)
        for seat in seats:
            seat.table_id = board
        await hub.store.add_table(table, seats)

        # the director, restarted, opens the board again
        table, seats = board_table()
        ref = await hub.tables.open(host, table, seats, {host.id: host}, board)
        status = ref.snapshot().status
        found = await hub.store.table(board)
        assert found is not None and found[0].status == status
        return status


def test_a_board_stored_but_not_dealt_is_dealt_when_opened_again(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'arena.sqlite3'}",
                        bot_processes=1, bot_delay=0.0)
    assert asyncio.run(reopen(settings)) in ("playing", "finished")
