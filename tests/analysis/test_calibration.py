"""Issue 34: the reported win chance goes through a per-game calibration fitted on the outcomes
of analysed matches (ludoteca/analysis/calibration.py, docs/analysis.md "What the win chance
means"). The shipped coefficients load for every game and player count, the mapping is
strictly increasing and keeps what the analysis relies on, it is applied to every win chance
the analysis reports, and the luck-and-skill chain still adds up to the result."""

from __future__ import annotations

import json
import random
from itertools import pairwise
from typing import Any

import pytest

from ludoteca.analysis import calibration
from ludoteca.analysis.analyse import Analyst, analyse
from ludoteca.analysis.calibration import (
    IDENTITY,
    Calibration,
    calibration_for,
    fit,
    fit_table,
    key,
    log_loss,
    stored,
)
from ludoteca.analysis.retry import value_of
from ludoteca.bots import make_bot
from ludoteca.engine.match import Match
from ludoteca.engine.record import MatchRecord
from ludoteca.games import entry, game_names, get_game

GRID = [k / 200 for k in range(201)]
STRONG = Calibration(temperature=0.6, mix=0.1, exact=True)
"""A mapping far from the identity, exact values included: what the tests apply by hand."""


def bots_match(game_name: str, levels: list[str], seed: int,
               options: dict[str, Any] | None = None) -> MatchRecord:
    bots = [make_bot(level, game_name, seed + s) for s, level in enumerate(levels)]
    match = Match.new(get_game(game_name), options or {}, len(levels), seed, controllers=bots,
                      narrate=False)
    match.run_bots()
    return match.record


def test_every_game_and_player_count_has_a_mapping_and_every_stored_one_is_fitted() -> None:
    """The stored coefficients load; each names a game and player count that exist and says
    what it was fitted on; a game without one is reported as the playouts say (identity)."""
    mappings = stored()
    for name, mapping in mappings.items():
        game, players = name.split("/")
        spec = get_game(game).spec
        assert spec.min_players <= int(players) <= spec.max_players, name
        assert not mapping.identity and mapping.fitted, name
    for game in game_names():
        spec = get_game(game).spec
        for players in range(spec.min_players, spec.max_players + 1):
            found = calibration_for(game, players)
            assert found == mappings.get(key(game, players), IDENTITY)
            assert Calibration.from_json(found.to_json()) == found
    assert calibration_for("no-such-game", 2) is IDENTITY


TABLE = Calibration(exact=True, table=(0.02, 0.1, 0.3, 0.45, 0.5, 0.55, 0.7, 0.9, 0.98))


@pytest.mark.parametrize("mapping", [*stored().values(), STRONG, Calibration(1.4, 0.0), TABLE],
                         ids=str)
def test_the_mapping_is_strictly_increasing_symmetric_and_keeps_equal_values_equal(
        mapping: Calibration) -> None:
    for sides in (2, 4):
        for exact in (False, True):
            values = [mapping.win(q, sides, exact) for q in GRID]
            assert all(0.0 <= v <= 1.0 for v in values)
            if exact and not mapping.exact:
                assert values == GRID
                continue
            assert all(a < b for a, b in pairwise(values))
            if sides == 2:  # two sides' chances still add up to 1
                assert all(abs(mapping.win(q, 2, exact) + mapping.win(1 - q, 2, exact) - 1)
                           < 1e-12 for q in GRID)
    assert mapping.win(0.3) == mapping.win(0.3)
    assert [IDENTITY.win(q, 2, e) for q in GRID for e in (False, True)] == \
        [q for q in GRID for _ in (False, True)]


def test_the_analysis_reports_the_mapped_value_of_every_win_chance() -> None:
    """The same match analysed raw and with a strong mapping: every win chance reported
    (start, before, after, candidates) is the mapping of the raw one, the best moves are the
    same, and the losses are differences of the mapped values."""
    record = bots_match("kingdomino", ["greedy", "random"], 5)
    raw = analyse_with(record, IDENTITY)
    mapped = analyse_with(record, STRONG)
    assert mapped["calibration"] == STRONG.to_json() and raw["calibration"] == IDENTITY.to_json()

    def m(win: float) -> float:  # STRONG maps exact values as it maps the others
        return round(100 * STRONG.win(win / 100, 2), 2)

    close = pytest.approx
    assert [s["start"]["win"] for s in mapped["seats"]] == \
        close([m(s["start"]["win"]) for s in raw["seats"]], abs=0.02)
    for a, b in zip(raw["moves"], mapped["moves"], strict=True):
        assert b["best"] == a["best"]
        for side in ("before", "after"):
            assert b[side]["win"] == close([m(w) for w in a[side]["win"]], abs=0.02)
            assert b[side]["score"] == a[side]["score"]
        assert [c["win"] for c in b["candidates"]] == \
            close([m(c["win"]) for c in a["candidates"]], abs=0.02)
        if b["candidates"]:
            played = next(c["win"] for c in b["candidates"] if c["action"] == b["action"])
            assert b["loss"]["win"] == close(b["candidates"][0]["win"] - played, abs=0.02)


def analyse_with(record: MatchRecord, mapping: Calibration, budget: int = 8) -> Any:
    analyst = Analyst(record, budget, seed=1, calibration=mapping)
    return analyst.run()


def test_the_game_s_stored_mapping_is_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """``Analyst`` and ``analyse`` apply the mapping stored for the game and player count, and
    the JSON says which."""
    record = bots_match("kingdomino", ["random", "random"], 7)
    assert Analyst(record, 2).calibration == calibration_for("kingdomino", 2)
    monkeypatch.setattr(calibration, "stored", lambda: {key("kingdomino", 2): STRONG})
    assert Analyst(record, 2).calibration == STRONG
    assert analyse(record, budget=1)["calibration"] == STRONG.to_json()
    assert Analyst(bots_match("kingdomino", ["random"] * 3, 7), 2).calibration == IDENTITY


GAMES: list[tuple[str, int, dict[str, Any]]] = [
    ("kingdomino", 2, {}), ("kingdomino", 4, {}), ("queendomino", 2, {}), ("buttons", 2, {}),
    ("kami", 2, {"target": 10}), ("goita", 4, {})]


@pytest.mark.parametrize(("game_name", "players", "options"), GAMES)
def test_with_a_strong_mapping_start_luck_skill_and_others_still_add_up(
        game_name: str, players: int, options: dict[str, Any]) -> None:
    """The identity holds by construction whatever the mapping: every term is a difference of
    reported values along one chain, and the result (100 or 0) is never mapped."""
    match = Match.new(get_game(game_name), options, players, 4, narrate=False)
    match.play_random(random.Random(4).random)
    analysis = Analyst(match.record, 1, seed=4, calibration=STRONG).run()
    for s in analysis["seats"]:
        total = sum(s[term]["win"] for term in ("start", "luck", "skill", "others"))
        assert total == pytest.approx(s["result"]["win"], abs=0.02), s
    for a, b in pairwise(analysis["moves"]):
        drawn = [step["ply"] for step in analysis["luck"]]
        if a["ply"] not in drawn:  # nothing drawn or hidden between: one number
            assert a["after"] == b["before"]


def test_a_retried_move_is_valued_on_the_reported_scale(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """``Learn from your mistakes`` values a move outside the candidates through the game's
    mapping too, so it compares with the stored (mapped) candidates."""
    monkeypatch.setattr(calibration, "stored", lambda: {key("kingdomino", 2): STRONG})
    record = bots_match("kingdomino", ["greedy", "greedy"], 3)
    ply = next(i for i, (_s, a) in enumerate(record.actions) if a["type"] == "place")
    move = Analyst(record, 8, seed=2).part(ply, ply + 1)["moves"][0]
    data = record.to_json()
    for candidate in move["candidates"][:3]:
        assert value_of(data, ply, candidate["action"], 8, 2) == candidate["win"]
    raw = Analyst(record, 8, seed=2, calibration=IDENTITY).part(ply, ply + 1)["moves"][0]
    assert [c["win"] for c in move["candidates"]] != [c["win"] for c in raw["candidates"]]


def test_the_fit_finds_a_known_temperature_and_mix() -> None:
    """Outcomes drawn from a known mapping of the raw chances: the fit by least log loss gets
    its coefficients back, and does better than the identity."""
    truth = Calibration(0.7, 0.08)
    rng = random.Random(11)
    samples = []
    for _ in range(6000):
        q = rng.random()
        samples.append((q, 2, 1.0 if rng.random() < truth.win(q) else 0.0, False))
    found = fit(samples, exact=False)
    assert found.temperature == pytest.approx(0.7, abs=0.08)
    assert found.mix == pytest.approx(0.08, abs=0.04)
    assert log_loss(samples, found) < log_loss(samples, IDENTITY)
    table = fit_table(samples, exact=False)
    assert all(a < b for a, b in pairwise(table.table))
    assert all(abs(a + b - 1) < 1e-5 for a, b in zip(table.table, table.table[::-1],
                                                      strict=True))  # two sides: symmetric
    for q in (0.05, 0.2, 0.35, 0.65, 0.8, 0.95):
        assert table.win(q) == pytest.approx(truth.win(q), abs=0.05)


def test_a_table_or_a_bad_mapping_is_refused() -> None:
    with pytest.raises(ValueError):
        Calibration(table=(0.0, 0.6, 0.5, 1.0))
    with pytest.raises(ValueError):
        Calibration(0.8, table=(0.0, 0.5, 1.0))
    with pytest.raises(ValueError):
        Calibration(0.0)
    assert Calibration.from_json(TABLE.to_json()) == TABLE


def test_the_shipped_coefficients_are_stored_as_the_fit_wrote_them() -> None:
    from importlib import resources

    data = json.loads(resources.files("ludoteca.analysis").joinpath(
        "data/calibration.json").read_text("utf-8"))
    for name, entry_ in data["mappings"].items():
        assert set(entry_) == {"temperature", "mix", "exact", "fitted"}, name
        assert entry(name.split("/")[0]).search_profile() is not None
