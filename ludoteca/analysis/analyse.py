"""The analysis of a finished match (docs/analysis.md has the JSON it produces).

At each decision the deciding seat's view at that moment is all that is read (never the
hidden truth): every legal move is valued from it (``estimates.Evaluator.best_of``), the best
one found is compared with the one played, and the drop in the seat's win chance is judged.
At each chance event (a line drawn, a deal, a roll) each seat's value after it is compared
with its value before, when it could only be averaged over what might come: that
difference is the seat's luck.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ludoteca.analysis.estimates import Estimate, Evaluator
from ludoteca.analysis.judgement import (
    BLUNDER,
    INACCURACY,
    JUDGEMENTS,
    MISTAKE,
    judge,
    match_accuracy,
    move_accuracy,
    stake_weight,
)
from ludoteca.engine.errors import RecordError
from ludoteca.engine.game import JSON, Game, Seat
from ludoteca.engine.match import Match
from ludoteca.engine.record import MatchRecord
from ludoteca.games import entry

FORMAT, VERSION = "ludoteca-analysis", 1
PART = 4
"""Moves analysed together: the unit of progress, and of work handed to a bot process."""

Progress = Callable[[int, int], None]
"""Told (plies done, plies in all) as the analysis goes."""


def _pct(x: float) -> float:
    return round(100.0 * x, 2)


def _value(e: Estimate) -> JSON:
    return {"win": [_pct(w) for w in e.win], "score": [round(s, 3) for s in e.score]}


def _index_of(legal: list[Any], action: Any) -> int:
    wanted = action.index
    return next(k for k, a in enumerate(legal) if a.index == wanted)


class Analyst:
    """Analyses one record with one budget and seed."""

    def __init__(self, record: MatchRecord, budget: int | None = None, seed: int = 0) -> None:
        game_entry = entry(record.game)
        profile = game_entry.search_profile()
        budget = profile.analysis_budget if budget is None else budget
        if budget < 1:
            raise ValueError("the budget is at least one playout")
        self.record = record
        self.budget = budget
        self.seed = seed
        self.game: Game[Any, Any] = game_entry.load()
        self.evaluator = Evaluator(self.game, profile, seed)
        self.players = record.players

    def finished(self) -> Match:
        """The match at its end (RecordError when it is not finished)."""
        match = Match.from_record(self.game, self.record, narrate=False)
        if not match.is_over():
            raise RecordError("the match in this record is not finished: only finished "
                              "matches are analysed")
        return match

    def run(self, progress: Progress | None = None) -> JSON:
        final = self.finished()
        total = len(self.record.actions)
        moves: list[JSON] = []
        luck: list[JSON] = []
        for start in range(0, total, PART):
            part = self.part(start, min(total, start + PART))
            moves += part["moves"]
            luck += part["luck"]
            if progress is not None:
                progress(len(moves), total)
        return self.report(moves, luck, final)

    def part(self, start: int, stop: int) -> JSON:
        """The moves ``start..stop-1`` and the chance events they drew (the first deal with
        the part that starts at 0). Each move's samples are seeded by its own number, so the
        parts of an analysis, computed anywhere and in any order, add up to the same JSON as
        one run: the arena hands them to its bot processes one by one."""
        game, players = self.game, self.players
        match = Match.unplayed(game, self.record, narrate=False)
        luck = [self._setup_luck(match.state)] if start == 0 else []
        moves: list[JSON] = []
        for ply, (seat, data) in enumerate(self.record.actions[:stop]):
            action = game.action_from_json(data)
            if ply < start:
                match.step(seat, action)
                continue
            state = match.state
            moves.append(self._move(state, ply, seat, action))
            chance = game.chance(state, seat, action)
            before = {s: game.view(state, s) for s in range(players)} if chance else {}
            match.step(seat, action)
            if chance:
                luck.append(self._luck(ply, seat, action, before, match.state))
        return {"moves": moves, "luck": luck}

    # ---- one decision --------------------------------------------------------------------
    def _move(self, state: Any, ply: int, seat: Seat, action: Any) -> JSON:
        game = self.game
        legal = game.legal_actions(state, seat)
        played = _index_of(legal, action)
        view = game.view(state, seat)
        kept, values = self.evaluator.best_of(
            view, seat, ply, legal, played, self.players, self.budget)
        best_k = max(range(len(kept)), key=lambda j: (values[j].key(seat), -kept[j]))
        mine = kept.index(played)
        best, after = values[best_k], values[mine]
        forced = len(legal) == 1
        drop = max(0.0, 100.0 * (best.win[seat] - after.win[seat]))
        played_is_best = kept[best_k] == played or best.key(seat) == after.key(seat)
        worst = min(v.win[seat] for v in values)
        out: JSON = {
            "ply": ply,
            "seat": seat,
            "action": action.to_json(),
            "legal": len(legal),
            "forced": forced,
            "before": _value(best),
            "after": _value(after),
            "best": legal[kept[best_k]].to_json(),
            "loss": {"win": round(drop, 2),
                     "score": round(max(0.0, best.score[seat] - after.score[seat]), 3)},
            "stake": round(100.0 * (best.win[seat] - worst), 2),
            "judgement": None if forced else judge(drop, played_is_best),
            "accuracy": None if forced else round(move_accuracy(drop), 2),
            # every move valued with the whole budget, best first: a retry of this decision
            # ("Learn from your mistakes") is judged from them when it is among them
            "candidates": [
                {"action": legal[kept[j]].to_json(), "win": _pct(values[j].win[seat])}
                for j in sorted(range(len(kept)),
                                key=lambda j: (values[j].key(seat), -kept[j]), reverse=True)],
        }
        return out

    # ---- chance --------------------------------------------------------------------------
    def _setup_luck(self, state: Any) -> JSON:
        """The first deal: each seat's value once dealt against the average over new deals."""
        ev, players, budget = self.evaluator, self.players, self.budget
        expected = ev.fresh_setups(self.record.options, players, budget)
        seats = []
        for s in range(players):
            got = ev.position(self.game.view(state, s), s, -1, players, budget)
            seats.append({"win": _pct(got.win[s] - expected.win[s]),
                          "score": round(got.score[s] - expected.score[s], 3)})
        return {"ply": None, "kind": "setup", "seats": seats}

    def _luck(self, ply: int, mover: Seat, action: Any, before: dict[Seat, JSON],
              after_state: Any) -> JSON:
        """Each seat's value after the chance event, from its own view then, against its value
        from its view before the move with the move applied in each draw (the average over
        what could have come)."""
        game, ev, players, budget = self.game, self.evaluator, self.players, self.budget

        def apply(state: Any) -> bool:
            if mover not in game.to_act(state):
                return False
            wanted = action.index
            for legal in game.legal_actions(state, mover):
                if legal.index == wanted:
                    game.apply_legal(state, mover, legal)
                    return True
            return False  # the mover held something else in this draw of what it held

        seats = []
        for s in range(players):
            was = ev.position(before[s], s, ply, players, budget, then=apply)
            now = ev.position(game.view(after_state, s), s, ply + 1, players, budget)
            seats.append({"win": _pct(now.win[s] - was.win[s]),
                          "score": round(now.score[s] - was.score[s], 3)})
        return {"ply": ply, "kind": "chance", "seats": seats}

    # ---- the match -----------------------------------------------------------------------
    def report(self, moves: list[JSON], luck: list[JSON], match: Match) -> JSON:
        """The whole analysis from its parts and the finished match."""
        outcome = match.outcome
        assert outcome is not None, "only a finished match is analysed"
        winners = len(outcome.winners)
        seats = []
        for s in range(self.players):
            mine = [m for m in moves if m["seat"] == s and not m["forced"]]
            counts = {j: sum(1 for m in mine if m["judgement"] == j) for j in JUDGEMENTS}
            accuracy = match_accuracy([m["accuracy"] for m in mine],
                                      [stake_weight(m["stake"]) for m in mine])
            won = (100.0 / winners) if outcome.ranks[s] == 1 else 0.0
            seats.append({
                "seat": s,
                "name": str(self.record.seats[s].get("name", "")) if s < len(self.record.seats)
                else "",
                "moves": len(mine),
                "accuracy": None if accuracy is None else round(accuracy, 2),
                "judgements": counts,
                "skill": {"win": round(-sum(m["loss"]["win"] for m in mine), 2),
                          "score": round(-sum(m["loss"]["score"] for m in mine), 3)},
                "luck": {"win": round(sum(e["seats"][s]["win"] for e in luck), 2),
                         "score": round(sum(e["seats"][s]["score"] for e in luck), 3)},
                "result": {"win": round(won, 2), "score": outcome.scores[s],
                           "rank": outcome.ranks[s]},
            })
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.record.game,
            "players": self.players,
            "options": self.record.options,
            "budget": self.budget,
            "seed": self.seed,
            "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
            "moves": moves,
            "luck": luck,
            "seats": seats,
        }


def analyse(record: MatchRecord, budget: int | None = None, seed: int = 0,
            progress: Progress | None = None) -> JSON:
    """The analysis of a finished match as JSON (docs/analysis.md); ``budget`` defaults to
    the game's own (``SearchProfile.analysis_budget``)."""
    return Analyst(record, budget, seed).run(progress)
