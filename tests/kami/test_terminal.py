"""The terminal renderer: draws a seat's view and reads typed moves back."""

from __future__ import annotations

import pytest
from rich.console import Console

from ludoteca.engine.rng import Rng
from ludoteca.games.kami.goita import GAME as GOITA
from ludoteca.games.kami.rules import GAME
from ludoteca.terminal import kami as term


def text_of(view, seat) -> str:
    console = Console(record=True, width=120)
    console.print(term.render(view, seat))
    return console.export_text()


@pytest.mark.parametrize(("game", "players"), [(GAME, 2), (GAME, 3), (GAME, 4), (GOITA, 4)])
def test_render_and_every_legal_action_round_trips(game, players) -> None:
    """rules/kami.md A4: every legal action has a typed form that parses back to it."""
    rng = Rng(players)
    s = game.setup({}, players, seed=players)
    steps = 0
    while not game.is_over(s) and steps < 400:
        seat = next(iter(game.to_act(s)))
        view = game.view(s, seat)
        legal = game.legal_actions(s, seat)
        out = text_of(view, seat)
        assert f"P{seat + 1}" in out and "(you)" in out
        assert term.hint(view, legal)
        for a in legal:
            assert term.parse(term.typed(a), view, legal) == a
        game.apply(s, seat, legal[rng.below(len(legal))])
        steps += 1
    text_of(game.view(s, None), None)


def test_render_shows_own_hand_and_hides_others() -> None:
    """rules/kami.md A4.1: the renderer draws only the view: own cards, others as counts."""
    s = GAME.setup({"demoralized": False}, 4, seed=1)
    seat = s.turn
    out = text_of(GAME.view(s, seat), seat)
    assert "Your hand:" in out and "leads" in out
    assert "Your hand" not in text_of(GAME.view(s, None), None)


def test_parse_reports_bad_and_illegal_moves() -> None:
    """rules/kami.md A4.3: a leading player may not pass; unreadable text gets a clear message."""
    s = GAME.setup({"demoralized": False}, 4, seed=1)
    seat = s.turn
    view, legal = GAME.view(s, seat), GAME.legal_actions(s, seat)
    with pytest.raises(ValueError, match="not legal"):
        term.parse("pass", view, legal)
    with pytest.raises(ValueError, match="not a card"):
        term.parse("dragon gold", view, legal)
    with pytest.raises(ValueError, match="type a move"):
        term.parse("  ", view, legal)
    a = legal[0]
    words = term.typed(a).split()
    assert term.parse(" ".join(w[:3] for w in words), view, legal) == a
