"""What the server adds to a match's result so that clients count nothing: which seats' equal
scores the tie-break split, and each rating's change."""

from __future__ import annotations

from typing import Any

from ludoteca.engine.game import Outcome


def tie_broken(outcome: Outcome) -> list[int]:
    """The seats that tied on points with another side yet were ranked apart: their tie-break
    reasons decided the order, and the end screen says so (other seats' reasons are not
    news). Partners share their side's score and rank, so a team is never tied with itself."""
    side = outcome.side_of
    scores, ranks = outcome.scores, outcome.ranks
    return [seat for seat in range(len(scores))
            if any(side[other] != side[seat] and scores[other] == scores[seat]
                   and ranks[other] != ranks[seat] for other in range(len(scores)))]


def side_rank(result: dict[str, Any], seat: int) -> int | None:
    """The rank of ``seat``'s side counted over sides (partners end as one team: 2nd, not
    3rd), derived from the result's teams and ranks as ``Outcome.sides`` does, so results
    stored before ``sides`` was written read the same."""
    if not result.get("ranks"):
        return None
    sides = Outcome.from_json(result).sides
    return next((side.rank for side in sides if seat in side.seats), None)


def rating_change(seat: int, before: float, after: float) -> dict[str, float | int]:
    """One seat's rating change as the result carries it: before, after and the difference
    (rounded as the ratings are shown)."""
    return {"seat": seat, "before": before, "after": after, "delta": round(after - before, 2)}
