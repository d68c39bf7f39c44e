"""A well-formed action of the wrong kind for the decision at hand (a Kingdomino ``place``
during the draft, a Buttons ``roll`` while placing, a Kami ``pass`` when a lead is due) is an
``illegal_action``: a typed error, the socket open, nothing changed. Once it crashed the table
socket, because the table asked the game what the action reveals before the match driver had
checked it (issue 22).

For every registered game (a game with one kind of action, such as the test game Nim, is only
played through): the kinds of action (their JSON ``type``) are gathered from random
matches; then at every kind of decision (the set of kinds legal there) every other kind is
sent, first to the pure ``TableCore`` over several matches, then over a real socket of a real
server in one whole match played by people.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from ludoteca.engine.errors import IllegalAction
from ludoteca.engine.match import Match
from ludoteca.games import game_names, get_game
from ludoteca.server.table.core import TableCore
from ludoteca.server.table.state import Person, SeatState, TableState
from tests.server.client import JSON, Player, Socket
from tests.server.conftest import Server

NOW = datetime(2026, 1, 1, 12, tzinfo=UTC)


def kind(action: JSON) -> str:
    return str(action.get("type", "?"))


def samples(game_name: str, players: int, seeds: int = 6) -> dict[str, JSON]:
    """One well-formed action of every kind the game has, from random matches."""
    game = get_game(game_name)
    found: dict[str, JSON] = {}
    for seed in range(seeds):
        match = Match.new(game, {}, players, seed, narrate=False)
        rng = random.Random(seed)
        while not match.is_over():
            seat = min(match.to_act())
            legal = match.legal(seat)
            for action in legal:
                found.setdefault(kind(action.to_json()), action.to_json())
            match.step(seat, rng.choice(legal))
    return found


def core_for(game_name: str, players: int, seed: int) -> TableCore:
    table = TableState("t", game_name, players, seed=seed, mode="turn", turn_hours=24.0,
                       invite="i", status="playing", host_id=1, created_at=NOW)
    seats = [SeatState("t", s, user_id=s + 1) for s in range(players)]
    users = {s + 1: Person(s + 1, f"p{s}", f"P{s}") for s in range(players)}
    return TableCore(table, seats, users)


GAMES = game_names()


@pytest.mark.parametrize("game_name", GAMES)
def test_the_core_refuses_every_other_kind_at_every_kind_of_decision(game_name: str) -> None:
    game = get_game(game_name)
    players = game.spec.min_players
    probes = samples(game_name, players)
    assert probes, game_name
    seen: set[frozenset[str]] = set()
    for seed in range(4):
        core = core_for(game_name, players, seed)
        match = core.match
        assert match is not None
        rng = random.Random(seed)
        while not match.is_over():
            seat = min(match.to_act())
            legal = [a.to_json() for a in match.legal(seat)]
            kinds = frozenset(kind(a) for a in legal)
            seen.add(kinds)
            before = (game.clone(match.state), match.seq, dict(match.decisions()))
            for other, data in probes.items():
                if other in kinds:
                    continue
                with pytest.raises(IllegalAction) as info:
                    core.act(seat, match.seq, data, NOW)
                assert info.value.code == "illegal_action", (other, kinds, info.value)
                assert (match.state, match.seq, match.decisions()) == before
            core.act(seat, match.seq, rng.choice(legal), NOW)
    assert len(seen) >= 2 or len(probes) == 1  # one kind of action (Nim): nothing else to send


def drain(sockets: list[Socket], seq: int) -> None:
    """Read every socket until it has been told the table's ``seq``."""
    for sock in sockets:
        while sock.state.get("seq", -1) < seq:
            message = sock.recv()
            assert message["type"] != "error", message


@pytest.mark.parametrize("game_name", GAMES)
def test_over_a_socket_every_other_kind_is_an_illegal_action(
    server: Server, people: Callable[..., Player], game_name: str
) -> None:
    players = get_game(game_name).spec.min_players
    probes = samples(game_name, players)
    host = people()
    table = host.create(game_name, players, mode="turn")
    guests = [people() for _ in range(players - 1)]
    for guest in guests:
        guest.join(table["id"])
    sockets = [p.socket(table["id"]) for p in [host, *guests]]
    for sock in sockets:
        while sock.state.get("status") != "playing":
            sock.recv()
    rng = random.Random(7)
    probed: set[frozenset[str]] = set()
    while sockets[0].state["status"] != "finished":
        mover = next(s for s in sockets if s.state.get("legal"))
        legal: list[Any] = mover.state["legal"]
        kinds = frozenset(kind(a) for a in legal)
        seq, view = mover.state["seq"], mover.state["view"]
        if kinds not in probed:
            probed.add(kinds)
            for other, data in probes.items():
                if other in kinds:
                    continue
                mover.act(data)
                error = mover.recv()
                assert error["type"] == "error" and error["code"] == "illegal_action", error
                assert error["message"]
            mover.send({"type": "ping"})
            assert mover.recv() == {"type": "pong", "seq": seq}  # nothing moved on
            assert mover.state["view"] == view
        mover.act(rng.choice(legal))
        drain(sockets, seq + 1)
    assert len(probed) >= 2 or len(probes) == 1  # one kind of action (Nim): played through
