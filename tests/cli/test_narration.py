"""The terminal narrates every move from the driver's events, in the language chosen.

Each test plays through the real command (Typer's runner, or the session with a scripted
person), then replays the saved record through the driver and requires every sentence the
viewer was told, in order, in the printed log.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

import ludoteca.bots as bots
from ludoteca import cli
from ludoteca.engine.match import Match, Step
from ludoteca.engine.record import MatchRecord
from ludoteca.games import get_game
from ludoteca.terminal import session

runner = CliRunner()
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def told(record_path: Path, lang: str, viewer: int | None) -> list[str]:
    """Every sentence ``viewer`` is told over the recorded match, in order (setup first)."""
    record = MatchRecord.load(record_path)
    game = get_game(record.game)
    names = [str(s["name"]) for s in record.seats]
    humans = [i for i, n in enumerate(names) if n in ("you", "tú")]
    voice = game.voice(lang, session.seat_names(names, humans, game.voice(lang)))
    match = Match.unplayed(game, record)
    lines = session.event_lines(game, voice, match.opening_step(), viewer)

    def on_step(step: Step) -> None:
        lines.extend(session.event_lines(game, voice, step, viewer))

    match.replay(record.actions, on_step)
    return lines


def assert_in_order(lines: list[str], output: str) -> None:
    flat = " ".join(ANSI.sub("", output).split())
    at = 0
    for line in lines:
        found = flat.find(" ".join(line.split()), at)
        assert found >= 0, f"not narrated (or out of order): {line!r}"
        at = found
    assert lines


def test_watching_buttons_narrates_every_move(tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    result = runner.invoke(
        cli.app, ["play", "buttons", "--watch", "--delay", "0", "--seed", "4", "--save", str(path),
                  "--lang", "en"],
    )
    assert result.exit_code == 0, result.output
    lines = told(path, "en", None)
    assert len(lines) >= len(MatchRecord.load(path).actions)
    assert any("rolled" in line for line in lines)
    assert_in_order(lines, result.output)


def test_watching_kami_in_spanish_narrates_every_move(tmp_path: Path) -> None:
    path = tmp_path / "k.json"
    result = runner.invoke(
        cli.app, ["play", "kami", "--players", "4", "--watch", "--lang", "es", "--delay", "0",
                  "--seed", "6", "--save", str(path)],
    )
    assert result.exit_code == 0, result.output
    assert "Partida guardada en" in result.output and "Clasificación final" in result.output
    lines = told(path, "es", None)
    assert_in_order(lines, result.output)
    assert " acted" not in result.output and "Final ranks" not in result.output


def test_watch_paces_moves_with_the_delay(monkeypatch: pytest.MonkeyPatch) -> None:
    """--watch asks for no input and waits --delay seconds between moves."""
    waits: list[float] = []
    monkeypatch.setattr(session.time, "sleep", waits.append)
    result = runner.invoke(cli.app, ["play", "kingdomino", "--watch", "--delay", "0.25",
                                     "--seed", "1"], input="")
    assert result.exit_code == 0, result.output
    assert waits and set(waits) == {0.25}
    assert "P1>" not in result.output


def scripted_person(match_box: list[Match], ui: Any) -> Any:
    """A person who types a legal move each time, in the renderer's own words."""
    from ludoteca.engine.rng import Rng

    rng = Rng(3)

    def read(prompt: str) -> str:
        match = match_box[0]
        (seat,) = match.human_seats()
        legal = match.legal(seat)
        return str(ui.typed(legal[rng.below(len(legal))], match.view(seat)))

    return read


def test_goita_against_hard_bots_narrates_every_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`ludoteca play goita --bots hard`: the command builds three hard bots (a tiny search
    budget here, so the test stays quick); a person plays every turn through the typed-move
    path; every move of the game is narrated from the person's seat."""
    monkeypatch.setitem(bots.SEARCH_SECONDS, "hard", 0.01)
    result = runner.invoke(cli.app, ["play", "goita", "--bots", "hard", "--seed", "2"], input="")
    assert result.exit_code == 0, result.output
    assert "P2 (hard bot)" in result.output and "P4 (hard bot)" in result.output

    game = get_game("goita")
    ui = session.load_renderer("goita")
    controllers: list[Any] = [None, *(bots.make_bot("hard", "goita", s) for s in (1, 2, 3))]
    names = ["you", "hard bot", "hard bot", "hard bot"]
    match = Match.new(game, {}, 4, 2, names=names, controllers=controllers)
    voice = game.voice("en", session.seat_names(names, [0], game.voice("en")))
    console = Console(record=True, width=80, force_terminal=False)
    person = session.PlaySession(match, ui, console, scripted_person([match], ui), voice)
    person.run()
    path = tmp_path / "g.json"
    match.record.save(path)
    output = console.export_text()
    assert_in_order(told(path, "en", 0), output)
    assert "Only one move was possible" in output or "P1>" not in output


def test_a_forced_single_choice_is_played_without_typing() -> None:
    """Kami's 4-player question (A6) with fewer than 5 Soldiers has one answer, `quiet`: it is
    taken for the person with a line saying so, and nothing is read."""
    game = get_game("kami")
    ui = session.load_renderer("kami")
    for seed in range(40):
        match = Match.new(game, {}, 4, seed)
        (seat,) = match.to_act()
        if len(match.legal(seat)) != 1:
            continue
        controllers: list[Any] = [bots.make_bot("greedy", "kami", s) for s in range(4)]
        controllers[seat] = None
        match.controllers = controllers
        console = Console(record=True, width=80)

        def read(prompt: str) -> str:
            raise EOFError

        with pytest.raises(EOFError):
            session.PlaySession(match, ui, console, read, game.voice("en")).run()
        assert "Only one move was possible, so it was played for you" in console.export_text()
        assert match.actions[0][0] == seat
        return
    pytest.fail("no deal where the first question had one answer")


def test_the_person_takes_back_a_move_in_the_terminal() -> None:
    """`undo` at the prompt (docs/cli.md): refused with the reason while there is nothing to
    take back; once the person's own last move revealed nothing and nobody moved since, the
    driver takes it back and the log says so."""
    game = get_game("kingdomino")
    ui = session.load_renderer("kingdomino")
    match = Match.new(game, {}, 2, 3, names=["you", "bot"],
                      controllers=[None, bots.make_bot("random", "kingdomino", 1)])
    asked: list[str] = []
    kept: list[int] = []

    def read(prompt: str) -> str:
        if match.log and match.log[-1].kind == "undo":
            raise EOFError
        if not asked:
            asked.append("undo")
            return "undo"  # nothing of ours to take back yet
        if match.can_undo(0):
            kept.append(len(match.actions) - 1)
            return "deshacer"
        action = match.legal(0)[0].to_json()
        if action["type"] == "claim":
            return f"claim {action['domino']}"
        if action["type"] == "discard":
            return "discard"
        return f"{action['x']} {action['y']} {action['dir']}"

    console = Console(record=True, width=80)
    with pytest.raises(EOFError):
        session.PlaySession(match, ui, console, read, game.voice("en")).run()
    output = console.export_text()
    assert "Nothing to take back" in output
    assert "took back their last move" in output
    assert kept and len(match.actions) == kept[0] and match.log[-1].kind == "undo"
