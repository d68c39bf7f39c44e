"""A new game is one new folder plus one line: Nim (``nim/``, a package outside Ludoteca, with its
rules, bot, terminal renderer, RL encoder, web renderer and option labels) is added to the
registry's list and every generic tool takes it: ``ludoteca games``, the match driver with every
bot level, the terminal in both languages, tournaments, the bench, the PettingZoo environment and
the server (``/api/games`` with its labels and its renderer, served from its folder)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import ludoteca.games as games
from ludoteca import cli


@pytest.fixture
def with_nim(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Nim as the one line in ``PACKAGES`` (the suite registers it through ``LUDOTECA_GAMES``
    already, tests/conftest.py: that is set aside here)."""
    monkeypatch.delenv("LUDOTECA_GAMES", raising=False)
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    monkeypatch.setattr(games, "PACKAGES", (*games.PACKAGES, "nim"))  # the one line
    games.registry.cache_clear()
    yield
    games.registry.cache_clear()


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
    tournament = invoke("tournament", "nim", "--bots", "greedy,random", "--games", "4",
                        "--out", str(tmp_path / "t"))
    assert tournament.exit_code == 0, tournament.output
    assert "greedy" in tournament.output and (tmp_path / "t" / "results.json").exists()


def test_reinforcement_learning(with_nim: None) -> None:
    np = pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo")
    from ludoteca.rl.pettingzoo import env

    aec = env("nim", players=3, stones=9)
    aec.reset(seed=2)
    steps = 0
    for agent in aec.agent_iter():
        obs, _reward, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            aec.step(None)
            continue
        assert aec.observation_space(agent).contains(obs)
        aec.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 9 and aec.table.match is not None and aec.table.match.is_over()


def test_the_server_lists_labels_and_serves_its_renderer(
    with_nim: None, tmp_path: Path
) -> None:
    """In process, over ASGI: no lifespan is needed to list games and serve files."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    import httpx

    from ludoteca.server.app import create_app
    from ludoteca.server.settings import Settings

    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'arena.sqlite3'}"))

    async def fetch(*paths: str) -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as client:
            return [await client.get(path) for path in paths]

    def get(*paths: str) -> list[httpx.Response]:
        """In a thread of its own: the browser tests' Playwright may hold this thread's loop."""
        with ThreadPoolExecutor(1) as pool:
            return pool.submit(asyncio.run, fetch(*paths)).result()

    listed, = get("/api/games")
    nim = next(g for g in listed.json() if g["name"] == "nim")
    assert nim["labels"]["es"]["stones"] == "Piedras" and nim["labels"]["en"]["stones.hint"]
    assert nim["bots"][:2] == ["random", "greedy"] and nim["web"] == "/static/games/nim/nim.js"
    renderer, labels = get(nim["web"], "/static/games/nim/i18n/es.json")
    assert renderer.status_code == 200 and "export default" in renderer.text
    assert "javascript" in renderer.headers["content-type"]
    assert labels.json()["nim"]["stones"] == "Piedras"
