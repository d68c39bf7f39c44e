"""No message the server sends a seat says more than that seat may know (DESIGN.md §2).

Checked by re-dealing, over whole games of 4-player Kami and of Buttons: at every step, for
every viewer (each seat and a spectator), everything hidden from that viewer is re-dealt
(``determinize`` of its view: other hands, face-down cards, the deck, dice to come, pending
answers) and the acting seat plays, in the re-dealt world, each action that looks the same to
the viewer (``public_action``). Whenever the viewer's view afterwards is the same (and the same
seats are left to act: a table shows everyone who it is waiting for, never what a seat that
answered a simultaneous step chose), the whole
message the table actor sends that viewer (events with their sentences in English and Spanish,
view, legal actions, clocks, undo) must be byte for byte the same.

The messages are built by the very methods the actor broadcasts with (``TableActor.update``).
"""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any, cast

import pytest

from ludoteca.engine.match import Match
from ludoteca.engine.rng import Rng
from ludoteca.server.db import Seat, Table, User
from ludoteca.server.table import Entry, TableActor

CASES = [("kami", 4, 1), ("kami", 4, 2), ("buttons", 2, 3), ("buttons", 3, 4), ("goita", 4, 5)]
REDEALS = 2
ALTERNATIVES = 4


def actor_for(game: str, players: int, seed: int) -> TableActor:
    table = Table(
        id="leaktest", game=game, players=players, options={}, seed=seed, mode="live",
        bank_seconds=600.0, increment_seconds=5.0, turn_hours=0.0, rated=False, private=False,
        invite="secret", status="playing", host_id=1, zombie=False, result=None,
        created_at=datetime(2026, 1, 1, tzinfo=UTC),
    )
    seats = [Seat(table_id="leaktest", seat=s, user_id=s + 1, bot=None, zombie=False,
                  bank_seconds=600.0, deadline=None) for s in range(players)]
    users = {s + 1: User(id=s + 1, name=f"p{s}", display_name=f"Player {s}", language="en")
             for s in range(players)}
    actor = TableActor(cast(Any, None), table, seats, users)
    actor.rebuild([])
    return actor


def alternative(actor: TableActor, state: Any, done: list[tuple[int, bool, int]]) -> TableActor:
    twin = TableActor(cast(Any, None), actor.table, actor.seats, actor.users)
    real = actor.match
    assert real is not None
    twin.match = Match(game=real.game, options=real.options, players=real.players,
                       seed=real.seed, state=state, names=real.names,
                       controllers=[None] * real.players)
    twin.match._since = dict.fromkeys(real.game.to_act(state), 0)  # a decision, as in play
    twin.seq, twin.since, twin.done = actor.seq, dict(actor.since), list(done)
    return twin


@pytest.mark.parametrize(("game_name", "players", "seed"), CASES,
                         ids=[f"{g}-{n}p-{s}" for g, n, s in CASES])
def test_every_message_is_the_same_when_the_hidden_parts_are_redealt(
    game_name: str, players: int, seed: int
) -> None:
    actor = actor_for(game_name, players, seed)
    game = actor.game
    match = actor.match
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
        done_before = list(actor.done)
        public = game.public_action(before, seat, action)
        reveals = game.reveals(before, seat, action)
        step = match.step(seat, action)
        actor.seq += 1
        actor.done.append((seat, reveals, actor.seq))
        actor._track(seat, before_to_act(game, before))
        entry = Entry(actor.seq, step)
        for viewer in viewers:
            real = {lang: actor.update(entry, viewer, lang) for lang in ("en", "es")}
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
                    state = game.clone(world)
                    twin = alternative(actor, state, done_before)
                    assert twin.match is not None
                    twin.done.append((seat, game.reveals(state, seat, other), actor.seq))
                    twin_step = twin.match.step(seat, other)
                    if game.view(twin.match.state, viewer) != game.view(match.state, viewer):
                        continue  # the viewer can tell these worlds apart anyway
                    if twin.match.to_act() != match.to_act():
                        continue  # who has yet to answer is public at the table (as on BGA)
                    for lang, text in real.items():
                        assert twin.update(Entry(actor.seq, twin_step), viewer, lang) == text, (
                            f"viewer {viewer} could tell a re-dealt world apart ({lang})"
                        )
                    checked += 1
    assert checked > 50


def before_to_act(game: Any, state: Any) -> frozenset[int]:
    return frozenset() if game.is_over(state) else frozenset(game.to_act(state))
