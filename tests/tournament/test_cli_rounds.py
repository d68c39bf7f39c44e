"""``ludoteca tournament --format``: a Swiss of bots as a real process, paired exactly as the
pairing module pairs from the results it wrote, with the standings it prints."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from extra_games import python_path
from typer.testing import CliRunner

from ludoteca import cli
from ludoteca.tournament.model import Bye, Entrant, GameResult, RoundDraw
from ludoteca.tournament.pairing import Format, format_standings, pair_round

ROOT = Path(__file__).resolve().parents[2]


def test_a_swiss_of_bots_runs_as_a_process_with_the_module_s_pairings(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=python_path(str(ROOT)), COLUMNS="120")
    done = subprocess.run(
        [sys.executable, "-m", "ludoteca", "tournament", "kingdomino", "--format", "swiss",
         "--rounds", "3", "--bots", "random,greedy,random,greedy,random", "--seed", "5",
         "--json", "out.json", "--out", "res"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Swiss of 5, 2 players a table, 3 rounds, 6 games" in done.stdout
    assert "Buchholz cut 1: Buchholz without your weakest opponent" in done.stdout
    data = json.loads((tmp_path / "out.json").read_text())
    assert data == json.loads((tmp_path / "res" / "results.json").read_text())
    entrants = [Entrant(e) for e in data["entrants"]]
    assert [e.id for e in entrants] == ["random", "greedy", "random#2", "greedy#2", "random#3"]
    fmt = Format.from_json(data["format"])
    draws = [RoundDraw.from_json(d) for d in data["rounds"]]
    results = [GameResult.from_json(r) for r in data["results"]]
    byes: list[Bye] = []
    met: set[frozenset[str]] = set()
    for draw in draws:
        before = [r for r in results if r.round < draw.round]
        assert pair_round(fmt, entrants, before, byes, draw.round, 5) == draw
        assert sorted(draw.entrants()) == sorted(e.id for e in entrants)
        assert not met & {frozenset(t.seats) for t in draw.tables}, "no repeat in 3 of 5"
        met |= {frozenset(t.seats) for t in draw.tables}
        byes += draw.byes
    assert len({b.entrant for b in byes}) == 3, "three byes, three different entrants"
    table = format_standings(fmt, entrants, results, byes)
    assert data["standings"] == table.to_json()
    printed = [line.split("│")[1:4] for line in done.stdout.splitlines() if line.count("│") > 6]
    assert [(r.strip(), e.strip(), p.strip()) for r, e, p in printed] == [
        (str(row.rank), row.entrant, f"{row.points:g}") for row in table.rows]


@pytest.mark.parametrize(("args", "message"), [
    (["--format", "swiss"], "a Swiss needs a number of rounds"),
    (["--format", "knockout", "--rounds", "2"], "--rounds is for --format swiss"),
    (["--format", "ladder"], "unknown format 'ladder'"),
    (["--format", "arena"], "an arena runs in the server"),
    (["--format", "swiss", "--rounds", "2", "--round-robin", "random,easy"], "with --bots"),
    (["--format", "swiss", "--rounds", "2", "--bots", "random"], "at least two entrants"),
])
def test_format_mistakes_are_one_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli.app, ["tournament", "kingdomino", *args])
    assert result.exit_code == 2 and message in result.output, result.output


def test_a_knockout_of_four_plays_three_games(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli.app, [
        "tournament", "kingdomino", "--format", "knockout", "--bots",
        "greedy,random,random,random", "--seed", "1", "--json", str(tmp_path / "k.json"),
        "--out", str(tmp_path / "k"),
    ])
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "k.json").read_text())
    assert [len(r["tables"]) for r in data["rounds"]] == [2, 1]
    assert data["standings"]["rows"][0]["rank"] == 1 and len(data["results"]) == 3
