"""One test per ruling of rules/queendomino.md "Rulings on points the rulebook leaves open"."""

from __future__ import annotations

import pytest

from ludoteca.engine.errors import IllegalAction
from ludoteca.games.kingdomino.grid import cell_of
from ludoteca.games.queendomino import scoring
from ludoteca.games.queendomino.actions import Build, Claim, Knight, Place
from ludoteca.games.queendomino.rules import GAME, build_price, gain_towers
from ludoteca.games.queendomino.state import OVER


def first_claim(s, seat):
    return next(a for a in GAME.legal_actions(s, seat) if isinstance(a, Claim))


def test_ruling_1_one_building_per_turn_two_per_round_with_two_players(q) -> None:
    """rules/queendomino.md Rulings 1: at most one building per turn; with 2 players that is one
    per king-turn, so two per round."""
    s = q.started(2, seed=11)
    seat = q.seat_of(s)
    s.coins[seat] = 20
    q.set_domino(s, 46)
    GAME.apply(s, seat, Place(1, 0, "E"))
    GAME.apply(s, seat, Build(0, 1, 0))
    with pytest.raises(IllegalAction, match="one building per turn"):
        GAME.apply(s, seat, Build(1, 2, 0))
    GAME.apply(s, seat, first_claim(s, seat))
    while q.seat_of(s) != seat:
        q.end_turn(s)
    q.set_domino(s, 47)
    GAME.apply(s, seat, Place(1, 1, "E"))
    GAME.apply(s, seat, Build(1, 2, 0))
    assert len(s.built[seat]) == 2 and s.round == 1


def test_ruling_2_queen_discount_floor(q) -> None:
    """rules/queendomino.md Rulings 2: the host's discount never makes a price negative."""
    s = q.started(4, seed=2)
    s.queen = 1
    assert [build_price(s, 1, p) for p in range(6)] == [0, 0, 1, 2, 3, 4]
    assert [build_price(s, 0, p) for p in range(6)] == [0, 1, 2, 3, 4, 5]


def test_ruling_3_queen_bonus_is_the_largest_size(q) -> None:
    """rules/queendomino.md Rulings 3: host bonus = size of the host's largest territory; tied
    largest territories score the same whichever holds her."""
    k = q.paint("w1 w1 C l2 l")
    with_queen = scoring.breakdown(k, [], 0, 0, 0, queen=True)
    assert with_queen["queen"]["points"] == 2
    assert with_queen["total"] == scoring.breakdown(k, [], 0, 0, 0, queen=False)["total"] + 2


def test_ruling_4_queen_goes_to_who_reaches_a_tie(q) -> None:
    """rules/queendomino.md Rulings 4: checked only when someone gains towers; reaching a tie
    takes her; trailing does not."""
    s = q.started(3, seed=2)
    gain_towers(s, 0, 2)
    gain_towers(s, 1, 1)
    assert s.queen == 0
    gain_towers(s, 1, 1)
    assert s.queen == 1


def test_ruling_5_two_knights_one_territory(q) -> None:
    """rules/queendomino.md Rulings 5: two knights on one territory (a double domino) each
    collect its full size."""
    s = q.started(4, seed=2)
    seat = q.seat_of(s)
    s.knights[seat] = 2
    q.set_domino(s, 3)  # forest / forest
    GAME.apply(s, seat, Place(1, 0, "E"))
    GAME.apply(s, seat, Knight(1, 0))
    GAME.apply(s, seat, Knight(2, 0))
    assert s.coins[seat] == 7 + 2 + 2


def test_ruling_6_tax_counts_squares_and_town_knights_can_be_built_on(q, kingdom) -> None:
    """rules/queendomino.md Rulings 6: tax is squares, never crowns; a knight on a town square
    collects the town's size, built and empty squares alike; a town square holding a knight can
    still be built on."""
    s = q.started(4, seed=2)
    seat = q.seat_of(s)
    s.kingdoms[seat] = kingdom("t t\n. C")
    s.built[seat] = [(15, cell_of(-1, -1))]
    s.built_cells[seat] = 1 << cell_of(-1, -1)
    q.set_domino(s, 45)  # mine 3 crowns / town
    GAME.apply(s, seat, Place(1, 0, "N"))  # mine (1, 0), town (1, -1) joins the town
    GAME.apply(s, seat, Knight(1, -1))
    assert s.coins[seat] == 7 + 3
    GAME.apply(s, seat, Build(0, 1, -1))
    assert s.built_cells[seat] >> cell_of(1, -1) & 1


def test_ruling_7_no_crowns_tie_break(q) -> None:
    """rules/queendomino.md Rulings 7: after the total and the largest territory the players
    share the victory; crowns are not a further tie-break (unlike Kingdomino)."""
    s = q.started(2, seed=3)
    while s.phase != OVER:
        q.end_turn(s)
    s.kingdoms[0] = q.paint("g2 g C")  # 4 points, largest 2, 2 crowns
    s.kingdoms[1] = q.paint("w1 w C\nf1 f .")
    for seat in (0, 1):
        s.built[seat], s.coins[seat], s.queen = [], 0, -1
    out = GAME.outcome(s)
    assert out is not None and out.scores == (4, 4) and out.ranks == (1, 1)


def test_ruling_8_refill_after_every_king_turn_with_two_players(q) -> None:
    """rules/queendomino.md Rulings 8: with 2 players the slide and refill come after all four
    king-turns, never in between."""
    s = q.started(2, seed=5)
    s.board[4] = 0
    for _ in range(3):
        q.end_turn(s)
        assert s.board[4] == 0
    q.end_turn(s)
    assert 0 not in s.board and s.round == 2


def test_ruling_9_six_buildings_with_two_players() -> None:
    """rules/queendomino.md Rulings 9: 6 buildings on the board in a 2-player game."""
    s = GAME.setup({}, 2, 1)
    assert len(s.board) == 6 and 0 not in s.board
