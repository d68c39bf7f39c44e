"""``ludoteca analyse``: the tables, the JSON and the chart, and clear refusals."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from ludoteca import cli
from ludoteca.bots import make_bot
from ludoteca.engine.match import Match
from ludoteca.games import get_game

runner = CliRunner()


def saved_match(path: Path, finished: bool = True) -> Path:
    bots = [make_bot("greedy", "kingdomino", 7 + s) for s in range(2)]
    match = Match.new(get_game("kingdomino"), {}, 2, 7, controllers=bots, narrate=False)
    match.run_bots(max_steps=None if finished else 5)
    match.record.save(path)
    return path


def test_analyse_prints_the_summary_and_writes_the_json_and_the_chart(tmp_path: Path) -> None:
    record = saved_match(tmp_path / "match.json")
    out, chart = tmp_path / "analysis.json", tmp_path / "chart.png"
    result = runner.invoke(cli.app, ["analyse", str(record), "--budget", "4", "--seed", "3",
                                     "--json", str(out), "--chart", str(chart), "--jobs", "2"])
    assert result.exit_code == 0, result.output
    assert "accuracy" in result.output and "blund." in result.output
    analysis = json.loads(out.read_text("utf-8"))
    assert analysis["format"] == "ludoteca-analysis" and analysis["budget"] == 4
    assert analysis["seed"] == 3 and len(analysis["moves"]) == 48
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    again = tmp_path / "again.json"
    runner.invoke(cli.app, ["analyse", str(record), "--budget", "4", "--seed", "3",
                            "--json", str(again), "--jobs", "1"])
    assert again.read_bytes() == out.read_bytes()  # two processes or one: the same bytes


def test_analyse_refuses_an_unfinished_match_and_a_bad_budget(tmp_path: Path) -> None:
    unfinished = saved_match(tmp_path / "half.json", finished=False)
    result = runner.invoke(cli.app, ["analyse", str(unfinished), "--budget", "2"])
    assert result.exit_code != 0 and "not finished" in result.output
    record = saved_match(tmp_path / "match.json")
    result = runner.invoke(cli.app, ["analyse", str(record), "--budget", "0"])
    assert result.exit_code != 0 and "--budget" in result.output
    result = runner.invoke(cli.app, ["analyse", str(record), "--jobs", "0"])
    assert result.exit_code != 0 and "--jobs" in result.output
    result = runner.invoke(cli.app, ["analyse", str(tmp_path / "missing.json")])
    assert result.exit_code != 0 and "Traceback" not in result.output
