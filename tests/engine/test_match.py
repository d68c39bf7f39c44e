"""The match driver (engine/match.py): sequence numbers per decision, one checked path for people
and bots, refusals that change nothing, records that replay."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ludoteca.bots import make_bot
from ludoteca.engine.errors import (
    GameOver,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    RecordError,
    StaleAction,
)
from ludoteca.engine.match import Match, NoUndo, Step
from ludoteca.games import get_game
from ludoteca.games.buttons.state import PLACE

BUTTONS = get_game("buttons")


def buttons_at_a_shared_step(players: int, seed: int = 0) -> Match:
    """A Buttons match advanced (first legal moves) to a roll that several seats answer."""
    match = Match.new(BUTTONS, {}, players, seed)
    while True:
        seats = sorted(match.to_act())
        if match.state.phase == PLACE and len(seats) >= 2:
            return match
        seat = seats[0]
        match.step(seat, match.legal(seat)[0], match.decision(seat))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_seat_answers_a_simultaneous_step_with_the_seq_it_was_shown(players: int) -> None:
    """rules/buttons.md §3.2 items 2-3: after a roll the active player and every waiting player
    answer at once. Each answers with the seq of the view it was shown, in any order, even after
    others answered; repeating an answer (same seq) is refused and changes nothing."""
    for seed in range(20):
        match = buttons_at_a_shared_step(players, seed)
        shown = match.seq
        seats = sorted(match.to_act())
        assert all(match.decision(s) == shown for s in seats)
        for i, seat in enumerate(reversed(seats)):
            step = match.step(seat, match.legal(seat)[-1], shown)
            assert step.seq == shown + i + 1
            if match.state.phase == PLACE and seat not in match.to_act():
                before = match.state.clone()
                with pytest.raises(StaleAction, match="stale"):
                    match.step(seat, BUTTONS.action_from_json({"type": "decline"}), shown)
                assert match.state == before and match.seq == shown + i + 1
        assert match.seq == shown + len(seats)


def test_a_stale_or_future_seq_is_refused_and_changes_nothing() -> None:
    """A client that answers an older decision (it missed a move) or a number ahead of the match
    is refused with a typed error; the state, record and seq are untouched."""
    game = get_game("kingdomino")
    match = Match.new(game, {}, 2, 3)
    for _ in range(5):
        (seat,) = match.to_act()
        match.step(seat, match.legal(seat)[0], match.seq)
    (seat,) = match.to_act()
    before, actions = match.state.clone(), list(match.actions)
    for bad in (match.seq - 1, 0, match.seq + 1):
        with pytest.raises(StaleAction) as info:
            match.step(seat, match.legal(seat)[0], bad)
        assert info.value.code == "stale"
    assert match.state == before and match.actions == actions and match.seq == 5


def test_the_same_seat_acting_twice_in_a_row_needs_the_new_seq() -> None:
    """Kingdomino: a king places then claims (rules/kingdomino.md §3.2); the claim answers a new
    decision, so resending the placement's message (the old seq) is refused."""
    game = get_game("kingdomino")
    match = Match.new(game, {}, 2, 1)
    while match.view(None)["step"] != "place":
        (seat,) = match.to_act()
        match.step(seat, match.legal(seat)[0], match.seq)
    (seat,) = match.to_act()
    shown = match.seq
    match.step(seat, match.legal(seat)[0], shown)
    assert match.to_act() == {seat} and match.decision(seat) == shown + 1
    with pytest.raises(StaleAction):
        match.step(seat, match.legal(seat)[0], shown)


def test_out_of_turn_illegal_and_over_are_typed_and_change_nothing() -> None:
    game = get_game("kingdomino")
    match = Match.new(game, {}, 2, 2)
    (seat,) = match.to_act()
    other = 1 - seat
    before = match.state.clone()
    with pytest.raises(NotYourTurn) as turn:
        match.step(other, match.legal(seat)[0], match.seq)
    assert turn.value.code == "not_your_turn"
    with pytest.raises(MalformedAction) as malformed:
        match.step_json(seat, {"type": "claim", "domino": 99}, match.seq)
    assert malformed.value.code == "malformed_action"
    taken = next(a for a in game.legal_actions(match.state, seat))
    match.step(seat, taken, match.seq)
    (seat,) = match.to_act()
    before = match.state.clone()
    with pytest.raises(IllegalAction) as illegal:
        match.step(seat, taken, match.seq)
    assert illegal.value.code == "illegal_action" and "already claimed" in str(illegal.value)
    assert match.state == before and len(match.actions) == 1
    match.controllers = [make_bot("random", "kingdomino", 1), make_bot("random", "kingdomino", 2)]
    match.run_bots()
    assert match.is_over()
    with pytest.raises(GameOver):
        match.step(0, game.action_from_json({"type": "discard"}), match.seq)


def test_bots_and_people_go_through_the_same_checked_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """run_bots hands every bot answer to Match.step with the seq its bot was shown: a person's
    action and a bot's take one code path, and bots in a simultaneous step all choose from the
    same moment."""
    calls: list[tuple[int, int | None]] = []
    original = Match.step

    def spy(self: Match, seat: int, action: Any, seq: int | None = None, seconds: float = 0.0
            ) -> Step:
        calls.append((seat, seq))
        return original(self, seat, action, seq, seconds)

    monkeypatch.setattr(Match, "step", spy)
    bots = [None, make_bot("greedy", "buttons", 1), make_bot("random", "buttons", 2)]
    match = Match.new(BUTTONS, {}, 3, 5, controllers=bots)
    shared_steps_seen = 0
    while not match.is_over():
        bot_steps = match.run_bots()
        assert all(s.seat != 0 for s in bot_steps)
        if match.is_over():
            break
        assert match.human_seats() == [0] and match.bot_seats() == []
        seq = match.decision(0)
        assert seq is not None and seq <= match.seq
        if seq < match.seq:
            shared_steps_seen += 1  # bots answered after the person was shown this decision
        match.step(0, match.legal(0)[0], seq)
    assert shared_steps_seen > 0
    assert len(calls) == len(match.actions)
    assert all(seq is not None for _, seq in calls)


def test_record_replays_identically_and_names_its_data() -> None:
    """A driver's record (format v2) replays to the same state in a new match."""
    game = get_game("queendomino")
    bots = [make_bot("random", "queendomino", s) for s in range(3)]
    match = Match.new(game, {}, 3, 9, controllers=bots, narrate=False)
    match.run_bots()
    data = json.loads(json.dumps(match.record.to_json()))
    assert data["version"] == 2 and data["data"] == game.data_version(match.options)
    from ludoteca.engine.record import MatchRecord

    again = Match.from_record(game, MatchRecord.from_json(data))
    assert again.state == match.state and again.outcome == match.outcome


def test_play_out_is_the_trusted_loop_and_still_records() -> None:
    game = get_game("kami")
    match = Match.new(game, {}, 2, 4, narrate=False)
    match.play_out(lambda _s, _seat, legal: legal[0])
    assert match.is_over() and match.decision(0) is None
    from ludoteca.engine.record import MatchRecord

    again = Match.from_record(game, MatchRecord.from_json(match.record.to_json()))
    assert again.state == match.state


def test_version_1_records_still_replay() -> None:
    """Records written before format v2 (no data field) replay with the data their options
    select."""
    from ludoteca.engine.record import MatchRecord

    for name in ("kingdomino", "buttons", "queendomino"):
        game = get_game(name)
        bots = [make_bot("random", name, s) for s in range(2)]
        match = Match.new(game, {}, 2, 12, controllers=bots, narrate=False)
        match.run_bots()
        data = match.record.to_json()
        data["version"] = 1
        del data["data"]
        for key in list(data["options"]):
            if key not in ("mighty_duel", "harmony", "winner", "boards"):
                del data["options"][key]  # a v1 record knew fewer options
        again = Match.from_record(game, MatchRecord.from_json(json.loads(json.dumps(data))))
        assert again.state == match.state


def test_a_record_with_data_this_installation_lacks_is_refused() -> None:
    from ludoteca.engine.errors import RecordError
    from ludoteca.engine.record import MatchRecord

    game = get_game("buttons")
    match = Match.new(game, {}, 2, 1, narrate=False)
    data = match.record.to_json()
    data["data"] = {"layouts": "someone-elses", "layouts_sha256": "0" * 64}
    with pytest.raises(RecordError, match="other component data"):
        Match.from_record(game, MatchRecord.from_json(data))


# ---- the log, undo and rebuilding (issue 22) ---------------------------------------------------
def test_a_place_during_the_draft_is_refused_before_reveals_is_asked() -> None:
    """rules/kingdomino.md §3.2: a king claims in the draft; a `place` then is illegal. The driver
    checks it before it asks the game what the action reveals (which applies it on a copy and
    once crashed on an illegal one): a typed refusal, nothing changed."""
    game = get_game("kingdomino")
    match = Match.new(game, {}, 2, 1)
    (seat,) = match.to_act()
    assert match.view(None)["step"] != "place"
    before = (match.state.clone(), match.seq, match.decisions())
    with pytest.raises(IllegalAction) as info:
        match.step_json(seat, {"type": "place", "x": 1, "y": 0, "dir": "E"}, match.seq)
    assert info.value.code == "illegal_action"
    assert (match.state, match.seq, match.decisions()) == before


def kingdomino_after_a_placement(seed: int = 1) -> tuple[Match, int, Any]:
    """A Kingdomino match right after a placement that revealed nothing (its claim is next)."""
    game = get_game("kingdomino")
    match = Match.new(game, {}, 2, seed)
    while True:
        (seat,) = match.to_act()
        action = match.legal(seat)[0]
        before = match.state.clone()
        step = match.step(seat, action, match.seq)
        if match.view(None)["step"] == "claim" and not step.reveals and action.to_json()[
                "type"] in ("place", "discard"):
            return match, seat, before


def test_undo_takes_back_your_own_unrevealing_last_action_and_logs_it() -> None:
    match, seat, before = kingdomino_after_a_placement()
    seq = match.seq
    assert match.can_undo(seat) and not match.can_undo(1 - seat)
    with pytest.raises(StaleAction):
        match.undo(seat, seq - 1)
    with pytest.raises(NoUndo, match="Nothing to take back"):
        match.undo(1 - seat, seq)
    step = match.undo(seat, seq)
    assert (step.kind, step.seq, match.seq) == ("undo", seq + 1, seq + 1)
    assert match.state == before and match.log[-2].kind == "act"
    assert match.decisions() == {seat: seq + 1}  # a new decision, at the undo's seq
    with pytest.raises(StaleAction):  # the undone position's number is stale now
        match.step(seat, match.legal(seat)[0], seq - 1)


def test_undo_is_refused_after_a_reveal_or_another_seats_action() -> None:
    """Kami A4: a card played face up reveals it; after it, nothing can be taken back."""
    game = get_game("kami")
    match = Match.new(game, {}, 2, 4)
    (seat,) = match.to_act()
    match.step(seat, match.legal(seat)[0], match.seq)
    assert match.log[-1].reveals
    with pytest.raises(NoUndo) as info:
        match.undo(seat, match.seq)
    assert "revealed" in str(info.value)
    for other in match.to_act():
        if other != seat:
            match.step(other, match.legal(other)[0], match.seq)
            with pytest.raises(NoUndo, match="another player"):
                match.undo(seat, match.seq)


def test_from_log_rebuilds_acts_undos_and_notes_exactly() -> None:
    match, seat, _ = kingdomino_after_a_placement(3)
    match.undo(seat, match.seq)
    match.note(1 - seat, {"type": "takeover"})
    while not match.is_over():
        (s,) = match.to_act()
        match.step(s, match.legal(s)[-1], match.seq)
    again = Match.from_log(match.game, match.options, match.players, match.seed,
                           match.log_items(), history=10)
    assert again.seq == match.seq and again.state == match.state
    assert [e.kind for e in again.log] == [e.kind for e in match.log]
    assert again.record.actions == match.record.actions
    assert all(not e.events for e in again.log[:-10])  # only the latest keep their events
    assert again.log[-1].events
    with pytest.raises(RecordError):
        Match.from_log(match.game, match.options, match.players, match.seed,
                       [("undo", 0, None)])
