"""No message the server sends a seat says more than that seat may know (DESIGN.md §2).

Checked by re-dealing, over a whole game of every registered game (4-player Kami and
Buttons at more tables): at every step, for
every viewer (each seat and a spectator), everything hidden from that viewer is re-dealt
(``determinize`` of its view: other hands, face-down cards, the deck, dice to come, pending
answers) and the acting seat plays, in the re-dealt world, each action that looks the same to
the viewer (``public_action``). Whenever the viewer's view afterwards is the same (and the same
seats are left to act: a table shows everyone who it is waiting for, never what a seat that
answered a simultaneous step chose), the whole
message the table sends that viewer (events with their sentences in English and Spanish,
view, legal actions, clocks, undo) must be byte for byte the same.

The messages are built by the very builder the actor broadcasts with (``TableViews.update``).
"""

from __future__ import annotations

import copy
import random
from datetime import UTC, datetime
from typing import Any

import pytest

from ludoteca.engine.match import Match
from ludoteca.engine.rng import Rng
from ludoteca.games import game_names, get_game
from ludoteca.server.table.core import TableCore
from ludoteca.server.table.state import Person, SeatState, TableState
from ludoteca.server.table.view import TableViews

MORE = {"kami": [(4, 1), (4, 2)], "buttons": [(2, 3), (3, 4)]}
"""Games with hands and dice checked at more tables (partners at 4, three seats)."""
CASES = [(name, players, seed) for name in game_names()
         for players, seed in MORE.get(name, [(get_game(name).spec.min_players, 5)])]
"""Every registered game (the test game too, tests/conftest.py), at ``MORE``'s tables or at its
fewest players."""
REDEALS = 2
ALTERNATIVES = 4
NOW = datetime(2026, 1, 1, 12, tzinfo=UTC)


def core_for(game: str, players: int, seed: int) -> TableCore:
    table = TableState(
        "leaktest", game, players, seed=seed, mode="live", bank_seconds=600.0,
        increment_seconds=5.0, invite="secret", status="playing", host_id=1,
        created_at=datetime(2026, 1, 1, tzinfo=UTC),
    )
    seats = [SeatState("leaktest", s, user_id=s + 1, bank_seconds=600.0)
             for s in range(players)]
    users = {s + 1: Person(s + 1, f"p{s}", f"Player {s}") for s in range(players)}
    return TableCore(table, seats, users)


def twin_of(core: TableCore, match: Match, state: Any) -> tuple[TableCore, TableViews]:
    """The same table with the same log and decisions, in another world."""
    twin = copy.copy(core)
    twin.match = copy.copy(match)
    twin.match.state = state
    twin.match.log = list(match.log)
    twin.match.actions = list(match.actions)
    twin.match._reveals = list(match._reveals)
    return twin, TableViews(twin)


@pytest.mark.parametrize(("game_name", "players", "seed"), CASES,
                         ids=[f"{g}-{n}p-{s}" for g, n, s in CASES])
def test_every_message_is_the_same_when_the_hidden_parts_are_redealt(
    game_name: str, players: int, seed: int
) -> None:
    core = core_for(game_name, players, seed)
    views = TableViews(core)
    game = core.game
    match = core.match
    assert match is not None
    rng = random.Random(seed)
    redeal = Rng(seed)
    viewers: list[int | None] = [*range(players), None]
    checked = 0
    while not match.is_over():
        seat = rng.choice(sorted(match.to_act()))
        action = rng.choice(match.legal(seat))
        before = game.clone(match.state)
        views_before = {v: game.view(before, v) for v in viewers}
        was = copy.copy(match)
        was.log, was.actions, was._reveals = list(match.log), list(match.actions), list(
            match._reveals)
        public = game.public_action(before, seat, action)
        match.step(seat, action)
        for viewer in viewers:
            real = {lang: views.update(viewer, lang, NOW) for lang in ("en", "es")}
            for _ in range(REDEALS):
                world = game.determinize(views_before[viewer], viewer, redeal)
                if viewer == seat:
                    options = [action]
                else:
                    options = [
                        a for a in game.legal_actions(world, seat)
                        if game.public_action(world, seat, a) == public
                    ]
                    rng.shuffle(options)
                for other in options[:ALTERNATIVES]:
                    twin, twin_views = twin_of(core, was, game.clone(world))
                    assert twin.match is not None
                    twin.match.step(seat, other)
                    if game.view(twin.match.state, viewer) != game.view(match.state, viewer):
                        continue  # the viewer can tell these worlds apart anyway
                    if twin.match.to_act() != match.to_act():
                        continue  # who has yet to answer is public at the table (as on BGA)
                    for lang, text in real.items():
                        assert twin_views.update(viewer, lang, NOW) == text, (
                            f"viewer {viewer} could tell a re-dealt world apart ({lang})"
                        )
                    checked += 1
    assert checked > 50
