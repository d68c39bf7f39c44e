"""Round-robin seating, process-parallel games, result files, the chart, and the CLI around them."""

from __future__ import annotations

import builtins
import csv
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ludoteca import cli
from ludoteca.charts import ChartsUnavailable, write_chart
from ludoteca.engine.errors import OptionError
from ludoteca.tournament import (
    GameTask,
    TournamentSettings,
    parse_entrants,
    play_task,
    round_robin_pairings,
    run_games,
    run_round_robin,
    run_tournament,
    write_results,
)

PNG = b"\x89PNG\r\n\x1a\n"
runner = CliRunner()


def rr(entrants: list[str], **kw: Any) -> Any:
    """A kingdomino round-robin."""
    return run_round_robin(TournamentSettings("kingdomino", entrants, **kw))


def listed(entrants: list[str], players: int, games: int, **kw: Any) -> Any:
    """A kingdomino list tournament."""
    return run_tournament(TournamentSettings("kingdomino", entrants, players, games, **kw))


def timeless(data: Any) -> Any:
    """A result's JSON without wall-clock fields, which no two runs share."""
    if isinstance(data, dict):
        return {k: timeless(v) for k, v in data.items() if k not in ("seconds", "mean_move_ms")}
    if isinstance(data, list):
        return [timeless(v) for v in data]
    return data


def test_pairings_unordered_at_two_players_ordered_above() -> None:
    assert round_robin_pairings(["a", "b", "c"], 2) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert round_robin_pairings(["a", "b"], 4) == [("a", "b"), ("b", "a")]
    assert len(round_robin_pairings(["a", "b", "c", "d"], 4)) == 12


def test_two_player_pairing_alternates_seats() -> None:
    result = rr(["random", "easy"], games=6, seed=1)
    (pairing,) = result.pairings
    assert (pairing.a, pairing.b, pairing.games) == ("random", "easy", 6)
    assert pairing.a_stats.seat_games == {0: 3, 1: 3}
    assert pairing.b_stats.seat_games == {0: 3, 1: 3}
    assert pairing.a_stats.wins + pairing.b_stats.wins == pytest.approx(6)
    assert result.overall["easy"].games == 6 and result.overall["random"].games == 6
    assert result.overall["easy"].win_rate == pairing.b_stats.win_rate


def test_four_players_one_seat_against_three_copies() -> None:
    result = rr(["easy", "random"], players=4, games=4, seed=2)
    assert [(p.a, p.b_label) for p in result.pairings] == [
        ("easy", "3× random"),
        ("random", "3× easy"),
    ]
    lone, field = result.pairings[0].a_stats, result.pairings[0].b_stats
    assert lone.seat_games == {0: 1, 1: 1, 2: 1, 3: 1}  # the lone seat rotates
    assert field.seat_games == {0: 3, 1: 3, 2: 3, 3: 3}
    assert len(field.scores) == 4  # one mean of the three copies per game
    assert lone.wins + field.wins == pytest.approx(4)
    # overall = lone-seat games only, so the win rate compares with 1/4
    assert result.overall["easy"].games == 4 and result.overall["easy"].scores == lone.scores
    assert result.overall["easy"].moves > result.pairings[0].a_stats.moves  # moves from all games


def test_every_pairing_plays_the_same_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    import ludoteca.tournament.runner as tournament

    seen: list[GameTask] = []

    def spy(tasks: list[GameTask], jobs: int = 1, on_game: Any = None, on_record: Any = None
            ) -> Any:
        seen.extend(tasks)
        return [play_task(task) for task in tasks]

    monkeypatch.setattr(tournament, "run_games", spy)
    rr(["random", "easy"], players=3, games=3, seed=5)
    first, second = seen[:3], seen[3:]
    assert [t.seed for t in first] == [t.seed for t in second]
    assert [t.seating for t in first] == [
        ("random", "easy", "easy"), ("easy", "random", "easy"), ("easy", "easy", "random"),
    ]


def test_jobs_two_gives_the_results_of_jobs_one() -> None:
    one = rr(["random", "easy"], games=4, seed=7, jobs=1)
    done: list[int] = []
    two = run_round_robin(
        TournamentSettings("kingdomino", ["random", "easy"], games=4, seed=7, jobs=2),
        on_game=done.append,
    )
    assert timeless(one.to_json()) == timeless(two.to_json())
    assert sorted(done) == [1, 2, 3, 4]
    parallel = listed(["easy", "random"], 2, 4, seed=3, jobs=2)
    assert timeless(parallel.to_json()) == timeless(
        listed(["easy", "random"], 2, 4, seed=3).to_json()
    )


def test_run_games_returns_records_in_task_order() -> None:
    tasks = [GameTask(i, "kingdomino", {}, 100 + i, ("random", "random")) for i in range(4)]
    assert [r.index for r in run_games(tasks, jobs=2)] == [0, 1, 2, 3]


@pytest.mark.parametrize(
    ("entrants", "kwargs", "message"),
    [
        (["random"], {}, "at least two entrants"),
        (["easy", "easy"], {}, "'easy' is named twice"),
        (["random", "smart"], {}, "unknown bot 'smart'.*cmd:<command>"),
        (["random", "cmd:"], {}, "needs a command"),
        (["random", "cmd:no-such-program-xyz"], {}, "not found on PATH"),
        (["random", "cmd:./nowhere/bot"], {}, "no such program"),
        (["random", "cmd:python 'unclosed"], {}, "cannot read the command"),
        (["random", "easy"], {"games": 0}, "at least 1"),
        (["random", "easy"], {"players": 5}, "2-4 players"),
        (["random", "easy"], {"jobs": -1}, "--jobs must be 0"),
        (["random", "easy"], {"options": {"x": 1}}, "unknown option"),
    ],
)
def test_bad_round_robins_explain(
    entrants: list[str], kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(OptionError, match=message):
        rr(entrants, **kwargs)


def test_entrant_names() -> None:
    assert parse_entrants(" Random, EASY ,cmd:python My_Bot.py") == [
        "random", "easy", "cmd:python My_Bot.py",
    ]
    with pytest.raises(OptionError, match="at least one bot"):
        parse_entrants(" , ")


def test_result_files_and_chart(tmp_path: Path) -> None:
    result = rr(["random", "easy"], players=4, games=4, seed=3)
    paths = write_results(result, tmp_path / "out")
    assert [p.name for p in paths] == ["results.json", "results.csv", "results.md"]
    data = json.loads(paths[0].read_text())
    assert data["mode"] == "round-robin" and len(data["pairings"]) == 2
    rows = list(csv.DictReader(paths[1].read_text().splitlines()))
    assert [r["kind"] for r in rows] == ["pairing", "pairing", "overall", "overall"]
    assert rows[0]["opponent"] == "3× easy" and 0 <= float(rows[0]["win_rate"]) <= 1
    assert "| A | vs B |" in paths[2].read_text()
    chart = write_chart(result, tmp_path / "out" / "chart.png")
    assert chart.read_bytes()[:8] == PNG and chart.stat().st_size > 10_000
    seated = listed(["easy", "random"], 2, 2, seed=1)
    assert write_chart(seated, tmp_path / "b.png").read_bytes()[:8] == PNG


def block_matplotlib(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def fake_import(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError("No module named 'matplotlib'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake_import)


def test_no_matplotlib_no_chart_but_a_hint(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    block_matplotlib(monkeypatch)
    result = listed(["easy", "random"], 2, 2, seed=1)
    with pytest.raises(ChartsUnavailable, match=r"ludoteca\[charts\]"):
        write_chart(result, tmp_path / "chart.png")
    out = tmp_path / "run"
    cli_result = runner.invoke(
        cli.app, ["tournament", "kingdomino", "--round-robin", "random,easy", "-n", "2",
                  "--out", str(out)],
    )
    assert cli_result.exit_code == 0, cli_result.output
    assert "No chart: matplotlib is not installed" in cli_result.output
    assert "pip install 'ludoteca[charts]'" in cli_result.output
    assert (out / "results.json").exists() and not (out / "chart.png").exists()


def test_cli_round_robin_writes_every_file(tmp_path: Path) -> None:
    out = tmp_path / "rr"
    result = runner.invoke(
        cli.app,
        ["tournament", "kingdomino", "--round-robin", "random,easy", "--games", "2", "--seed",
         "4", "--jobs", "2", "--out", str(out), "--json", str(tmp_path / "r.json")],
    )
    assert result.exit_code == 0, result.output
    for word in ("Pairings", "Overall", "random", "easy", "win rate", "ms/move"):
        assert word in result.output
    assert sorted(p.name for p in out.iterdir()) == [
        "chart.png", "results.csv", "results.json", "results.md",
    ]
    assert (out / "chart.png").read_bytes()[:8] == PNG
    assert json.loads((tmp_path / "r.json").read_text())["mode"] == "round-robin"
    assert "search processes" not in result.output  # no search bot played (issue 12, item 7)


def test_cli_saves_every_match_record(tmp_path: Path) -> None:
    """``--save DIR``: one match record per game, each replaying to the scores it names."""
    from ludoteca.engine.match import replay
    from ludoteca.engine.record import MatchRecord
    from ludoteca.games import get_game

    result = runner.invoke(
        cli.app,
        ["tournament", "kingdomino", "--bots", "easy,random", "-p", "3", "-n", "3", "-j", "2",
         "--out", str(tmp_path / "out"), "--save", str(tmp_path / "games")],
    )
    assert result.exit_code == 0, result.output
    assert f"Match records saved in {tmp_path / 'games'}" in result.output.replace("\n", "")
    files = sorted((tmp_path / "games").iterdir())
    assert [f.name for f in files] == [f"kingdomino-{i}.json" for i in range(3)]
    game = get_game("kingdomino")
    for path in files:
        record = MatchRecord.load(path)
        outcome = game.outcome(replay(game, record))
        assert outcome is not None and record.result is not None
        assert list(outcome.scores) == record.result["scores"] and record.players == 3


def test_cli_unusable_save_directory(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = runner.invoke(
        cli.app, ["tournament", "kingdomino", "-n", "1", "--out", str(tmp_path / "out"),
                  "--save", str(blocker / "sub")],
    )
    assert result.exit_code == 2 and "cannot save match records" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "out").exists()


CLI_BAD = [
    (["--round-robin", "random,clever"], "unknown bot 'clever'"),
    (["--round-robin", "random,cmd:no-such-program-xyz"], "not found on PATH"),
    (["--round-robin", "random,cmd:"], "needs a command"),
    (["--round-robin", "random"], "at least two entrants"),
    (["--round-robin", "random,easy", "--bots", "easy"], "either --bots or --round-robin"),
    (["--round-robin", "random,easy", "--jobs", "-2"], "--jobs must be 0"),
    (["--round-robin", "random,easy", "--time-ms", "0"], "--time-ms must be positive"),
    (["--bots", "random,cmd:no-such-program-xyz"], "not found on PATH"),
]


@pytest.mark.parametrize(("args", "message"), CLI_BAD)
def test_cli_bad_input_is_one_line(args: list[str], message: str, tmp_path: Path) -> None:
    result = runner.invoke(
        cli.app, ["tournament", "kingdomino", *args, "--out", str(tmp_path / "x")]
    )
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
    assert not (tmp_path / "x").exists()


def test_cli_unwritable_out_dir(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = runner.invoke(
        cli.app, ["tournament", "kingdomino", "--bots", "easy,random", "-n", "1",
                  "--out", str(blocker / "sub")],
    )
    assert result.exit_code == 1 and "cannot write the results" in result.output
    assert "Traceback" not in result.output


def test_external_example_can_join_from_the_cli(tmp_path: Path) -> None:
    example = Path(__file__).parents[2] / "examples" / "random_bot.py"
    result = runner.invoke(
        cli.app,
        ["tournament", "kingdomino", "--round-robin",
         f"easy,cmd:{sys.executable} {example}", "-n", "2", "--out", str(tmp_path)],
    )
    assert result.exit_code == 0, result.output
    assert "forfeit" not in result.output
