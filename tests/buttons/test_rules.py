"""Buttons rules, one test (at least) per numbered section of rules/buttons.md.

Positions are built by hand: markers and stars are set directly as 36-bit masks, and a roll is
landed with ``apply_roll`` so the dice are known. Every move a player makes goes through the
public ``GAME.apply``, which checks it.
"""

from __future__ import annotations

import pytest

from ludoteca.engine.errors import IllegalAction
from ludoteca.engine.rng import Rng
from ludoteca.games.buttons import layouts
from ludoteca.games.buttons.actions import DECLINE, PLACES, ROLL, STARS, STOP, Place, Star
from ludoteca.games.buttons.grid import LINES5, NEIGH, cell_of, cells
from ludoteca.games.buttons.rules import GAME, apply_roll, board_masks
from ludoteca.games.buttons.scoring import final_outcome, round_stars
from ludoteca.games.buttons.state import BUSTED, OVER, PLACE, STOPPED, TURN
from ludoteca.games.buttons.state import STARS as STARS_PHASE


def bit(row: int, col: int) -> int:
    return 1 << cell_of(row, col)


def mask(*pairs: tuple[int, int]) -> int:
    m = 0
    for r, c in pairs:
        m |= bit(r, c)
    return m


def new(players: int = 4, seed: int = 0, **options: str):
    return GAME.setup({"boards": "fixed", **options}, players, seed)


def unchanged_after_refusal(state, seat, action) -> str:
    """Apply an illegal action: it must raise and leave the state exactly as it was."""
    before = state.clone()
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, seat, action)
    assert state == before
    return str(err.value)


def others(s) -> list[int]:
    return [x for x in range(s.cfg.players) if x != s.active]


def non_adjacent(candidates: int, k: int, avoid: int = 0) -> int:
    """k cells from ``candidates``, none orthogonally next to another or to ``avoid``."""
    chosen = 0
    for c in cells(candidates):
        if not (chosen | avoid) & (NEIGH[c] | 1 << c):
            chosen |= 1 << c
            if (chosen).bit_count() == k:
                return chosen
    raise AssertionError("not enough non-adjacent cells")


# ---- §1 components ------------------------------------------------------------------------
def test_components_four_colours_eight_layouts() -> None:
    """rules/buttons.md §1: 8 layouts of 6×6 printed buttons in red, yellow, green, blue."""
    table = layouts.get()
    assert len(table) == 8
    for lay in table:
        assert len(lay) == 6 and all(len(row) == 6 and set(row) <= set("RYGB") for row in lay)
        r, y, g, b = board_masks(lay)
        assert r | y | g | b == (1 << 36) - 1 and r & y == 0 and g & b == 0


def test_geometry_white_is_row_black_is_column_orthogonal_only() -> None:
    """rules/buttons.md §1.1: cell (white, black); adjacency is orthogonal, never diagonal."""
    s = new()
    a = s.active
    s.markers[a] = bit(2, 4)  # diagonal to (3, 5) and (3, 3): no effect on them
    apply_roll(s, (3, 5, 3, 1, 1, 1))
    legal = GAME.legal_actions(s, a)
    assert set(legal) == {Place(3, 5), Place(3, 3), Place(3, 1)}
    assert NEIGH[cell_of(1, 1)] == mask((1, 2), (2, 1))
    assert NEIGH[cell_of(3, 3)] == mask((2, 3), (4, 3), (3, 2), (3, 4))


def test_layouts_shipped_are_distinct_and_dealt_distinct() -> None:
    """rules/buttons.md §1.2: 8 fixed layouts, all pairwise different, distinct per player."""
    assert len(set(layouts.get())) == 8
    for seed in range(30):
        s = GAME.setup(None, 4, seed)
        assert len(set(s.layout_ids)) == 4
        assert len(set(s.boards)) == 4


# ---- §2 setup -----------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_cards_per_player_count(players: int) -> None:
    """rules/buttons.md §2 items 2-3: 4p one card each; 3p a non-red card removed, then one
    each; 2p two each. The red holder starts with all 6 dice."""
    for seed in range(40):
        s = GAME.setup(None, players, seed)
        counts = [c.bit_count() for c in s.cards]
        assert counts == [2 if players == 2 else 1] * players
        held = 0
        for c in s.cards:
            assert held & c == 0
            held |= c
        if players == 3:
            assert s.removed_card in (2, 4, 8) and held | s.removed_card == 15
        else:
            assert held == 15 and s.removed_card == 0
        assert s.cards[s.active] & 1, "the red card's holder starts"
        assert s.free == 4 and s.phase == TURN
        GAME.apply(s, s.active, ROLL)
        assert len(s.dice) == 6


def test_setup_boards_option() -> None:
    """rules/buttons.md §2 item 1: every player gets a board; 'fixed' gives seat i layout i."""
    s = new(4)
    assert s.layout_ids == (0, 1, 2, 3)
    assert s.boards[2] == board_masks(layouts.get()[2])
    seen = {GAME.setup(None, 2, seed).layout_ids for seed in range(30)}
    assert len(seen) > 5


def test_supply_is_unlimited() -> None:
    """rules/buttons.md §2 item 4 and §7: the engine ignores the 50-marker supply."""
    s = new(4)
    # 13 markers on each board (52 > 50), still a legal gold placement for the others.
    spread = mask(*[(r, c) for r in range(1, 7) for c in range(1, 7) if (r + c) % 2 == 0])
    for seat in range(4):
        s.markers[seat] = non_adjacent(spread & ~mask((6, 6)), 13)
    s.markers[s.active] = 0
    apply_roll(s, (6, 6, 6, 6, 6, 6))
    assert all(s.waiting >> x & 1 for x in others(s))


# ---- §3 round structure -------------------------------------------------------------------
def test_turn_order_clockwise_skips_players_who_left() -> None:
    """rules/buttons.md §3: turns go clockwise (seat +1) from the red holder and skip players
    out of the round; the last one left keeps taking turns."""
    s = new(4)
    a = s.active
    nxt = (a + 1) % 4
    s.markers[a] = bit(1, 1)
    GAME.apply(s, a, STOP)
    assert s.active == nxt
    s.markers[nxt] = bit(1, 1)
    GAME.apply(s, nxt, STOP)
    third = (a + 2) % 4
    assert s.active == third
    s.markers[third] = bit(1, 1)
    GAME.apply(s, third, STOP)
    last = (a + 3) % 4
    assert s.active == last
    apply_roll(s, (4, 4))  # nobody else is in the round to answer
    GAME.apply(s, last, Place(4, 4))
    assert s.active == last and s.phase == TURN


def test_stop_needs_a_marker() -> None:
    """rules/buttons.md §3.1: opting out needs at least one marker from this round."""
    s = new(4)
    a = s.active
    s.stars[a] = mask((1, 1), (1, 2))  # stars are not markers
    assert GAME.legal_actions(s, a) == [ROLL]
    assert "rule 3.1" in unchanged_after_refusal(s, a, STOP)
    s.markers[a] = bit(5, 5)
    assert GAME.legal_actions(s, a) == [ROLL, STOP]
    GAME.apply(s, a, STOP)
    assert s.status[a] == STOPPED and s.markers[a] == bit(5, 5)
    assert not s.in_round >> a & 1


def test_passive_marker_allows_stop() -> None:
    """rules/buttons.md §3.1: a marker placed as a non-active player counts for stopping."""
    s = new(4)
    a, b = s.active, (s.active + 1) % 4
    apply_roll(s, (2, 3, 6, 6, 6, 6))
    GAME.apply(s, a, Place(2, 3))
    GAME.apply(s, b, Place(2, 3))
    for x in others(s):
        if s.waiting >> x & 1:
            GAME.apply(s, x, DECLINE)
    assert s.active == b and s.markers[b] == bit(2, 3)
    assert STOP in GAME.legal_actions(s, b)


@pytest.mark.parametrize(("players", "aside"), [(2, 2), (3, 1), (4, 1)])
def test_dice_set_aside_per_player_count(players: int, aside: int) -> None:
    """rules/buttons.md §3.1 and §3.2 item 5: a leaving player sets aside one white-pip die,
    two in a 2-player game; the next roll uses the dice left. §3.3: 4p uses all four, 3p leaves
    one unused, 2p two each."""
    s = new(players)
    a = s.active
    s.markers[a] = bit(1, 1)
    GAME.apply(s, a, STOP)
    assert s.free == 4 - aside
    b = s.active
    GAME.apply(s, b, ROLL)
    assert len(s.dice) == 2 + 4 - aside
    # everybody stops in turn: count the engine's dice until the last player leaves (§3.3)
    s2 = new(players)
    for left in range(players - 1):
        x = s2.active
        s2.markers[x] = bit(6, 6)
        GAME.apply(s2, x, STOP)
        assert s2.phase == TURN and s2.free == 4 - (left + 1) * aside
    last = s2.active
    GAME.apply(s2, last, ROLL)
    assert len(s2.dice) == 2 + 4 - (players - 1) * aside, "the last player rolls what is left"
    assert s2.free - s2.cfg.aside == {2: 0, 3: 1, 4: 0}[players], "dice unused at the end"
    assert len(s2.history) == 0


@pytest.mark.parametrize(("players", "aside"), [(2, 2), (3, 1), (4, 1)])
def test_dice_shrink_as_players_bust_or_stop(players: int, aside: int) -> None:
    """rules/buttons.md §3.1, §3.2 items 1 and 5, §3.3: every leaving player, whether busting
    or stopping, sets aside one white-pip die (two in 2 players); each roll uses white + gold +
    the white-pip dice left, so the gold die is always rolled; 4p and 2p use up all four
    white-pip dice, 3p leaves one unused."""
    s = new(players)
    row3 = mask((3, 1), (3, 3), (3, 5))  # blocks every cell of row 3
    for left in range(players):
        x = s.active
        assert s.free == 4 - aside * left
        probe = s.clone()
        GAME.apply(probe, x, ROLL)  # an empty board never busts
        assert len(probe.dice) == 2 + s.free and probe.status[x] != BUSTED
        if left == players - 1:
            assert s.free - aside == {2: 0, 3: 1, 4: 0}[players]
        if left % 2 == 0:  # bust
            s.markers[x] = row3
            apply_roll(s, (3, 1, *[1] * s.free))
            status = s.status[x] if s.round == 1 else s.history[0][x][0]
            assert status == BUSTED and s.markers[x] == 0
            while s.phase == PLACE:
                GAME.apply(s, min(GAME.to_act(s)), DECLINE)
        else:
            s.markers[x] = bit(6, 6)
            GAME.apply(s, x, STOP)
    assert s.round == 2 and s.free == 4


def chi_square(counts: list[int]) -> float:
    expected = sum(counts) / len(counts)
    return sum((n - expected) ** 2 / expected for n in counts)


@pytest.mark.parametrize("free", [4, 3, 2, 1])
def test_roll_shows_every_face_of_every_die_fairly(free: int) -> None:
    """rules/buttons.md §1 (every die is an ordinary d6, pips 1-6) and §3.2 item 1 (a roll
    throws the white, the gold black and every white-pip die still in play): the real ``roll``
    through ``GAME.apply``, not dice set by hand. Each die shows each face about 1/6 of the
    time, independently of the die beside it. The bounds are far from what a fair die gives
    (chi-square 30 on 5 degrees of freedom: p ~ 1e-5; the seed is fixed, so this never flakes)
    and far below what a missing or doubled face gives (about 1,000 and 2,000 here)."""
    rolls = 6000
    base = new(4)
    base.free = free
    rng = Rng(20150601 + free)
    faces = [[0] * 6 for _ in range(2 + free)]
    pairs = [[0] * 36 for _ in range(1 + free)]  # each die against the next one
    for _ in range(rolls):
        s = base.clone()
        s.rng = rng  # one generator all along, as in a game
        GAME.apply(s, s.active, ROLL)
        dice = s.dice
        assert len(dice) == 2 + free
        for i, d in enumerate(dice):
            faces[i][d - 1] += 1
        for i in range(1 + free):
            pairs[i][(dice[i] - 1) * 6 + dice[i + 1] - 1] += 1
    for i, counts in enumerate(faces):
        assert min(counts) > 0, f"die {i} never shows {counts.index(0) + 1}"
        assert chi_square(counts) < 30, f"die {i} is unfair: {counts}"
    for i, counts in enumerate(pairs):
        assert chi_square(counts) < 80, f"dice {i} and {i + 1} are not independent"  # 35 dof


def test_roll_active_uses_any_black_die_others_only_gold() -> None:
    """rules/buttons.md §3.2 items 1-3: the active player places on (white, any black die, gold
    included); every other player still in may place on (white, gold) or decline, at once."""
    s = new(4)
    a = s.active
    apply_roll(s, (4, 2, 5, 5, 1, 6))
    assert GAME.to_act(s) == frozenset(range(4))
    assert {p.col for p in GAME.legal_actions(s, a)} == {1, 2, 5, 6}
    assert DECLINE not in GAME.legal_actions(s, a)
    b = (a + 1) % 4
    assert GAME.legal_actions(s, b) == [Place(4, 2), DECLINE]
    assert "gold" in unchanged_after_refusal(s, b, Place(4, 5))
    assert "row 4" in unchanged_after_refusal(s, a, Place(3, 5))
    assert "no black die shows 3" in unchanged_after_refusal(s, a, Place(4, 3))
    assert "must place" in unchanged_after_refusal(s, a, DECLINE)


def test_blocking_markers_and_stars() -> None:
    """rules/buttons.md §3.2 item 4: a cell is legal if it holds no marker and no star and no
    orthogonal neighbour holds a marker; stars do not block their neighbours."""
    s = new(4)
    a = s.active
    s.markers[a] = bit(3, 4)  # blocks (3, 4) itself and (3, 3), (3, 5)
    s.stars[a] = mask((3, 1), (2, 6))  # (3, 1) covered; (2, 6) is a star next to (3, 6)
    apply_roll(s, (3, 1, 3, 4, 5, 6))
    assert set(GAME.legal_actions(s, a)) == {Place(3, 6)}
    assert "star" in unchanged_after_refusal(s, a, Place(3, 1))
    assert "next to one of your markers" in unchanged_after_refusal(s, a, Place(3, 3))
    assert "already holds" in unchanged_after_refusal(s, a, Place(3, 4))
    GAME.apply(s, a, Place(3, 6))
    for x in others(s):
        GAME.apply(s, x, DECLINE)
    assert s.markers[a] == mask((3, 4), (3, 6))


def test_bust_removes_only_this_rounds_markers() -> None:
    """rules/buttons.md §3.2 item 5: with no legal cell for any black die the active player
    busts: this round's markers go (stars stay), one die is set aside, they are out."""
    s = new(4)
    a = s.active
    s.markers[a] = mask((3, 4), (3, 6), (1, 1))
    s.stars[a] = mask((6, 1), (6, 2))
    apply_roll(s, (3, 5, 5, 4, 6, 5))
    assert s.status[a] == BUSTED and s.markers[a] == 0
    assert s.stars[a] == mask((6, 1), (6, 2))
    assert s.free == 3 and not s.in_round >> a & 1
    assert a not in GAME.to_act(s)


def test_bust_still_lets_others_place() -> None:
    """rules/buttons.md §9.1: when the active player busts, the others still get their gold
    placement for that roll."""
    s = new(4)
    a = s.active
    s.markers[a] = mask((3, 4), (3, 6))
    apply_roll(s, (3, 5, 5, 5, 5, 5))
    assert s.status[a] == BUSTED
    rest = others(s)
    assert GAME.to_act(s) == frozenset(rest)
    for x in rest:
        GAME.apply(s, x, Place(3, 5))
    assert all(s.markers[x] == bit(3, 5) for x in rest)
    assert s.active == (a + 1) % 4 and s.phase == TURN


def test_turn_passes_after_everyone_answered() -> None:
    """rules/buttons.md §3.2 item 6: after the roll is resolved the next player in the round
    takes the turn."""
    s = new(3)
    a = s.active
    GAME.apply(s, a, ROLL)
    while s.phase == PLACE:
        seat = min(GAME.to_act(s))
        GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    assert s.phase == TURN and s.active == (a + 1) % 3


def test_round_ends_when_everybody_left() -> None:
    """rules/buttons.md §3.3: the round ends once every player opted out or busted."""
    s = new(2)
    a = s.active
    s.markers = [bit(1, 1), bit(1, 1)]
    GAME.apply(s, a, STOP)
    assert s.round == 1 and s.phase == TURN
    GAME.apply(s, 1 - a, STOP)
    assert s.round == 2 and len(s.history) == 1 and s.free == 4


# ---- §4 scoring ---------------------------------------------------------------------------
def test_star_counting_colours_once_and_bonus() -> None:
    """rules/buttons.md §4: +1 for stopping, +1 per colour with at least 3 markers (4-6 still
    give 1), +1 more per bonus colour that reached 3."""
    red, yellow, green, blue = board_masks(layouts.get()[0])
    five_red = non_adjacent(red, 5)
    three_yellow = non_adjacent(yellow, 3, avoid=five_red)
    two_green = non_adjacent(green, 2, avoid=five_red | three_yellow)
    m = five_red | three_yellow | two_green
    board = (red, yellow, green, blue)
    assert round_stars(m, board, 0) == (0b0011, 0, 3)
    assert round_stars(m, board, 0b0001) == (0b0011, 0b0001, 4)  # red bonus card
    assert round_stars(m, board, 0b0101) == (0b0011, 0b0001, 4)  # green bonus missed
    assert round_stars(m, board, 0b0011) == (0b0011, 0b0011, 5)  # 2p: two bonus colours
    assert round_stars(two_green, board, 0b0100) == (0, 0, 1)
    six_red = non_adjacent(red, 6)
    assert round_stars(six_red, board, 0)[2] == 2


def test_busted_player_scores_nothing() -> None:
    """rules/buttons.md §4: a busted player earns no star."""
    s = new(2)
    a = s.active
    s.markers[a] = mask((3, 4), (3, 6))
    apply_roll(s, (3, 5, 5, 5))
    b = 1 - a
    GAME.apply(s, b, DECLINE)
    s.markers[b] = bit(1, 1)
    GAME.apply(s, b, STOP)
    assert s.history[0][a][0] == BUSTED and s.history[0][a][4] == 0
    assert s.stars[a] == 0 and s.stars[b] == bit(1, 1)


def _stop_with(s, seat: int, markers: int) -> None:
    s.markers[seat] = markers
    assert s.active == seat
    GAME.apply(s, seat, STOP)


def test_star_placement_choice() -> None:
    """rules/buttons.md §4: a player with more markers than stars chooses which markers become
    stars, one at a time, only on this round's markers; the rest go back."""
    s = new(2)
    a, b = s.active, 1 - s.active
    colour = next(i for i in range(4) if not s.cards[a] >> i & 1)  # not a bonus colour
    reds = non_adjacent(s.boards[a][colour], 4)
    _stop_with(s, a, reds)  # 4 of one colour: 1 + 1 = 2 stars for 4 markers
    _stop_with(s, b, bit(6, 6))  # 1 marker, 1 star: forced
    assert s.earned[a] == 2
    assert s.phase == STARS_PHASE and GAME.to_act(s) == frozenset({a})
    legal = GAME.legal_actions(s, a)
    assert {x.cell for x in legal} == set(cells(reds))
    target = cells(reds)
    outside = next(c for c in range(36) if not reds >> c & 1)
    r, c = divmod(outside, 6)
    assert "rule 4" in unchanged_after_refusal(s, a, Star(r + 1, c + 1))
    GAME.apply(s, a, STARS[target[2]])
    assert "already chose" in unchanged_after_refusal(s, a, STARS[target[2]])
    assert s.stars[a] == 0, "stars go down when every choice is in"
    GAME.apply(s, a, STARS[target[0]])
    assert s.stars[a] == 1 << target[2] | 1 << target[0]
    assert s.markers == [0, 0] and s.stars[b] == bit(6, 6) and s.round == 2


def test_star_placement_forced_when_equal() -> None:
    """rules/buttons.md §4 and §9.2: stars equal to markers are placed without asking."""
    s = new(4)
    a = s.active
    for _ in range(4):
        _stop_with(s, s.active, bit(2, 2))
    assert s.round == 2 and s.phase == TURN
    assert all(st == bit(2, 2) for st in s.stars)
    assert s.history[0][a] == (STOPPED, 1, 0, 0, 1)


def test_stars_never_exceed_markers() -> None:
    """rules/buttons.md §4: with c qualifying colours the markers always cover the stars."""
    red, yellow, green, blue = board_masks(layouts.get()[1])
    board = (red, yellow, green, blue)
    for colours in range(16):
        m = 0
        for i in range(4):
            if colours >> i & 1:
                m |= non_adjacent(board[i], 3, avoid=m)
        m = m or bit(1, 1)
        assert round_stars(m, board, 0b0011)[2] <= m.bit_count()


# ---- §5 next round ------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_cards_pass_left_and_red_holder_starts(players: int) -> None:
    """rules/buttons.md §5: every player passes their cards to the left (clockwise; 2p swap
    pairs); the new red holder starts with all 6 dice."""
    s = new(players, seed=5)
    before = s.cards[:]
    removed = s.removed_card
    for _ in range(players):
        _stop_with(s, s.active, bit(4, 4))
    assert s.round == 2
    assert s.cards == [before[(x - 1) % players] for x in range(players)]
    assert s.removed_card == removed
    assert s.cards[s.active] & 1 and s.free == 4 and s.status == [0] * players


# ---- §6 game end --------------------------------------------------------------------------
def test_end_on_five_star_line_row_and_column() -> None:
    """rules/buttons.md §6: 5 stars in one row or column end the game after stars are placed;
    diagonals and broken lines do not."""
    for line in (mask(*[(2, c) for c in range(2, 7)]), mask(*[(r, 3) for r in range(1, 6)])):
        s = new(2)
        a = s.active
        last = cells(line)[-1]
        s.stars[a] = line & ~(1 << last)
        _stop_with(s, a, 1 << last)
        assert s.phase == TURN, "checked only after the round's stars are placed"
        _stop_with(s, s.active, bit(6, 6) if not line & bit(6, 6) else bit(6, 1))
        assert s.phase == OVER
        out = GAME.outcome(s)
        assert out is not None and out.winners == (a,) and out.scores[a] == 100
    assert len(LINES5) == 24
    s = new(2)
    a = s.active
    s.stars[a] = mask(*[(i, i) for i in range(1, 5)]) | mask((1, 1), (1, 2), (1, 4), (1, 5))
    _stop_with(s, a, bit(5, 5))  # diagonal 1-5 complete, row 1 broken at (1, 3)
    _stop_with(s, s.active, bit(6, 6))
    assert s.phase == TURN


def test_end_checked_on_the_stars_chosen() -> None:
    """rules/buttons.md §4 and §6: the end is checked after the stars are placed, so it depends
    on which markers the player turned into stars: the fifth cell of a line ends the game, a
    cell elsewhere does not."""
    base = new(2)
    a = base.active
    base.stars[a] = mask((2, 1), (2, 2), (2, 3), (2, 4))
    _stop_with(base, a, mask((2, 5), (5, 2)))  # no colour reaches 3: 1 star for 2 markers
    _stop_with(base, 1 - a, bit(6, 6))
    assert base.phase == STARS_PHASE and base.earned[a] == 1
    elsewhere, line = base.clone(), base.clone()
    GAME.apply(elsewhere, a, Star(5, 2))
    assert elsewhere.phase == TURN and elsewhere.round == 2
    assert elsewhere.stars[a] == mask((2, 1), (2, 2), (2, 3), (2, 4), (5, 2))
    GAME.apply(line, a, Star(2, 5))
    assert line.phase == OVER
    out = GAME.outcome(line)
    assert out is not None and out.winners == (a,)


def test_end_on_twelve_stars() -> None:
    """rules/buttons.md §6: 12 or more stars end the game."""
    s = new(3)
    a = s.active
    s.stars[a] = mask(*[(r, c) for r in (1, 3, 5) for c in (1, 3, 5)]) | mask((6, 6), (6, 4))
    assert s.stars[a].bit_count() == 11
    for _ in range(3):
        _stop_with(s, s.active, bit(2, 2))
    assert s.phase == OVER and s.stars[a].bit_count() == 12
    out = GAME.outcome(s)
    assert out is not None and out.winners == (a,) and out.scores[a] == 12


def _over(players: int, stars: list[int], winner: str):
    s = new(players, winner=winner)
    s.stars = stars
    s.phase = OVER
    return final_outcome(s)


def test_winner_rules_line_versus_more_stars() -> None:
    """rules/buttons.md §6: BGA scores 100 for a line, else stars, so a line beats 13 stars;
    the printed rule gives the win to more stars among the players who met a trigger."""
    line = mask(*[(1, c) for c in range(1, 6)])
    thirteen = mask(*[(r, c) for r in range(1, 7) for c in range(1, 7) if (r + c) % 2][:13])
    assert not any(thirteen & w == w for w in LINES5)
    bga = _over(2, [line, thirteen], "bga")
    assert bga.scores == (100, 13) and bga.ranks == (1, 2)
    printed = _over(2, [line, thirteen], "stars")
    assert printed.scores == (5, 13) and printed.ranks == (2, 1)
    assert bga.breakdown[0]["five_line"] == [[1, c] for c in range(1, 6)]
    # a player who met no trigger ranks below one who did, whatever the counts
    four = mask((6, 1), (6, 2), (6, 3), (6, 4))
    printed = _over(3, [line, four | mask((4, 6), (3, 6)), 0], "stars")
    assert printed.ranks == (1, 2, 3)


def test_ties_are_shared() -> None:
    """rules/buttons.md §6 and §9.3: exact winner ties are shared under both rules."""
    row = mask(*[(1, c) for c in range(1, 6)])
    col = mask(*[(r, 6) for r in range(2, 7)])
    assert _over(2, [row, col], "bga").ranks == (1, 1)
    assert _over(2, [row | bit(4, 4), col], "bga").ranks == (1, 1)
    assert _over(2, [row | bit(4, 4), col], "stars").ranks == (1, 2)
    assert _over(3, [row, col, 0], "stars").ranks == (1, 1, 3)


def test_breakdown_explains_every_star() -> None:
    """rules/buttons.md §4 and §6: the breakdown's rounds add up to the star count."""
    s = GAME.setup(None, 3, 11)
    rng = Rng(1)
    while GAME.to_act(s):
        seat = min(GAME.to_act(s))
        acts = GAME.legal_actions(s, seat)
        GAME.apply(s, seat, acts[rng.below(len(acts))])
    out = GAME.outcome(s)
    assert out is not None
    for seat, b in enumerate(out.breakdown):
        assert sum(r["stars"] for r in b["rounds"]) == b["stars"] == s.stars[seat].bit_count()


# ---- §7 and §8 ----------------------------------------------------------------------------
def test_left_players_do_not_place_and_stop_only_on_own_turn() -> None:
    """rules/buttons.md §8: players who left do not place even when the gold cell is legal;
    opting out is a turn action, never during someone else's turn."""
    s = new(4)
    a = s.active
    b = (a + 1) % 4
    s.markers[b] = bit(1, 1)
    assert f"not P{b + 1}'s turn" in unchanged_after_refusal(s, b, STOP)
    s.markers[a] = bit(6, 6)
    GAME.apply(s, a, STOP)
    apply_roll(s, (2, 2, 2, 2, 2))
    assert a not in GAME.to_act(s)
    assert GAME.legal_actions(s, a) == []


def test_resolution_order_does_not_matter() -> None:
    """rules/buttons.md §8: answers resolve together; their order never changes the result."""
    s = new(4)
    apply_roll(s, (5, 3, 1, 2, 4, 6))
    seats = sorted(GAME.to_act(s))
    answers = {x: GAME.legal_actions(s, x)[0] for x in seats}
    one, two = s.clone(), s.clone()
    for x in seats:
        GAME.apply(one, x, answers[x])
    for x in reversed(seats):
        GAME.apply(two, x, answers[x])
    assert one == two


def test_forced_choices_need_no_input() -> None:
    """rules/buttons.md §9.2: a waiting player whose gold cell is illegal is not asked; a bust
    is automatic."""
    s = new(4)
    a = s.active
    b, c, d = others(s)
    s.markers[b] = bit(2, 4)  # next to the gold cell (2, 3)
    s.stars[c] = bit(2, 3)  # on the gold cell
    apply_roll(s, (2, 3, 3, 3, 3, 3))
    assert GAME.to_act(s) == frozenset({a, d})
    assert GAME.legal_actions(s, b) == [] and GAME.legal_actions(s, c) == []


def test_refused_actions_change_nothing() -> None:
    """rules/buttons.md §3 (engine contract): out-of-turn, illegal and foreign actions raise a
    clear error and leave the state unchanged."""
    s = new(4)
    a = s.active
    b = (a + 1) % 4
    unchanged_after_refusal(s, b, ROLL)
    unchanged_after_refusal(s, a, PLACES[0])
    unchanged_after_refusal(s, a, "roll")  # type: ignore[arg-type]
