"""Goita (rules/kami.md part B) on the shared engine."""

from __future__ import annotations

import pytest
from kami_helpers import PASS, act, cards, play, position

from ludoteca.engine.errors import IllegalAction, OptionError
from ludoteca.engine.rng import Rng
from ludoteca.games.kami.components import SOLDIER, count, pack
from ludoteca.games.kami.goita import GAME as GOITA
from ludoteca.games.kami.rules import GAME as KAMI
from ludoteca.games.kami.rules import goita_special_hands
from ludoteca.games.kami.state import DECIDE, OVER, PLAY, TYPE_MASK


def legal(s, seat):
    return [a.to_json() for a in GOITA.legal_actions(s, seat)]


def test_b1_four_players_only_target_150_counter_clockwise() -> None:
    """rules/kami.md B1: exactly 4 players in fixed partnerships, 8 each, target 150, play and
    deal run counter-clockwise."""
    with pytest.raises(OptionError, match="4-4 players"):
        GOITA.setup({}, 2)
    s = GOITA.setup({}, 4, seed=2)
    assert s.cfg.target == 150 and s.cfg.side_of == (0, 1, 0, 1)
    assert GOITA.view(s, 0)["direction"] == "counter-clockwise"
    assert s.sizes == [8, 8, 8, 8] or s.phase in (DECIDE, OVER) or s.round > 1


def test_b1_the_winner_of_a_hand_deals_next() -> None:
    """rules/kami.md B1: the hand's winner is the next dealer (leads first)."""
    s = position(goita=True, hands={1: "gold silver"}, first=1)
    act(s, 1, play("gold", "silver"), goita=True)
    assert s.first == 1 or s.phase != PLAY  # a special hand may have decided the next deal
    assert s.history[0][:3] == (1, 1, "out")


def test_b2_answers_run_counter_clockwise() -> None:
    """rules/kami.md B2: after a lead by seat 0, seat 3 answers first, then 2, then 1."""
    s = position(goita=True, hands={0: "gold silver soldier soldier"})
    act(s, 0, play("gold", "silver"), goita=True)
    assert GOITA.to_act(s) == {3}
    act(s, 3, PASS, goita=True)
    assert GOITA.to_act(s) == {2}
    act(s, 2, PASS, goita=True)
    act(s, 1, PASS, goita=True)
    assert GOITA.to_act(s) == {0}


def test_b3_holding_both_kings_unlocks_a_king_attack() -> None:
    """rules/kami.md B3: a king may attack if the player holds both kings (not so in Kami)."""
    s = position(goita=True, hands={0: "empress empress gold soldier"})
    assert play("gold", "empress") in legal(s, 0)
    k = position(hands={0: "empress empress gold soldier"})
    assert play("gold", "empress") not in [a.to_json() for a in KAMI.legal_actions(k, 0)]


def test_b3_a_king_shown_face_up_as_attack_unlocks_the_other() -> None:
    """rules/kami.md B3: a king shown face up, as a receive or an attack, unlocks; a face-down
    king does not."""
    s = position(goita=True, hands={0: "empress empress gold soldier soldier soldier"})
    act(s, 0, play("gold", "empress"), goita=True)
    assert s.unlocked
    s = position(goita=True, hands={0: "empress gold soldier soldier", 3: "empress tower"})
    act(s, 0, play("empress", "gold"), goita=True)
    assert not s.unlocked
    s.hands[3] = pack(cards("empress tower fool fool"))
    s.sizes[3] = 4
    with pytest.raises(IllegalAction):
        act(s, 3, play("gold", "empress"), goita=True)


def test_b3_kings_receive_anything_but_shi_and_gon() -> None:
    """rules/kami.md B3: a king receives any attack except the pawn and the lance."""
    s = position(goita=True, hands={0: "gold spear soldier soldier", 3: "empress tower"})
    act(s, 0, play("gold", "spear"), goita=True)
    assert legal(s, 3) == [PASS]


def test_b4_scores_are_tenfold_and_doubled_on_a_hidden_identical_block() -> None:
    """rules/kami.md B4: the team scores the last attack's value (x10 of Kami), doubled when the
    finishing lead's face-down piece is the same type."""
    s = position(goita=True, hands={2: "gold silver"}, first=2)
    act(s, 2, play("gold", "silver"), goita=True)
    assert s.scores == [30, 0]
    s = position(goita=True, hands={1: "empress empress"}, first=1)
    act(s, 1, play("empress", "empress"), goita=True)
    assert s.scores == [0, 100]


def _special(hand0: str, hand1: str = "gold gold gold gold silver silver silver silver",
             hand2: str = "spear spear spear spear horseman horseman horseman horseman",
             hand3: str = "tower tower fool fool empress empress silver gold"):
    s = position(goita=True, hands={0: hand0, 1: hand1, 2: hand2, 3: hand3})
    s.history = []
    s.scores = [0, 0]
    goita_special_hands(s)
    return s


def test_b5_six_shi_wins_with_the_higher_other_piece_doubled_if_equal() -> None:
    """rules/kami.md B5: 6 Shi win the hand: the higher of the two others, x2 if the same type."""
    s = _special("soldier " * 6 + "tower gold")
    assert s.history[0][2] == "shi6" and s.scores == [40, 0]
    s = _special("soldier " * 6 + "gold gold")
    assert s.scores == [60, 0]


def test_b5_seven_shi_scores_double_the_other_piece_and_eight_score_100() -> None:
    """rules/kami.md B5: 7 Shi: double the value of the other piece; 8 Shi: 100."""
    s = _special("soldier " * 7 + "tower")
    assert s.history[0][2] == "shi7" and s.scores == [80, 0]
    s = _special("soldier " * 8)
    assert s.history[0][2] == "shi8" and s.scores == [100, 0]


def test_b5_five_shi_are_shown_and_the_partner_decides() -> None:
    """rules/kami.md B5: 5 Shi: shown to all; the partner redeals or plays (no question to the
    holder, unlike Kami's optional reveal)."""
    s = _special("soldier " * 5 + "tower gold silver")
    assert s.phase == DECIDE and GOITA.to_act(s) == {2}
    assert GOITA.view(s, 1)["revealed"][0] == 5
    assert legal(s, 2) == [{"type": "decide", "redeal": False}, {"type": "decide", "redeal": True}]
    act(s, 2, {"type": "decide", "redeal": False}, goita=True)
    assert s.phase == PLAY


def test_b5_both_partners_with_five_shi_win_the_game_and_opponents_redeal() -> None:
    """rules/kami.md B5: both partners with 5 Shi win outright; one on each team redeals."""
    s = _special("soldier " * 5 + "tower gold silver", hand2="soldier " * 5 + "gold gold gold")
    assert s.phase == OVER and s.scores == [150, 0]
    assert GOITA.outcome(s).winners == (0, 2)
    s = _special("soldier " * 5 + "tower gold silver", hand1="soldier " * 5 + "gold gold gold")
    assert s.history[0][2] == "redeal" and s.scores == [0, 0]


def test_b6_kami_and_goita_differ_only_where_the_table_says() -> None:
    """rules/kami.md B6: same cards and loop; Goita values x10, counter-clockwise, target 150."""
    k = KAMI.setup({}, 4, seed=1)
    g = GOITA.setup({}, 4, seed=1)
    assert [v * 10 for v in k.cfg.values] == list(g.cfg.values)
    assert (k.cfg.step, g.cfg.step) == (1, -1)
    assert (k.cfg.target, g.cfg.target) == (15, 150)



def test_b5_determinize_never_gives_an_unshown_player_five_shi() -> None:
    """rules/kami.md B5: five Shi are always shown and six or more end the deal at once, so in a
    deal being played a player who showed none was dealt at most 4; determinization must keep
    that (Shi still in hand or face down plus those already played)."""
    checked = 0
    for seed in range(60):
        s = GOITA.setup({}, 4, seed=seed)
        rng = Rng(seed)
        for _ in range(seed % 7):  # some positions a few plies into the deal
            if s.phase == PLAY and s.round == 1:
                seat = s.turn
                acts = GOITA.legal_actions(s, seat)
                GOITA.apply(s, seat, acts[rng.below(len(acts))])
        if s.phase != PLAY:
            continue
        for seat in (None, 0, 1):
            v = GOITA.view(s, seat)
            for _ in range(10):
                d = GOITA.determinize(v, seat, rng)
                for p in range(4):
                    if p != seat and not d.revealed[p]:
                        played = [e & TYPE_MASK for e in d.defense[p] + d.attacks[p]]
                        assert count(d.hands[p], SOLDIER) + played.count(SOLDIER) <= 4
                checked += 1
    assert checked > 500


def test_b3_a_king_may_attack_as_the_final_move() -> None:
    """rules/kami.md B3: the restriction is lifted for the last two pieces: a king may be the
    final attack even with the other king unseen."""
    s = position(goita=True, hands={0: "gold empress"})
    assert play("gold", "empress") in legal(s, 0)
    act(s, 0, play("gold", "empress"), goita=True)
    assert s.scores == [50, 0] and s.history[-1][:4] == (1, 0, "out", 7)


def test_b3_a_king_received_face_up_unlocks_the_other_at_once() -> None:
    """rules/kami.md B3 (with ruling C2 for the same turn): a king shown face up as a receive
    lets the other king attack in that very turn."""
    s = position(goita=True, hands={0: "gold tower soldier soldier",
                                    3: "empress empress silver silver"})
    act(s, 0, play("gold", "tower"), goita=True)
    assert play("empress", "empress") in legal(s, 3)
    act(s, 3, play("empress", "empress"), goita=True)
    assert s.unlocked and s.attacker == 3


def test_b5_a_redeal_keeps_the_same_dealer() -> None:
    """rules/kami.md B5: after a 5-Shi redeal (partner's choice, or one holder on each team)
    the same dealer leads the new hand."""
    s = _special("soldier " * 5 + "tower gold silver")
    s.first = 0
    act(s, 2, {"type": "decide", "redeal": True}, goita=True)
    assert s.history[-1][2] == "redeal" and s.first == 0 and s.round == 1
    s = position(goita=True, first=1, hands={
        0: "gold gold gold gold silver silver silver silver",
        1: "soldier " * 5 + "tower gold silver",
        2: "soldier " * 5 + "gold gold gold",
        3: "spear spear spear spear horseman horseman horseman horseman"})
    s.history = []
    goita_special_hands(s)
    assert s.history[0][2] == "redeal" and s.first == 1 and s.round == 1
