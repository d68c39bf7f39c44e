"""End-of-game scoring (rules "End-of-game scoring" 0-4), fast for bots and explained for people.

Territory scoring and the largest territory are Kingdomino's (``kingdomino/scoring.py``): a
building's crown is written into the grid's crown layers when it is built, so the shared code
counts it like a printed crown.
"""

from __future__ import annotations

from typing import Any

from ludoteca.engine.bits import bit_list
from ludoteca.engine.i18n import N_
from ludoteca.engine.parts import Part, TieBreak, msg, nt
from ludoteca.games.kingdomino.grid import TERR, components, crowns_in, xy_of
from ludoteca.games.kingdomino.scoring import (
    LARGEST,
    largest_territory,
    squares_said,
    territory_parts,
    territory_points,
)
from ludoteca.games.queendomino.buildings import Building
from ludoteca.games.queendomino.components import TERRAINS
from ludoteca.games.queendomino.state import QueendominoState

COINS_PER_POINT = 3


def wealth_points(coins: int) -> int:
    """Rules §6.1: one point per 3 unused coins, rounded down."""
    return coins // COINS_PER_POINT


def building_points(
    k: list[int], tile: Building, towers: int, knights: int
) -> int:
    """Rules §6.3: the lower-right symbol of one built tile."""
    points = tile.points + tile.per_tower * towers + tile.per_knight * knights
    if tile.per_territory:
        points += tile.per_territory * len(components(k[TERR + tile.terrain]))
    return points


def score(
    k: list[int], tiles: list[Building], coins: int, towers: int, knights: int, queen: bool
) -> int:
    """The total of rules §6.0-3 without the explanation (bots call this often)."""
    total = territory_points(k) + coins // COINS_PER_POINT
    if queen:
        total += largest_territory(k)
    for tile in tiles:
        total += building_points(k, tile, towers, knights)
    return total


def breakdown(
    k: list[int],
    built: list[tuple[Building, int]],
    coins: int,
    towers: int,
    knights: int,
    queen: bool,
    building_crowns: int = 0,
    cells: bool = True,
) -> dict[str, Any]:
    """Every territory, building and coin that scores, and the totals (rules §6.0-4).

    ``built`` pairs each tile with its cell; ``building_crowns`` is the bitmask of squares whose
    crown comes from a building (shown apart from printed crowns).
    """
    territories: list[dict[str, Any]] = []
    for t in range(TERR, len(k)):
        for comp in components(k[t]):
            squares = comp.bit_count()
            crowns = crowns_in(k, comp)
            territory = {
                "terrain": TERRAINS[t - TERR],
                "squares": squares,
                "crowns": crowns,
                "building_crowns": (building_crowns & comp).bit_count(),
                "queen": False,
                "points": squares * crowns,
            }
            if cells:
                territory["cells"] = [list(xy_of(c)) for c in bit_list(comp)]
            territories.append(territory)
    territories.sort(key=lambda tr: (-tr["squares"], -tr["points"], tr["terrain"]))
    largest = territories[0]["squares"] if territories else 0
    queen_points = 0
    if queen and territories:
        # Rules §6.0 / ruling 3: every tied largest territory gains the same, so take the first.
        host = territories[0]
        host["queen"] = True
        host["points"] = host["squares"] * (host["crowns"] + 1)
        queen_points = host["squares"]
    territories.sort(key=lambda tr: (-tr["points"], -tr["squares"], tr["terrain"]))
    buildings: list[dict[str, Any]] = []
    for tile, cell in built:
        parts: list[dict[str, Any]] = []
        if tile.points:
            parts.append({"kind": "fixed", "points": tile.points})
        if tile.per_territory:
            count = len(components(k[TERR + tile.terrain]))
            parts.append(
                {"kind": "per_territory", "terrain": TERRAINS[tile.terrain], "count": count,
                 "each": tile.per_territory, "points": tile.per_territory * count}
            )
        if tile.per_tower:
            parts.append({"kind": "per_tower", "count": towers, "each": tile.per_tower,
                          "points": tile.per_tower * towers})
        if tile.per_knight:
            parts.append({"kind": "per_knight", "count": knights, "each": tile.per_knight,
                          "points": tile.per_knight * knights})
        x, y = xy_of(cell)
        buildings.append(
            {"id": tile.id, "name": tile.name, "x": x, "y": y, "crowns": tile.crowns,
             "parts": parts,
             "points": sum(p["points"] for p in parts)}
        )
    territory_total = sum(tr["points"] for tr in territories)
    building_total = sum(b["points"] for b in buildings)
    wealth = wealth_points(coins)
    return {
        "wealth": {"coins": coins, "points": wealth},
        "territories": territories,
        "territory_points": territory_total,
        "queen": {"hosted": queen, "points": queen_points},
        "buildings": buildings,
        "building_points": building_total,
        "towers": towers,
        "knights": knights,
        "total": wealth + territory_total + building_total,
        "largest_territory": largest,
    }


WEALTH = N_("Wealth: {coin_count}, 1 point per 3")
QUEEN = N_("The Queen: 1 more crown on the largest territory ({terrain}, {square_count})")
FIXED = N_("{building}: {point_count}")
PER_TERRITORY = N_("{building}: {territory_count} × {each}")
PER_TOWER = N_("{building}: {tower_count} × {each}")
PER_KNIGHT = N_("{building}: {knight_count} × {each}")


def parts(result: dict[str, Any]) -> list[Part]:
    """One kingdom's score as parts (rules §6.0-3), from its ``breakdown``: wealth, each
    territory (squares × crowns, the Queen's crown apart), each building's symbol."""
    coins = result["wealth"]["coins"]
    out = [Part("wealth", WEALTH, result["wealth"]["points"],
                {"coins": coins, "coin_count": nt("{n} coin", "{n} coins", coins)})]
    territories = []
    for tr in result["territories"]:
        if tr["queen"]:
            out.append(Part("queen", QUEEN, tr["squares"],
                            {"terrain": msg(tr["terrain"]), "squares": tr["squares"],
                             "square_count": squares_said(tr["squares"])}))
            tr = {**tr, "points": tr["squares"] * tr["crowns"]}
        territories.append(tr)
    out += territory_parts(territories)
    for b in result["buildings"]:
        name = msg(b["name"])
        for p in b["parts"]:
            kind = p["kind"]
            if kind == "fixed":
                out.append(Part("building", FIXED, p["points"],
                                {"building": name, "points": p["points"],
                                 "point_count": nt("{n} point", "{n} points", p["points"])}))
            elif kind == "per_territory":
                terrain = msg(p["terrain"])
                out.append(Part("building", PER_TERRITORY, p["points"],
                                {"building": name, "count": p["count"], "terrain": terrain,
                                 "each": p["each"],
                                 "territory_count": nt("{n} {terrain} territory",
                                                       "{n} {terrain} territories", p["count"],
                                                       terrain=terrain)}))
            elif kind == "per_tower":
                out.append(Part("building", PER_TOWER, p["points"],
                                {"building": name, "count": p["count"], "each": p["each"],
                                 "tower_count": nt("{n} tower", "{n} towers", p["count"])}))
            else:
                out.append(Part("building", PER_KNIGHT, p["points"],
                                {"building": name, "count": p["count"], "each": p["each"],
                                 "knight_count": nt("{n} knight", "{n} knights", p["count"])}))
    return out


def tiebreak(largest: int) -> tuple[TieBreak, ...]:
    """Rules §6.4: the largest single territory, then shared."""
    return (TieBreak("largest_territory", LARGEST, largest,
                     {"squares": largest, "square_count": squares_said(largest)}),)


def side_breakdown(state: QueendominoState, side: int, cells: bool = True) -> dict[str, Any]:
    """One kingdom's final scoring explained (a player's, or a team's)."""
    tiles = state.cfg.tiles
    built = [(tiles[t - 1], cell) for t, cell in state.built[side]]
    return side_result(
        state.kingdoms[side], built, state.coins[side], state.towers[side],
        state.knights[side] + state.knight_cells[side].bit_count(), state.queen == side, cells,
    )


def side_result(
    k: list[int], built: list[tuple[Building, int]], coins: int, towers: int, knights: int,
    queen: bool, cells: bool = True,
) -> dict[str, Any]:
    """``breakdown`` with the crowns that buildings bring worked out from ``built``."""
    crowned = 0
    for tile, cell in built:
        if tile.crowns:
            crowned |= 1 << cell
    return breakdown(k, built, coins, towers, knights, queen, crowned, cells)


def scores_now(state: QueendominoState) -> tuple[tuple[int, ...], float]:
    """Each seat's score now (partners share their side's) and the scale the RL rewards
    measure it against (100): the outcome's scores once the match is over
    (``GameEntry.rl_score``; ``ludoteca/rl/rewards.py``)."""
    cfg = state.cfg
    per_side = [int(side_breakdown(state, side, False)["total"]) for side in range(cfg.sides)]
    return tuple(per_side[side] for side in cfg.side_of), 100.0
