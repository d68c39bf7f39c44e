"""Final rewards shared by the PettingZoo and OpenSpiel adapters (docs/rl.md)."""

from __future__ import annotations

from typing import Any

from ludoteca.engine.game import Game, Outcome
from ludoteca.engine.parts import side_index


def sides_of(game: Game[Any, Any], state: Any, players: int) -> list[int]:
    """Each seat's side, as the game's public view says (its ``teams``; a game whose view has
    none plays one seat per side): partners share one."""
    return side_index(game.view(state, None).get("teams") or (), players)


def final_rewards(outcome: Outcome) -> list[float]:
    """Per seat: (sides ranked below its side - sides ranked above) / (sides - 1), so +1 / -1 /
    0 with two sides, and the rewards of all seats add up to 0. The sides are the outcome's
    ``teams``; partners share their side's rank."""
    side_of = outcome.side_of
    rank_of: dict[int, int] = {}
    for seat, side in enumerate(side_of):
        rank_of[side] = outcome.ranks[seat]
    count = len(rank_of)
    if count < 2:
        return [0.0] * len(side_of)
    out = []
    for side in side_of:
        mine = rank_of[side]
        below = sum(1 for r in rank_of.values() if r > mine)
        above = sum(1 for r in rank_of.values() if r < mine)
        out.append((below - above) / (count - 1))
    return out
