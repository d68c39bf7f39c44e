"""Bad input gets a clear error and changes nothing (README "The bar"; DESIGN.md §5)."""

from __future__ import annotations

import pytest

from ludoteca.engine.errors import (
    GameOver,
    IllegalAction,
    MalformedAction,
    OptionError,
    RecordError,
    StaleAction,
)
from ludoteca.engine.match import Match, replay
from ludoteca.engine.record import MatchRecord
from ludoteca.games import get_game
from ludoteca.games.kingdomino.actions import Claim, Place
from ludoteca.games.kingdomino.rules import Kingdomino


def test_unknown_game() -> None:
    with pytest.raises(OptionError, match=r"unknown game 'chess'; known games: .*kingdomino"):
        get_game("chess")


@pytest.mark.parametrize(
    ("options", "players", "message"),
    [
        ({"harmonie": True}, 2, "unknown option 'harmonie'; this game's options are: mighty_duel"),
        ({"harmony": "perhaps"}, 2, "option 'harmony' takes true or false"),
        ({"tiebreak": "coin"}, 2, "option 'tiebreak' must be one of: rulebook, bga"),
        ({"mighty_duel": True}, 3, "option 'mighty_duel' is only for 2 players"),
        ({"three_player_draft": "bga"}, 4, "option 'three_player_draft' is only for 3 players"),
        ({}, 1, "Kingdomino is for 2-4 players, not 1"),
        ({}, 5, "Kingdomino is for 2-4 players, not 5"),
        ({}, "3", "the number of players must be a whole number"),
    ],
)
def test_bad_setup_is_explained(
    game: Kingdomino, options: dict[str, object], players: object, message: str
) -> None:
    with pytest.raises(OptionError) as err:
        game.setup(options, players, 1)  # type: ignore[arg-type]
    assert message in str(err.value)


def test_options_accept_text_from_the_command_line(game: Kingdomino) -> None:
    s = game.setup({"harmony": "yes", "mighty_duel": "true", "tiebreak": "bga"}, 2, 1)
    assert s.cfg.harmony and s.cfg.frame == 7 and not s.cfg.crowns_tiebreak


def test_out_of_turn_illegal_stale_and_finished_change_nothing(game: Kingdomino) -> None:
    s = game.setup({}, 3, 4)
    (seat,) = game.to_act(s)
    other = (seat + 1) % 3
    before = s.clone()
    with pytest.raises(IllegalAction, match=f"(?i)it is not P{other + 1}'s turn"):
        game.apply(s, other, Claim(s.nxt[0]))
    with pytest.raises(IllegalAction, match="not in the next line"):
        game.apply(s, seat, Claim(next(n for n in range(1, 49) if n not in s.nxt)))
    with pytest.raises(IllegalAction, match="claim a domino"):
        game.apply(s, seat, Place(1, 0, "E"))
    with pytest.raises(IllegalAction, match="not a Kingdomino action"):
        game.apply(s, seat, "claim 3")  # type: ignore[arg-type]
    assert s == before
    match = Match.new(game, {}, 3, 4, narrate=False)
    with pytest.raises(StaleAction):
        match.step(seat, Claim(s.nxt[0]), seq=5)
    assert match.state == before
    match.step(seat, Claim(s.nxt[0]), seq=0)
    assert match.state.ply == 1
    game.apply(s, seat, Claim(s.nxt[0]))
    while not game.is_over(s):
        (seat,) = game.to_act(s)
        game.apply(s, seat, game.legal_actions(s, seat)[0])
    done = s.clone()
    with pytest.raises(GameOver):
        game.apply(s, 0, Claim(1))
    assert s == done


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("place 1 0 E", "must be a JSON object"),
        ({"type": "fly"}, "unknown action type 'fly'"),
        ({"type": "place", "x": "1", "y": 0, "dir": "E"}, "field 'x' must be a whole number"),
        ({"type": "place", "x": 1, "y": 0, "dir": "up"}, "direction must be one of E, S, W, N"),
        ({"type": "place", "x": 9, "y": 0, "dir": "E"}, "(9, 0) is off the board"),
        ({"type": "claim", "domino": 49}, "there is no domino 49"),
        ({"type": "claim", "domino": True}, "field 'domino' must be a whole number"),
        ({}, "unknown action type None"),
    ],
)
def test_malformed_actions(game: Kingdomino, data: object, message: str) -> None:
    with pytest.raises(MalformedAction) as err:
        game.action_from_json(data)
    assert message in str(err.value)


@pytest.mark.parametrize("index", [-1, 777, 52, True, "3"])
def test_bad_action_index(game: Kingdomino, index: object) -> None:
    with pytest.raises(MalformedAction):
        game.action_from_index(index)  # type: ignore[arg-type]


def test_tampered_record_fails_with_ply_and_reason(game: Kingdomino, tmp_path) -> None:
    s = game.setup({}, 2, 3)
    record = MatchRecord(game="kingdomino", options={}, players=2, seed=3)
    (seat,) = game.to_act(s)
    record.actions.append((seat, {"type": "claim", "domino": 99}))
    with pytest.raises(RecordError, match=r"action 0 .* does not replay: there is no domino 99"):
        replay(game, record)
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    with pytest.raises(RecordError, match="is not a match record"):
        MatchRecord.load(path)
    path.write_text('{"format": "ludoteca-match", "version": 99}')
    with pytest.raises(RecordError, match="version 99 is not supported"):
        MatchRecord.load(path)
    path.write_text('{"format": "something-else"}')
    with pytest.raises(RecordError, match="not a Ludoteca match record"):
        MatchRecord.load(path)
