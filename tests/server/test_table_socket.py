"""The table WebSocket over a real server: reconnects, a killed server, races, refusals,
clocks and undo. Every test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import InvalidStatus

from tests.server.client import JSON, Player, Socket, in_parallel
from tests.server.conftest import Server


def my_turn(sock: Socket, timeout: float = 60) -> JSON:
    """Read messages until this seat has something to answer."""
    if sock.state.get("legal"):
        return sock.state
    return sock.until(lambda m: m["type"] in ("full", "update") and bool(m.get("legal")),
                      timeout)


def play_moves(sock: Socket, n: int, rng: random.Random) -> None:
    for _ in range(n):
        state = my_turn(sock)
        seq = state["seq"]
        sock.act(rng.choice(state["legal"]))
        sock.until(lambda m, s=seq: m["type"] == "update" and m["seq"] > s)


def test_a_reconnect_gets_exactly_the_view_it_had(
    server: Server, people: Callable[..., Player]
) -> None:
    ana = people()
    table = ana.create("kingdomino", 2, bots=["greedy"])
    sock = ana.socket(table["id"])
    play_moves(sock, 5, random.Random(3))
    last = my_turn(sock)
    sock.close()
    again = ana.socket(table["id"])
    full = again.first
    assert full["type"] == "full"
    for key in ("seq", "view", "legal", "to_act", "undo", "status"):
        assert full[key] == last[key], key
    assert [c["deadline"] for c in full["clocks"]] == [c["deadline"] for c in last["clocks"]]
    assert full["you"] == 0 and full["table"]["id"] == table["id"]
    assert full["log"] and all("text" in e for entry in full["log"] for e in entry["events"])


def test_a_killed_server_resumes_every_table_from_the_database(
    database_url: str, tmp_path: Path
) -> None:
    """SIGKILL mid-game, start again: every table is back at the move it was at, its running
    clock at the same deadline; the match then finishes with no move lost or repeated."""
    server = Server(database_url, tmp_path)
    server.start()
    players = []
    try:
        live, turn = Player(server.base), Player(server.base)
        players += [live, turn]
        rng = random.Random(5)
        tables = {
            "live": live.create("kingdomino", 2, bots=["greedy"]),
            "turn": turn.create("kami", 2, mode="turn", turn_hours=24, bots=["greedy"]),
        }
        socks = {"live": live.socket(tables["live"]["id"]),
                 "turn": turn.socket(tables["turn"]["id"])}
        for sock in socks.values():
            play_moves(sock, 4, rng)
        before = {k: my_turn(s) for k, s in socks.items()}
        sent = {}
        for key in ("live",):  # an answer the server acknowledged just before it died
            sock = socks[key]
            seq = before[key]["seq"]
            sock.act(rng.choice(before[key]["legal"]))
            sent[key] = sock.until(lambda m, s=seq: m["type"] == "update" and m["seq"] > s)
        server.kill()
        server.start()
        for key, player in (("live", live), ("turn", turn)):
            sock = player.socket(tables[key]["id"])
            full = sock.first
            expected = sent.get(key, before[key])
            assert full["seq"] >= expected["seq"]
            if key == "turn":  # nothing moved: the very same position and deadline
                assert full["seq"] == expected["seq"] and full["view"] == expected["view"]
                assert full["legal"] == expected["legal"]
                running = [(c["seat"], c["deadline"]) for c in expected["clocks"] if c["running"]]
                assert running
                assert running == [(c["seat"], c["deadline"]) for c in full["clocks"]
                                   if c["running"]]
            final = sock.play(rng)
            assert final["status"] == "finished"
            record = player.ok(player.http.get(f"/api/tables/{tables[key]['id']}/record"))
            seqs = [m["seq"] for m in sock.messages if m["type"] == "update"]
            assert seqs == sorted(set(seqs)), "a move was told twice"
            assert len(record["actions"]) == final["seq"], "a move was lost or repeated"
    finally:
        for p in players:
            p.close()
        server.stop()


def test_two_racing_actions_with_the_same_seq_apply_once(
    server: Server, people: Callable[..., Player]
) -> None:
    ana = people()
    table = ana.create("kingdomino", 2, bots=["greedy"])
    one, two = ana.socket(table["id"]), ana.socket(table["id"])
    rng = random.Random(11)
    for _ in range(3):
        state = my_turn(one)
        seq = state["seq"]
        my_turn(two)
        assert two.state["seq"] == seq
        action = rng.choice(state["legal"])
        in_parallel(lambda a=action, s=seq: one.act(a, s), lambda a=action, s=seq: two.act(a, s))
        applied = []
        for sock in (one, two):
            sock.until(lambda m, s=seq: m["type"] == "update" and m["seq"] > s)
            applied += [m for m in sock.messages if m["type"] == "update"
                        and m["seq"] == seq + 1]
        end = time.monotonic() + 10
        while not any(m["type"] == "error" for m in one.messages + two.messages):
            for sock in (one, two):
                with contextlib.suppress(TimeoutError):
                    sock.recv(timeout=0.2)
            assert time.monotonic() < end, "the second action got no answer"
        errors = [m for m in one.messages + two.messages if m["type"] == "error"]
        assert [e["code"] for e in errors] == ["stale"]
        assert all(m["seat"] == 0 for m in applied) and len({m["seq"] for m in applied}) == 1
        one.messages.clear()
        two.messages.clear()
    record_moves = _sync(one)["seq"]
    assert record_moves == _sync(two)["seq"]


def _sync(sock: Socket) -> JSON:
    sock.send({"type": "sync"})
    return sock.until(lambda m: m["type"] == "full")


def test_refusals_are_typed_and_change_nothing(
    server: Server, people: Callable[..., Player]
) -> None:
    ana, eve = people(), people(lang="es")
    table = ana.create("kami", 2, bots=["greedy"])
    sock = ana.socket(table["id"])
    state = my_turn(sock)
    before = _sync(sock)

    def refused(data: object, code: str, who: Socket = sock) -> JSON:
        who.send(data if isinstance(data, str | bytes) else json.dumps(data))
        error = who.error()
        assert error["code"] == code, error
        assert error["message"] and "Traceback" not in error["message"]
        return error

    refused("{not json", "bad_json")
    refused(b"\x00\x01", "bad_json")
    refused("[1, 2]", "bad_json")
    refused({"type": "dance"}, "unknown_message")
    refused({"type": "act", "seq": state["seq"]}, "bad_request")
    refused({"type": "act", "seq": state["seq"], "action": {"type": "fly"}}, "malformed_action")
    # unknown fields: in the message (a misspelt seq too), in the action
    assert "seqq" in refused({"type": "ping", "seqq": 1}, "bad_request")["message"]
    refused({"type": "act", "seq": state["seq"], "action": state["legal"][0], "seat": 1},
            "bad_request")
    refused({"type": "act", "seq": state["seq"], "action": {**state["legal"][0], "extra": 1}},
            "malformed_action")
    refused({"type": "act", "seq": "x", "action": state["legal"][0]}, "bad_request")
    refused({"type": "act", "seq": state["seq"] + 5, "action": state["legal"][0]}, "stale")
    refused({"type": "act", "seq": state["seq"] - 1, "action": state["legal"][0]}, "stale")
    refused(json.dumps({"type": "chat", "text": "x" * 70_000}), "too_large")
    sock.send({"type": "ping"})
    assert sock.until(lambda m: m["type"] == "pong")["seq"] == state["seq"]
    # someone with no seat at the table (in Spanish), and a stranger's socket
    spy = eve.socket(table["id"])
    assert spy.first["you"] is None and spy.first["legal"] == []
    error = refused({"type": "act", "seq": state["seq"], "action": state["legal"][0]},
                    "not_seated", spy)
    assert "asiento" in error["message"].lower()
    assert "campo" in refused({"type": "sync", "desde": 3}, "bad_request", spy)["message"]
    after = _sync(sock)
    assert after["seq"] == before["seq"] and after["view"] == before["view"]
    assert after["legal"] == before["legal"]


def test_out_of_turn_and_unknown_table(server: Server, people: Callable[..., Player]) -> None:
    ana, ben = people(), people()
    table = ana.create("kingdomino", 2)
    ben.join(table["id"])
    a, b = ana.socket(table["id"]), ben.socket(table["id"])
    first = a.first if a.first["to_act"] == [0] else b.first
    waiting, acting = (b, a) if first is a.first else (a, b)
    legal = acting.first["legal"]
    waiting.act(legal[0], waiting.first["seq"])
    assert waiting.error()["code"] == "not_your_turn"
    assert _sync(waiting)["seq"] == first["seq"]
    nowhere = ana.socket("no-such-table")
    assert nowhere.first["type"] == "error" and nowhere.first["code"] == "no_such_table"
    nowhere.send({"type": "ping"})
    assert nowhere.error()["code"] == "no_such_table"


def test_a_socket_from_another_origin_is_refused(server: Server, people: Callable[..., Player]
                                               ) -> None:
    ana = people()
    table = ana.create("kingdomino", 2, bots=["greedy"])
    with pytest.raises(InvalidStatus) as refused:
        ana.socket(table["id"], origin="https://evil.example", **{"accept-language": "es"})
    answer = refused.value.response
    assert answer.status_code == 403
    body = json.loads(answer.body)
    assert body["code"] == "bad_origin" and "https://evil.example" in body["message"]
    assert body["message"].startswith("No se aceptan")
    same = ana.socket(table["id"], origin=server.base)
    assert same.first["type"] == "full"


def test_a_clock_running_out_hands_the_seat_to_a_bot(
    server: Server, people: Callable[..., Player]
) -> None:
    ana = people()
    table = ana.create("kingdomino", 2, bank_seconds=10, increment_seconds=0, bots=["greedy"])
    sock = ana.socket(table["id"])
    started = time.monotonic()
    taken = sock.until(lambda m: m["type"] == "table" and m["table"]["seats"][0]["zombie"], 30)
    assert time.monotonic() - started >= 8
    assert taken["table"]["zombie"] is True
    final = sock.until(lambda m: m.get("status") == "finished", 120)
    assert final["result"]["scores"]
    # the fallen clock stays at zero and stopped: a bot's seat has no clock
    assert final["clocks"][0] == {"seat": 0, "running": False, "seconds": 0.0, "deadline": None}
    texts = [e["text"] for m in sock.messages if m["type"] in ("update", "full")
             for e in m.get("events", [])]
    assert any("bot plays" in t for t in texts)
    sock.act({"type": "claim", "domino": 1}, final["seq"])
    assert sock.error()["code"] == "game_over"
    summary = ana.ok(ana.http.get(f"/api/tables/{table['id']}"))
    assert summary["zombie"] is True


def test_undo_takes_back_only_your_own_unrevealing_move(
    server: Server, people: Callable[..., Player]
) -> None:
    ana = people()
    table = ana.create("kingdomino", 2, bank_seconds=600, increment_seconds=30,
                       bots=["greedy"])
    sock = ana.socket(table["id"])
    rng = random.Random(2)
    sock.send({"type": "undo", "seq": my_turn(sock)["seq"]})
    assert sock.error()["code"] == "no_undo"
    for _ in range(40):
        state = my_turn(sock)
        seq = state["seq"]
        sock.act(rng.choice(state["legal"]))
        after = sock.until(lambda m, s=seq: m["type"] == "update" and m["seq"] > s)
        if after["undo"] and after["seq"] == seq + 1 and after["legal"]:  # the bot waits
            break
    else:
        pytest.fail("no undoable move in 40 tries")
    sock.send({"type": "undo", "seq": after["seq"]})
    back = sock.until(lambda m: m["type"] == "full")
    assert back["seq"] == after["seq"] + 1
    assert back["view"] == state["view"] and back["legal"] == state["legal"]
    assert any(e["type"] == "undo" for e in back["log"][-1]["events"])
    # the action's increment (30 s) went back with it: acting and taking back buys no time
    mine = table["seats"][0]["seat"]
    assert after["clocks"][mine]["seconds"] > state["clocks"][mine]["seconds"] + 25
    assert back["clocks"][mine]["running"]
    assert back["clocks"][mine]["seconds"] <= state["clocks"][mine]["seconds"]
    # the undone position's number is stale now, even for the same action
    sock.act(back["legal"][0], seq)
    assert sock.error()["code"] == "stale"


def test_chat_is_escaped_and_limited(server: Server, people: Callable[..., Player]) -> None:
    ana, ben = people(), people()
    table = ana.create("kingdomino", 2)
    ben.join(table["id"])
    a, b = ana.socket(table["id"]), ben.socket(table["id"])
    a.send({"type": "chat", "text": "<b>hola</b>"})
    line = b.until(lambda m: m["type"] == "chat")["line"]
    assert line["text"] == "&lt;b&gt;hola&lt;/b&gt;" and line["user"] == ana.name
    a.send({"type": "chat", "text": "   "})
    assert a.error()["code"] == "chat_empty"
    # a text that is not a string is a malformed message, not an empty line, in either language
    eva = people(lang="es")
    e = eva.socket(table["id"])
    for sock, says in ((a, "The request is not valid: text"),
                       (e, "La petición no es válida: text")):
        for text in (5, None, ["hola"], {"t": "hola"}):
            sock.send({"type": "chat", "text": text})
            assert sock.error() == {"type": "error", "code": "bad_request", "message": says}
        sock.send({"type": "chat"})
        assert sock.error()["code"] == "bad_request"
    a.send({"type": "chat", "text": "x" * 501})
    assert a.error()["code"] == "chat_too_long"
    for i in range(6):
        a.send({"type": "chat", "text": f"line {i}"})
    assert a.error()["code"] == "rate_limited"
    again = ben.socket(table["id"])
    assert again.first["chat"][0]["text"] == "&lt;b&gt;hola&lt;/b&gt;"


def test_spectators_see_the_spectator_view(server: Server, people: Callable[..., Player]
                                           ) -> None:
    ana, watcher = people(), people()
    table = ana.create("kami", 2, bots=["greedy"])
    sock = ana.socket(table["id"])
    spy = watcher.socket(table["id"])
    assert spy.first["you"] is None
    mine = sock.first["view"]
    assert spy.first["view"] != mine
    assert httpx.get(server.base + f"/api/tables/{table['id']}").status_code == 200
