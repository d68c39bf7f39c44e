"""Rules tests: each cites the section of ``rules/queendomino.md`` (or SOURCES.md) it checks."""

from __future__ import annotations

import pytest

from ludoteca.engine.errors import IllegalAction, OptionError
from ludoteca.games.kingdomino.grid import OCC, cell_of
from ludoteca.games.queendomino.actions import (
    DISCARD,
    PASS,
    Build,
    Claim,
    Dragon,
    Knight,
    Pass,
    Place,
)
from ludoteca.games.queendomino.rules import GAME, gain_towers
from ludoteca.games.queendomino.state import BUILD, CLAIM, DRAFT, DRAGON, OVER, PLACE, PLAY, TAX

SMALL_TAVERN, BIG_TAVERN, GUARDTOWER, SAFE_TOWER, SAFE_KNIGHT = 20, 22, 18, 23, 24
TRAVELLING_CASTLE, TRAINING_CAMP, STATUE, QUEENS_TOWER = 28, 26, 15, 30
TOWN_TOWN = 46  # town / town
WHEAT_WHEAT = 1


def set_board(s, ids: list[int]) -> None:
    """Put these tiles on spaces 0-5 and keep the pile consistent (the rest, in id order)."""
    s.board = list(ids)
    s.pile = [t for t in ids if t] + [t for t in range(1, 33) if t not in ids]
    s.pile_pos = sum(1 for t in ids if t)


def town_turn(q, s, n: int = TOWN_TOWN, x: int = 1, y: int = 0, d: str = "E") -> int:
    """The acting seat places domino ``n`` at (x, y) facing d; returns the seat."""
    seat = q.seat_of(s)
    q.set_domino(s, n)
    GAME.apply(s, seat, Place(x, y, d))
    return seat


def refused(s, seat, action, words: str) -> None:
    before = s.clone()
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, seat, action)
    assert words in str(err.value)
    assert s == before


# ---- Setup ---------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_components(players: int) -> None:
    """rules/queendomino.md Setup: all 48 dominoes, 12 rounds, 5×5 (7×7 with 2 players and 2
    kings each), lines of 4, 6 buildings on the board from a shuffled pile, Dragon in its cave,
    nobody hosts the Queen, 7 coins and 1 knight each."""
    s = GAME.setup({}, players, 7)
    assert sorted(s.deck) == list(range(1, 49))
    assert s.cfg.rounds == 12 and s.cfg.line_size == 4 and len(s.nxt) == 4
    assert s.cfg.frame == (7 if players == 2 else 5)
    assert len(s.draft_order) == (4 if players == 2 else players)
    assert len(set(s.board)) == 6 and 0 not in s.board
    assert len(s.pile) - s.pile_pos == 26 and sorted(s.pile) == list(range(1, 33))
    assert s.dragon == -1 and s.queen == -1
    assert s.coins == [7] * players and s.knights == [1] * players and s.towers == [0] * players
    v = GAME.view(s, 0)
    assert v["queen"] is None and v["dragon"] is None and v["building_pile"] == 26


def test_setup_board_is_shuffled() -> None:
    """rules/queendomino.md Setup: the building tiles are shuffled before filling the board."""
    boards = {tuple(GAME.setup({}, 4, seed).board) for seed in range(20)}
    assert len(boards) > 15


def test_first_draft_two_players_is_abba() -> None:
    """rules/queendomino.md Setup (first draft, seed 002 Paso 2): with 2 players one player places
    a king, the other both of theirs, then the first their second (A, B, B, A)."""
    firsts = set()
    for seed in range(10):
        s = GAME.setup({}, 2, seed)
        a, b = s.draft_order[0], 1 - s.draft_order[0]
        assert s.draft_order == [a, b, b, a]
        firsts.add(a)
        for seat in s.draft_order:
            assert GAME.to_act(s) == {seat}
            GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    assert firsts == {0, 1}


def test_first_draft_three_four_players_random_order() -> None:
    """rules/queendomino.md Setup (first draft): with 3-4 players the kings are drawn at random
    one at a time and each claims a domino in that order."""
    orders = set()
    for seed in range(20):
        s = GAME.setup({}, 4, seed)
        assert sorted(s.draft_order) == [0, 1, 2, 3]
        orders.add(tuple(s.draft_order))
        for seat in s.draft_order:
            assert GAME.to_act(s) == {seat}
            assert all(isinstance(a, Claim) for a in GAME.legal_actions(s, seat))
            GAME.apply(s, seat, GAME.legal_actions(s, seat)[-1])
        assert s.phase == PLAY and s.round == 1
    assert len(orders) > 10


def test_three_players_discard_the_unclaimed_domino(q) -> None:
    """rules/queendomino.md Setup: with 3 players the domino nobody picked is discarded each
    round."""
    s = GAME.setup({}, 3, 5)
    line = list(s.nxt)
    while s.phase == DRAFT:
        seat = q.seat_of(s)
        GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    assert s.discarded == [line[3]] and s.cur_owner[3] == -1
    q.finish_round(s)
    assert len(s.discarded) >= 2
    while not GAME.is_over(s):
        q.end_turn(s)
    assert s.round == 12
    placed = sum(len(p) for p in s.placed)
    assert placed + len(s.discarded) == 48 and len(s.discarded) >= 12


# ---- Turn ----------------------------------------------------------------------------------
def test_kings_act_in_line_order(q) -> None:
    """rules/queendomino.md Turn: players act in the order of their kings on the current line,
    lowest number first."""
    s = q.started(4, seed=3)
    assert s.cur == sorted(s.cur)
    order = []
    while s.round == 1:
        order.append(q.seat_of(s))
        q.end_turn(s)
    assert order == s_owner_order(GAME.setup({}, 4, 3), q)


def s_owner_order(s, q) -> list[int]:
    while s.phase == DRAFT:
        seat = q.seat_of(s)
        GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    return list(s.cur_owner)


def test_two_players_take_a_full_turn_per_king(q) -> None:
    """rules/queendomino.md Turn: with 2 players each player takes a full turn (A-E) for each of
    their two kings; kingdoms are 7×7."""
    s = q.started(2, seed=4)
    assert sorted(s.cur_owner) == [0, 0, 1, 1]
    for slot in range(4):
        assert s.acting == slot and q.seat_of(s) == s.cur_owner[slot]
        q.end_turn(s)
    assert s.round == 2
    assert s.cfg.frame == 7


def test_step_a_place_or_discard_only_when_unplaceable(q, kingdom) -> None:
    """rules/queendomino.md Turn A: the domino is placed as in Kingdomino; it is discarded only if
    it cannot be placed; nothing else may be done first."""
    s = q.started(4, seed=2)
    seat = q.seat_of(s)
    q.set_domino(s, TOWN_TOWN)
    refused(s, seat, DISCARD, "can be placed")
    refused(s, seat, Claim(s.nxt[0]), "place domino 46 first")
    refused(s, seat, Place(2, 0, "E"), "touches neither the castle")
    full = kingdom("\n".join(" ".join("C" if (x, y) == (2, 2) else "w" for x in range(5))
                             for y in range(5)))
    assert full[OCC].bit_count() == 25
    s.kingdoms[seat] = full
    assert GAME.legal_actions(s, seat) == [DISCARD]
    GAME.apply(s, seat, DISCARD)
    assert s.discarded[-1] == TOWN_TOWN and s.step == TAX
    assert not any(isinstance(a, Knight) for a in GAME.legal_actions(s, seat))
    refused(s, seat, Knight(1, 0), "no domino was placed")


def test_step_b_knight_collects_territory_size(q) -> None:
    """rules/queendomino.md Turn B: each knight earns coins equal to the squares of the territory
    it stands on, counted after placing; it may join a territory that has knights; placed
    knights stay put (SOURCES.md §7.5.6: squares, never crowns)."""
    s = q.started(4, seed=2)
    seat = town_turn(q, s)
    assert s.step == TAX
    GAME.apply(s, seat, Knight(1, 0))
    assert s.coins[seat] == 7 + 2 and s.knights[seat] == 0
    q.end_turn(s)
    while q.seat_of(s) != seat:
        q.end_turn(s)
    s.knights[seat] = 1
    q.set_domino(s, 45)  # mine 3 crowns + town: crowns never pay tax
    GAME.apply(s, seat, Place(1, 1, "E"))  # mine (1,1), town (2,1) joins the town of 2
    GAME.apply(s, seat, Knight(2, 1))
    assert s.coins[seat] == 9 + 3
    assert s.knight_cells[seat] == (1 << cell_of(1, 0)) | (1 << cell_of(2, 1))


def test_step_b_two_knights_third_refused(q) -> None:
    """rules/queendomino.md Turn B: 0, 1 or 2 knights, at most one per square of the new domino;
    SOURCES.md §7.5.5: both collect the full size of a shared territory."""
    s = q.started(4, seed=2)
    seat = town_turn(q, s)
    s.knights[seat] = 3
    GAME.apply(s, seat, Knight(1, 0))
    refused(s, seat, Knight(1, 0), "already has a knight")
    GAME.apply(s, seat, Knight(2, 0))
    assert s.coins[seat] == 7 + 2 + 2
    refused(s, seat, Knight(1, 0), "at most 2")
    assert not any(isinstance(a, Knight) for a in GAME.legal_actions(s, seat))


def test_step_b_knight_only_on_the_new_domino(q) -> None:
    """rules/queendomino.md Turn B: knights go on the domino just placed, not on a square of an
    older domino nor the castle."""
    s = q.started(4, seed=2)
    seat = town_turn(q, s)
    q.end_turn(s)
    while q.seat_of(s) != seat:
        q.end_turn(s)
    q.set_domino(s, WHEAT_WHEAT)
    GAME.apply(s, seat, Place(-1, 0, "W"))
    refused(s, seat, Knight(1, 0), "not a square of the domino just placed")
    refused(s, seat, Knight(0, 0), "not a square of the domino just placed")
    legal = [a for a in GAME.legal_actions(s, seat) if isinstance(a, Knight)]
    assert sorted((a.x, a.y) for a in legal) == [(-2, 0), (-1, 0)]


def test_step_b_needs_an_unplaced_knight(q) -> None:
    """rules/queendomino.md Turn B: only unplaced knights can be put on the domino."""
    s = q.started(4, seed=2)
    seat = town_turn(q, s)
    s.knights[seat] = 0
    refused(s, seat, Knight(1, 0), "no unplaced knight")


@pytest.mark.parametrize(("tax_bonus", "expected"), [("per_knight", 2 * (2 + 1 + 2)),
                                                      ("per_turn", 2 * 2 + 1 + 2)])
def test_step_b_ongoing_building_bonus(q, tax_bonus: str, expected: int) -> None:
    """rules/queendomino.md Turn B: '+coin/knight' pays 1 per knight owned (placed and unplaced)
    and '+coin/tower' 1 per tower each time you collect tax; SOURCES.md §7.5.5: default per
    knight, option once per turn."""
    s = q.started(4, seed=2, tax_bonus=tax_bonus)
    seat = town_turn(q, s)
    s.built[seat] = [(SAFE_KNIGHT, cell_of(5, 5)), (SAFE_TOWER, cell_of(5, 4))]
    s.knights[seat] = 2
    s.towers[seat] = 1
    GAME.apply(s, seat, Knight(1, 0))  # 2 squares + 2 knights + 1 tower
    GAME.apply(s, seat, Knight(2, 0))
    assert s.coins[seat] == 7 + expected


def test_knights_gained_usable_from_next_turn_two_players(q) -> None:
    """rules/queendomino.md Turn B: knights gained this turn can be used from your next turn;
    SOURCES.md §7.5.5: with 2 players that includes your other king's turn in the same round."""
    s = q.started(2, seed=11)
    seat = q.seat_of(s)
    assert s.cur_owner.count(seat) == 2
    set_board(s, [SMALL_TAVERN, 2, 3, 4, 5, 6])
    q.set_domino(s, TOWN_TOWN)
    GAME.apply(s, seat, Place(1, 0, "E"))
    GAME.apply(s, seat, Build(0, 1, 0))
    assert s.knights[seat] == 3
    refused(s, seat, Knight(2, 0), "step B")
    GAME.apply(s, seat, next(a for a in GAME.legal_actions(s, seat) if isinstance(a, Claim)))
    while q.seat_of(s) != seat:
        q.end_turn(s)
    assert s.round == 1
    q.set_domino(s, TOWN_TOWN)
    GAME.apply(s, seat, Place(1, 1, "E"))
    GAME.apply(s, seat, Knight(1, 1))
    GAME.apply(s, seat, Knight(2, 1))
    assert s.knights[seat] == 1


def test_step_c_build(q) -> None:
    """rules/queendomino.md Turn C: take a board tile, pay its space's price, put it on a free
    town square, take its immediate knights/towers; the space stays empty until the round ends."""
    s = q.started(4, seed=2)
    seat = town_turn(q, s)
    set_board(s, [1, 2, 3, BIG_TAVERN, 5, 6])
    GAME.apply(s, seat, Build(3, 2, 0))
    assert s.coins[seat] == 7 - 3
    assert s.board[3] == 0 and s.built[seat] == [(BIG_TAVERN, cell_of(2, 0))]
    assert s.knights[seat] == 1 + 3 and s.step == DRAGON
    v = GAME.view(s, None)
    assert v["board"][3]["building"] is None
    assert v["kingdoms"][seat]["buildings"][0]["name"] == "Big Tavern"
    others = [o for o in range(4) if o != seat]
    q.end_turn(s)
    o = q.seat_of(s)
    assert o in others
    q.set_domino(s, TOWN_TOWN)
    GAME.apply(s, o, Place(1, 0, "E"))
    refused(s, o, Build(3, 1, 0), "empty until the next round")


def test_step_c_illegal_builds(q, kingdom) -> None:
    """rules/queendomino.md Turn C: you need the price in coins, an empty town square (no
    stacking), a tile on the space; one building per turn (SOURCES.md §7.5.1)."""
    s = q.started(4, seed=2)
    seat = town_turn(q, s)
    set_board(s, [1, 2, 3, 4, SAFE_TOWER, STATUE])
    s.coins[seat] = 4
    refused(s, seat, Build(5, 1, 0), "costs 5 coin(s) and you have 4")
    refused(s, seat, Build(4, 0, 1), "not a town square")
    refused(s, seat, Build(4, 0, 0), "not a town square")
    assert not any(isinstance(a, Build) and a.space == 5 for a in GAME.legal_actions(s, seat))
    GAME.apply(s, seat, Build(4, 1, 0))
    refused(s, seat, Build(0, 2, 0), "one building per turn")
    s2 = q.started(4, seed=2)
    seat2 = town_turn(q, s2, n=WHEAT_WHEAT)
    refused(s2, seat2, Build(0, 1, 0), "no empty town square")
    assert not any(isinstance(a, Build) for a in GAME.legal_actions(s2, seat2))
    s3 = q.started(4, seed=2)
    seat3 = q.seat_of(s3)
    s3.kingdoms[seat3] = kingdom("t . .\nC . .")
    s3.built[seat3] = [(STATUE, cell_of(0, -1))]
    s3.built_cells[seat3] = 1 << cell_of(0, -1)
    q.set_domino(s3, TOWN_TOWN)
    GAME.apply(s3, seat3, Place(1, 0, "E"))
    refused(s3, seat3, Build(0, 0, -1), "cannot be stacked")
    GAME.apply(s3, seat3, Build(0, 2, 0))


def test_step_c_town_square_from_an_earlier_turn(q, kingdom) -> None:
    """rules/queendomino.md Turn C: the empty town square may have been placed on any earlier
    turn, even if this turn's domino has no town."""
    s = q.started(4, seed=2)
    seat = q.seat_of(s)
    s.kingdoms[seat] = kingdom(". t\n. C")
    q.set_domino(s, WHEAT_WHEAT)
    GAME.apply(s, seat, Place(1, 0, "E"))
    GAME.apply(s, seat, Build(0, 0, -1))
    assert s.built_cells[seat] == 1 << cell_of(0, -1)


def test_step_c_queen_discount_floor_zero(q) -> None:
    """rules/queendomino.md Turn C and The Queen: the host pays 1 less, never below 0
    (SOURCES.md §7.5.2): space 1 is free, space 0 stays 0."""
    s = q.started(4, seed=2)
    seat = town_turn(q, s)
    s.queen = seat
    s.coins[seat] = 0
    legal = {(a.space, a.x, a.y) for a in GAME.legal_actions(s, seat) if isinstance(a, Build)}
    assert {sp for sp, _, _ in legal} == {0, 1}
    s.coins[seat] = 3
    GAME.apply(s, seat, Build(4, 1, 0))
    assert s.coins[seat] == 0
    s2 = q.started(4, seed=2)
    seat2 = town_turn(q, s2)
    s2.queen = seat2
    s2.coins[seat2] = 0
    GAME.apply(s2, seat2, Build(0, 1, 0))
    assert s2.coins[seat2] == 0


def test_step_d_dragon(q) -> None:
    """rules/queendomino.md Turn D: pay 1 coin, the chosen board tile leaves the game and the
    Dragon stands on its space; once per round for everyone; not while hosting the Queen."""
    s = q.started(4, seed=2)
    seat = town_turn(q, s)
    tile = s.board[2]
    GAME.apply(s, seat, Dragon(2))
    assert s.coins[seat] == 6 and s.burnt == [tile] and s.board[2] == 0 and s.dragon == 2
    assert s.step == CLAIM
    refused(s, seat, Dragon(3), "already used the Dragon")
    refused(s, seat, Build(0, 1, 0), "comes before the Dragon")
    v = GAME.view(s, 1)
    assert v["dragon"] == 2 and v["board"][2]["dragon"] and v["burnt"][0]["id"] == tile
    q.end_turn(s)
    other = q.seat_of(s)
    q.set_domino(s, TOWN_TOWN)
    GAME.apply(s, other, Place(1, 0, "E"))
    refused(s, other, Dragon(3), "once per round")
    refused(s, other, Build(2, 1, 0), "Dragon burnt the tile")
    assert not any(isinstance(a, Dragon) for a in GAME.legal_actions(s, other))
    q.finish_round(s)
    assert s.dragon == -1


def test_step_d_dragon_refused_to_the_queen_and_the_poor(q) -> None:
    """rules/queendomino.md Turn D: not allowed while hosting the Queen; it costs 1 coin; the
    space must hold a tile."""
    s = q.started(4, seed=2)
    seat = town_turn(q, s)
    s.queen = seat
    refused(s, seat, Dragon(1), "you host the Queen")
    s.queen = -1
    s.coins[seat] = 0
    refused(s, seat, Dragon(1), "costs 1 coin")
    s.coins[seat] = 1
    s.board[1] = 0
    refused(s, seat, Dragon(1), "nothing to burn")
    GAME.apply(s, seat, Dragon(0))
    assert s.coins[seat] == 0


def test_step_order_build_then_dragon_then_claim(q) -> None:
    """rules/queendomino.md Turn: the steps come in order A-E; optional B-D may be skipped by
    acting in a later step; E (claim) is mandatory and ends the turn."""
    s = q.started(4, seed=2)
    seat = town_turn(q, s)
    set_board(s, [1, 2, 3, 4, 5, 6])
    GAME.apply(s, seat, Build(0, 1, 0))
    assert s.step == DRAGON
    GAME.apply(s, seat, Dragon(5))
    refused(s, seat, PASS, "step E")
    claim = next(a for a in GAME.legal_actions(s, seat) if isinstance(a, Claim))
    GAME.apply(s, seat, claim)
    assert q.seat_of(s) != seat and s.step == PLACE
    kinds = {type(a) for a in GAME.legal_actions(s, q.seat_of(s))}
    assert kinds <= {Place, type(DISCARD)}


def test_last_round_has_no_claim(q) -> None:
    """rules/queendomino.md Turn E: in the last round there is no next line, so only A-D; the
    game ends after round 12."""
    s = q.started(4, seed=9)
    while s.round < 12:
        q.finish_round(s)
    assert s.nxt == [] and s.round == 12
    seat = q.seat_of(s)
    GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    legal = GAME.legal_actions(s, seat)
    assert PASS in legal and not any(isinstance(a, Claim) for a in legal)
    refused(s, seat, Claim(1), "last round")
    for _ in range(4):
        q.end_turn(s)
    assert s.phase == OVER and GAME.to_act(s) == frozenset()
    assert GAME.outcome(s) is not None


# ---- The Queen -----------------------------------------------------------------------------
def test_queen_moves_to_whoever_reaches_the_most_towers(q) -> None:
    """rules/queendomino.md The Queen: whenever you gain towers and then have at least as many as
    every other player (a tie counts), she moves to you; a player who still trails does not
    take her (SOURCES.md §7.5.4)."""
    s = q.started(4, seed=2)
    gain_towers(s, 2, 1)
    assert s.queen == 2
    gain_towers(s, 0, 1)  # ties the leader: takes her
    assert s.queen == 0
    gain_towers(s, 2, 2)
    assert s.queen == 2
    gain_towers(s, 1, 2)  # 2 < 3: still trails
    assert s.queen == 2
    gain_towers(s, 1, 1)  # 3 = 3: tie, takes her
    assert s.queen == 1


def test_queen_moves_when_building_towers(q) -> None:
    """rules/queendomino.md The Queen: she moves at once when a building brings towers, from her
    host; building without towers or using the Dragon never moves her."""
    s = q.started(4, seed=2)
    seat = town_turn(q, s)
    others = [o for o in range(4) if o != seat]
    s.towers[others[0]] = 2
    s.queen = others[0]
    set_board(s, [1, 2, GUARDTOWER, 4, 5, 6])
    GAME.apply(s, seat, Build(2, 1, 0))
    assert s.towers[seat] == 2 and s.queen == seat
    q.end_turn(s)
    o = q.seat_of(s)
    q.set_domino(s, TOWN_TOWN)
    GAME.apply(s, o, Place(1, 0, "E"))
    set_board(s, [1, 0, 3, 4, 5, 6])
    GAME.apply(s, o, Build(0, 1, 0))
    GAME.apply(s, o, Dragon(3))
    assert s.queen == seat


# ---- New round ----------------------------------------------------------------------------
def test_new_round_slides_and_refills_the_board(q) -> None:
    """rules/queendomino.md New round: the Dragon returns; the tiles left slide toward the 0 end
    closing the gaps; the empty expensive spaces are filled from the pile; a new sorted line."""
    s = q.started(4, seed=2)
    a, b, c, d = s.board[0], s.board[2], s.board[4], s.board[5]
    s.board = [a, 0, b, 0, c, d]
    s.dragon = 3
    top = s.pile[s.pile_pos : s.pile_pos + 2]
    q.finish_round(s)
    assert s.board == [a, b, c, d, *top]
    assert s.dragon == -1 and s.nxt == sorted(s.nxt) and s.round == 2


def test_refill_waits_for_every_king_and_stops_when_the_pile_is_empty(q) -> None:
    """SOURCES.md §7.5.8-9: 6 buildings on the board with 2 players too; the slide and refill
    come once per round after all (4) king-turns; with the pile empty, gaps stay at the
    expensive end."""
    s = q.started(2, seed=2)
    assert 0 not in s.board
    s.board[5] = 0
    q.end_turn(s)
    q.end_turn(s)
    q.end_turn(s)
    assert s.board[5] == 0 and s.round == 1
    s.pile_pos = len(s.pile)
    s.board = [0, 7, 0, 8, 0, 0]
    q.end_turn(s)
    assert s.round == 2 and s.board == [7, 8, 0, 0, 0, 0]


# ---- Playing with Kingdomino ---------------------------------------------------------------
def test_royal_wedding_three_four_players(q) -> None:
    """rules/queendomino.md Playing with Kingdomino: 96 dominoes, each box its own numbers,
    lines alternate boxes starting with Queendomino; 3-4 players 7×7 with lines of 4 (3 players
    discard the leftover)."""
    s = GAME.setup({"royal_wedding": True}, 3, 4)
    assert s.cfg.frame == 7 and s.cfg.line_size == 4 and s.cfg.rounds == 24
    assert sorted(s.deck) == list(range(1, 97))
    lines = [s.deck[i : i + 4] for i in range(0, 96, 4)]
    for i, line in enumerate(lines):
        assert all((n <= 48) == (i % 2 == 0) for n in line)
    v = GAME.view(s, 0)
    assert all(d["box"] == "queendomino" for d in v["next_line"])
    while not GAME.is_over(s):
        if s.phase == DRAFT:
            seat = q.seat_of(s)
            GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
        else:
            if s.round == 2 and s.step == PLACE and s.acting == 0:
                assert GAME.view(s, 0)["current_line"][0]["box"] == "kingdomino"
            q.end_turn(s)
    assert s.round == 24


def test_royal_wedding_five_six_players(q) -> None:
    """rules/queendomino.md Playing with Kingdomino: 5-6 players build 5×5 with lines of 8, the
    leftovers discarded each round; 5-6 players always play it (on by default for them, an
    explicit false is refused); 2 players cannot."""
    s = GAME.setup({}, 5, 1)
    assert s.cfg.royal_wedding and s.cfg.frame == 5 and s.cfg.line_size == 8
    assert s.cfg.rounds == 12 and len(s.nxt) == 8
    assert GAME.validate({}, 6)["royal_wedding"] is True
    with pytest.raises(OptionError, match="6 players need both boxes: set royal_wedding=true"):
        GAME.validate({"royal_wedding": False}, 6)
    s = q.started(6, seed=2)
    assert len(s.discarded) == 2
    with pytest.raises(OptionError, match="only for 3/4/5/6/7/8 players"):
        GAME.setup({"royal_wedding": True}, 2, 1)
    with pytest.raises(OptionError):
        GAME.setup({}, 9, 1)  # 7-8 players became legal with §7.5 (tests/queendomino/test_teams.py)


def test_steps_are_named_in_the_view(q) -> None:
    """rules/queendomino.md Turn: the view says which step (A-E) the turn stands at."""
    s = q.started(4, seed=2)
    assert GAME.view(s, None)["step"] == "place"
    seat = town_turn(q, s)
    assert GAME.view(s, seat)["step"] == "tax" and s.step == TAX
    assert BUILD == TAX + 1


def test_pass_is_only_for_the_last_round(q) -> None:
    """rules/queendomino.md Turn E: putting your king on the next line is mandatory."""
    s = q.started(4, seed=2)
    seat = town_turn(q, s)
    assert not any(isinstance(a, Pass) for a in GAME.legal_actions(s, seat))
    refused(s, seat, PASS, "must put your king")
