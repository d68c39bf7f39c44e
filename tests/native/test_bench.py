"""``ludoteca bench`` puts both cores side by side in one run (ludoteca/bench.py): the same
random games and search playouts on each, with the ratio, and the native batched steps."""

from __future__ import annotations

import re

from native_core import require_native
from typer.testing import CliRunner

from ludoteca import cli

require_native()
runner = CliRunner()


def test_the_bench_reports_both_cores_and_the_ratio() -> None:
    result = runner.invoke(cli.app, ["bench", "--seconds", "0.05", "--game", "kingdomino"],
                           env={"COLUMNS": "80", "LUDOTECA_CORE": "auto"})
    assert result.exit_code == 0, result.output
    assert "Native core against the Python core" in result.output
    for measure in ("random games", "search playouts", "batched steps"):
        assert re.search(rf"{measure} +│ +[\d,-]+ │ +[\d,]+ │ +(?:[\d.]+x|-) │", result.output), (
            measure, result.output)


def test_kami_and_goita_have_their_native_rows() -> None:
    result = runner.invoke(cli.app, ["bench", "--seconds", "0.05", "--game", "kami", "--game",
                                     "goita"], env={"COLUMNS": "80", "LUDOTECA_CORE": "auto"})
    assert result.exit_code == 0, result.output
    for game in ("kami", "goita"):
        assert re.search(rf"{game} +│ +4 │ random games +│ +[\d,]+ │ +[\d,]+ │ +[\d.]+x │",
                         result.output), (game, result.output)
    assert len(re.findall(r"search playouts +│ +[\d,]+ │ +[\d,]+ │ +[\d.]+x │",
                          result.output)) == 2, result.output


def test_the_python_core_alone_says_so() -> None:
    result = runner.invoke(cli.app, ["bench", "--seconds", "0.05", "--game", "kingdomino"],
                           env={"COLUMNS": "80", "LUDOTECA_CORE": "python"})
    assert result.exit_code == 0, result.output
    assert "Native core: no figures (LUDOTECA_CORE=python)." in result.output
    assert "Native core against" not in result.output


def test_queendomino_has_its_native_rows() -> None:
    result = runner.invoke(cli.app, ["bench", "--seconds", "0.05", "--game", "queendomino"],
                           env={"COLUMNS": "80", "LUDOTECA_CORE": "auto"})
    assert result.exit_code == 0, result.output
    assert "Native core against the Python core" in result.output
    for measure in ("random games", "batched steps"):
        assert re.search(rf"{measure} +│ +[\d,-]+ │ +[\d,]+ │ +(?:[\d.]+x|-) │", result.output), (
            measure, result.output)
