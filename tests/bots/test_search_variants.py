"""benchmarks/search_variants.py, the quick screen of stronger Kingdomino searches: a bot spec
reads as its search and budget, a bad one is refused, and with playout budgets a game is the
same every time it is played (what lets its rows stand in the docs)."""

from __future__ import annotations

from typing import Any

import pytest
from native_core import require_native
from script_module import load_script

require_native("kingdomino", "tree_search")


@pytest.fixture(scope="module")
def bench() -> Any:
    return load_script("benchmarks/search_variants.py")


@pytest.fixture(autouse=True)
def _native_core(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LUDOTECA_CORE", "native")


def test_a_spec_reads_as_its_search_and_budget(bench: Any) -> None:
    flat = bench.bot("flat:3000", 1)
    assert flat.mode == "flat" and flat.iterations == 3000 and flat.score_weight is None
    tree = bench.bot("uct:1.5s:0", 1)
    assert tree.mode == "uct" and tree.iterations is None and tree.cpu_seconds == 1.5
    assert tree.score_weight == 0.0
    for bad in ("mcts:100", "flat", "flat:100:0.4:9", "flat:many"):
        with pytest.raises(ValueError):
            bench.bot(bad, 1)


def test_a_game_of_playout_budgets_is_the_same_every_time(bench: Any) -> None:
    first = bench.play(3, "uct:40", "flat:30")
    again = bench.play(3, "uct:40", "flat:30")
    assert first["seat_a"] == 1 and first["score"] in (0.0, 0.5, 1.0)
    assert {k: v for k, v in first.items() if k != "cpu_seconds"} == {
        k: v for k, v in again.items() if k != "cpu_seconds"}
