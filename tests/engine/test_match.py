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
    StaleAction,
)
from ludoteca.engine.match import Match, Step
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
