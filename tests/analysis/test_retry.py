""""Learn from your mistakes" (issue 25): a retried move valued alone, with the analysis's seed
and budget, gets exactly the value the analysis stored for it among its candidates (the same
draws and playout streams), so a retry outside the candidates is judged on the same scale."""

from __future__ import annotations

import json
from pathlib import Path

from ludoteca.analysis.analyse import Analyst
from ludoteca.analysis.judgement import RETRY_PASSES
from ludoteca.analysis.retry import decision, stored_value, value_of, verdict
from ludoteca.engine.record import MatchRecord

RECORDS = Path(__file__).parent / "records"


def test_a_move_valued_alone_is_valued_as_among_the_candidates() -> None:
    path = sorted(RECORDS.glob("kingdomino*.json"))[0]
    data = json.loads(path.read_text("utf-8"))
    record = MatchRecord.from_json(data)
    budget = 16  # the successive halving keeps the best 8 of a wide decision, and the move played
    ply = next(i for i, (_s, a) in enumerate(record.actions) if a["type"] == "place")
    move = Analyst(record, budget, seed=2).part(ply, ply + 1)["moves"][0]
    assert 1 < len(move["candidates"]) < move["legal"]
    for candidate in move["candidates"]:
        assert value_of(data, ply, candidate["action"], budget, 2) == candidate["win"]
        assert stored_value(move, candidate["action"]) == candidate["win"]
    wins = [c["win"] for c in move["candidates"]]
    assert wins == sorted(wins, reverse=True)
    played = stored_value(move, record.actions[ply][1])
    assert played is not None and move["loss"]["win"] == round(wins[0] - played, 2)
    outside = next(a.to_json() for a in decision(record, ply).legal
                   if a.to_json() not in [c["action"] for c in move["candidates"]])
    assert stored_value(move, outside) is None
    win = value_of(data, ply, outside, budget, 2)
    judged = verdict(move, win, stored=False)
    assert judged["loss"] == round(max(0.0, wins[0] - win), 2)
    assert judged["passed"] == (judged["loss"] <= RETRY_PASSES)
    assert verdict(move, wins[0], stored=True)["passed"] is True
