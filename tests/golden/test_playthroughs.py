"""The golden playthroughs still come out the same (regenerate with ``make golden``)."""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from playthrough import SETUPS, Setup, path_for, playthrough


@pytest.mark.parametrize("setup", SETUPS, ids=[s.game for s in SETUPS])
def test_playthrough_matches_its_golden_file(setup: Setup) -> None:
    expected = path_for(setup).read_text(encoding="utf-8")
    actual = playthrough(setup)
    if actual != expected:
        diff = "".join(
            list(
                difflib.unified_diff(
                    expected.splitlines(True), actual.splitlines(True), "golden", "now", n=1
                )
            )[:60]
        )
        pytest.fail(f"{setup.game} playthrough changed (make golden to accept):\n{diff}")


@pytest.mark.parametrize("setup", SETUPS, ids=[s.game for s in SETUPS])
def test_every_viewer_has_a_sentence_in_both_languages(setup: Setup) -> None:
    text = path_for(setup).read_text(encoding="utf-8")
    assert "    en: " in text and "    es: " in text
    assert "acted." not in text, "every move of every game is narrated, not 'P2 acted'"


def test_every_registered_game_has_a_golden_playthrough() -> None:
    from ludoteca.games import game_names

    assert "nim" in game_names()  # the test game, registered by tests/conftest.py
    assert sorted(s.game for s in SETUPS) == sorted(game_names())
    assert all(path_for(s).exists() for s in SETUPS), [s.game for s in SETUPS]
