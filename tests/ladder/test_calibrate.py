"""Calibrating a ladder with real games, the command in a real process, and the shipped ladder."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from importlib import resources
from itertools import pairwise
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ludoteca import cli
from ludoteca.bots import BOT_VERSION, LEVELS, level_budget
from ludoteca.ladder import from_json, ladder, shipped_path
from ludoteca.ladder.calibrate import CalibrationSettings, calibrate, to_json

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def test_the_command_in_a_process_writes_an_ordered_ladder(tmp_path: Path) -> None:
    target = tmp_path / "ladder.json"
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    env = {**os.environ, "PYTHONPATH": path, "COLUMNS": "100"}
    done = subprocess.run(
        [sys.executable, "-m", "ludoteca.cli", "ladder", "calibrate", "--game", "kingdomino",
         "--levels", "random,greedy", "--games", "6", "--out", str(target)],
        capture_output=True, text=True, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    data = json.loads(target.read_text(encoding="utf-8"))
    made = from_json(data)
    assert [r.level for r in made.rungs] == ["random", "greedy"]
    assert made.rungs[0].mu < made.rungs[1].mu and made.rungs[0].mu == 0.0
    assert made.rungs[1].identity == f"bot:greedy@{BOT_VERSION}"
    assert made.players == 2 and made.meta["games"] == 6 and made.meta["seed"] == 0
    assert made.meta["pairs"][0]["games"] == 6 and made.meta["cores"] == os.cpu_count()
    assert made.meta["command"] == ("ludoteca ladder calibrate --game kingdomino --levels "
                                    f"random,greedy --games 6 --out {target}")
    greedy = made.rungs[1]
    assert f"≈ {greedy.rating:,} ± {greedy.plus_minus:,}" in done.stdout
    assert "Greedy" in done.stdout and "vs random" in done.stdout


def test_extra_games_go_where_intervals_overlap_until_they_part() -> None:
    played: list[str] = []
    settings = CalibrationSettings("kingdomino", ("random", "greedy"), games=2, extra=200,
                                   step=10, seed=3)
    done = calibrate(settings, on_batch=lambda what, tasks: played.append(f"{what}:{len(tasks)}"))
    # random and greedy play the same for the same seeds: these rounds are exact
    assert played == ["kingdomino: every pair, 2 games:2"] + [
        f"round {r}: random-greedy:10" for r in range(2, 7)]
    assert len(done.records) == 52 and done.stopped == "every neighbour's interval apart"
    made = from_json(to_json(done, "test"))
    random, greedy = made.rungs
    assert greedy.rating - greedy.plus_minus > random.rating + random.plus_minus
    assert greedy.games == random.games == 52
    # seats alternate: each level sat first in half the games; game g of the pair is deal g
    assert sum(r.seating[0] == "random" for r in done.records) == 26
    assert len({r.seed for r in done.records}) == 52
    # one round fewer and the intervals still overlapped
    short = calibrate(CalibrationSettings("kingdomino", ("random", "greedy"), games=2,
                                          extra=40, step=10, seed=3))
    assert len(short.records) == 42
    assert short.stopped == "extra games spent with intervals still overlapping"
    # a round that would end past the time limit is not begun
    timed = calibrate(CalibrationSettings("kingdomino", ("random", "greedy"), games=2,
                                          extra=40, step=10, seed=3, minutes=1e-9))
    assert len(timed.records) == 2
    assert timed.stopped == "the time limit came with intervals still overlapping"


def test_written_json_round_trips_through_the_loader(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    done = calibrate(CalibrationSettings("kingdomino", ("random", "greedy"), games=4, seed=1))
    data = to_json(done, "ludoteca ladder calibrate ...")
    folder = tmp_path / "ludoteca" / "ladder"
    (folder / "data").mkdir(parents=True)
    (folder / "data" / "kingdomino.json").write_text(json.dumps(data), encoding="utf-8")
    real = resources.files
    monkeypatch.setattr(resources, "files",
                        lambda name: folder if name == "ludoteca.ladder" else real(name))
    loaded = ladder("kingdomino")
    assert loaded is not None and loaded == from_json(json.loads(json.dumps(data)))
    assert [(r.level, r.mu, r.sigma) for r in loaded.rungs] == [
        (level, round(done.fitted.mu[level], 4), round(done.fitted.sigma[level], 4))
        for level in ("random", "greedy")]
    assert ladder("kami") is None


def test_the_shipped_kingdomino_ladder_is_ordered_and_says_how_it_was_made() -> None:
    shipped = ladder("kingdomino")
    assert shipped is not None and shipped.players == 2
    assert shipped_path("kingdomino").is_file()
    assert [r.level for r in shipped.rungs] == list(LEVELS)
    assert all(r.identity == f"bot:{r.level}@{BOT_VERSION}" for r in shipped.rungs)
    meta = shipped.meta
    assert isinstance(meta["seed"], int) and meta["games"] >= 150
    assert meta["command"].startswith("ludoteca ladder calibrate --game kingdomino")
    assert sum(p["games"] for p in meta["pairs"]) == meta["games"]
    assert meta["bot_version"] == BOT_VERSION
    # made with today's budgets: playouts per move, the same on any machine
    assert meta["budgets"] == {level: level_budget(level, "kingdomino")
                               for level in ("medium", "hard")}
    assert set(meta["budgets"]["hard"]) == {"playouts", "ceiling_cpu_seconds"}


def test_the_shipped_kingdomino_ladder_parts_every_level() -> None:
    """Issue 35's must-show: random < greedy < medium < hard, each 95% interval (rating ±
    two sigmas, as shown) clear of the next one's."""
    shipped = ladder("kingdomino")
    assert shipped is not None
    rungs = shipped.rungs
    assert [r.level for r in rungs] == ["random", "greedy", "medium", "hard"]
    assert all(low.mu < high.mu for low, high in pairwise(rungs))
    for low, high in pairwise(rungs):
        assert high.rating - high.plus_minus > low.rating + low.plus_minus, (low, high)
    assert shipped.meta["stopped"] == "every neighbour's interval apart"
    # and every gap is beyond doubt on the joint fit too (its standard error counts all levels)
    assert all(gap["gap_mu"] > 1.96 * gap["gap_sigma"] for gap in shipped.meta["neighbours"])


def test_show_prints_the_shipped_ladder() -> None:
    result = runner.invoke(cli.app, ["ladder", "show", "--game", "Kingdomino"],
                           env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    hard = ladder("kingdomino").rung("hard")  # type: ignore[union-attr]
    assert hard is not None and f"≈ {hard.rating:,} ± {hard.plus_minus:,}" in result.output
    meta = ladder("kingdomino").meta  # type: ignore[union-attr]
    minutes = round(meta["seconds"] / 60)
    assert f"Calibrated: {meta['games']:,} games in {minutes} min, seed {meta['seed']}, " in (
        result.output)
    assert "Method: Bradley-Terry" in result.output and "Stopped: " in result.output


@pytest.mark.parametrize(("args", "said"), [
    (["show", "--game", "kami"], "no ladder is shipped for kami"),
    (["show", "--game", "chess"], "unknown game"),
    (["calibrate", "--game", "kingdomino", "--levels", "hard"], "at least two levels"),
    (["calibrate", "--game", "kingdomino", "--levels", "random,expert"], "unknown bot"),
    (["calibrate", "--game", "kingdomino", "--games", "0"], "--games must be at least 1"),
    (["calibrate", "--game", "kingdomino", "--players", "7"], "not 7"),
    (["calibrate", "--game", "kingdomino", "--bogus"], "no such option: --bogus"),
])
def test_mistakes_are_one_error_line(args: list[str], said: str) -> None:
    result = runner.invoke(cli.app, ["ladder", *args])
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: ") and said in result.output.lower()
    assert result.output.count("\n") == 1


def test_the_ladder_table_keeps_whole_words_at_80_columns() -> None:
    from rich.console import Console

    rungs = [{"level": level, "identity": f"bot:{level}@{BOT_VERSION}", "mu": 12.5 * i,
              "sigma": 1.25, "games": 1200} for i, level in enumerate(LEVELS)]
    pairs = [{"a": a, "b": b, "games": 400, "a_wins": 3, "draws": 1, "b_wins": 396}
             for i, a in enumerate(LEVELS) for b in LEVELS[i + 1:]]
    made = from_json({"game": "kingdomino", "players": 2, "rungs": rungs,
                      "meta": {"games": 2400, "seed": 7, "pairs": pairs,
                               "command": "ludoteca ladder calibrate --game kingdomino"}})
    console = Console(width=80, record=True, highlight=False)
    cli._print_ladder(console, made)
    text = console.export_text()
    assert max(len(line) for line in text.splitlines()) <= 80
    assert not re.search(r"\w…", text), text
    assert "Hard" in text and "≈ 1,869 ± 74" in text and "3.5/400 vs greedy" in text
