"""Scoring tests: rules/queendomino.md "End-of-game scoring" 0-4 and the rulebook's example."""

from __future__ import annotations

import json

from ludoteca.games.kingdomino.grid import cell_of
from ludoteca.games.queendomino import scoring
from ludoteca.games.queendomino.buildings import default_buildings
from ludoteca.games.queendomino.rules import GAME, build, seat_breakdown
from ludoteca.games.queendomino.state import OVER

TILES = default_buildings()
SAWMILL, CHURCH, STATUE, GUARDTOWER, BIG_TAVERN = 3, 13, 15, 18, 22
TRAINING_CAMP, TRAVELLING_CASTLE, QUEENS_TOWER, BAKERY = 26, 28, 30, 1

# The rulebook's 71-point kingdom (SOURCES.md §5): 5×5 with the castle in the middle.
EXAMPLE = """
g1 g1 w1 w  w
g1 g  t  f1 f
t  t  C  l2 l
m2 m1 f1 l  t
m1 s1 t  f  t
"""
EXAMPLE_BUILDINGS = [
    (SAWMILL, (0, -1)), (TRAVELLING_CASTLE, (-2, 0)), (CHURCH, (-1, 0)),
    (BIG_TAVERN, (0, 2)), (STATUE, (2, 1)), (GUARDTOWER, (2, 2)),
]


def finished(q, players: int = 4):
    s = q.started(players, seed=3)
    while s.phase != OVER:
        q.end_turn(s)
    for seat in range(players):
        s.kingdoms[seat] = q.paint("C")
        s.built[seat], s.built_cells[seat] = [], 0
        s.coins[seat] = s.towers[seat] = s.knights[seat] = s.knight_cells[seat] = 0
    s.queen = -1
    return s


def test_rulebook_example_scores_71(q) -> None:
    """rules/queendomino.md End-of-game scoring, rulebook worked example: 11 coins → 3; fields 3,
    forests 2+1, lakes 6, grassland 4×(3 + Queen) = 16, swamp 1, mines 12, towns 0; Sawmill 6,
    Travelling Castle 3, Church 8, Big Tavern 2, Statue 5, Guardtower 3: total 71."""
    k = q.paint(EXAMPLE)
    built = [(TILES[t - 1], cell_of(x, y)) for t, (x, y) in EXAMPLE_BUILDINGS]
    b = scoring.breakdown(k, built, coins=11, towers=3, knights=1, queen=True)
    assert b["wealth"] == {"coins": 11, "points": 3}
    by_terrain: dict[str, list[int]] = {}
    for tr in b["territories"]:
        by_terrain.setdefault(tr["terrain"], []).append(tr["points"])
    assert sorted(by_terrain["wheat"]) == [3]
    assert sorted(by_terrain["forest"]) == [0, 1, 2]
    assert by_terrain["lake"] == [6]
    assert by_terrain["grassland"] == [16]
    assert by_terrain["swamp"] == [1]
    assert by_terrain["mine"] == [12]
    assert by_terrain["town"] == [0, 0, 0, 0]
    queen = [tr for tr in b["territories"] if tr["queen"]]
    assert len(queen) == 1 and queen[0]["terrain"] == "grassland" and queen[0]["crowns"] == 3
    assert b["queen"] == {"hosted": True, "points": 4}
    assert b["territory_points"] == 3 + 3 + 6 + 16 + 1 + 12
    points = {x["name"]: x["points"] for x in b["buildings"]}
    assert points == {"Sawmill": 6, "Travelling Castle": 3, "Church": 8, "Big Tavern": 2,
                      "Statue": 5, "Guardtower": 3}
    assert b["total"] == 71
    assert scoring.score(k, [t for t, _ in built], 11, 3, 1, True) == 71
    json.dumps(b)


def test_rulebook_example_through_the_game(q) -> None:
    """rules/queendomino.md End-of-game scoring 4: the outcome adds wealth, territories (with the
    Queen) and buildings, and explains each; the example kingdom totals 71 as a seat's result."""
    s = finished(q, 2)
    s.kingdoms[0] = q.paint(EXAMPLE)
    s.built[0] = [(t, cell_of(x, y)) for t, (x, y) in EXAMPLE_BUILDINGS]
    s.coins[0], s.towers[0], s.knights[0], s.queen = 11, 3, 1, 0
    out = GAME.outcome(s)
    assert out is not None and out.scores[0] == 71 and out.ranks == (1, 2)
    assert out.breakdown[0]["largest_territory"] == 4 and out.tiebreaks[0] == (4,)
    assert GAME.view(s, 1)["kingdoms"][0]["score"] == 71


def test_wealth_rounds_down() -> None:
    """rules/queendomino.md End-of-game scoring 1: 1 point per 3 unused coins, rounded down."""
    assert [scoring.wealth_points(c) for c in (0, 2, 3, 5, 6, 11, 14)] == [0, 0, 1, 1, 2, 3, 4]


def test_territories_towns_and_building_crowns(q) -> None:
    """rules/queendomino.md End-of-game scoring 2: all 7 terrains count, towns included, the
    castle not; a town counts all its squares, built or not; crowns come from dominoes,
    crowned buildings (towns only) and the Queen; territories score separately; no crown, 0."""
    s = finished(q, 2)
    s.kingdoms[0] = q.paint("t t t C w1\n. . . w w\nt . . . w1")
    s.board[0] = QUEENS_TOWER
    build(s, 0, 0, cell_of(-2, 0))
    b = seat_breakdown(s, 0)
    towns = sorted((tr["squares"], tr["crowns"], tr["points"], tr["building_crowns"])
                   for tr in b["territories"] if tr["terrain"] == "town")
    assert towns == [(1, 0, 0, 0), (3, 1, 3, 1)]
    wheat = [tr for tr in b["territories"] if tr["terrain"] == "wheat"]
    assert s.towers[0] == 1 and s.queen == 0  # the Queen's Tower brought her
    assert len(wheat) == 1 and wheat[0]["queen"] and wheat[0]["points"] == 4 * (2 + 1)
    assert b["territory_points"] == 3 + 12
    empty = scoring.breakdown(q.paint("C"), [], 0, 0, 0, queen=True)
    assert empty["territories"] == [] and empty["total"] == 0 and empty["largest_territory"] == 0


def test_building_symbols(q) -> None:
    """rules/queendomino.md End-of-game scoring 3: fixed points; '2 / cross' per separate
    territory of that terrain whatever its size or crowns; 1 per tower; 1 per knight owned,
    placed or not; each building scores its own symbol."""
    s = finished(q, 2)
    s.kingdoms[0] = q.paint("w . w\nt C t\nw t .")
    s.built[0] = [(BAKERY, cell_of(-1, 0)), (2, cell_of(1, 0)), (TRAINING_CAMP, cell_of(0, 1)),
                  (TRAVELLING_CASTLE, cell_of(-1, 0)), (STATUE, cell_of(-1, 0))]
    s.towers[0] = 4
    s.knights[0] = 2
    s.knight_cells[0] = (1 << cell_of(1, -1)) | (1 << cell_of(-1, -1)) | (1 << cell_of(-1, 1))
    b = seat_breakdown(s, 0)
    points = [x["points"] for x in b["buildings"]]
    assert points == [2 * 3, 2 * 3, 5, 4, 5]
    assert b["buildings"][2]["parts"] == [{"kind": "per_knight", "count": 5, "each": 1,
                                           "points": 5}]
    assert b["building_points"] == 26 and b["knights"] == 5


def test_queen_crown_on_the_largest_territory(q) -> None:
    """rules/queendomino.md End-of-game scoring 0: the host's Queen is one extra crown on their
    largest territory, towns counting; SOURCES.md §7.5.3: on a tie any choice scores the same,
    so the bonus is the size of the largest territory."""
    k = q.paint("t t t C\nw1 w1 w .")
    hosted = scoring.breakdown(k, [], 0, 0, 0, queen=True)
    plain = scoring.breakdown(k, [], 0, 0, 0, queen=False)
    assert hosted["total"] - plain["total"] == 3 and hosted["queen"]["points"] == 3
    tie = q.paint("t t C\nw1 w .")
    assert (scoring.breakdown(tie, [], 0, 0, 0, queen=True)["total"]
            - scoring.breakdown(tie, [], 0, 0, 0, queen=False)["total"]) == 2


def test_tie_break_largest_territory_then_shared(q) -> None:
    """rules/queendomino.md End-of-game scoring 4 (SOURCES.md §7.5.7): the highest total wins; on
    a tie the larger single territory wins (any terrain, towns too); still tied, they share."""
    s = finished(q, 4)
    s.kingdoms[0] = q.paint("g1 g C")
    s.kingdoms[1] = q.paint("w1 C")
    s.coins[1] = 3
    s.kingdoms[2] = q.paint("t t C\n. . w1")
    s.kingdoms[3] = q.paint("t C")
    out = GAME.outcome(s)
    assert out is not None
    assert out.scores == (2, 2, 1, 0)
    s.coins[2] = 3
    out = GAME.outcome(s)
    assert out is not None and out.scores == (2, 2, 2, 0)
    assert out.tiebreaks == ((2,), (1,), (2,), (1,))
    assert out.ranks == (1, 3, 1, 4) and out.winners == (0, 2)


def test_rulebook_example_as_parts(q) -> None:
    """rules/queendomino.md End-of-game scoring 0-4, the rulebook worked example as the engine's
    parts: wealth 11 coins → 3 (§6.1); the Queen's crown apart, +4 on the 4-square grassland
    (§6.0); grassland 4 × 3 crowns = 12 (§6.2); Sawmill 3 forest territories × 2 = 6 and
    Church 4 town territories × 2 = 8 (§6.3); they add up to 71. Said in Spanish."""
    from ludoteca.engine.parts import render_parts

    k = q.paint(EXAMPLE)
    built = [(TILES[t - 1], cell_of(x, y)) for t, (x, y) in EXAMPLE_BUILDINGS]
    parts = scoring.parts(scoring.breakdown(k, built, coins=11, towers=3, knights=1, queen=True))
    by_id: dict[str, list[tuple[int, dict[str, object]]]] = {}
    for p in parts:  # the numbers (the *_count args say them in words: "11 coins")
        numbers = {k: v for k, v in p.args.items() if not k.endswith("_count")}
        by_id.setdefault(p.id, []).append((p.points, numbers))
    assert by_id["wealth"] == [(3, {"coins": 11})]
    assert by_id["queen"] == [(4, {"terrain": {"msg": "grassland"}, "squares": 4})]
    assert (12, {"terrain": {"msg": "grassland"}, "squares": 4, "crowns": 3}) in by_id["territory"]
    assert (6, {"building": {"msg": "Sawmill"}, "count": 3, "terrain": {"msg": "forest"},
                "each": 2}) in by_id["building"]
    assert (8, {"building": {"msg": "Church"}, "count": 4, "terrain": {"msg": "town"},
                "each": 2}) in by_id["building"]
    assert sum(p.points for p in parts) == 71
    said = [p["text"] for p in render_parts([p.to_json() for p in parts], GAME.voice("es"))]
    assert "Aserradero: 3 territorios de bosque × 2" in said
    assert "Riqueza: 11 monedas, 1 punto por cada 3" in said


def test_team_partners_share_their_kingdoms_parts(q) -> None:
    """rules/queendomino.md §7.6 and ruling 10: with teams, seats s and s + n/2 form a side;
    the outcome says so and gives both partners their team kingdom's parts."""
    s = q.started(6, seed=2, teams=True)
    while s.phase != OVER:
        q.end_turn(s)
    out = GAME.outcome(s)
    assert out is not None and out.teams == ((0, 3), (1, 4), (2, 5))
    for a, b in out.teams:
        assert out.parts[a] == out.parts[b] and out.scores[a] == out.scores[b]
        assert sum(p.points for p in out.parts[a]) == out.scores[a]
