"""``python -m tools.differential``, the differential check at scale (tools/differential): it
plays every configuration the native core has, says what its cases forget, and stops at a
disagreement with the command that replays it. The disagreement is made for real: the seam
``--fault-at-ply`` hands the native core another legal index than the Python engine plays."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from native_core import require_native

from tools.differential import families
from tools.differential.core import Disagreement
from tools.differential.families import FAMILIES, all_cases, gaps, native_games
from tools.differential.run import main

require_native("buttons")


def test_the_cases_forget_no_game_player_count_or_option() -> None:
    assert gaps() == []
    assert {c.game for c in all_cases()} == set(native_games())


def test_gaps_names_what_is_forgotten(monkeypatch: pytest.MonkeyPatch) -> None:
    kami = next(f for f in FAMILIES if f.name == "kami")
    fewer = tuple(c for c in kami.cases if c.game == "kami" and c.players != 3
                  and c.options.get("end_mode") != "kami")
    monkeypatch.setattr(families, "FAMILIES", tuple(
        f if f is not kami else type(f)(f.name, fewer, f.play, f.policies) for f in FAMILIES))
    missing = gaps()
    assert "goita is on the native core but no differential comparison plays it" in missing
    assert "kami at 3 players has no case" in missing
    assert "kami: no case plays end_mode=kami" in missing


def test_the_command_plays_every_configuration(tmp_path: Path) -> None:
    out = tmp_path / "differential.json"
    assert main(["--matches", "3", "--jobs", "1", "--out", str(out)]) == 0
    summary = json.loads(out.read_text())
    assert summary["result"] == "agree" and summary["disagreement"] is None
    assert [c["label"] for c in summary["configs"]] == [c.label for c in all_cases()]
    assert all(c["matches"] == 3 and c["states_compared"] > 3 for c in summary["configs"])
    assert summary["matches"] == 3 * len(all_cases())
    assert summary["policies"] == ["random", "greedy", "mixed"] and summary["observations"]
    assert summary["core"]["version"] and summary["seconds"] > 0


@pytest.mark.parametrize("family", FAMILIES, ids=[f.name for f in FAMILIES])
def test_every_driver_sees_a_wrong_action_result(family: families.Family) -> None:
    case = family.cases[0]
    assert family.play(case, 7, "mixed") > 1
    with pytest.raises(Disagreement, match="ply"):
        family.play(case, 7, "mixed", fault_at=4)


def test_the_command_stops_at_a_disagreement_and_says_how_to_replay_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """In worker processes: the first disagreement stops the run (exit 1), the summary and the
    message name the configuration, seed and policy, and the printed command replays it."""
    out = tmp_path / "differential.json"
    code = main(["--game", "kami", "--matches", "6", "--chunk", "1", "--jobs", "2",
                 "--fault-at-ply", "6", "--out", str(out)])
    assert code == 1
    summary = json.loads(out.read_text())
    failure = summary["disagreement"]
    assert summary["result"] == "disagreement" and failure["error"] == "Disagreement"
    assert summary["matches"] < 6 * len([c for c in all_cases() if c.game == "kami"])
    err = " ".join(capsys.readouterr().err.split())
    assert "DISAGREEMENT" in err and f"seed {failure['seed']}" in err
    replay = shlex.split(failure["repro"])[3:]  # past "python -m tools.differential"
    assert replay[:2] == ["--config", failure["label"]]
    assert main([*replay, "--out", str(out), "--fault-at-ply", "6"]) == 1
    assert json.loads(out.read_text())["disagreement"]["message"] == failure["message"]
    assert main([*replay, "--out", str(out)]) == 0  # without the fault the cores agree
