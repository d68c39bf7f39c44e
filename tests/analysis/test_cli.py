"""``ludoteca analyse``: the tables, the JSON and the chart, and clear refusals."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from ludoteca import cli
from ludoteca.bots import make_bot
from ludoteca.engine.match import Match
from ludoteca.games import get_game

runner = CliRunner()


def saved_match(path: Path, finished: bool = True, names: list[str] | None = None) -> Path:
    bots = [make_bot("greedy", "kingdomino", 7 + s) for s in range(2)]
    match = Match.new(get_game("kingdomino"), {}, 2, 7, controllers=bots, narrate=False,
                      names=names)
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


def test_analyse_in_spanish_names_each_seat_and_fits_80_columns(tmp_path: Path) -> None:
    """``--lang es``: the tables, judgements, notes and the chart's labels in Spanish; two bots
    with one name are told apart by their seat numbers, in the tables and the chart's legend;
    at 80 columns no word is cut short."""
    record = saved_match(tmp_path / "match.json", names=["greedy bot", "greedy bot"])
    chart = tmp_path / "chart.svg"  # the same drawing as the PNG, its words readable
    result = runner.invoke(cli.app, ["analyse", str(record), "--budget", "4", "--jobs", "1",
                                     "--lang", "es", "--chart", str(chart)],
                           env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    out = result.output
    for words in ("análisis (presupuesto 4, semilla 0)", "precisión", "suerte", "puesto",
                  "Imprecisiones, errores y errores graves", "juicio", "error grave",
                  "Las probabilidades de ganar van en puntos", "Gráfico escrito en"):
        assert words in out, words
    assert "accuracy" not in out and "blunder" not in out and "Chart written" not in out
    moves = out.split("Imprecisiones, errores y errores graves")[1]  # in the game's Spanish words
    assert re.search(r"reclamar|colocar|descartar", moves), moves
    assert not re.search(r"\b(claim|place|discard|facing)\b", moves), moves
    summary = out.split("Imprecisiones, errores")[0]
    assert "P1 (greedy bot)" in summary and "P2 (greedy bot)" in summary
    assert re.search(r"\d,\d", summary) and not re.search(r"\d\.\d", summary)  # 39,4
    assert not re.search(r"\w…", out), out
    assert max(len(line) for line in out.splitlines()) <= 80
    texts = re.findall(r"<!-- (.*?) -->", chart.read_text("utf-8"))  # matplotlib's SVG text
    for label in ("jugada", "probabilidad de ganar, %", "imprecisión", "error grave",
                  "P1 (greedy bot)", "P2 (greedy bot)",
                  "kingdomino: probabilidad de ganar tras cada jugada (presupuesto 4, semilla 0)"):
        assert label in texts, (label, texts)
    assert not [t for t in texts if "win" in t or "blunder" in t or t == "move"]


def test_analyse_in_english_at_80_columns_by_seat(tmp_path: Path) -> None:
    record = saved_match(tmp_path / "match.json", names=["greedy bot", "greedy bot"])
    result = runner.invoke(cli.app, ["analyse", str(record), "--budget", "4", "--jobs", "1",
                                     "--lang", "en"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    out = result.output
    assert "blunder" in out and "accuracy" in out and "inacc." in out
    assert not re.search(r"\w…", out), out
    assert max(len(line) for line in out.splitlines()) <= 80
    summary = out.split("Inaccuracies, mistakes and blunders")[0]
    assert "P1 (greedy bot)" in summary and "P2 (greedy bot)" in summary


def test_a_bad_analyse_option_is_one_error_line(tmp_path: Path) -> None:
    record = saved_match(tmp_path / "match.json")
    for args in (["--bogus"], ["--budget", "many"], ["--lang", "fr"]):
        result = runner.invoke(cli.app, ["analyse", str(record), *args])
        assert result.exit_code == 2, result.output
        assert result.output.startswith("error: ") and result.output.count("\n") == 1, \
            result.output
