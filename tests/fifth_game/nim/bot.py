"""Nim's greedy bot (leave a multiple of 4 when possible) and its search profile."""

from typing import Any

from ludoteca.engine.registry import SearchProfile

PROFILE = SearchProfile(mode="flat")


def choose(game: Any, view: Any, seat: int, rng: Any) -> Any:
    legal = game.legal_actions(game.determinize(view, seat, rng), seat)
    best = view["pile"] % 4
    return next((a for a in legal if a.count == best), legal[0])
