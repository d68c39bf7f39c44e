"""External bots through real subprocesses: the example bot, the protocol messages, and every
kind of misbehaviour forfeiting as docs/bot-protocol.md says."""

from __future__ import annotations

import json
import shlex
import sys
import textwrap
import time
from dataclasses import replace
from pathlib import Path

import pytest

from ludoteca.bots.base import Bot
from ludoteca.bots.external import ExternalBot
from ludoteca.games import game_names
from ludoteca.tournament import (
    GameTask,
    TournamentSettings,
    play_task,
    run_round_robin,
    run_tournament,
)

EXAMPLE = Path(__file__).parents[2] / "examples" / "random_bot.py"


def cmd(script: Path, *args: str) -> str:
    return "cmd:" + shlex.join([sys.executable, str(script), *args])


def bot_script(tmp_path: Path, name: str, body: str) -> Path:
    """A tiny bot: answers every choose with ``body`` (a Python expression over ``msg``)."""
    path = tmp_path / f"{name}.py"
    path.write_text(
        textwrap.dedent(
            f"""
            import json, sys
            for line in sys.stdin:
                msg = json.loads(line)
                if msg["type"] == "choose":
                    print({body}, flush=True)
                elif msg["type"] == "end":
                    break
            """
        )
    )
    return path


@pytest.mark.parametrize("game", game_names())
def test_example_bot_plays_whole_games(game: str) -> None:
    """Every registered game (the test game too), at two seats or the game's fewest."""
    result = run_tournament(TournamentSettings(game, [cmd(EXAMPLE), "random"], None, 2, seed=1))
    stats = result.stats[cmd(EXAMPLE)]
    assert stats.games == 2 and stats.moves > 0 and stats.forfeits == 0


def test_example_bot_is_repeatable_and_parallel_safe() -> None:
    entrants = ["random", cmd(EXAMPLE)]
    settings = TournamentSettings("kingdomino", entrants, games=4, seed=2)
    one = run_round_robin(settings).to_json()
    two = run_round_robin(replace(settings, jobs=2)).to_json()
    scores = [p["a_stats"]["mean_score"] for p in one["pairings"]]
    assert scores == [p["a_stats"]["mean_score"] for p in two["pairings"]]
    assert one["overall"][1]["forfeits"] == 0


def test_protocol_messages(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    script = tmp_path / "logger.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import json, sys
            with open({str(log)!r}, "a") as log:
                for line in sys.stdin:
                    log.write(line)
                    msg = json.loads(line)
                    if msg["type"] == "choose":
                        print(json.dumps({{"action": msg["legal"][-1]}}), flush=True)
            """
        )
    )
    record = play_task(
        GameTask(0, "kingdomino", {"harmony": True}, 11, ("random", cmd(script)), time_ms=1500)
    )
    assert record.forfeits == (None, None)
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    start, choose, end = messages[0], messages[1], messages[-1]
    assert start["type"] == "start" and start["protocol"] == 1
    assert (start["game"], start["seat"], start["players"]) == ("kingdomino", 1, 2)
    assert start["options"]["harmony"] is True and start["time_ms"] == 1500
    assert isinstance(start["seed"], int)
    assert choose["type"] == "choose" and choose["time_ms"] == 1500
    assert choose["legal"] and all(isinstance(a, dict) for a in choose["legal"])
    assert "view" in choose and isinstance(choose["view"], dict)
    assert end["type"] == "end" and end["outcome"]["scores"] == list(record.scores)
    assert len(messages) == 2 + record.moves[1]


MISBEHAVIOUR = [
    ("garbage", '"hello there"', "which is not JSON"),
    ("shape", 'json.dumps([1, 2])', "expected"),
    (
        "illegal",
        'json.dumps({"action": next({"type": "claim", "domino": d} for d in range(1, 49)'
        ' if {"type": "claim", "domino": d} not in msg["legal"])})',
        "illegal action",
    ),
    ("no_domino", 'json.dumps({"action": {"type": "claim", "domino": 999}})', "no domino 999"),
    ("unreadable", 'json.dumps({"action": {"type": "fly"}})', "unreadable action"),
    ("index", 'json.dumps({"index": len(msg["legal"])})', "is not 0-"),
    ("crash", '1 / 0', "exited with code 1 mid-game: 'ZeroDivisionError"),
]


@pytest.mark.parametrize(("name", "body", "reason"), MISBEHAVIOUR)
def test_misbehaving_bot_forfeits(tmp_path: Path, name: str, body: str, reason: str) -> None:
    bad = cmd(bot_script(tmp_path, name, body))
    result = run_tournament(TournamentSettings("kingdomino", [bad, "random"], 2, 2, seed=3))
    stats = result.stats[bad]
    assert stats.forfeits == 2 and stats.wins == 0  # scored as a loss, every time
    assert result.stats["random"].wins == 2  # the other seat wins the forfeited games
    assert reason in stats.forfeit_notes[0]
    assert len(stats.scores) == 2  # the games were played to the end


def test_slow_bot_forfeits_on_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import ludoteca.bots.external as external

    monkeypatch.setattr(external, "GRACE_MS", 0)
    slow = bot_script(tmp_path, "slow", '__import__("time").sleep(5) or ""')
    record = play_task(GameTask(0, "kingdomino", {}, 5, (cmd(slow), "random"), time_ms=100))
    assert record.forfeits[0] is not None and "no answer within 100 ms" in record.forfeits[0]
    assert record.winners == (1,)


def test_bot_that_dies_at_start(tmp_path: Path) -> None:
    dead = tmp_path / "dead.py"
    dead.write_text("import sys\nsys.exit(3)\n")
    record = play_task(GameTask(0, "kingdomino", {}, 5, ("random", cmd(dead))))
    assert record.forfeits[1] is not None and "code 3" in record.forfeits[1]


def test_forfeit_stops_the_process_and_random_takes_over(tmp_path: Path) -> None:
    from ludoteca.games import get_game

    game = get_game("kingdomino")
    state = game.setup({}, 2, 1)
    seat = next(iter(game.to_act(state)))
    bot = ExternalBot(cmd(bot_script(tmp_path, "g", '"?"')), "kingdomino", seat, 2, {}, 1)
    assert isinstance(bot, Bot)  # the driver's protocol: choose, end, close
    proc = bot.proc
    assert proc is not None
    action = bot.choose(game, game.view(state, seat), seat)
    assert action in game.legal_actions(state, seat)
    assert bot.forfeit is not None and bot.proc is None and proc.poll() is not None


def test_both_seats_forfeit_nobody_wins(tmp_path: Path) -> None:
    bad = cmd(bot_script(tmp_path, "bad", '"nope"'))
    record = play_task(GameTask(0, "kingdomino", {}, 2, (bad, bad)))
    assert record.winners == () and all(record.forfeits)


def test_forfeits_reach_the_tables(tmp_path: Path) -> None:
    from ludoteca.tournament import forfeit_notes, pairing_table, write_results

    bad = cmd(bot_script(tmp_path, "bad", '"nope"'))
    result = run_round_robin(TournamentSettings("kingdomino", ["random", bad], games=2, seed=1))
    headers, rows = pairing_table(result)
    assert headers[-1] == "forfeits A / B" and rows[0][-1] == "0 / 2"
    (note,) = forfeit_notes(result)
    assert note.startswith(f"{bad} forfeited 2 seat-games") and "not JSON" in note
    md = write_results(result, tmp_path / "out")[2].read_text()
    assert "Forfeits" in md and "not JSON" in md


def test_a_sooner_deadline_shortens_the_budget(tmp_path: Path) -> None:
    """The driver's deadline, when sooner than the bot's own budget, is what the program is
    told and what it is held to; ``end`` without an outcome (an abandoned match) sends nothing
    and ``close`` stops the program."""
    from ludoteca.games import get_game

    log = tmp_path / "log.jsonl"
    script = tmp_path / "logger.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import json, sys
            with open({str(log)!r}, "a") as log:
                for line in sys.stdin:
                    log.write(line)
                    log.flush()
                    if json.loads(line)["type"] == "choose":
                        print(json.dumps({{"index": 0}}), flush=True)
            """
        )
    )
    game = get_game("kingdomino")
    state = game.setup({}, 2, 1)
    seat = min(game.to_act(state))
    bot = ExternalBot(cmd(script), "kingdomino", seat, 2, {}, 1, time_ms=5000)
    view = game.view(state, seat)
    first = game.legal_actions(state, seat)[0]
    assert bot.choose(game, view, seat, time.monotonic() + 3.0) == first
    assert bot.choose(game, view, seat) is not None and bot.forfeit is None
    bot.end(None)
    bot.close()
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    assert [m["type"] for m in messages] == ["start", "choose", "choose"]
    assert 2000 < messages[1]["time_ms"] <= 3000 and messages[2]["time_ms"] == 5000
