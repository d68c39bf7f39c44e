"""Kami rules (rules/kami.md part A and the part C rulings), one or more tests per section."""

from __future__ import annotations

import itertools

import pytest
from kami_helpers import PASS, act, cards, play, position

from ludoteca.engine.errors import IllegalAction
from ludoteca.engine.rng import Rng
from ludoteca.games.kami.actions import PLAYS, Play
from ludoteca.games.kami.components import (
    COPIES,
    DECK_SIZE,
    EMPRESS,
    NAMES,
    POINTS,
    SOLDIER,
    count,
    pack,
    unpack,
)
from ludoteca.games.kami.rules import GAME, opening_draw
from ludoteca.games.kami.scoring import add_points
from ludoteca.games.kami.state import DECIDE, DECLARE, FACE_DOWN, OVER, PLAY


def legal_json(s, seat):
    return [a.to_json() for a in GAME.legal_actions(s, seat)]


# ---- A1 cards -------------------------------------------------------------------------------
def test_a1_deck_has_32_cards_with_the_printed_counts_and_points() -> None:
    """rules/kami.md A1: 10 Soldiers (1), 4 Spears, 4 Horsemen (2), 4+4 Dragons (3),
    2 Towers, 2 Fools (4), 2 Empresses (5)."""
    assert DECK_SIZE == 32
    assert dict(zip(NAMES, COPIES, strict=True)) == {
        "soldier": 10, "spear": 4, "horseman": 4, "silver": 4, "gold": 4,
        "tower": 2, "fool": 2, "empress": 2,
    }
    assert POINTS == (1, 2, 2, 3, 3, 4, 4, 5)
    assert unpack(pack([0, 7, 0, 3])) == [0, 0, 3, 7]


# ---- A2 seating, teams, direction -----------------------------------------------------------
def test_a2_1_play_moves_clockwise() -> None:
    """rules/kami.md A2.1: after a lead by seat 3 of 4, seat 0 answers first, then 1, then 2."""
    s = position(4, {3: "gold silver soldier soldier"}, first=3)
    act(s, 3, play("gold", "silver"))
    assert GAME.to_act(s) == {0}
    act(s, 0, PASS)
    assert GAME.to_act(s) == {1}
    act(s, 1, PASS)
    assert GAME.to_act(s) == {2}


def test_a2_2_four_players_score_as_partners_opposite() -> None:
    """rules/kami.md A2.2: seats 0 & 2 and 1 & 3 are teams; points go to the team."""
    s = position(4, {2: "gold silver"}, first=2)
    act(s, 2, play("gold", "silver"))
    assert s.scores == [3, 0]
    assert s.cfg.side_of == (0, 1, 0, 1)


def test_a2_2_two_and_three_players_play_alone() -> None:
    """rules/kami.md A2.2: with 2 or 3 players everyone scores alone."""
    s = position(3, {1: "gold silver"}, first=1)
    act(s, 1, play("gold", "silver"))
    assert s.scores == [0, 3, 0]


def test_a2_3_first_player_is_the_highest_drawn_card() -> None:
    """rules/kami.md A2.3: each player draws a card; the highest value is first player, and the
    draw is public."""
    for seed in range(40):
        s = GAME.setup({}, 4, seed=seed)
        last = s.draws[-1]
        best = max(POINTS[t] for _, t in last)
        winners = [seat for seat, t in last if POINTS[t] == best]
        assert winners == [s.first]
        view = GAME.view(s, 1)
        assert view["draws"][-1] == [{"seat": p, "card": NAMES[t]} for p, t in last]


def test_c5_tied_players_draw_again_among_themselves() -> None:
    """rules/kami.md C5 (and A2.3 "redraw ties"): only the tied players draw again."""
    seen_redraw = False
    for seed in range(200):
        draws, first = opening_draw(4, Rng(seed))
        for before, after in itertools.pairwise(draws):
            best = max(POINTS[t] for _, t in before)
            tied = [p for p, t in before if POINTS[t] == best]
            assert len(tied) > 1
            assert [p for p, _ in after] == tied
            seen_redraw = True
        assert len({p for p, _ in draws[-1] if POINTS[dict(draws[-1])[p]] ==
                    max(POINTS[t] for _, t in draws[-1])}) == 1
        assert first in dict(draws[-1])
    assert seen_redraw


# ---- A3 deal --------------------------------------------------------------------------------
def test_a3_four_players_get_8_cards_each_and_use_the_whole_deck() -> None:
    """rules/kami.md A3: 4 players, 8 cards each, all 32 used."""
    s = GAME.setup({}, 4, seed=5)
    assert s.sizes == [8, 8, 8, 8]
    total = sorted(t for h in s.hands for t in unpack(h))
    assert total == sorted(t for t in range(8) for _ in range(COPIES[t]))


def test_a3_three_players_get_10_and_the_2nd_and_3rd_player_each_look_at_one() -> None:
    """rules/kami.md A3: 3 players, 10 cards each, 2 unused cards face down; the player left of
    the first player looks at one, the next player at the other; they stay out of play."""
    s = GAME.setup({}, 3, seed=7)
    assert s.sizes == [10, 10, 10]
    assert len(s.unused) == 2
    assert s.looked[s.first] == -1
    assert s.looked[(s.first + 1) % 3] == 0
    assert s.looked[(s.first + 2) % 3] == 1
    second = (s.first + 1) % 3
    assert GAME.view(s, second)["looked"] == NAMES[s.unused[0]]
    assert GAME.view(s, (s.first + 2) % 3)["looked"] == NAMES[s.unused[1]]
    assert GAME.view(s, s.first)["looked"] is None
    assert GAME.view(s, None)["looked"] is None


def test_a3_two_players_get_8_cards_and_8_mercenary_stacks() -> None:
    """rules/kami.md A3: 2 players, 8 cards each; the other 16 form 8 stacks of one face-down
    card under one face-up card."""
    s = GAME.setup({}, 2, seed=3)
    assert s.sizes == [8, 8]
    assert len(s.merc_up) == len(s.merc_down) == 8
    assert min(s.merc_up) >= 0 and min(s.merc_down) >= 0
    view = GAME.view(s, 0)
    assert [m["top"] for m in view["mercenaries"]] == [NAMES[t] for t in s.merc_up]
    assert all(m["below"] for m in view["mercenaries"])


# ---- A4 turn structure ----------------------------------------------------------------------
def test_a4_1_a_lead_is_one_face_down_defense_and_one_face_up_attack() -> None:
    """rules/kami.md A4.1: the lead's defense is face down (hidden to others), the attack is
    face up."""
    s = position(4, {0: "tower gold soldier soldier"})
    act(s, 0, play("tower", "gold"))
    assert s.defense[0] == [5 | FACE_DOWN]
    assert GAME.view(s, 1)["defense"][0] == [{"card": None, "face_up": False, "mercenary": False}]
    assert GAME.view(s, 0)["defense"][0][0]["card"] == "tower"
    assert GAME.view(s, 2)["attack_lines"][0] == [{"card": "gold", "mercenary": False}]


def test_a4_1_a_face_down_empress_does_not_count_as_visible() -> None:
    """rules/kami.md A4.1 / A4.5: a face-down Empress never unlocks the other Empress."""
    s = position(4, {0: "empress gold soldier soldier", 1: "empress tower soldier soldier"})
    act(s, 0, play("empress", "gold"))
    assert not s.unlocked
    s.turn = s.attacker = 1
    assert play("tower", "empress") not in legal_json(s, 1)
    with pytest.raises(IllegalAction, match=r"A4\.5"):
        act(s, 1, play("tower", "empress"))


def test_a4_2_pass_is_allowed_even_when_able_to_counter() -> None:
    """rules/kami.md A4.2: passing is always allowed, even holding an identical card."""
    s = position(4, {0: "gold silver soldier soldier", 1: "silver horseman spear spear"})
    act(s, 0, play("gold", "silver"))
    assert PASS in legal_json(s, 1)
    assert play("silver", "horseman") in legal_json(s, 1)
    act(s, 1, PASS)
    assert s.turn == 2


def test_a4_2_a_counter_needs_an_identical_card_and_makes_a_new_attacker() -> None:
    """rules/kami.md A4.2: counter face up with an identical card, then attack; you become the
    attacker."""
    s = position(4, {0: "gold silver soldier soldier", 1: "silver horseman gold spear"})
    act(s, 0, play("gold", "silver"))
    assert all(a["defense"] == "silver" for a in legal_json(s, 1) if a["type"] == "play")
    with pytest.raises(IllegalAction, match="does not counter"):
        act(s, 1, play("gold", "horseman"))
    act(s, 1, play("silver", "horseman"))
    assert s.defense[1] == [3]  # face up
    assert s.attacker == 1 and NAMES[s.attack] == "horseman" and s.turn == 2


def test_a4_2_you_may_counter_your_own_partner() -> None:
    """rules/kami.md A4.2: partners may counter each other."""
    s = position(4, {0: "gold silver soldier soldier", 2: "silver horseman gold spear"})
    act(s, 0, play("gold", "silver"))
    act(s, 1, PASS)
    act(s, 2, play("silver", "gold"))
    assert s.attacker == 2


def test_a4_3_all_pass_returns_the_lead_and_the_attacker_cannot_pass() -> None:
    """rules/kami.md A4.3: each other player answers once; if all pass, the attacker leads again
    and may not pass."""
    s = position(4, {0: "gold silver soldier soldier spear spear"})
    act(s, 0, play("gold", "silver"))
    for seat in (1, 2, 3):
        act(s, seat, PASS)
    assert GAME.to_act(s) == {0}
    assert GAME.view(s, 0)["leading"]
    assert PASS not in legal_json(s, 0)
    with pytest.raises(IllegalAction, match=r"A4\.3"):
        act(s, 0, PASS)
    act(s, 0, play("soldier", "soldier"))
    assert s.defense[0] == [4 | FACE_DOWN, 0 | FACE_DOWN]


def test_a4_4_the_empress_may_not_counter_a_soldier_or_a_spear() -> None:
    """rules/kami.md A4.4: the Empress counters anything except a Soldier or a Spear."""
    for attack in ("soldier", "spear"):
        s = position(4, {0: f"gold {attack} soldier soldier", 1: "empress tower gold silver"})
        act(s, 0, play("gold", attack))
        assert legal_json(s, 1) == [PASS]
        with pytest.raises(IllegalAction, match="Empress cannot counter"):
            act(s, 1, play("empress", "tower"))
    for attack in ("horseman", "silver", "gold", "tower", "fool"):
        s = position(4, {0: f"gold {attack} soldier soldier", 1: "empress tower gold silver"})
        act(s, 0, play("gold", attack))
        act(s, 1, play("empress", "tower"))
        assert s.defense[1] == [EMPRESS]


def test_a4_4_an_empress_attack_is_countered_only_by_the_other_empress() -> None:
    """rules/kami.md A4.4: only an Empress answers an Empress attack."""
    s = position(4, {0: "gold empress", 1: "tower fool gold silver"}, unlocked=True)
    s.hands[0] = pack(cards("gold empress soldier soldier"))
    s.sizes[0] = 4
    act(s, 0, play("gold", "empress"))
    assert legal_json(s, 1) == [PASS]
    s2 = position(4, {0: "gold empress soldier soldier", 1: "empress fool gold silver"},
                  unlocked=True)
    act(s2, 0, play("gold", "empress"))
    assert play("empress", "fool") in legal_json(s2, 1)


def test_a4_5_empress_attack_needs_the_other_face_up_or_the_last_card() -> None:
    """rules/kami.md A4.5: an Empress attack is illegal while the other Empress is hidden or in
    hand, unless it is the last card; legal once the other is face up on a defense line."""
    s = position(4, {0: "gold empress soldier soldier"})
    assert not any(a["attack"] == "empress" for a in legal_json(s, 0))
    with pytest.raises(IllegalAction, match=r"A4\.5"):
        act(s, 0, play("gold", "empress"))
    # the last card: two cards left, the Empress may be the round-winning attack
    s = position(4, {0: "gold empress"})
    assert play("gold", "empress") in legal_json(s, 0)
    # the other Empress face up on a defense line (countered with)
    s = position(4, {0: "gold tower soldier soldier", 1: "empress gold silver silver",
                     2: "empress soldier spear spear"})
    act(s, 0, play("gold", "tower"))
    act(s, 1, play("empress", "gold"))
    assert s.unlocked
    act(s, 2, PASS)
    act(s, 3, PASS)
    act(s, 0, PASS)
    s.turn = s.attacker = 2
    assert play("soldier", "empress") in legal_json(s, 2)


def test_a4_5_an_unlocked_empress_attack_cannot_be_answered() -> None:
    """rules/kami.md A4.5 consequence: under (a) nobody can answer, so the attacker leads again."""
    others = "gold tower spear fool"
    s = position(4, {0: "gold empress soldier soldier", 1: others, 2: others, 3: others},
                 unlocked=True)
    act(s, 0, play("gold", "empress"))
    for seat in (1, 2, 3):
        assert legal_json(s, seat) == [PASS]
        act(s, seat, PASS)
    assert s.turn == s.attacker == 0


def test_a4_6_each_turn_plays_two_cards_and_one_card_cannot_counter() -> None:
    """rules/kami.md A4.6: a play is a defense plus an attack, so a 1-card hand cannot counter
    (2 players with no mercenary left)."""
    s = position(2, {0: "gold silver soldier", 1: "silver"}, mercs=[(None, None)] * 8)
    act(s, 0, play("gold", "silver"))
    assert legal_json(s, 1) == [PASS]
    with pytest.raises(IllegalAction):
        act(s, 1, play("silver", "silver"))
    s = position(4, {0: "gold silver soldier soldier"})
    act(s, 0, play("gold", "silver"))
    assert s.sizes[0] == 2


def test_a4_6_the_round_cannot_end_on_a_defense_card() -> None:
    """rules/kami.md A4.6 / A5.4: with mercenaries, a last hand card may not go to the defense
    while the attack comes from a stack."""
    s = position(2, {0: "gold", 1: "silver silver"},
                 mercs=[("tower", None)] + [(None, None)] * 7)
    assert play("gold", "merc:0") not in legal_json(s, 0)
    with pytest.raises(IllegalAction, match="attack card from your hand"):
        act(s, 0, play("gold", "merc:0"))
    assert play("merc:0", "gold") in legal_json(s, 0)


# ---- A5 end of round and scoring ------------------------------------------------------------
def test_a5_1_and_a5_2_last_card_ends_the_round_and_scores_its_points() -> None:
    """rules/kami.md A5.1-A5.2: playing the last card ends the round at once; the player's side
    scores that attack card's points."""
    s = position(4, {0: "gold silver soldier soldier", 1: "silver tower"})
    act(s, 0, play("gold", "silver"))
    act(s, 1, play("silver", "tower"))
    assert s.scores == [0, 4]
    assert s.history[-1][:4] == (1, 1, "out", 5)
    assert s.round == 2


def test_a5_3_master_strike_doubles_a_lead_with_identical_hidden_defense() -> None:
    """rules/kami.md A5.3: last two cards Empress + Empress after all passed: hidden Empress +
    Empress attack = 10 points."""
    s = position(4, {0: "empress empress"})
    act(s, 0, play("empress", "empress"))
    assert s.scores == [10, 0]
    assert s.history[-1][4] is True


def test_a5_3_master_strike_only_on_a_lead() -> None:
    """rules/kami.md A5.3: a face-up counter followed by an identical final attack is not
    doubled."""
    s = position(4, {0: "gold silver soldier soldier", 1: "silver silver"})
    act(s, 0, play("gold", "silver"))
    act(s, 1, play("silver", "silver"))
    assert s.scores == [0, 3]
    assert s.history[-1][4] is False
    # a lead whose hidden defense differs from the attack is not doubled either
    s = position(4, {0: "gold silver"})
    act(s, 0, play("gold", "silver"))
    assert s.scores == [3, 0]


def test_a5_4_mercenary_top_card_is_played_and_the_stack_flips() -> None:
    """rules/kami.md A5.4: a mercenary's face-up card is played immediately (never into the
    hand), then the card beneath turns face up."""
    s = position(2, {0: "gold silver soldier"},
                 mercs=[("tower", "fool")] + [("spear", "horseman")] * 7)
    act(s, 0, play("merc:0", "gold"))
    assert s.merc_up[0] == 6 and s.merc_down[0] == -1
    assert s.defense[0] == [5 | FACE_DOWN | 16]
    assert s.sizes[0] == 2 and count(s.hands[0], 5) == 0
    view = GAME.view(s, 1)
    assert view["mercenaries"][0] == {"top": "fool", "below": False}
    # the mercenary was seen face up, so its face-down use is known to everyone
    assert view["defense"][0] == [{"card": "tower", "face_up": False, "mercenary": True}]
    s.turn = s.attacker = 0
    act(s, 0, play("silver", "merc:0"))
    assert s.merc_up[0] == -1
    assert s.attacks[0][-1] == 6 | 16


def test_a5_4_a_one_card_hand_may_counter_with_a_mercenary_defense() -> None:
    """rules/kami.md A5.4: a 1-card hand may still counter by using a mercenary for the
    defense, and go out with the hand card."""
    s = position(2, {0: "gold silver soldier", 1: "tower"},
                 mercs=[("silver", None)] + [(None, None)] * 7)
    act(s, 0, play("gold", "silver"))
    assert play("merc:0", "tower") in legal_json(s, 1)
    act(s, 1, play("merc:0", "tower"))
    assert s.scores == [0, 4]


def test_a5_5_three_players_score_individually() -> None:
    """rules/kami.md A5.5: 3 players play like 4 but score alone with 10-card hands."""
    s = position(3, {2: "tower tower"}, first=2)
    act(s, 2, play("tower", "tower"))
    assert s.scores == [0, 0, 8]
    assert GAME.outcome(s) is None


# ---- A6 demoralized ------------------------------------------------------------------------
def _deal_with_soldiers(players: int, seat: int, soldiers: int, options=None):
    for seed in range(2000):
        s = GAME.setup(options or {}, players, seed=seed)
        if count(s.hands[seat], SOLDIER) == soldiers:
            return s
    raise AssertionError("no such deal")


def test_a6_revealing_is_optional_and_asked_of_everyone() -> None:
    """rules/kami.md A6: a player with 5+ Soldiers *may* reveal; every seat is asked, so being
    asked says nothing about one's hand."""
    s = GAME.setup({}, 4, seed=1)
    assert s.phase == DECLARE and GAME.to_act(s) == {s.first}
    for _ in range(4):
        seat = s.asked
        acts = [a.to_json() for a in GAME.legal_actions(s, seat)]
        if count(s.hands[seat], SOLDIER) >= 5:
            assert {"type": "declare", "reveal": True} in acts
        else:
            assert acts == [{"type": "declare", "reveal": False}]
            with pytest.raises(IllegalAction, match="5 or more Soldiers"):
                act(s, seat, {"type": "declare", "reveal": True})
        act(s, seat, {"type": "declare", "reveal": False})
    assert s.phase == PLAY


def test_a6_partner_cancels_and_the_round_is_redealt_with_the_same_first_player() -> None:
    """rules/kami.md A6: the holder reveals; the partner decides to cancel (redeal, same first
    player) or to play on."""
    s = _deal_with_soldiers(4, 0, 5)
    first = s.first
    while s.asked != 0:
        act(s, s.asked, {"type": "declare", "reveal": False})
    act(s, 0, {"type": "declare", "reveal": True})
    assert s.phase == DECIDE and GAME.to_act(s) == {2}
    assert GAME.view(s, 1)["revealed"][0] == 5
    hands = s.hands[:]
    act(s, 2, {"type": "decide", "redeal": True})
    assert s.phase == DECLARE and s.first == first and s.hands != hands
    assert s.round == 1 and s.scores == [0, 0]
    assert s.revealed == [0, 0, 0, 0]


def test_a6_partner_plays_on() -> None:
    """rules/kami.md A6: play on keeps the deal; the revealed Soldiers stay public."""
    s = _deal_with_soldiers(4, 1, 6)
    while s.asked != 1:
        act(s, s.asked, {"type": "declare", "reveal": False})
    hands = s.hands[:]
    act(s, 1, {"type": "declare", "reveal": True})
    act(s, 3, {"type": "decide", "redeal": False})
    assert s.hands == hands and s.revealed[1] == 6
    while s.phase == DECLARE:
        act(s, s.asked, {"type": "declare", "reveal": False})
    assert s.phase == PLAY and s.turn == s.first


def test_a6_not_used_with_two_or_three_players() -> None:
    """rules/kami.md A6: only with 4 players; the option is refused elsewhere."""
    for players in (2, 3):
        assert GAME.setup({}, players, seed=0).phase == PLAY
    from ludoteca.engine.errors import OptionError
    with pytest.raises(OptionError, match="only for 4"):
        GAME.setup({"demoralized": False}, 2)
    assert GAME.setup({"demoralized": False}, 4).phase == PLAY


def test_c4_holders_are_asked_clockwise_from_the_first_player() -> None:
    """rules/kami.md C4: asked in clockwise order from the first player; each partner decides
    before the next player is asked."""
    s = _deal_with_soldiers(4, 2, 5)
    order = []
    while s.phase in (DECLARE, DECIDE):
        seat = next(iter(GAME.to_act(s)))
        order.append((s.phase, seat))
        if s.phase == DECIDE:
            act(s, seat, {"type": "decide", "redeal": False})
        else:
            act(s, seat, {"type": "declare", "reveal": seat == 2})
    seats = [(s.first + i) % 4 for i in range(4)]
    expected = []
    for seat in seats:
        expected.append((DECLARE, seat))
        if seat == 2:
            expected.append((DECIDE, 0))
    assert order == expected


# ---- A7 next round --------------------------------------------------------------------------
def test_a7_the_round_winner_is_first_player_of_the_next_round() -> None:
    """rules/kami.md A7: the player who went out leads the next round."""
    s = position(4, {0: "gold silver soldier soldier", 3: "silver tower"}, first=0)
    act(s, 0, play("gold", "silver"))
    act(s, 1, PASS)
    act(s, 2, PASS)
    act(s, 3, play("silver", "tower"))
    assert s.first == 3 and s.round == 2
    assert s.phase == PLAY and s.turn == 3


# ---- A8 end modes ---------------------------------------------------------------------------
def test_a8_soldier_mode_ends_at_15_or_more() -> None:
    """rules/kami.md A8: Soldier mode: the first side to reach 15 or more wins at once."""
    s = position(4, {0: "tower tower"}, scores=[12, 14])
    act(s, 0, play("tower", "tower"))
    assert s.phase == OVER and s.scores == [20, 14]
    out = GAME.outcome(s)
    assert out is not None and out.ranks == (1, 3, 1, 3) and out.scores == (20, 14, 20, 14)
    assert out.breakdown[0]["rounds"][-1]["rule"] == "A5.3 Master Strike"
    assert add_points("soldier", 15, 14, 1) == (15, True)


def test_a8_lord_mode_needs_exactly_15_and_subtracts_the_excess() -> None:
    """rules/kami.md A8: Lord mode: exactly 15; above it, new = 15 - (old + gain - 15)."""
    assert add_points("lord", 15, 12, 3) == (15, True)
    assert add_points("lord", 15, 12, 5) == (13, False)
    assert add_points("lord", 15, 14, 10) == (6, False)
    assert add_points("lord", 15, 3, 4) == (7, False)
    s = position(4, {0: "gold silver"}, options={"end_mode": "lord", "demoralized": False},
                 scores=[14, 0])
    act(s, 0, play("gold", "silver"))
    assert s.scores == [13, 0] and s.phase != OVER


def test_a8_kami_mode_needs_exactly_15_and_overshoot_resets_to_0() -> None:
    """rules/kami.md A8: Kami mode: exactly 15; overshooting sets the total back to 0."""
    assert add_points("kami", 15, 12, 3) == (15, True)
    assert add_points("kami", 15, 12, 4) == (0, False)
    s = position(4, {1: "tower fool"}, first=1,
                 options={"end_mode": "kami", "demoralized": False}, scores=[0, 11])
    act(s, 1, play("tower", "fool"))
    assert s.scores == [0, 15] and s.phase == OVER
    assert GAME.outcome(s).winners == (1, 3)
    s = position(4, {1: "tower fool"}, first=1,
                 options={"end_mode": "kami", "demoralized": False}, scores=[0, 12])
    act(s, 1, play("tower", "fool"))
    assert s.scores == [0, 0] and s.phase == PLAY


def test_a8_only_one_side_scores_per_round() -> None:
    """rules/kami.md A8: a round changes one total only, so two sides never win together."""
    s = position(3, {0: "gold silver"}, scores=[5, 5, 5])
    act(s, 0, play("gold", "silver"))
    assert s.scores == [8, 5, 5]


# ---- C rulings ------------------------------------------------------------------------------
def test_c1_two_players_one_card_no_mercenary_must_lead_attack_only() -> None:
    """rules/kami.md C1: 2 players, no mercenary left, one card, must lead: the card is an attack
    with no defense; no Master Strike is possible."""
    s = position(2, {0: "empress", 1: "gold silver"}, mercs=[(None, None)] * 8)
    assert legal_json(s, 0) == [play(None, "empress")]
    act(s, 0, play(None, "empress"))
    assert s.scores == [5, 0]
    assert s.history[-1][4] is False
    # with a mercenary left, the defense must be played (C1 does not apply)
    s = position(2, {0: "gold", 1: "gold silver"}, mercs=[("gold", None)] + [(None, None)] * 7)
    assert play(None, "gold") not in legal_json(s, 0)
    with pytest.raises(IllegalAction, match="C1"):
        act(s, 0, play(None, "gold"))


def test_c2_an_empress_counter_unlocks_the_other_empress_at_once() -> None:
    """rules/kami.md C2: an Empress played face up as a counter unlocks the other Empress,
    including for the attack of that same turn."""
    s = position(4, {0: "gold tower soldier soldier", 1: "empress empress gold silver"})
    act(s, 0, play("gold", "tower"))
    assert play("empress", "empress") in legal_json(s, 1)
    act(s, 1, play("empress", "empress"))
    assert s.unlocked


def test_c3_both_slots_may_be_mercenaries_from_two_different_stacks() -> None:
    """rules/kami.md C3: one turn may use two mercenaries, from two different stacks; the
    round-ending attack still comes from the hand."""
    s = position(2, {0: "gold", 1: "gold silver"},
                 mercs=[("tower", None), ("fool", "spear")] + [(None, None)] * 6)
    assert play("merc:0", "merc:1") in legal_json(s, 0)
    assert play("merc:0", "merc:0") not in legal_json(s, 0)
    with pytest.raises(IllegalAction, match="C3"):
        act(s, 0, play("merc:0", "merc:0"))
    act(s, 0, play("merc:0", "merc:1"))
    assert s.sizes[0] == 1 and s.merc_up[:2] == [-1, 1]


def test_master_strike_counts_a_face_down_mercenary_defense() -> None:
    """rules/kami.md A5.3 with A5.4: a lead's hidden defense may be a mercenary (inferred in
    A5.4); identical to the final hand attack it doubles."""
    s = position(2, {0: "gold"}, mercs=[("gold", None)] + [(None, None)] * 7)
    act(s, 0, play("merc:0", "gold"))
    assert s.scores == [6, 0]


def test_action_play_is_described_for_people() -> None:
    """rules/kami.md A4: actions have readable descriptions (used in error messages)."""
    assert GAME.describe(PLAYS[5][3]) == "defend with Gold Dragon, attack with Silver Dragon"
    assert GAME.describe(Play(-1, 7)) == "attack with Empress (no defense card)"


def test_a4_5_a_new_round_starts_with_the_empress_locked_again() -> None:
    """rules/kami.md A4.5 (a): the unlocking Empress must be face up on a defense line; lines
    are cleared at the end of a round, so the next round starts locked."""
    s = position(4, {0: "gold tower soldier soldier", 1: "empress silver"}, first=0)
    act(s, 0, play("gold", "tower"))
    act(s, 1, play("empress", "silver"))  # unlocks, and goes out
    assert s.round == 2 and not s.unlocked
    assert all(not line for line in s.defense)
