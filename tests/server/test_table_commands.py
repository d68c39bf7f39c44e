"""A table takes typed commands and publishes immutable snapshots (server/table/commands.py,
snapshot.py), and a match's end is an event its subscribers hear in order (server/finisher.py).
No event loop of a server, no database: the core and plain values."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import typing
from datetime import timedelta

import pytest

from ludoteca.engine.game import JSON
from ludoteca.server.finisher import Finisher, MatchFinished
from ludoteca.server.state_rows import table_rows
from ludoteca.server.table import commands
from ludoteca.server.table.actor import HANDLERS
from ludoteca.server.table.core import TableCore
from tests.server.test_table_core import NOW, USERS, open_table, started


def test_every_command_has_one_handler_and_is_a_frozen_value() -> None:
    kinds = set(typing.get_args(commands.Command))
    assert len(kinds) >= 19
    assert set(HANDLERS) == kinds | {commands.Subscribe}
    for kind in kinds:
        assert dataclasses.is_dataclass(kind) and kind.__dataclass_params__.frozen  # type: ignore[attr-defined]
    act = commands.Act(0, 3, {"type": "pass"})
    with pytest.raises(dataclasses.FrozenInstanceError):
        act.seq = 4  # type: ignore[misc]
    assert act == commands.Act(0, 3, {"type": "pass"})  # a value: compared, logged, queued


def test_a_snapshot_is_the_table_as_its_command_left_it() -> None:
    core = open_table()
    before = core.snapshot(NOW)
    assert before.seat_of(1) == 0 and before.seat_of(2) is None and before.seq == 0
    assert before.is_member(1) and not before.is_member(2)
    core.join(USERS[2], None, "secret")
    core.seats_changed(NOW)
    after = core.snapshot(NOW)
    # the snapshot taken before is untouched by what came after
    assert before.status == "open" and before.seats[1].user_id is None
    assert after.status == "playing" and after.seat_of(2) == 1 and after.people == {1, 2}
    assert after.names == ("User 1", "User 2") and set(after.decisions) == core.to_act()
    with pytest.raises(dataclasses.FrozenInstanceError):
        after.status = "finished"  # type: ignore[misc]
    summary = after.summary(NOW)
    assert summary == core.summary(NOW)
    assert "invite" not in summary and "seed" not in summary
    assert [s["user"] for s in summary["seats"]] == ["u1", "u2"]
    assert summary["host"] == "u1" and summary["rematch_offer"] is None


def finished_core() -> TableCore:
    core, _ = started("kingdomino", mode="turn")
    rng = random.Random(5)
    assert core.match is not None
    while not core.act(seat := min(core.to_act()), core.seq,
                       rng.choice(core.match.legal(seat)).to_json(), NOW).finished:
        pass
    return core


def test_a_snapshots_rematch_offer_lapses_when_its_time_is_up() -> None:
    core = finished_core()
    core.answer_rematch(0, True, NOW, 60.0)
    offered = core.snapshot(NOW)
    assert offered.over and offered.status == "finished"
    assert offered.summary(NOW)["rematch_offer"]["by"] == 0
    assert offered.summary(NOW + timedelta(seconds=59))["rematch_offer"] is not None
    assert offered.summary(NOW + timedelta(seconds=60))["rematch_offer"] is None
    assert offered.summary(NOW + timedelta(seconds=60)) == core.summary(
        NOW + timedelta(seconds=60))


def test_rows_made_from_a_snapshot_carry_what_the_ratings_read() -> None:
    core = finished_core()
    core.table.rated = True  # as if made so (a lasting field: read at the first snapshot)
    table, seats = table_rows(core.snapshot(NOW))
    assert (table.id, table.game, table.players, table.result) == (
        core.table.id, core.table.game, core.table.players, core.table.result)
    assert [(s.seat, s.user_id, s.bot, s.zombie) for s in seats] == [
        (s.seat, s.user_id, s.bot, s.zombie) for s in core.seats]
    # what ratings.rate reads of the table row: finished, rated, not taken over
    assert (table.status, table.rated, table.zombie) == (
        core.table.status, core.table.rated, core.table.zombie)
    assert table.status == "finished" and table.rated and not table.zombie


def test_the_finisher_runs_its_subscribers_in_order_through_a_failure(
    caplog: pytest.LogCaptureFixture,
) -> None:
    heard: list[tuple[str, JSON | None]] = []

    async def ratings(event: MatchFinished) -> JSON | None:
        heard.append(("ratings", event.result))
        return {**(event.result or {}), "ratings": [{"seat": 0, "delta": 1.5}]}

    async def broken(event: MatchFinished) -> JSON | None:
        heard.append(("broken", event.result))
        raise RuntimeError("a subscriber fails")

    async def lobby(event: MatchFinished) -> None:
        heard.append(("lobby", event.result))

    core = finished_core()
    event = MatchFinished(core.snapshot(NOW))
    assert (event.table_id, event.game, event.finished_at) == ("t1", "kingdomino", NOW)
    assert [s.user_id for s in event.seats] == [1, 2]
    finisher = Finisher([ratings, broken])
    finisher.subscribe(lobby)
    with caplog.at_level(logging.ERROR, "ludoteca.table"):
        final = asyncio.run(finisher.finish(event))
    assert [name for name, _ in heard] == ["ratings", "broken", "lobby"]
    assert heard[0][1] == core.table.result  # the first hears the result as written
    amended = {**core.table.result, "ratings": [{"seat": 0, "delta": 1.5}]}  # type: ignore[dict-item]
    assert heard[1][1] == heard[2][1] == amended == final.result  # the next ones, amended
    assert event.result == core.table.result  # the event itself is a value: unchanged
    assert "broken" in caplog.text and "a subscriber fails" in caplog.text
