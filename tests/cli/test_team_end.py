"""Team games end as sides in the terminal too (issue 38): the end of a watched 4-player Kami
and Goita and a Queendomino team match, and a replay's end, list one row per side in "Final
ranks" (its team named with its members, ranks counted over sides, the team's points once),
and they agree with the match record's ``sides``, in English and Spanish."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ludoteca import cli
from ludoteca.bots import make_bot
from ludoteca.engine.match import Match
from ludoteca.engine.record import MatchRecord
from ludoteca.games import get_game

runner = CliRunner()
ROW = re.compile(r"^│\s+(\d+) │ (.+?)\s+│\s+(\d+) │$")
WORDS = {"en": ("Final ranks", "Team", " and "), "es": ("Clasificación final", "Equipo", " y ")}


def final_rows(output: str, lang: str) -> list[tuple[int, str, int]]:
    """The rows of the "Final ranks" table printed last: (rank, who, score)."""
    table = output[output.rindex(WORDS[lang][0]):]
    return [(int(m[1]), m[2], int(m[3])) for line in table.splitlines()
            if (m := ROW.match(line.strip()))]


def expected(record: MatchRecord, names: list[str], lang: str) -> list[tuple[int, str, int]]:
    """The record's sides as the terminal should list them: best first, teams lettered in the
    outcome's order and their members named."""
    assert record.result is not None
    sides: list[dict[str, Any]] = record.result["sides"]
    team, also = WORDS[lang][1:]
    rows = []
    for i, side in enumerate(sides):
        members = [names[s] for s in side["seats"]]
        who = (f"{team} {'ABCDEFGH'[i]}: " + ", ".join(members[:-1]) + also + members[-1]
               if len(members) > 1 else members[0])
        rows.append((side["rank"], who, side["score"]))
    return sorted(rows, key=lambda r: r[0])


def replay_names(record: MatchRecord) -> list[str]:
    """How ``ludoteca play`` and ``replay`` name the seats: number and recorded name."""
    return [f"P{i + 1} ({seat['name']})" for i, seat in enumerate(record.seats)]


def check(record: MatchRecord, output: str, lang: str, names: list[str]) -> None:
    assert record.result is not None
    teams = record.result["teams"]
    rows = final_rows(output, lang)
    assert rows == expected(record, names, lang), output[-3000:]
    assert len(rows) == len(teams) < record.players  # one row per side, not per seat
    ranks = [r[0] for r in rows]
    assert ranks[0] == 1 and all(r <= len(teams) for r in ranks)  # counted over sides


@pytest.mark.parametrize(("game", "options", "lang"), [
    ("kami", ["target=10"], "en"), ("goita", ["target=50"], "es")])
def test_a_watched_team_match_ends_as_sides_and_its_replay_agrees(
    tmp_path: Path, game: str, options: list[str], lang: str,
) -> None:
    path = tmp_path / "match.json"
    args = ["play", game, "-p", "4", "--watch", "--delay", "0", "--seed", "3", "--bots", "greedy",
            "--save", str(path), "--lang", lang]
    for option in options:
        args += ["-o", option]
    watched = runner.invoke(cli.app, args)
    assert watched.exit_code == 0, watched.output
    record = MatchRecord.load(path)
    check(record, watched.output, lang, replay_names(record))
    replayed = runner.invoke(cli.app, ["replay", str(path), "--to-end", "--lang", lang])
    assert replayed.exit_code == 0, replayed.output
    check(record, replayed.output, lang, replay_names(record))


def test_a_queendomino_team_replay_ends_as_three_teams(tmp_path: Path) -> None:
    game = get_game("queendomino")
    bots = [make_bot("random", "queendomino", 7 + s) for s in range(6)]
    match = Match.new(game, {"teams": True}, 6, 7, controllers=bots, narrate=False)
    match.run_bots()
    path = tmp_path / "queendomino.json"
    match.record.save(path)
    record = MatchRecord.load(path)
    assert record.result is not None and len(record.result["sides"]) == 3
    for lang in ("en", "es"):
        replayed = runner.invoke(cli.app, ["replay", str(path), "--to-end", "--lang", lang])
        assert replayed.exit_code == 0, replayed.output
        check(record, replayed.output, lang, replay_names(record))
