"""benchmarks/hard_versions.py accumulates issue 37's games over runs: each finished game is one
JSON line, a rerun reads back the games of its mode and seed (each game once, others ignored)
and the summary's score and 95% Wilson interval are over all of them."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from script_module import load_script

from ludoteca.tournament.stats import wilson_interval


@pytest.fixture(scope="module")
def bench() -> Any:
    return load_script("benchmarks/hard_versions.py")


def row(game: int, score: float, new: str = "seconds", seed: int = 37) -> dict[str, Any]:
    return {"new": new, "seed": seed, "game": game, "new_seat": game % 2, "score": score,
            "points": [40, 30], "seconds_per_move": [1.2, 1.3],
            "cpu_seconds_per_move": [1.0, 1.1], "playouts_per_search": [30000.0, 900.0]}


def test_a_rerun_reads_back_its_games_once(bench: Any, tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    lines = [row(0, 1.0), row(1, 0.0), row(1, 1.0), row(2, 0.5), row(0, 0.0, new="playouts"),
             row(3, 1.0, seed=38), {**row(4, 1.0), "clock": "cpu"}]
    path.write_text("".join(json.dumps(r) + "\n" for r in lines) + "\n", encoding="utf-8")
    rows = bench.read_rows(path, "seconds", 37)
    assert [r["game"] for r in rows] == [0, 1, 2]
    assert [r["score"] for r in rows] == [1.0, 0.0, 0.5]  # the first line of a game counts
    assert [r["game"] for r in bench.read_rows(path, "seconds", 37, "cpu")] == [4]
    assert bench.read_rows(tmp_path / "none.jsonl", "seconds", 37) == []
    summary = bench.summarize(rows, "seconds", 37)
    assert summary["games"] == 3 and summary["new_score"] == 1.5
    assert summary["ci95"] == list(wilson_interval(1.5, 3))
    assert summary["mean_playouts_per_search"] == [30000.0, 900.0]


def test_the_playouts_a_search_ran_are_read_from_either_bot(bench: Any) -> None:
    from ludoteca.games.kingdomino.rules import GAME

    state = GAME.setup({}, 2, 1)
    (seat,) = GAME.to_act(state)
    old = bench.old_hard(1)
    assert bench.searched(old) == 0
    old.bot.seconds = 0.05
    old.choose(GAME, GAME.view(state, seat), seat)
    assert bench.searched(old) > 0
    on_cpu = bench.new_bot("seconds", 1, "cpu")
    assert on_cpu.core == "native" and on_cpu.bot.seconds is None
    assert on_cpu.bot.cpu_seconds == 1.5
    tree = bench.new_bot("tree", 1, "cpu")
    assert tree.core == "native" and tree.bot.mode == "uct" and tree.bot.cpu_seconds == 1.5
    assert on_cpu.bot.mode is None  # the profile's: flat


def test_shards_share_one_file(bench: Any, tmp_path: Path,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Each shard plays its own games, and the summary a shard prints at its end counts what
    the others wrote meanwhile."""
    path = tmp_path / "games.jsonl"
    played: list[int] = []

    def play(g: int, seed: int, new: str, clock: str = "wall") -> dict[str, Any]:
        played.append(g)
        if g == 1:  # another shard finishes a game while this one plays
            with path.open("a", encoding="utf-8") as out:
                out.write(json.dumps({**row(0, 1.0), "clock": "cpu"}) + "\n")
        return {**row(g, 0.0), "clock": "cpu", "game_seconds": 1.0}

    monkeypatch.setattr(bench, "play", play)
    out = tmp_path / "summary.json"
    monkeypatch.setattr(sys, "argv", ["hard_versions.py", "--new", "seconds", "--clock", "cpu",
                                      "--games", "4", "--shard", "1/2", "--results", str(path),
                                      "--out", str(out)])
    monkeypatch.setattr(bench, "which_core", lambda: "native")
    bench.main()
    assert played == [1, 3]
    summary = json.loads(out.read_text(encoding="utf-8"))
    assert summary["games"] == 3 and summary["new_score"] == 1.0
