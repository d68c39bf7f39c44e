"""Full-greedy Kingdomino (Gedda, Lagerkvist and Butler, IEEE CIG 2018), on the game contract.

Placement: the legal placement that maximises the kingdom's score right after placing it,
bonuses included when their options are on. Ties go to the placement that leaves fewer empty
squares no domino can ever fill, then to the one that keeps the castle nearer the centre of the
kingdom (room to grow on every side, and the Middle Kingdom bonus), then to the bot's seeded RNG.

Draft: the domino whose best placement in the kingdom as it stands gains the most points; ties go
to the lower number, because a lower domino acts earlier next round. A domino that cannot be
placed at all ranks below one that can.
"""

from __future__ import annotations

from typing import Any

from ludoteca.engine.game import JSON, Game, Seat
from ludoteca.engine.rng import Rng
from ludoteca.games.kingdomino import scoring
from ludoteca.games.kingdomino.actions import Claim, Place
from ludoteca.games.kingdomino.components import DOMINOES
from ludoteca.games.kingdomino.grid import (
    HALF,
    MAXC,
    MAXR,
    MINC,
    MINR,
    OCC,
    cells,
    frame_mask,
    neighbours,
    place,
    placement_masks,
)

Key = tuple[int, int, int]
UNPLACEABLE: Key = (-1, -(10**6), -(10**6))

_T1 = {n: d.terrains[0] for n, d in DOMINOES.items()}
_T2 = {n: d.terrains[1] for n, d in DOMINOES.items()}
_C1 = {n: d.crowns[0] for n, d in DOMINOES.items()}
_C2 = {n: d.crowns[1] for n, d in DOMINOES.items()}


class Rules:
    """The scoring settings of the match, read once from the view."""

    __slots__ = ("frame", "harmony", "middle")

    def __init__(self, view: JSON) -> None:
        options = view.get("options", {})
        self.frame = int(view["frame"])
        self.harmony = bool(options.get("harmony", False))
        self.middle = bool(options.get("middle_kingdom", False))

    def score(self, k: list[int]) -> int:
        return scoring.score(k, self.frame, self.harmony, self.middle)


def placement_key(k: list[int], n: int, cell: int, d: int, rules: Rules) -> Key:
    """(score after placing, -dead empty squares, -castle off-centre) for domino ``n`` there."""
    after = k[:]
    place(after, cell, d, _T1[n], _C1[n], _T2[n], _C2[n])
    empty = frame_mask(after, rules.frame) & ~after[OCC]
    dead = (empty & ~neighbours(empty)).bit_count()
    off = abs(after[MINC] + after[MAXC] - 2 * HALF) + abs(after[MINR] + after[MAXR] - 2 * HALF)
    return (rules.score(after), -dead, -off)


def ranked_placements(k: list[int], n: int, rules: Rules) -> list[tuple[Key, int, int]]:
    """Every legal placement of domino ``n`` as (key, cell, direction)."""
    masks = placement_masks(k, _T1[n], _T2[n], rules.frame)
    return [
        (placement_key(k, n, cell, d, rules), cell, d)
        for d in range(4)
        for cell in cells(masks[d])
    ]


def best_placement_key(k: list[int], n: int, rules: Rules) -> Key:
    ranked = ranked_placements(k, n, rules)
    return max(key for key, _, _ in ranked) if ranked else UNPLACEABLE


def choose_placement(
    k: list[int], n: int, legal: list[Any], rules: Rules, rng: Rng
) -> Any:
    """The best legal placement of domino ``n`` (random among equals); Discard if none."""
    places = [a for a in legal if isinstance(a, Place)]
    if not places:
        return legal[0]  # the forced discard
    keyed = [(placement_key(k, n, a.cell, a.d, rules), a) for a in places]
    best = max(key for key, _ in keyed)
    return rng.choice([a for key, a in keyed if key == best])


def choose_claim(k: list[int], claims: list[Claim], rules: Rules) -> Claim:
    """The claim whose best placement gains the most now; lower number on ties."""
    base = rules.score(k)

    def value(c: Claim) -> tuple[int, int]:
        key = best_placement_key(k, c.domino, rules)
        gain = -1 if key is UNPLACEABLE else key[0] - base
        return (gain, -c.domino)

    return max(claims, key=value)


def choose(game: Game[Any, Any], view: JSON, seat: Seat, rng: Rng) -> Any:
    state = game.determinize(view, seat, rng)
    legal = game.legal_actions(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has nothing to do now")
    k = state.kingdoms[seat]
    rules = Rules(view)
    claims = [a for a in legal if isinstance(a, Claim)]
    if claims:
        return choose_claim(k, claims, rules)
    return choose_placement(k, int(view["acting_domino"]), legal, rules, rng)
