"""The coach's hint: the move the analysis would choose at a live decision, from the asking
seat's view alone, with the values that say why."""

from __future__ import annotations

from typing import Any

from ludoteca.analysis.estimates import Evaluator, stream
from ludoteca.engine.game import JSON, Seat
from ludoteca.games import entry


def suggest(game_name: str, view: JSON, seat: Seat, players: int, ply: int, budget: int,
            seed: int = 0) -> JSON:
    """``{"action", "win", "score", "next"}``: the best move found and, for the seat, its win
    chance (0-100) and expected final score; ``next`` the same for the runner-up (None when
    the move is the only one)."""
    found = entry(game_name)
    game = found.load()
    state = game.determinize(view, seat, stream(seed, "hint", ply))  # its legal moves
    legal: list[Any] = game.legal_actions(state, seat)
    evaluator = Evaluator(game, found.search_profile(), seed)
    kept, values = evaluator.best_of(view, seat, ply, legal, 0, players, budget)
    order = sorted(range(len(kept)), key=lambda j: (values[j].key(seat), -kept[j]),
                   reverse=True)
    best = order[0]
    runner = order[1] if len(order) > 1 else None
    return {
        "action": legal[kept[best]].to_json(),
        "win": round(100 * values[best].win[seat], 1),
        "score": round(values[best].score[seat], 1),
        "next": None if runner is None else {
            "win": round(100 * values[runner].win[seat], 1),
            "score": round(values[runner].score[seat], 1)},
    }

