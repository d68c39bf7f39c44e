"""The terminal renderer (ludoteca/terminal/queendomino.py): render, hint, parse."""

from __future__ import annotations

import pytest
from rich.console import Console

from ludoteca.engine.rng import Rng
from ludoteca.games.queendomino.actions import PASS, Build, Claim, Dragon, Knight, Pass, Place
from ludoteca.games.queendomino.rules import GAME
from ludoteca.terminal import queendomino as ui
from ludoteca.terminal import renderer


def states(players: int, options: dict, seed: int):
    s = GAME.setup(options, players, seed)
    rng = Rng(seed)
    while not GAME.is_over(s):
        yield s
        (seat,) = GAME.to_act(s)
        legal = GAME.legal_actions(s, seat)
        GAME.apply(s, seat, legal[rng.below(len(legal))])
    yield s


@pytest.mark.parametrize(("players", "options"),
                         [(2, {}), (4, {}), (3, {"royal_wedding": True})])
def test_parse_reads_back_every_legal_action(players: int, options: dict) -> None:
    """rules/queendomino.md Turn: every legal action of steps A-E has a typed form that parse
    reads back to the same action; render and hint work at every step."""
    assert renderer("queendomino") is ui
    kinds = set()
    for i, s in enumerate(states(players, options, 3)):
        if GAME.is_over(s):
            break
        (seat,) = GAME.to_act(s)
        view = GAME.view(s, seat)
        legal = GAME.legal_actions(s, seat)
        for a in legal:
            assert ui.parse(ui.typed(a, view), view, legal) == a
            kinds.add(type(a).__name__)
        assert ui.hint(view, legal)
        if i % 17 == 0:
            console = Console(record=True, width=160)
            console.print(ui.render(view, seat))
            assert "Queendomino" in console.export_text()
    assert {"Place", "Knight", "Build", "Dragon", "Claim", "Pass"} <= kinds


def test_render_shows_the_table(q) -> None:
    """The render shows kingdoms (towns, buildings, knights), the builders' board with inferred
    tiles marked, both lines, the Queen and whose turn it is."""
    s = q.started(4, seed=2)
    (seat,) = GAME.to_act(s)
    q.set_domino(s, 46)
    GAME.apply(s, seat, Place(1, 0, "E"))
    GAME.apply(s, seat, Knight(1, 0))
    s.board[0] = 30  # Queen's Tower: inferred, 1 tower
    GAME.apply(s, seat, Build(0, 2, 0))
    view = GAME.view(s, seat)
    console = Console(record=True, width=200)
    console.print(ui.render(view, seat))
    text = console.export_text()
    assert "Builders' board" in text and "Queen's Tower" not in text  # it was built
    assert "(inferred)" in text and "Next line" in text and "Current line" in text
    assert "T k" in text and "T1b" in text
    assert f"Queen: P{seat + 1} (you)" in text and "Your turn" in text


def test_parse_errors_are_clear(q) -> None:
    """Unreadable or illegal input is a ValueError with a message to show."""
    s = q.started(4, seed=2)
    (seat,) = GAME.to_act(s)
    q.set_domino(s, 46)
    view = GAME.view(s, seat)
    legal = GAME.legal_actions(s, seat)
    for text, words in [("", "type a move"), ("fly away", "cannot read"),
                        ("9 9 E", "not a legal placement"), ("knight 1 0", "not legal now"),
                        ("claim 3", "place domino"), ("discard", "may be discarded")]:
        with pytest.raises(ValueError, match=words):
            ui.parse(text, view, legal)
    GAME.apply(s, seat, Place(1, 0, "E"))
    s.coins[seat] = 0
    s.nxt_owner[0] = (seat + 1) % 4
    view = GAME.view(s, seat)
    legal = GAME.legal_actions(s, seat)
    taken = next(d for d in view["next_line"] if d["king"] is not None)["number"]
    for text, words in [("build 5 1 0", "cannot build"), ("build 9 1 0", "space is 0-5"),
                        ("dragon 2", "cannot burn"), ("knight 3 3", "not legal now"),
                        ("knight 9 0", "off the board"), ("pass", "must claim"),
                        (f"claim {taken}", "already claimed"), ("claim 99", "not in the next"),
                        ("1 0 E", "already placed"), ("build 1 x 0", "whole numbers")]:
        with pytest.raises(ValueError, match=words):
            ui.parse(text, view, legal)
    assert isinstance(ui.parse("build 0 1 0", view, legal), Build)
    claim = ui.parse(str(view["next_line"][-1]["number"]), view, legal)
    assert isinstance(claim, Claim)


def test_describe_and_final(q) -> None:
    """The log line of each action and the final breakdown render."""
    s = q.started(2, seed=2)
    view = GAME.view(s, 0)
    for a in (Place(1, 0, "E"), Knight(1, 0), Build(0, 1, 0), Dragon(1), PASS,
              Claim(view["next_line"][0]["id"])):
        assert ui.describe(a, view)
    while not GAME.is_over(s):
        q.end_turn(s)
    outcome = GAME.outcome(s)
    assert outcome is not None
    console = Console(record=True, width=200)
    console.print(ui.final(GAME.view(s, None), outcome.to_json(), 0))
    text = console.export_text()
    assert "rank" in text and "wealth" in text and "total" in text
    assert isinstance(ui.parse("pass", GAME.view(s, 0), [Pass()]), Pass)
