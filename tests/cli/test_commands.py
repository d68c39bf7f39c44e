"""The ``ludoteca`` commands through Typer's test runner: output, files, and clear errors."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from ludoteca import cli
from ludoteca.bots import make_bot
from ludoteca.engine.match import Match
from ludoteca.engine.record import MatchRecord
from ludoteca.games import game_names, get_game, registry

runner = CliRunner()


def invoke(*args: str, input: str | None = None):  # type: ignore[no-untyped-def]
    return runner.invoke(cli.app, list(args), input=input)


def bot_match(seed: int = 4, players: int = 3) -> Match:
    """A finished bots-only Kingdomino match."""
    game = get_game("kingdomino")
    bots = [make_bot("greedy", "kingdomino", seed + s) for s in range(players)]
    match = Match.new(game, {}, players, seed, controllers=bots, narrate=False)
    match.run_bots()
    return match


def test_games_lists_every_game_with_its_options() -> None:
    result = invoke("games")
    assert result.exit_code == 0, result.output
    for name in game_names():
        assert f"({name})" in result.output
    assert "2-4 players" in result.output
    for word in ("mighty_duel", "harmony", "three_player_draft", "printed, bga", "rulebook"):
        assert word in result.output


def test_bench_prints_speed_target_and_ratio() -> None:
    result = invoke("bench", "--seconds", "0.05", "--game", "kingdomino")
    assert result.exit_code == 0, result.output
    assert "kingdomino" in result.output and "1,000" in result.output
    assert "legal actions" in result.output and "clone" in result.output


def test_tournament_table_and_json(tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    result = invoke(
        "tournament", "kingdomino", "--bots", "greedy,random", "--games", "4", "--seed", "1",
        "--json", str(out), "--out", str(tmp_path / "results"),
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "results" / "results.json").exists()
    for word in ("greedy", "random", "win rate", "95% CI", "mean score", "ms/move"):
        assert word in result.output
    data = json.loads(out.read_text())
    assert data["games"] == 4 and {b["bot"] for b in data["bots"]} == {"greedy", "random"}


def test_replay_to_end_reproduces_the_final_scores(tmp_path: Path) -> None:
    match = bot_match()
    path = tmp_path / "m.json"
    match.record.save(path)
    result = invoke("replay", str(path), "--to-end")
    assert result.exit_code == 0, result.output
    assert "Final ranks" in result.output and "differ" not in result.output
    for score in match.record.result["scores"]:  # type: ignore[index]
        assert f"{score} pts" in result.output


def test_replay_steps_forward_back_and_quits(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    bot_match(players=2).record.save(path)
    result = invoke("replay", str(path), "--seat", "1", input="\n\nb\nxyz\ne\nq\n")
    assert result.exit_code == 0, result.output
    assert "move 1/" in result.output and "move 2/" in result.output
    assert "claimed domino" in result.output and "Final ranks" in result.output
    assert "Enter = next" in result.output  # the unknown key got help, not a crash


def test_replay_stops_at_end_of_input(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    bot_match(players=2).record.save(path)
    result = invoke("replay", str(path), input="")
    assert result.exit_code == 0 and "Traceback" not in result.output


def test_play_watch_saves_a_record_that_replays(tmp_path: Path) -> None:
    path = tmp_path / "w.json"
    result = invoke("play", "kingdomino", "--watch", "--seed", "2", "--save", str(path))
    assert result.exit_code == 0, result.output
    assert "Match saved to" in result.output and "Final ranks" in result.output
    record = MatchRecord.load(path)
    assert record.result is not None and record.players == 2
    replayed = invoke("replay", str(path), "--to-end")
    for score in record.result["scores"]:
        assert f"{score} pts" in replayed.output


def test_play_in_process_with_typed_moves(tmp_path: Path) -> None:
    """A typo, an unknown claim, then quit: each mistake explained, nothing crashes."""
    result = invoke(
        "play", "kingdomino", "--seed", "1", "--bots", "random", "--save", str(tmp_path / "p.json"),
        input="hello\nclaim 99\nhelp\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "✗" in result.output and "not in the next line" in result.output
    assert "You left" in result.output and (tmp_path / "p.json").exists()


BAD = [
    (["play", "chess"], "unknown game 'chess'"),
    (["play", "kingdomino", "--option", "harmony=maybe"], "takes true or false"),
    (["play", "kingdomino", "--option", "nonsense"], "name=value"),
    (["play", "kingdomino", "--option", "colour=red"], "unknown option 'colour'"),
    (["play", "kingdomino", "--bots", "clever"], "unknown bot 'clever'"),
    (["play", "kingdomino", "--players", "5"], "2-4 players, not 5"),
    (["play", "kingdomino", "--players", "2", "--bots", "random,random"], "only 1 bot seats"),
    (["play", "kingdomino", "--seat", "3"], "--seat must be 0-1"),
    (["tournament", "kingdomino", "--bots", "greedy,random", "--players", "1"], "2-4 players"),
    (["tournament", "kingdomino", "--games", "0"], "at least 1"),
    (["replay", "/no/such/file.json"], "cannot read"),
    (["bench", "--game", "chess"], "unknown game"),
    (["bench", "--seconds", "0"], "must be positive"),
]


@pytest.mark.parametrize(("args", "message"), BAD)
def test_person_errors_are_one_clear_line(args: list[str], message: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_bad_record_files(tmp_path: Path) -> None:
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"hello": 1}))
    tampered = tmp_path / "tampered.json"
    data = bot_match(players=2).record.to_json()
    data["actions"][3][1] = {"type": "claim", "domino": 49}
    tampered.write_text(json.dumps(data))
    binary = tmp_path / "binary.json"
    binary.write_bytes(bytes(range(256)) * 4)
    latin = tmp_path / "latin.json"
    latin.write_bytes('{"format": "ludoteca-match", "game": "reino ñ"}'.encode("latin-1"))
    short = tmp_path / "short.json"
    short.write_text(json.dumps({**data, "actions": [[0, {"type": "claim"}, 3]]}))
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({**data, "players": "two"}))
    for path, message in [
        (junk, "not valid JSON"),
        (other, "not a Ludoteca match record"),
        (tampered, "does not replay"),
        (tmp_path, "is a folder"),
        (tmp_path / "missing.json", "no such file"),
        (binary, "not UTF-8"),
        (latin, "not UTF-8"),
        (short, "must be [seat, action]"),
        (wrong, "whole numbers"),
    ]:
        result = invoke("replay", str(path))
        assert result.exit_code == 2 and message in result.output, result.output
        assert "Traceback" not in result.output and "unpack" not in result.output
        assert result.output.startswith("error:") and result.output.count("\n") == 1


def without(monkeypatch: pytest.MonkeyPatch, name: str, **changes: object) -> None:
    """Pretend the registry entry of ``name`` lacks a part (for the duration of a test)."""
    reg = registry()
    monkeypatch.setitem(reg._entries, name, dataclasses.replace(reg.entry(name), **changes))


def test_game_without_renderer_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    without(monkeypatch, "kingdomino", terminal=None)
    result = invoke("play", "kingdomino")
    assert result.exit_code == 2
    assert "no terminal renderer yet" in result.output and "Traceback" not in result.output


def test_greedy_without_evaluator_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    without(monkeypatch, "kingdomino", greedy=None)
    result = invoke("tournament", "kingdomino", "--bots", "greedy")
    assert result.exit_code == 2 and "greedy bot cannot play kingdomino" in result.output


# ---- what every subcommand shares: usage errors, --help, 80 columns ------------------------
SUBCOMMANDS = {
    "games": [], "play": ["kingdomino"], "replay": ["x.json"], "analyse": ["x.json"],
    "tournament": ["kingdomino"], "bench": [], "serve": [], "worker": ["--redis-url", "r"],
    "migrate": [], "recompute-ratings": ["--game", "kingdomino"],
    "ladder": [],
}
CUT_WORD = re.compile(r"\w…")
"""A word Rich cut short (``inaccura…``); a lone ``…`` in a sentence is not one."""


def test_the_eleven_subcommands_are_checked_here() -> None:
    assert set(typer.main.get_command(cli.app).commands) == set(SUBCOMMANDS)  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_a_bad_option_is_one_error_line_for_every_subcommand(name: str) -> None:
    for args in ([name, *SUBCOMMANDS[name], "--no-such-flag"], [name, "--seed", "x"]
                 if name in ("play", "analyse", "tournament") else [name, "--help", "extra"]):
        result = invoke(*args)
        if args[-1] == "extra" and result.exit_code == 0:
            continue  # --help wins over what follows it
        assert result.exit_code == 2, result.output
        lines = result.output.splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), result.output
        assert "╭" not in result.output and f"ludoteca {name} --help" in lines[0]


def test_a_missing_argument_and_an_unknown_subcommand_are_one_line_too() -> None:
    for args, said in ((["play"], "Missing argument"), (["analyse"], "Missing argument"),
                       (["chess"], "No such command"), (["--colour"], "No such option")):
        result = invoke(*args)
        assert result.exit_code == 2 and result.output.startswith(f"error: {said}"), result.output
        assert result.output.count("\n") == 1


@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_help_shows_no_value_for_a_flag(name: str) -> None:
    result = runner.invoke(cli.app, [name, "--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    assert "<bool>" not in result.output
    flags = [line for line in result.output.splitlines()
             if re.search(r"--(help|watch|to-end)\b", line)]
    assert flags and all("<" not in line.split("--", 1)[1].split("  ")[0] for line in flags)
    assert not CUT_WORD.search(result.output)


def test_the_commands_own_help_shows_no_value_for_its_flag() -> None:
    result = runner.invoke(cli.app, ["--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0 and "--help" in result.output and "<bool>" not in result.output


def test_help_keeps_square_brackets_in_the_text() -> None:
    result = runner.invoke(cli.app, ["play", "--help"], env={"COLUMNS": "100"})
    assert "[greedy]" in result.output  # not read as Rich markup and dropped


def fits_80_columns(output: str) -> None:
    assert not CUT_WORD.search(output), output
    assert max(len(line) for line in output.splitlines()) <= 80, output


def test_games_bench_and_tournament_tables_keep_whole_words_at_80_columns(
        tmp_path: Path) -> None:
    env = {"COLUMNS": "80"}
    games = runner.invoke(cli.app, ["games"], env=env)
    assert games.exit_code == 0, games.output
    fits_80_columns(games.output)
    assert "3-8" in games.output  # Royal Wedding's player counts, as a run
    bench = runner.invoke(cli.app, ["bench", "--seconds", "0.05", "--game", "kingdomino"],
                          env=env)
    fits_80_columns(bench.output)
    for args in (["--round-robin", "random,easy", "--players", "4"],
                 ["--bots", "greedy,random", "--players", "3"]):
        result = runner.invoke(cli.app, ["tournament", "kingdomino", *args, "-n", "2",
                                         "--out", str(tmp_path / args[1])], env=env)
        assert result.exit_code == 0, result.output
        tables = result.output.split("Shared wins")[0]
        fits_80_columns(tables)
        assert "win rate" in tables and "(95% CI)" in tables
