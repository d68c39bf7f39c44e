"""``ludoteca bench`` puts both cores side by side in one run (ludoteca/bench.py): the same
random games, search playouts and random games through the match driver on each, with the
ratio, and the native batched steps."""

from __future__ import annotations

import re

from native_core import require_native
from typer.testing import CliRunner

from ludoteca import cli
from ludoteca.engine.registry import resolve
from ludoteca.games import entry, game_names

require_native()
runner = CliRunner()


def test_the_bench_reports_both_cores_and_the_ratio() -> None:
    result = runner.invoke(cli.app, ["bench", "--seconds", "0.05", "--game", "kingdomino"],
                           env={"COLUMNS": "80", "LUDOTECA_CORE": "auto"})
    assert result.exit_code == 0, result.output
    assert "Native core against the Python core" in result.output
    for measure in ("random games", "search playouts", "driver games", "batched steps"):
        assert re.search(rf"{measure} +│ +[\d,-]+ │ +[\d,]+ │ +(?:[\d.]+x|-) │", result.output), (
            measure, result.output)


def test_every_native_game_has_its_rows() -> None:
    """Every game whose registry entry names a native module shows its random games on both
    cores, and its search playouts where its native module plays them."""
    native = [name for name in game_names() if entry(name).native is not None]
    assert "kingdomino" in native
    args = ["bench", "--seconds", "0.05"]
    for name in native:
        args += ["--game", name]
    result = runner.invoke(cli.app, args, env={"COLUMNS": "80", "LUDOTECA_CORE": "auto"})
    assert result.exit_code == 0, result.output
    for name in native:
        assert re.search(rf"{name} +│ +\d │ random games +│ +[\d,]+ │ +[\d,]+ │ +[\d.]+x │",
                         result.output), (name, result.output)
    assert len(re.findall(r"driver games +│ +[\d,]+ │ +[\d,]+ │ +[\d.]+x │",
                          result.output)) == len(native), result.output
    searching = [name for name in native
                 if entry(name).search_profile().playout is not None
                 and hasattr(resolve(entry(name).native or ""), "search_playouts")]
    assert len(re.findall(r"search playouts +│ +[\d,]+ │ +[\d,]+ │ +[\d.]+x │",
                          result.output)) == len(searching), result.output


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
