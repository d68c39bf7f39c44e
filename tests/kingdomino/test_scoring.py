"""Scoring, bonuses, end of game, tie-breaks and Dynasty (``rules/kingdomino.md`` §5–§7)."""

from __future__ import annotations

from collections import Counter

import pytest

from ludoteca.engine.rng import Rng
from ludoteca.games.kingdomino import scoring
from ludoteca.games.kingdomino.actions import Discard, Place
from ludoteca.games.kingdomino.components import TERRAINS
from ludoteca.games.kingdomino.rules import GAME, Kingdomino, final_outcome
from ludoteca.games.kingdomino.state import OVER, KingdominoState

SAMPLE_5X5 = """
    w1 w0 w0 f0 f1
    g2 g0 C  f0 f0
    g0 s1 s0 m2 m0
    l1 l0 l0 l0 m3
    .  .  w0 w0 w0
"""

SAMPLE_7X7 = """
    f1 f0 f0 f0 f0 f0 f0
    f0 l0 l0 l0 l0 l0 f0
    f0 l2 w0 w0 w0 l0 f0
    f0 l0 w1 C  w0 l0 f0
    f0 l0 w0 w0 w0 l0 f0
    f0 l0 l0 l0 l0 l1 f0
    f0 f0 f0 f0 f0 f0 m3
"""


def territories(k: list[int]) -> list[tuple[str, int, int, int]]:
    b = scoring.breakdown(k, 5, False, False, TERRAINS)
    return sorted((t["terrain"], t["squares"], t["crowns"], t["points"]) for t in b["territories"])


def test_territory_scoring_on_a_hand_built_kingdom(kingdom) -> None:
    """rules/kingdomino.md §5: a territory is a maximal orthogonally connected group of one
    terrain; it scores squares × crowns; no crown scores 0; two separate wheat fields score
    separately."""
    k = kingdom(SAMPLE_5X5)
    assert territories(k) == [
        ("forest", 4, 1, 4),
        ("grassland", 3, 2, 6),
        ("lake", 4, 1, 4),
        ("mine", 3, 5, 15),
        ("swamp", 2, 1, 2),
        ("wheat", 3, 0, 0),
        ("wheat", 3, 1, 3),
    ]
    assert scoring.territory_points(k) == 34
    assert scoring.largest_territory(k) == 4
    assert scoring.total_crowns(k) == 11
    b = scoring.breakdown(k, 5, True, True, TERRAINS)
    assert b["total"] == 34
    assert [x["earned"] for x in b["bonuses"]] == [False, False]
    assert sum(t["points"] for t in b["territories"]) + sum(x["points"] for x in b["bonuses"]) == 34


def test_diagonal_squares_are_not_connected(kingdom) -> None:
    """rules/kingdomino.md §5: territories connect orthogonally only."""
    k = kingdom("""
        w1 f0
        f0 w1
        C  .
    """)
    assert territories(k) == [
        ("forest", 1, 0, 0),
        ("forest", 1, 0, 0),
        ("wheat", 1, 1, 1),
        ("wheat", 1, 1, 1),
    ]
    assert scoring.territory_points(k) == 2


def test_scoring_a_7x7_kingdom_with_both_bonuses(kingdom) -> None:
    """rules/kingdomino.md §5 on a 7×7 (Mighty Duel) kingdom: a forest ring of 23 with 1 crown,
    a lake ring of 16 with 3, wheat 8 with 1, one mine with 3 = 82; Harmony +5 (complete 7×7)
    and Middle Kingdom +10 (castle at the centre) = 97."""
    k = kingdom(SAMPLE_7X7)
    assert scoring.territory_points(k) == 23 + 48 + 8 + 3
    assert scoring.score(k, 7, True, True) == 97
    assert scoring.score(k, 7, False, True) == 92
    assert scoring.largest_territory(k) == 23
    assert scoring.total_crowns(k) == 8


def test_harmony_needs_every_square_filled(kingdom) -> None:
    """rules/kingdomino.md §5 Harmony: +5 only for a complete 5×5 with no empty square."""
    full = kingdom("""
        w0 w0 w0 w0 w0
        w0 w0 w0 w0 w0
        w0 w0 w0 w0 C
        w0 w0 w0 w0 w1
        w0 w0 w0 w0 w0
    """)
    assert scoring.territory_points(full) == 24
    assert scoring.score(full, 5, True, False) == 29
    gap = kingdom("""
        w0 w0 w0 w0 w0
        w0 w0 w0 w0 w0
        w0 w0 w0 w0 C
        w0 w0 w0 w0 w1
        w0 w0 w0 w0 .
    """)
    assert scoring.score(gap, 5, True, False) == 23
    assert scoring.score(full, 7, True, False) == 24  # 5×5 is not complete in a 7×7 game


def test_middle_kingdom_with_gaps_and_off_centre(kingdom) -> None:
    """rules/kingdomino.md §5 Middle Kingdom: +10 when the castle is at the exact centre of a
    full-size frame, gaps allowed; nothing when off centre or when the frame is smaller."""
    cross = kingdom("""
        .  .  w0 .  .
        .  .  w0 .  .
        w0 w0 C  w0 w0
        .  .  w0 .  .
        .  .  w0 .  .
    """)
    assert scoring.score(cross, 5, False, True) == 10
    assert scoring.score(cross, 5, True, True) == 10  # not complete: no Harmony
    small = kingdom("""
        w0 w0 w0
        w0 C  w0
        w0 w0 w0
    """)
    assert scoring.score(small, 5, False, True) == 0
    off = kingdom("""
        .  .  w0 .  .
        .  .  C  .  .
        w0 w0 w0 w0 w0
        .  .  w0 .  .
        .  .  w0 .  .
    """)
    assert scoring.score(off, 5, False, True) == 0


def finished(game: Kingdomino, players: int, options: dict[str, object], seed: int = 0):
    s = game.setup(options, players, seed)
    rng = Rng(seed)
    while s.phase != OVER:
        (seat,) = game.to_act(s)
        legal = game.legal_actions(s, seat)
        game.apply(s, seat, legal[rng.below(len(legal))])
    return s


def with_kingdoms(s: KingdominoState, kingdoms: list[list[int]]) -> KingdominoState:
    s = s.clone()
    s.kingdoms = kingdoms
    return s


def test_tie_break_largest_territory_then_crowns(game: Kingdomino, kingdom) -> None:
    """rules/kingdomino.md §6.2: highest score wins; a tie goes to the largest territory, then
    the most crowns, then the tied players share the victory."""
    s = finished(game, 3, {})
    a = kingdom("C w1 w1 w1")  # 9 points, largest 3, 3 crowns
    b = kingdom("C f3 f0 f0")  # 9 points, largest 3, 3 crowns
    c = kingdom("C l1 l0 l0 l0")  # 4 points, largest 4
    out = final_outcome(with_kingdoms(s, [a, b, c]))
    assert out.scores == (9, 9, 4)
    assert out.ranks == (1, 1, 3)  # same largest territory and crowns: shared
    e = kingdom("""
        C  w1 w1 w1
        .  .  .  .
        g0 g0 g0 g0
    """)  # 9 points, largest 4, 3 crowns
    out = final_outcome(with_kingdoms(s, [a, e, c]))
    assert out.scores == (9, 9, 4)
    assert out.tiebreaks[0] == (3, 3) and out.tiebreaks[1] == (4, 3)
    assert out.ranks == (2, 1, 3)
    f = kingdom("C w1 w2")  # 6 points, largest 2, 3 crowns
    i = kingdom("""
        C  w1 w0 .  f1
        l1 .  s1 .  m1
    """)  # 2 + 1 + 1 + 1 + 1 = 6 points, largest 2, 5 crowns
    out = final_outcome(with_kingdoms(s, [f, c, i]))
    assert out.scores == (6, 4, 6)
    assert out.tiebreaks[0] == (2, 3) and out.tiebreaks[2] == (2, 5)
    assert out.ranks == (2, 3, 1)  # same score and largest territory: more crowns wins


def test_bga_tie_break_stops_after_largest_territory(game: Kingdomino, kingdom) -> None:
    """rules/kingdomino.md §9.2: with tiebreak=bga, equal largest territories share the win
    even when crowns differ."""
    s = finished(game, 2, {"tiebreak": "bga"})
    f = kingdom("C w1 w2")  # 6 points, largest 2, crowns 3
    i = kingdom("""
        C  w1 w0 .  f1
        l1 .  s1 .  m1
    """)  # 6 points, largest 2, crowns 5
    out = final_outcome(with_kingdoms(s, [f, i]))
    assert out.scores == (6, 6)
    assert out.ranks == (1, 1)
    assert out.tiebreaks == ((2,), (2,))
    s2 = finished(game, 2, {})
    assert final_outcome(with_kingdoms(s2, [f, i])).ranks == (2, 1)


@pytest.mark.parametrize(
    ("players", "options", "rounds"),
    [
        (2, {}, 6),
        (2, {"mighty_duel": True}, 12),
        (3, {}, 12),
        (3, {"three_player_draft": "bga"}, 12),
        (4, {}, 12),
    ],
)
def test_game_ends_after_the_last_line(
    game: Kingdomino, players: int, options: dict[str, object], rounds: int
) -> None:
    """rules/kingdomino.md §6.1: 12 rounds with 3–4 players, 6 with 2, 12 in Mighty Duel; every
    king placed (or discarded) once per round."""
    s = game.setup(options, players, players)
    rng = Rng(players)
    turns: Counter[int] = Counter()
    while s.phase != OVER:
        (seat,) = game.to_act(s)
        legal = game.legal_actions(s, seat)
        action = legal[rng.below(len(legal))]
        if isinstance(action, (Place, Discard)):
            turns[seat] += 1
        game.apply(s, seat, action)
    assert s.round == rounds
    kings = 2 if players == 2 else 1
    assert turns == {seat: rounds * kings for seat in range(players)}
    assert sum(len(p) for p in s.placed) + len(s.discarded) == s.cfg.deck_size


def test_outcome_breakdown_explains_every_point(game: Kingdomino) -> None:
    """rules/kingdomino.md §5 last item: the engine reports each territory and each bonus, and
    they add up to the score."""
    for seed in range(5):
        s = finished(game, 4, {"harmony": True, "middle_kingdom": True}, seed)
        out = game.outcome(s)
        assert out is not None
        for seat, b in enumerate(out.breakdown):
            assert b["total"] == out.scores[seat]
            assert (
                sum(t["points"] for t in b["territories"]) + sum(x["points"] for x in b["bonuses"])
                == b["total"]
            )
            assert {x["name"] for x in b["bonuses"]} == {"harmony", "middle_kingdom"}
            for t in b["territories"]:
                assert t["points"] == t["squares"] * t["crowns"]
                assert len(t["cells"]) == t["squares"]


def test_dynasty_is_three_games_and_totals_decide(game: Kingdomino) -> None:
    """rules/kingdomino.md §7 Dynasty: a match of 3 consecutive games; the winner has the highest
    total; ties are broken on the sums of the tie-break values."""
    s = finished(game, 3, {"dynasty": True}, seed=8)
    assert s.game_no == 2 and len(s.past) == 2
    out = game.outcome(s)
    assert out is not None
    for seat, b in enumerate(out.breakdown):
        assert len(b["games"]) == 3
        assert b["total"] == sum(g["total"] for g in b["games"]) == out.scores[seat]
        assert out.tiebreaks[seat] == (
            sum(g["largest_territory"] for g in b["games"]),
            sum(g["crowns"] for g in b["games"]),
        )
    # each game had its own deal: the three games' kingdoms differ
    firsts = [kingdoms[0] for kingdoms, _ in s.past] + [s.kingdoms[0]]
    assert len({tuple(k) for k in firsts}) == 3


def test_dynasty_ties_use_summed_tie_breaks(game: Kingdomino, kingdom) -> None:
    """rules/kingdomino.md §7 Dynasty: equal totals go to the larger sum of largest territories,
    then of crowns, then the victory is shared."""
    s = finished(game, 2, {"dynasty": True}, seed=1).clone()
    small = kingdom("C w1 w2")  # 6 points, largest 2, 3 crowns
    wide = kingdom("C w1 w1 w1")  # 9 points, largest 3, 3 crowns
    three = kingdom("C w1 w0 w0")  # 3 points, largest 3, 1 crown
    s.past = [([small, wide], s.past[0][1]), ([wide, small], s.past[1][1])]
    s.kingdoms = [three, kingdom("C w1 w0 w0")]
    out = final_outcome(s)
    assert out.scores == (18, 18)
    assert out.tiebreaks == ((8, 7), (8, 7))
    assert out.ranks == (1, 1)
    s.kingdoms = [
        three,
        kingdom("""
            C  w1 w0 w0
            .  .  .  .
            g0 g0 g0 g0
        """),
    ]  # 3 points, largest 4
    out = final_outcome(s)
    assert out.scores == (18, 18)
    assert out.tiebreaks == ((8, 7), (9, 7))
    assert out.ranks == (2, 1)


def test_score_parts_of_a_hand_built_kingdom(kingdom) -> None:
    """rules/kingdomino.md §5: the engine gives each crowned territory as a part worth squares ×
    crowns (the mines: 3 squares × 5 crowns = 15), says how many territories have no crown,
    and gives each bonus the table plays, earned or not; the parts add up to the score. §6.2:
    the tie-break values are the largest territory (4) and the crowns (11). Said in Spanish."""
    from ludoteca.engine.parts import render_parts

    k = kingdom(SAMPLE_5X5)
    b = scoring.breakdown(k, 5, True, True, TERRAINS)
    parts = scoring.parts(b)
    mine = next(p for p in parts if p.args.get("terrain") == {"msg": "mine"})
    assert (mine.id, mine.points) == ("territory", 15)
    assert (mine.args["squares"], mine.args["crowns"]) == (3, 5)
    assert sorted(p.points for p in parts if p.id == "territory") == [2, 3, 4, 4, 6, 15]
    assert [(p.id, p.points, dict(p.args)) for p in parts if p.id != "territory"] == [
        ("no_crowns", 0, {"count": 1}), ("harmony", 0, {}), ("middle_kingdom", 0, {})]
    assert sum(p.points for p in parts) == b["total"] == 34
    reasons = scoring.tiebreak(b["largest_territory"], b["crowns"], True)
    assert [(t.id, t.value) for t in reasons] == [("largest_territory", 4), ("crowns", 11)]
    said = render_parts({"parts": [p.to_json() for p in parts]}, GAME.voice("es"))["parts"]
    assert "mina: 3 casillas × 5 coronas" in [p["text"] for p in said]
    assert "Armonía: el reino no está completo" in [p["text"] for p in said]


def test_dynasty_parts_name_their_game() -> None:
    """rules/kingdomino.md §7 Dynasty: the score is the three games' total; every part says
    which game it comes from, and they add up to the total."""
    s = GAME.setup({"dynasty": True}, 2, seed=4)
    rng = Rng(4)
    while not GAME.is_over(s):
        (seat,) = GAME.to_act(s)
        legal = GAME.legal_actions(s, seat)
        GAME.apply(s, seat, legal[rng.below(len(legal))])
    out = GAME.outcome(s)
    assert out is not None
    for seat in range(2):
        assert {p.args["game"] for p in out.parts[seat]} == {1, 2, 3}
        assert sum(p.points for p in out.parts[seat]) == out.scores[seat]
