"""Post-game analysis (issue 25; docs/analysis.md): determinism, calibration, forced moves,
an injected blunder, and that a seat's move is judged from its view alone."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from ludoteca.analysis.analyse import Analyst, analyse
from ludoteca.bots import make_bot
from ludoteca.engine.match import Match
from ludoteca.engine.record import MatchRecord
from ludoteca.engine.rng import Rng
from ludoteca.games import entry, get_game
from ludoteca.server.analysis_jobs import AnalysisJobs

RECORDS = Path(__file__).resolve().parent / "records"


def random_match(game: str, players: int, seed: int) -> MatchRecord:
    match = Match.new(get_game(game), {}, players, seed, narrate=False)
    match.play_random(random.Random(seed).random)
    return match.record


def finish_with(game_name: str, record: MatchRecord, level: str = "greedy") -> MatchRecord:
    """``record``'s moves, then ``level`` bots to the end."""
    bots = [make_bot(level, game_name, 100 + s) for s in range(record.players)]
    match = Match.from_record(get_game(game_name), record, controllers=bots, narrate=False)
    match.run_bots()
    return match.record


def test_the_same_record_budget_and_seed_give_byte_identical_json() -> None:
    record = random_match("kingdomino", 2, 3)
    first = json.dumps(analyse(record, budget=6, seed=4), sort_keys=True)
    again = json.dumps(analyse(MatchRecord.from_json(json.loads(json.dumps(record.to_json()))),
                               budget=6, seed=4), sort_keys=True)
    assert first == again
    other = json.dumps(analyse(record, budget=6, seed=5), sort_keys=True)
    assert other != first  # another seed draws other samples


@pytest.mark.parametrize(("game", "players"), [("buttons", 2), ("goita", 4), ("kami", 2)])
def test_a_forced_move_is_never_judged(game: str, players: int) -> None:
    record = random_match(game, players, 2)
    analysis = analyse(record, budget=2, seed=0)
    forced = [m for m in analysis["moves"] if m["forced"]]
    assert forced, "these matches have moves with one legal choice"
    assert all(m["judgement"] is None and m["accuracy"] is None for m in forced)
    assert all(m["judgement"] is not None for m in analysis["moves"] if not m["forced"])
    assert all(m["legal"] == 1 for m in forced)


def test_every_chance_event_and_the_first_deal_are_valued_as_luck() -> None:
    record = random_match("buttons", 2, 5)
    game = get_game("buttons")
    analysis = analyse(record, budget=2, seed=0)
    rolls = []
    for ply, (seat, state, action) in enumerate(_decisions(game, record)):
        after = game.clone(state)
        game.apply_legal(after, seat, action)
        if game.chance(state, seat, action, after):
            rolls.append(ply)
    assert [e["ply"] for e in analysis["luck"] if e["kind"] in ("setup", "chance")] == [
        None, *rolls]
    assert analysis["luck"][0]["kind"] == "setup"
    # the other steps are what the next seat knew that the mover could not (a placement
    # answered in secret), and the last move's value against the result
    assert {e["kind"] for e in analysis["luck"][1:]} <= {"chance", "hidden", "end"}
    for s in analysis["seats"]:
        total = sum(e["seats"][s["seat"]]["win"] for e in analysis["luck"])
        assert s["luck"]["win"] == pytest.approx(total, abs=0.02)


def _decisions(game: Any, record: MatchRecord) -> list[tuple[int, Any, Any]]:
    match = Match.unplayed(game, record, narrate=False)
    out = []
    for seat, data in record.actions:
        action = game.action_from_json(data)
        out.append((seat, game.clone(match.state), action))
        match.step(seat, action)
    return out


def test_random_seats_blunder_far_more_than_hard_ones() -> None:
    """Calibration on two recorded matches of a ``hard`` bot against a ``random`` one, each
    in both seats (tests/analysis/make_records.py; benchmarks/analysis.py has more), each
    analysed with two seeds (at this small budget one seed's noise can hide a blunder)."""
    by_level: dict[str, list[dict[str, Any]]] = {"hard": [], "random": []}
    for path in sorted(RECORDS.glob("kingdomino-*.json")):
        record = MatchRecord.load(path)
        for seed in (0, 1):
            analysis = analyse(record, budget=32, seed=seed)
            for seat in analysis["seats"]:
                by_level[str(record.seats[seat["seat"]]["name"])].append(seat)
    hard_blunders = sum(s["judgements"]["blunder"] for s in by_level["hard"])
    random_blunders = sum(s["judgements"]["blunder"] for s in by_level["random"])
    assert random_blunders >= 4 * max(hard_blunders, 1)
    hard_accuracy = sum(s["accuracy"] for s in by_level["hard"]) / len(by_level["hard"])
    random_accuracy = sum(s["accuracy"] for s in by_level["random"]) / len(by_level["random"])
    assert hard_accuracy - random_accuracy >= 15


def test_a_deliberately_bad_move_in_a_good_players_match_is_a_blunder() -> None:
    """A greedy match up to a placement, there the move the analysis values worst, then
    greedy bots again to the end: that move is judged a blunder."""
    game = get_game("kingdomino")
    good = finish_with("kingdomino", MatchRecord(game="kingdomino", options={}, players=2,
                                                 seed=21, data={}))
    good = Match.from_record(game, good, narrate=False).record
    probe = Analyst(good, budget=32, seed=0)
    for ply, (seat, state, _played) in enumerate(_decisions(game, good)):
        legal = game.legal_actions(state, seat)
        if ply < 8 or len(legal) < 6:
            continue
        kept, values = probe.evaluator.best_of(game.view(state, seat), seat, ply, legal, 0, 2, 32)
        best = max(v.win[seat] for v in values)
        worst = min(range(len(kept)), key=lambda j: values[j].key(seat))
        if best - values[worst].win[seat] >= 0.5:
            bad = legal[kept[worst]]
            break
    else:
        pytest.fail("no decision with a clearly bad move in this match")
    injected = MatchRecord(game="kingdomino", options={}, players=2, seed=good.seed,
                           data=good.data,
                           actions=[*good.actions[:ply], (seat, bad.to_json())])
    analysis = analyse(finish_with("kingdomino", injected), budget=32, seed=0)
    assert analysis["moves"][ply]["judgement"] == "blunder"
    assert analysis["moves"][ply]["loss"]["win"] >= 15


@pytest.mark.parametrize(("game_name", "players"), [("goita", 4), ("kami", 2), ("kingdomino", 2)])
def test_a_seats_move_is_judged_from_its_view_alone(game_name: str, players: int) -> None:
    """Re-deal what the deciding seat could not see (other hands, the deck's order): the
    judgement of its move is the same to the byte."""
    game = get_game(game_name)
    record = random_match(game_name, players, 9)
    analyst = Analyst(record, budget=4, seed=1)
    checked = 0
    for ply, (seat, state, action) in enumerate(_decisions(game, record)):
        if ply % 7 or len(game.legal_actions(state, seat)) < 2:
            continue
        view = game.view(state, seat)
        redealt = game.determinize(view, seat, Rng(ply + 1000))
        assert game.view(redealt, seat) == view
        assert redealt != state or not game.spec.hidden_information
        assert analyst._move(state, ply, seat, action) == analyst._move(redealt, ply, seat, action)
        checked += 1
        if checked == 4:
            break
    assert checked == 4


def test_the_default_budget_is_the_game_and_player_counts_own() -> None:
    """2-player Kingdomino is analysed at 2048 playouts a candidate and 2-player Buttons at 1024
    (their noise floors under 2 points, docs/analysis.md "Cost and noise"), 4 players at the
    games' 256 and 128; a game without a count of its own uses its one budget; an asked budget
    wins."""
    two, four = random_match("kingdomino", 2, 1), random_match("kingdomino", 4, 1)
    assert Analyst(two).budget == 2048 and Analyst(four).budget == 256
    assert Analyst(two, 32).budget == 32
    buttons = entry("buttons").search_profile()
    assert (buttons.budget_for(2), buttons.budget_for(4)) == (1024, 128)
    kami = entry("kami").search_profile()
    assert kami.budget_for(2) == kami.budget_for(4) == kami.analysis_budget == 16
    jobs = AnalysisJobs.__new__(AnalysisJobs)  # its budget alone: no store or bots needed
    jobs.budget = 0
    assert (jobs.budget_for("kingdomino", 2), jobs.budget_for("kingdomino", 3)) == (2048, 256)
    jobs.budget = 40  # LUDOTECA_ANALYSIS_BUDGET
    assert jobs.budget_for("kingdomino", 2) == 40
