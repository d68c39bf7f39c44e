"""Whose view a replay shows (docs/protocol.md, "Replays"): during a match a player steps
through their own seat's view (their own hand, nobody else's) and a spectator through a
spectator's (no hand at all); once it ended, nothing is hidden: every seat's view, the asker's
own by default. Over a real server and real sockets."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from tests.server.client import Player, in_parallel

KAMI: dict[str, Any] = {"game": "kami", "players": 2, "options": {"target": 10}}


def replay(person: Player, table: str, **query: Any) -> Any:
    return person.http.get(f"/api/tables/{table}/replay", params=query)


def test_a_player_sees_only_their_own_hand_until_the_end_then_every_hand(
    people: Callable[..., Player],
) -> None:
    ana, ben, stranger = people(), people(), people()
    table = ana.create(**KAMI)["id"]
    ben.join(table)
    a, b = ana.socket(table), ben.socket(table)
    seat_a, seat_b = a.first["you"], b.first["you"]
    live_hand = a.first["view"]["hand"]
    assert live_hand  # dealt

    # mid-match: a player's own view, from the start on
    mine = ana.ok(replay(ana, table, at=0))
    assert mine["viewer"] == seat_a and mine["view"]["hand"] == live_hand
    asked = replay(ana, table, at=0, seat=seat_b)
    assert asked.status_code == 403 and asked.json()["code"] == "not_your_seat"
    assert asked.json()["message"]
    watched = stranger.ok(replay(stranger, table, at=0))
    assert watched["viewer"] is None and watched["view"]["hand"] is None
    assert replay(stranger, table, seat=seat_a).status_code == 403
    hers = ben.ok(replay(ben, table, at=0))
    assert hers["view"]["hand"] == b.first["view"]["hand"] != live_hand

    # a move later, still playing: each seat steps through its own past views, and the record
    # waits for the end
    mover = a if a.state.get("legal") else b
    mover.act(mover.state["legal"][0])
    for sock in (a, b):
        sock.until(lambda m: m["type"] == "update" and m["seq"] >= 1)
    for person, sock in ((ana, a), (ben, b)):
        past = person.ok(replay(person, table, at=1))
        assert past["total"] == 1 and past["table"]["status"] == "playing"
        assert past["viewer"] == sock.first["you"]
        assert past["view"]["hand"] == sock.state["view"]["hand"]
    assert stranger.ok(replay(stranger, table, at=1))["view"]["hand"] is None
    assert replay(ana, table, at=1, seat=seat_b).status_code == 403
    assert ana.http.get(f"/api/tables/{table}/record").json()["code"] == "not_finished"

    in_parallel(lambda: a.play(random.Random(1)), lambda: b.play(random.Random(2)))

    # after the end: every hand, to anyone who may see the table
    assert ana.ok(replay(ana, table, at=0))["view"]["hand"] == live_hand  # own by default
    assert stranger.ok(replay(stranger, table, at=0))["view"]["hand"] is None
    for seat, hand in ((seat_a, live_hand), (seat_b, b.first["view"]["hand"])):
        seen = stranger.ok(replay(stranger, table, at=0, seat=seat))
        assert seen["viewer"] == seat and seen["view"]["hand"] == hand
    missing = replay(stranger, table, seat=7)
    assert missing.status_code == 400 and missing.json()["code"] == "no_such_seat"
    negative = replay(stranger, table, seat=-1)  # refused with a reason, never a 500
    assert negative.status_code == 422 and negative.json()["code"] == "bad_request"


def test_an_open_table_has_no_replay(people: Callable[..., Player]) -> None:
    ana = people()
    table = ana.create(**KAMI)["id"]
    found = replay(ana, table)
    assert found.status_code == 409 and found.json()["code"] == "not_playing"


def test_the_kami_recap_names_a_face_down_card_to_its_player_only(
    people: Callable[..., Player],
) -> None:
    """The end-of-deal recap (``last_round``, docs/kami.md) keeps a card played face down
    hidden from the other seat, as during the deal; its player is told which it was."""
    ana, ben = people(), people()
    table = ana.create(**KAMI)["id"]
    ben.join(table)
    socks = [ana.socket(table), ben.socket(table)]
    rng = random.Random(5)
    hidden = 0
    while not hidden:
        assert socks[0].state["status"] == "playing", "no face-down card reached a recap"
        mover = next(s for s in socks if s.state.get("legal"))
        seq = mover.state["seq"]
        mover.act(rng.choice(mover.state["legal"]))
        for sock in socks:
            sock.until(lambda m, s=seq: m["type"] in ("full", "update") and m["seq"] > s)
        recaps = {s.first["you"]: s.state["view"]["last_round"] for s in socks}
        if recaps[0] is None:
            continue
        for viewer, recap in recaps.items():
            for owner, line in enumerate(recap["defense"]):
                strike = recap["master_strike"] and owner == recap["seat"]
                for k, card in enumerate(line):
                    shown = not card["face_down"] or card["mercenary"] or (
                        strike and k == len(line) - 1)
                    if shown or owner == viewer:
                        assert card["card"] == recaps[owner]["defense"][owner][k]["card"]
                        assert card["card"] is not None
                    else:
                        assert card["card"] is None
                        hidden += 1
