"""The "Learn from your mistakes" mode: a past decision of a finished match seen again from
the deciding seat (its view then and its legal moves), and a retried move valued as the
analysis valued the moves it looked at, so the two compare.

A move among the analysis's ``candidates`` keeps its stored value. Any other legal move is
valued here with the analysis's seed and budget and the same draws and playout streams
(common random numbers: ``Evaluator.moves`` seeds each sample by the decision's sample key and
the sample number, never by the candidate), which gives exactly the value the analysis would
have stored for it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ludoteca.analysis.analyse import Analyst
from ludoteca.analysis.judgement import RETRY_PASSES
from ludoteca.engine.game import JSON, Game, Seat
from ludoteca.engine.match import Match
from ludoteca.engine.record import MatchRecord
from ludoteca.games import entry


@dataclass
class Decision:
    seat: Seat
    view: JSON
    legal: list[Any]
    state: Any
    game: Game[Any, Any]


def decision(record: MatchRecord, ply: int) -> Decision:
    """The position before action ``ply`` (0-based) from the seat that chose it."""
    game: Game[Any, Any] = entry(record.game).load()
    match = Match.unplayed(game, record, narrate=False)
    for seat, data in record.actions[:ply]:
        match.step(seat, game.action_from_json(data))
    seat = record.actions[ply][0]
    state = match.state
    return Decision(seat, game.view(state, seat), list(game.legal_actions(state, seat)),
                    state, game)


def value_of(record: JSON, ply: int, action: JSON, budget: int, seed: int) -> float:
    """Runs in a bot process: the deciding seat's win chance (0-100) after ``action`` at
    ``ply``, as the analysis with ``budget`` and ``seed`` would have valued it."""
    found = MatchRecord.from_json(record)
    d = decision(found, ply)
    wanted = d.game.action_from_json(action).index
    move = next(a for a in d.legal if a.index == wanted)
    analyst = Analyst(found, budget, seed)
    sums = analyst.evaluator.moves(d.view, d.seat, analyst.keys[ply], [move], found.players,
                                   budget)
    return round(100.0 * analyst.reported(sums[0].mean()).win[d.seat], 2)


def stored_value(move: JSON, action: JSON) -> float | None:
    """The win chance the analysis stored for ``action`` at this move, if it valued it."""
    for candidate in move.get("candidates", []):
        if candidate["action"] == action:
            return float(candidate["win"])
    return None


def verdict(move: JSON, win: float, stored: bool) -> JSON:
    """A retry's answer: its value, the best found, what it lost, and whether it passes."""
    best = float(move["candidates"][0]["win"])
    loss = round(max(0.0, best - win), 2)
    return {"ply": move["ply"], "win": win, "best": best, "loss": loss,
            "passed": loss <= RETRY_PASSES, "stored": stored}
