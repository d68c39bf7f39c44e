"""Kingdomino rules, section by section (``rules/kingdomino.md``)."""

from __future__ import annotations

from collections import Counter

import pytest

from ludoteca.engine.errors import IllegalAction
from ludoteca.games.kingdomino.actions import DISCARD, Claim, Discard, Place
from ludoteca.games.kingdomino.components import DOMINOES, TERRAINS
from ludoteca.games.kingdomino.grid import new_kingdom
from ludoteca.games.kingdomino.rules import Kingdomino
from ludoteca.games.kingdomino.state import DRAFT, OVER, PLAY, KingdominoState


def play_draft(game: Kingdomino, s: KingdominoState) -> None:
    """Every king of the first draft claims the lowest free domino."""
    while s.phase == DRAFT:
        (seat,) = game.to_act(s)
        game.apply(s, seat, game.legal_actions(s, seat)[0])


def at_place_step(
    game: Kingdomino,
    players: int = 2,
    options: dict[str, object] | None = None,
    kingdom: list[int] | None = None,
    domino: int | None = None,
    seed: int = 0,
) -> tuple[KingdominoState, int]:
    """A state where some seat must place ``domino`` in ``kingdom``."""
    s = game.setup(options or {}, players, seed)
    play_draft(game, s)
    seat = s.cur_owner[s.acting]
    if kingdom is not None:
        s.kingdoms[seat] = kingdom
    if domino is not None:
        cur = list(s.cur)
        cur[s.acting] = domino
        s.cur = cur
    return s, seat


def placements(game: Kingdomino, s: KingdominoState, seat: int) -> set[tuple[int, int, str]]:
    return {(a.x, a.y, a.dir) for a in game.legal_actions(s, seat) if isinstance(a, Place)}


# ---- §1 Components -----------------------------------------------------------------------
def test_components_are_the_48_documented_dominoes() -> None:
    """rules/kingdomino.md §1: 48 dominoes numbered 1–48, six terrains, 0–3 crowns per square
    (totals as verified in rules/SOURCES.md §1)."""
    assert sorted(DOMINOES) == list(range(1, 49))
    squares: Counter[str] = Counter()
    crowns: Counter[str] = Counter()
    for d in DOMINOES.values():
        for t, c in zip(d.terrains, d.crowns, strict=True):
            squares[TERRAINS[t]] += 1
            crowns[TERRAINS[t]] += c
            assert 0 <= c <= 3
    assert squares == {
        "wheat": 26,
        "forest": 22,
        "lake": 18,
        "grassland": 14,
        "swamp": 10,
        "mine": 6,
    }
    assert crowns == {"wheat": 5, "forest": 6, "lake": 6, "grassland": 6, "swamp": 6, "mine": 10}
    assert DOMINOES[48].crowns == (0, 3) and TERRAINS[DOMINOES[48].terrains[1]] == "mine"


def test_kings_per_player(game: Kingdomino) -> None:
    """rules/kingdomino.md §1: 2 kings each with 2 players, 1 each with 3–4 players."""
    for players, kings in ((2, 4), (3, 3), (4, 4)):
        s = game.setup({}, players, 1)
        assert Counter(s.draft_order) == {seat: kings // players for seat in range(players)}


# ---- §2 Setup ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "options", "deck", "line"),
    [
        (2, {}, 24, 4),
        (2, {"mighty_duel": True}, 48, 4),
        (3, {}, 36, 3),
        (3, {"three_player_draft": "bga"}, 48, 4),
        (4, {}, 48, 4),
    ],
)
def test_deck_size_and_line_size(
    game: Kingdomino, players: int, options: dict[str, object], deck: int, line: int
) -> None:
    """rules/kingdomino.md §2.1 and §2.3: deck sizes per player count (removed dominoes unseen),
    lines of 3 with 3 players under the printed rules, 4 otherwise."""
    s = game.setup(options, players, 7)
    assert len(s.deck) == deck and len(set(s.deck)) == deck
    v = game.view(s, 0)
    assert len(v["next_line"]) == line
    assert v["deck_remaining"] == deck - line
    assert "deck" not in v


def test_first_line_is_sorted_ascending(game: Kingdomino) -> None:
    """rules/kingdomino.md §2.3: the line is sorted by number ascending."""
    for seed in range(20):
        s = game.setup({}, 4, seed)
        assert s.nxt == sorted(s.nxt)
        assert sorted(s.nxt) == sorted(s.deck[:4])


def test_starting_tile_may_end_anywhere_in_the_frame(game: Kingdomino, kingdom) -> None:
    """rules/kingdomino.md §2.2: the castle is only constrained by the frame — a kingdom that
    grows four squares to the right and down is legal, leaving the castle in a corner."""
    k = kingdom("""
        C  w0 w0 w0 w0
        .  .  .  .  w0
        .  .  .  .  w0
    """)
    s, seat = at_place_step(game, 4, kingdom=k, domino=1)  # 1 = wheat/wheat
    legal = placements(game, s, seat)
    assert (4, 3, "S") in legal  # rows 0..4: five rows, the castle ends in the corner
    assert (3, 3, "E") in legal  # same, horizontal
    assert (-1, 0, "W") not in legal  # columns -2..4: seven wide
    assert (0, -1, "N") in legal  # rows -2..2: five rows
    assert (-1, 0, "S") not in legal  # columns -1..4: six wide


def test_first_draft_order_is_random_over_all_kings(game: Kingdomino) -> None:
    """rules/kingdomino.md §2.4 and §9.3: all kings in play are put in a random order (by
    default also with 2 players); each king claims one unclaimed domino in that order."""
    firsts = Counter(game.setup({}, 4, seed).draft_order[0] for seed in range(200))
    assert set(firsts) == {0, 1, 2, 3}
    orders2 = {tuple(game.setup({}, 2, seed).draft_order) for seed in range(200)}
    assert len(orders2) == 6  # every arrangement of A, A, B, B occurs
    s = game.setup({}, 3, 3)
    for expected_seat in s.draft_order:
        assert game.to_act(s) == {expected_seat}
        claim = game.legal_actions(s, expected_seat)[-1]
        game.apply(s, expected_seat, claim)
    assert s.phase == PLAY


def test_first_draft_abba_option(game: Kingdomino) -> None:
    """rules/kingdomino.md §9.3: option first_draft=abba gives BGA's A, B, B, A."""
    for seed in range(20):
        order = game.setup({"first_draft": "abba"}, 2, seed).draft_order
        a, b = order[0], 1 - order[0]
        assert order == [a, b, b, a]


def test_each_king_claims_an_unclaimed_domino(game: Kingdomino) -> None:
    """rules/kingdomino.md §2.4: a claimed domino cannot be claimed again."""
    s = game.setup({}, 4, 2)
    (seat,) = game.to_act(s)
    first = s.nxt[0]
    game.apply(s, seat, Claim(first))
    (seat2,) = game.to_act(s)
    before = s.clone()
    with pytest.raises(IllegalAction, match="already claimed"):
        game.apply(s, seat2, Claim(first))
    assert s == before
    assert Claim(first) not in game.legal_actions(s, seat2)


# ---- §3 Round ----------------------------------------------------------------------------
def test_claimed_line_becomes_current_and_a_new_line_is_drawn(game: Kingdomino) -> None:
    """rules/kingdomino.md §3.1: after the draft the claimed line becomes current and a new
    line (sorted) is revealed, until the deck is empty."""
    s = game.setup({}, 4, 5)
    first_line = list(s.nxt)
    play_draft(game, s)
    assert s.cur == first_line
    assert s.nxt == sorted(s.deck[4:8])
    assert s.round == 1


def test_kings_act_in_line_order_place_then_claim(game: Kingdomino) -> None:
    """rules/kingdomino.md §3.2: kings act from the lowest-numbered domino of the current line;
    each places (a) then claims in the next line (b)."""
    s = game.setup({}, 4, 11)
    play_draft(game, s)
    order = []
    for slot in range(4):
        (seat,) = game.to_act(s)
        assert seat == s.cur_owner[slot]
        order.append(s.cur[slot])
        assert s.step == 0
        legal = game.legal_actions(s, seat)
        assert all(isinstance(a, (Place, Discard)) for a in legal)
        game.apply(s, seat, legal[0])
        legal = game.legal_actions(s, seat)
        assert legal and all(isinstance(a, Claim) for a in legal)
        game.apply(s, seat, legal[0])
    assert order == sorted(order)
    assert s.round == 2


def test_turn_order_follows_the_claimed_numbers(game: Kingdomino) -> None:
    """rules/kingdomino.md §3.2: who claimed the lowest domino of the new line acts first next
    round, whoever drafted first."""
    s = game.setup({}, 4, 3)
    play_draft(game, s)
    claims = {}
    for _ in range(4):
        (seat,) = game.to_act(s)
        game.apply(s, seat, game.legal_actions(s, seat)[0])
        claim = game.legal_actions(s, seat)[-1]  # highest free number
        claims[claim.domino] = seat
        game.apply(s, seat, claim)
    expected = [claims[n] for n in sorted(claims)]
    actual = []
    for _ in range(4):
        (seat,) = game.to_act(s)
        actual.append(seat)
        game.apply(s, seat, game.legal_actions(s, seat)[0])
        game.apply(s, seat, game.legal_actions(s, seat)[0])
    assert actual == expected


def test_final_round_has_no_claims(game: Kingdomino) -> None:
    """rules/kingdomino.md §3.2 b: claiming is skipped in the final round."""
    s = game.setup({}, 2, 4)
    while not (s.phase == PLAY and not s.nxt):
        (seat,) = game.to_act(s)
        game.apply(s, seat, game.legal_actions(s, seat)[0])
    assert s.round == 6
    for _ in range(4):
        (seat,) = game.to_act(s)
        legal = game.legal_actions(s, seat)
        assert all(not isinstance(a, Claim) for a in legal)
        game.apply(s, seat, legal[0])
    assert s.phase == OVER


def test_two_players_act_once_per_king(game: Kingdomino) -> None:
    """rules/kingdomino.md §3.3: with 2 players each player acts once per king (twice a round)."""
    s = game.setup({}, 2, 9)
    play_draft(game, s)
    turns: Counter[int] = Counter()
    for _ in range(4):
        (seat,) = game.to_act(s)
        turns[seat] += 1
        game.apply(s, seat, game.legal_actions(s, seat)[0])
        game.apply(s, seat, game.legal_actions(s, seat)[0])
    assert turns == {0: 2, 1: 2}


def test_three_players_bga_draft_discards_the_unclaimed_domino(game: Kingdomino) -> None:
    """rules/kingdomino.md §3.3 and §9.1: 3 players with the BGA draft use lines of 4; the one
    domino nobody claims is discarded."""
    s = game.setup({"three_player_draft": "bga"}, 3, 2)
    line = list(s.nxt)
    play_draft(game, s)
    unclaimed = [n for n, o in zip(line, s.cur_owner, strict=True) if o < 0]
    assert len(unclaimed) == 1
    assert s.discarded == unclaimed
    assert game.view(s, None)["discarded"] == unclaimed
    # the unclaimed slot is skipped: three kings act this round
    seen = []
    while s.round == 1:
        (seat,) = game.to_act(s)
        seen.append(seat)
        game.apply(s, seat, game.legal_actions(s, seat)[0])
        game.apply(s, seat, game.legal_actions(s, seat)[0])
    assert sorted(seen) == [0, 1, 2]


def test_three_players_printed_draft(game: Kingdomino) -> None:
    """rules/kingdomino.md §9.1 default: 3 players use 36 dominoes in lines of 3, none discarded."""
    s = game.setup({}, 3, 2)
    play_draft(game, s)
    assert len(s.cur) == 3 and all(o >= 0 for o in s.cur_owner)
    assert s.discarded == []


# ---- §4 Placement ------------------------------------------------------------------------
def test_placement_must_connect_to_castle_or_same_terrain(game: Kingdomino, kingdom) -> None:
    """rules/kingdomino.md §4.1: at least one square touches the castle or a square of the same
    terrain; a domino touching only other terrains is illegal, with a reason."""
    k = kingdom("C w0 w0")
    s, seat = at_place_step(game, 4, kingdom=k, domino=17)  # 17 = forest/lake
    legal = placements(game, s, seat)
    assert (0, -1, "N") in legal  # forest half above the castle
    assert (-1, 0, "W") in legal  # forest half left of the castle
    assert (3, 0, "E") not in legal  # touches only wheat
    before = s.clone()
    with pytest.raises(IllegalAction, match=r"rule 4\.1"):
        game.apply(s, seat, Place(3, 0, "E"))
    assert s == before
    s2, seat2 = at_place_step(game, 4, kingdom=k, domino=13)  # 13 = wheat/forest
    assert (3, 0, "E") in placements(game, s2, seat2)  # wheat half joins the wheat


def test_either_half_may_make_the_connection(game: Kingdomino, kingdom) -> None:
    """rules/kingdomino.md §4.1: the second half alone may provide the connection."""
    k = kingdom("C . l0")
    s, seat = at_place_step(game, 4, kingdom=k, domino=14)  # 14 = wheat/lake
    legal = placements(game, s, seat)
    # wheat at (3, -1), lake at (2, -1) above the existing lake: only the lake half connects
    assert (3, -1, "W") in legal
    assert (3, -2, "W") not in legal


def test_both_orientations_and_both_ways_round(game: Kingdomino) -> None:
    """rules/kingdomino.md §4: horizontal or vertical, either way round. On an empty kingdom a
    domino of two different terrains has exactly the placements that put one half beside the
    castle: 4 neighbours × 3 directions away from the castle × 2 halves = 24."""
    s, seat = at_place_step(game, 4, kingdom=new_kingdom(6), domino=13)
    legal = placements(game, s, seat)
    assert len(legal) == 24
    assert {d for _, _, d in legal} == {"E", "S", "W", "N"}
    assert (1, 0, "E") in legal and (2, 0, "W") in legal  # same squares, halves swapped
    game.apply(s, seat, Place(2, 0, "W"))
    v = game.view(s, None)["kingdoms"][seat]
    cells = {(q["x"], q["y"]): q["terrain"] for q in v["squares"]}
    assert cells == {(2, 0): "wheat", (1, 0): "forest"}


def test_kingdom_must_fit_5x5(game: Kingdomino, kingdom) -> None:
    """rules/kingdomino.md §4.2: after placement the kingdom fits inside 5×5."""
    k = kingdom("w0 w0 C w0 w0")
    s, seat = at_place_step(game, 4, kingdom=k, domino=1)
    legal = placements(game, s, seat)
    assert (2, 1, "S") in legal and (2, -1, "N") in legal
    assert (3, 0, "E") not in legal and (-3, 0, "W") not in legal
    with pytest.raises(IllegalAction, match=r"7×1, larger than 5×5 \(rule 4\.2\)"):
        game.apply(s, seat, Place(3, 0, "E"))


def test_mighty_duel_frame_is_7x7(game: Kingdomino, kingdom) -> None:
    """rules/kingdomino.md §4.2 and §7 Mighty Duel: the frame is 7×7."""
    k = kingdom("w0 w0 w0 C w0 w0")
    s, seat = at_place_step(game, 2, {"mighty_duel": True}, kingdom=k, domino=1)
    legal = placements(game, s, seat)
    assert (3, 0, "N") in legal  # vertical at the right end: still 7 wide
    assert (3, 0, "E") not in legal  # would make it 8 wide
    assert (-4, 0, "N") in legal
    assert s.cfg.frame == 7 and s.cfg.rounds == 12


def test_occupied_squares_are_refused(game: Kingdomino, kingdom) -> None:
    """rules/kingdomino.md §4: a domino goes on two empty squares."""
    k = kingdom("C w0 w0")
    s, seat = at_place_step(game, 4, kingdom=k, domino=1)
    with pytest.raises(IllegalAction, match="not empty"):
        game.apply(s, seat, Place(1, 0, "E"))
    with pytest.raises(IllegalAction, match="not empty"):
        game.apply(s, seat, Place(-1, 0, "E"))  # second half on the castle


def test_discard_only_when_no_legal_placement(game: Kingdomino, kingdom) -> None:
    """rules/kingdomino.md §3.2 a and §4.3: discarding is allowed if and only if the domino has
    no legal placement; then it is the only legal action."""
    s, seat = at_place_step(game, 4, kingdom=kingdom("C w0"), domino=1)
    assert DISCARD not in game.legal_actions(s, seat)
    before = s.clone()
    with pytest.raises(IllegalAction, match=r"may not be discarded \(rule 4\.3\)"):
        game.apply(s, seat, DISCARD)
    assert s == before
    # a kingdom boxed in to one row of five: a swamp/swamp domino touches no swamp and the
    # castle's free neighbours are above and below... fill them with other terrains
    boxed = kingdom("""
        f0 f0 l0 f0 f0
        w0 w0 C  w0 w0
        f0 f0 l0 f0 f0
        m0 m0 g0 m0 m0
        m0 m0 g0 m0 m0
    """)
    s, seat = at_place_step(game, 4, kingdom=boxed, domino=12)  # 12 = swamp/swamp
    assert game.legal_actions(s, seat) == [DISCARD]
    game.apply(s, seat, DISCARD)
    assert 12 in s.discarded
    assert boxed == s.kingdoms[seat]


def test_a_full_kingdom_must_discard(game: Kingdomino, kingdom) -> None:
    """rules/kingdomino.md §4.3: a complete 5×5 kingdom has no room, so any domino is discarded."""
    full = kingdom("""
        w0 w0 w0 w0 w0
        w0 w0 w0 w0 w0
        w0 w0 C  w0 w0
        w0 w0 w0 w0 w0
        w0 w0 w0 w0 w0
    """)
    s, seat = at_place_step(game, 4, kingdom=full, domino=1)
    assert game.legal_actions(s, seat) == [DISCARD]


def test_discard_and_claim_out_of_step_are_explained(game: Kingdomino) -> None:
    """rules/kingdomino.md §3.2: place (a) comes before claim (b)."""
    s, seat = at_place_step(game, 4)
    with pytest.raises(IllegalAction, match="place domino"):
        game.apply(s, seat, Claim(s.nxt[0]))
    game.apply(s, seat, game.legal_actions(s, seat)[0])
    with pytest.raises(IllegalAction, match="claim a domino"):
        game.apply(s, seat, Discard())


def test_reveals_marks_the_actions_that_turn_up_a_new_line(game: Kingdomino) -> None:
    """rules/kingdomino.md §3.1 and §8: the last claim of the first draft and the last action of
    each round (but the final one) reveal a new line from the hidden deck; nothing else does, so
    the server's undo may cross every other action."""
    s = game.setup({}, 2, 6)
    revealing = []
    while not game.is_over(s):
        (seat,) = game.to_act(s)
        action = game.legal_actions(s, seat)[0]
        before = game.clone(s)
        game.apply(s, seat, action)
        if game.reveals(before, seat, action, s):
            revealing.append((before.round, before.deck_pos))
    assert revealing == [(r, 4 * (r + 1)) for r in range(0, 5)]
