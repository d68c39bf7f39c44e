"""Scoring (rules §5) and the tie-break values (§6.2), fast for bots and explained for people."""

from __future__ import annotations

from typing import Any

from ludoteca.engine.bits import bit_list
from ludoteca.engine.i18n import N_
from ludoteca.engine.parts import JSON, Part, TieBreak, msg, nt
from ludoteca.games.kingdomino.grid import (
    CR1,
    CR2,
    CR3,
    STRIDE,
    TERR,
    components,
    crowns_in,
    is_centred,
    is_complete,
    xy_of,
)

HARMONY_BONUS = 5
MIDDLE_KINGDOM_BONUS = 10


def territory_points(k: list[int]) -> int:
    """Sum of squares × crowns over all territories, growing only from crowned squares."""
    crowned_all = k[CR1] | k[CR2] | k[CR3]
    total = 0
    for t in range(TERR, len(k)):
        mask = k[t]
        seeds = mask & crowned_all
        while seeds:
            comp = seeds & -seeds
            while True:
                grown = (
                    comp | (comp << 1) | (comp >> 1) | (comp << STRIDE) | (comp >> STRIDE)
                ) & mask
                if grown == comp:
                    break
                comp = grown
            total += comp.bit_count() * crowns_in(k, comp)
            seeds &= ~comp
    return total


def bonus_points(k: list[int], frame: int, harmony: bool, middle: bool) -> int:
    points = 0
    if harmony and is_complete(k, frame):
        points += HARMONY_BONUS
    if middle and is_centred(k, frame):
        points += MIDDLE_KINGDOM_BONUS
    return points


def score(k: list[int], frame: int, harmony: bool, middle: bool) -> int:
    return territory_points(k) + bonus_points(k, frame, harmony, middle)


def largest_territory(k: list[int]) -> int:
    """Squares of the largest territory, crowned or not; the castle is not a territory."""
    best = 0
    for t in range(TERR, len(k)):
        for comp in components(k[t]):
            n = comp.bit_count()
            if n > best:
                best = n
    return best


def total_crowns(k: list[int]) -> int:
    return k[CR1].bit_count() + 2 * k[CR2].bit_count() + 3 * k[CR3].bit_count()


def breakdown(
    k: list[int], frame: int, harmony: bool, middle: bool, terrain_names: tuple[str, ...],
    cells: bool = True,
) -> dict[str, Any]:
    """Every territory (terrain, squares, crowns, points, and its cells unless ``cells`` is
    false: the live view does without them) and every bonus, with totals."""
    territories: list[dict[str, Any]] = []
    for t in range(TERR, len(k)):
        for comp in components(k[t]):
            squares = comp.bit_count()
            crowns = crowns_in(k, comp)
            territory = {
                "terrain": terrain_names[t - TERR],
                "squares": squares,
                "crowns": crowns,
                "points": squares * crowns,
            }
            if cells:
                territory["cells"] = [list(xy_of(c)) for c in bit_list(comp)]
            territories.append(territory)
    territories.sort(key=lambda tr: (-tr["points"], -tr["squares"], tr["terrain"]))
    bonuses: list[dict[str, Any]] = []
    if harmony:
        ok = is_complete(k, frame)
        bonuses.append({"name": "harmony", "points": HARMONY_BONUS if ok else 0, "earned": ok})
    if middle:
        ok = is_centred(k, frame)
        bonuses.append(
            {"name": "middle_kingdom", "points": MIDDLE_KINGDOM_BONUS if ok else 0, "earned": ok}
        )
    total = sum(tr["points"] for tr in territories) + sum(b["points"] for b in bonuses)
    return {
        "territories": territories,
        "bonuses": bonuses,
        "total": total,
        "largest_territory": max((tr["squares"] for tr in territories), default=0),
        "crowns": total_crowns(k),
    }


TERRITORY = N_("{terrain}: {square_count} × {crown_count}")
NO_CROWNS = N_("territories without crowns: {count} (0 points)")
HARMONY = N_("Harmony: a complete kingdom")
NO_HARMONY = N_("Harmony: the kingdom is not complete")
MIDDLE = N_("Middle Kingdom: the castle is in the centre")
NO_MIDDLE = N_("Middle Kingdom: the castle is not in the centre")
IN_GAME = N_("Game {game}: {part}")
LARGEST = N_("largest territory: {square_count}")
CROWNS = N_("crowns in the kingdom: {crowns}")


def squares_said(n: int) -> JSON:
    """"1 square", "5 squares" in the viewer's language (the numbers stay in the args too)."""
    return nt("{n} square", "{n} squares", n)


def territory_parts(territories: list[dict[str, Any]]) -> list[Part]:
    """Rules §5: one part per crowned territory (squares × crowns), and one saying how many
    territories have no crown (they score 0)."""
    parts = [
        Part("territory", TERRITORY, tr["points"],
             {"terrain": msg(tr["terrain"]), "squares": tr["squares"], "crowns": tr["crowns"],
              "square_count": squares_said(tr["squares"]),
              "crown_count": nt("{n} crown", "{n} crowns", tr["crowns"])})
        for tr in territories if tr["crowns"]
    ]
    bare = sum(1 for tr in territories if not tr["crowns"])
    if bare:
        parts.append(Part("no_crowns", NO_CROWNS, 0, {"count": bare}))
    return parts


def parts(result: dict[str, Any]) -> list[Part]:
    """One kingdom's score as parts (rules §5), from its ``breakdown``."""
    out = territory_parts(result["territories"])
    for bonus in result["bonuses"]:
        if bonus["name"] == "harmony":
            text = HARMONY if bonus["earned"] else NO_HARMONY
        else:
            text = MIDDLE if bonus["earned"] else NO_MIDDLE
        out.append(Part(bonus["name"], text, bonus["points"]))
    return out


def in_game(game: int, part: Part) -> Part:
    """A part of one game of a Dynasty (rules §7), said with the game's number."""
    return Part(part.id, IN_GAME, part.points,
                {"game": game, "part": msg(part.msg, **part.args)})


def tiebreak(largest: int, crowns: int, with_crowns: bool) -> tuple[TieBreak, ...]:
    """Rules §6.2: the largest territory, then (unless the BGA tie-break is chosen, §9.2) the
    crowns."""
    first = TieBreak("largest_territory", LARGEST, largest,
                     {"squares": largest, "square_count": squares_said(largest)})
    if not with_crowns:
        return (first,)
    return first, TieBreak("crowns", CROWNS, crowns, {"crowns": crowns})


def scores_now(state: Any) -> tuple[tuple[int, ...], float]:
    """Each seat's score now (Dynasty: the finished games' scores added) and the scale the RL
    rewards measure it against (100 a game): the outcome's scores once the match is over
    (``GameEntry.rl_score``; ``ludoteca/rl/rewards.py``)."""
    cfg = state.cfg
    frame, harmony, middle = cfg.frame, cfg.harmony, cfg.middle_kingdom
    games = [kingdoms for kingdoms, _ in state.past] + [state.kingdoms]
    scores = tuple(
        sum(score(kingdoms[seat], frame, harmony, middle) for kingdoms in games)
        for seat in range(cfg.players)
    )
    return scores, 100.0 * cfg.games
