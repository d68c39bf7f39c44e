"""The analysis of a finished match (docs/analysis.md has the JSON it produces).

At each decision the deciding seat's view at that moment is all that is read (never the
hidden truth): every legal move is valued from it (``estimates.Evaluator.best_of``), the best
one found is compared with the one played, and the drop in the seat's win chance is judged.

Positions are valued, not (decision, move) pairs: the value of the position after a move is
the value of the move played, and when nothing is drawn between it and the next decision, and
the next seat to decide knows nothing the mover did not, that same number is the value before
the next decision. Every seat's value therefore runs along one chain, from the average over
fresh deals to its result, each step of it luck (a chance event, or what the next seat knew
that the mover could not), the seat's own move or another seat's move: the four sums add up to
the result with nothing left over.

Every win chance reported goes through the game's calibration (``calibration.py``: a mapping
fitted on the outcomes of analysed matches, strictly increasing, the identity where none was
fitted) before anything is computed from it: losses, judgements and the luck and skill steps
are all differences of reported values, so the chain still adds up exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ludoteca.analysis.calibration import Calibration, calibration_for
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

FORMAT, VERSION = "ludoteca-analysis", 2
PART = 4
"""Moves analysed together: the unit of progress, and of work handed to a bot process."""

Progress = Callable[[int, int], None]
"""Told (plies done, plies in all) as the analysis goes."""

Value = dict[str, list[float]]
"""``{"win": [per seat, 0-100], "score": [per seat]}``."""


def _pct(x: float) -> float:
    return round(100.0 * x, 2)


def _value(e: Estimate) -> Value:
    return {"win": [_pct(w) for w in e.win], "score": [round(s, 3) for s in e.score]}


def _step(before: Value, after: Value) -> Value:
    """What happened between two values, per seat (rounded as the values are)."""
    return {"win": [round(a - b, 2) for a, b in zip(after["win"], before["win"], strict=True)],
            "score": [round(a - b, 3)
                      for a, b in zip(after["score"], before["score"], strict=True)]}


def _index_of(legal: list[Any], action: Any) -> int:
    wanted = action.index
    return next(k for k, a in enumerate(legal) if a.index == wanted)


def shared_information(game: Game[Any, Any], state: Any, a: Seat, b: Seat) -> bool:
    """Whether seats ``a`` and ``b`` know the same of ``state``: their views differ in nothing
    but whose view it is (Kingdomino: nobody sees the deck; Kami: each sees its own hand)."""
    if a == b:
        return True
    va, vb = dict(game.view(state, a)), dict(game.view(state, b))
    va.pop("seat", None)
    vb.pop("seat", None)
    return va == vb


class Analyst:
    """Analyses one record with one budget and seed."""

    def __init__(self, record: MatchRecord, budget: int | None = None, seed: int = 0,
                 calibration: Calibration | None = None) -> None:
        game_entry = entry(record.game)
        profile = game_entry.search_profile()
        budget = profile.budget_for(record.players) if budget is None else budget
        if budget < 1:
            raise ValueError("the budget is at least one playout")
        self.record = record
        self.budget = budget
        self.seed = seed
        self.game: Game[Any, Any] = game_entry.load()
        self.evaluator = Evaluator(self.game, profile, seed)
        self.players = record.players
        self.calibration = (calibration_for(record.game, record.players) if calibration is None
                            else calibration)
        """The mapping from the playouts' win chance to the reported one (``calibration.py``)."""
        self.sides = record.players
        """The match's sides (partners are one), read off its end in ``_stretches``."""
        self.drawn: list[bool] = []
        """Per action: whether it drew something (a line, a deal, a roll)."""
        self.linked: list[bool] = []
        """Per action: whether the position after it is the next decision's own (nothing
        drawn, nothing more known by the next seat to decide)."""
        self.keys: list[int] = []
        """Per action: the sample key of its stretch (the first ply after the last unlinked
        step): every decision of a stretch values the same drawn worlds with the same playout
        streams."""
        self._stretches()

    def _stretches(self) -> None:
        game, actions = self.game, self.record.actions
        match = Match.unplayed(game, self.record, narrate=False)
        key = 0
        for ply, (seat, data) in enumerate(actions):
            self.keys.append(key)
            action = game.action_from_json(data)
            before = game.clone(match.state)
            match.step(seat, action)
            drawn = game.chance(before, seat, action, match.state)
            nxt = ply + 1
            link = (not drawn and nxt < len(actions)
                    and shared_information(game, match.state, seat, actions[nxt][0]))
            self.drawn.append(drawn)
            self.linked.append(link)
            if not link:
                key = nxt
        if match.outcome is not None:
            self.sides = len(match.outcome.teams)

    def reported(self, e: Estimate) -> Estimate:
        """``e`` with every seat's win chance as the analysis reports it (calibrated)."""
        c = self.calibration
        if c.identity:
            return e
        return Estimate([c.win(w, self.sides, e.exact) for w in e.win], e.score, e.samples,
                        e.exact)

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
        """The decisions ``start..stop-1`` as valued from their deciding seats (and, with the
        part that starts at 0, the value of a match not yet dealt). Each decision's samples
        are seeded by its stretch's key, never by what ran before, so the parts of an
        analysis, computed anywhere and in any order, add up to the same JSON as one run: the
        arena hands them to its bot processes one by one. ``report`` links them."""
        game = self.game
        match = Match.unplayed(game, self.record, narrate=False)
        start_value = []
        if start == 0:
            fresh = self.evaluator.fresh_setups(self.record.options, self.players, self.budget)
            start_value = [{"kind": "start", **_value(self.reported(fresh))}]
        moves: list[JSON] = []
        for ply, (seat, data) in enumerate(self.record.actions[:stop]):
            action = game.action_from_json(data)
            if ply >= start:
                moves.append(self._move(match.state, ply, seat, action))
            match.step(seat, action)
        return {"moves": moves, "luck": start_value}

    # ---- one decision --------------------------------------------------------------------
    def _move(self, state: Any, ply: int, seat: Seat, action: Any) -> JSON:
        """The decision valued from ``seat``'s view: ``played`` the value of the move played,
        ``candidates`` every move valued with the whole budget, best first, and, at the first
        decision of a stretch, ``position``: its value with the playout policy choosing this
        move too (later in a stretch, the position's value is the move before's). A forced
        move inside a stretch is not valued: it changes nothing anyone chose."""
        game = self.game
        legal = game.legal_actions(state, seat)
        forced = len(legal) == 1
        out: JSON = {"ply": ply, "seat": seat, "action": action.to_json(), "legal": len(legal),
                     "forced": forced}
        opens = ply == 0 or not self.linked[ply - 1]
        if forced and not opens:
            return out
        played = _index_of(legal, action)
        view = game.view(state, seat)
        key = self.keys[ply]
        kept, values = self.evaluator.best_of(
            view, seat, key, legal, played, self.players, self.budget)
        values = [self.reported(v) for v in values]
        order = sorted(range(len(kept)), key=lambda j: (values[j].key(seat), -kept[j]),
                       reverse=True)
        best, mine = values[order[0]], values[kept.index(played)]
        drop = max(0.0, 100.0 * (best.win[seat] - mine.win[seat]))
        played_is_best = kept[order[0]] == played or best.key(seat) == mine.key(seat)
        worst = min(v.win[seat] for v in values)
        if opens:  # the policy's own move, when there is no other, is the move played
            out["position"] = _value(mine if forced else self.reported(self.evaluator.position(
                view, seat, key, self.players, self.budget)))
        out.update({
            "played": _value(mine),
            "best": legal[kept[order[0]]].to_json(),
            "loss": {"win": round(drop, 2),
                     "score": round(max(0.0, best.score[seat] - mine.score[seat]), 3)},
            "stake": round(100.0 * (best.win[seat] - worst), 2),
            "judgement": None if forced else judge(drop, played_is_best),
            "accuracy": None if forced else round(move_accuracy(drop), 2),
            # every move valued with the whole budget, best first: a retry of this decision
            # ("Learn from your mistakes") is judged from them when it is among them
            "candidates": [{"action": legal[kept[j]].to_json(), "win": _pct(values[j].win[seat])}
                           for j in order],
        })
        return out

    # ---- the match -----------------------------------------------------------------------
    def report(self, moves: list[JSON], luck: list[JSON], match: Match) -> JSON:
        """The whole analysis from its parts and the finished match: every seat's chain of
        values, each step of it luck, its own move or another seat's move."""
        outcome = match.outcome
        assert outcome is not None, "only a finished match is analysed"
        players = self.players
        winners = len({outcome.side_of[s] for s in outcome.winners})
        result: Value = {
            "win": [round(100.0 / winners, 2) if outcome.ranks[s] == 1 else 0.0
                    for s in range(players)],
            "score": [float(x) for x in outcome.scores]}
        (start,) = [e for e in luck if e.get("kind") == "start"]
        start_value: Value = {"win": start["win"], "score": start["score"]}
        steps: list[JSON] = []
        out_moves: list[JSON] = []
        was = start_value
        for m in moves:
            ply = m["ply"]
            if "position" in m:  # a stretch opens: what was drawn or hidden gave or took
                kind = "setup" if ply == 0 else "chance" if self.drawn[ply - 1] else "hidden"
                steps.append({"ply": ply - 1 if ply else None, "kind": kind,
                              "seats": _per_seat(_step(was, m["position"]))})
                was = m["position"]
            now = m.get("played", was)
            out_moves.append({
                "ply": ply, "seat": m["seat"], "action": m["action"], "legal": m["legal"],
                "forced": m["forced"], "before": was, "after": now,
                "best": m.get("best", m["action"]),
                "loss": m.get("loss", {"win": 0.0, "score": 0.0}),
                "stake": m.get("stake", 0.0),
                "judgement": m.get("judgement"), "accuracy": m.get("accuracy"),
                "candidates": m.get("candidates", []),
            })
            was = now
        if moves:  # the last move's value, from what its mover knew, against the result
            steps.append({"ply": moves[-1]["ply"],
                          "kind": "chance" if self.drawn[moves[-1]["ply"]] else "end",
                          "seats": _per_seat(_step(was, result))})
        seats = [self._seat(s, out_moves, steps, start_value, result, outcome.scores[s],
                            outcome.ranks[s]) for s in range(players)]
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.record.game,
            "players": players,
            "options": self.record.options,
            "budget": self.budget,
            "seed": self.seed,
            "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
            "calibration": self.calibration.to_json(),
            "moves": out_moves,
            "luck": steps,
            "seats": seats,
        }

    def _seat(self, s: Seat, moves: list[JSON], steps: list[JSON], start: Value, result: Value,
              score: int, rank: int) -> JSON:
        mine = [m for m in moves if m["seat"] == s and not m["forced"]]
        counts = {j: sum(1 for m in mine if m["judgement"] == j) for j in JUDGEMENTS}
        accuracy = match_accuracy([m["accuracy"] for m in mine],
                                  [stake_weight(m["stake"]) for m in mine])

        def total(items: list[Value]) -> JSON:
            return {"win": round(sum(v["win"][s] for v in items), 2),
                    "score": round(sum(v["score"][s] for v in items), 3)}

        own = [_step(m["before"], m["after"]) for m in moves if m["seat"] == s]
        others = [_step(m["before"], m["after"]) for m in moves if m["seat"] != s]
        drawn = [{"win": [e["win"] for e in step["seats"]],
                  "score": [e["score"] for e in step["seats"]]} for step in steps]
        return {
            "seat": s,
            "name": str(self.record.seats[s].get("name", "")) if s < len(self.record.seats)
            else "",
            "moves": len(mine),
            "accuracy": None if accuracy is None else round(accuracy, 2),
            "judgements": counts,
            "start": {"win": start["win"][s], "score": start["score"][s]},
            "luck": total(drawn),
            "skill": total(own),
            "others": total(others),
            "result": {"win": result["win"][s], "score": score, "rank": rank},
        }


def _per_seat(step: Value) -> list[JSON]:
    return [{"win": w, "score": x} for w, x in zip(step["win"], step["score"], strict=True)]


def analyse(record: MatchRecord, budget: int | None = None, seed: int = 0,
            progress: Progress | None = None) -> JSON:
    """The analysis of a finished match as JSON (docs/analysis.md); ``budget`` defaults to
    the game's own (``SearchProfile.analysis_budget``)."""
    return Analyst(record, budget, seed).run(progress)
