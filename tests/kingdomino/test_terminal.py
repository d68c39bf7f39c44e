"""The terminal renderer (ludoteca/games/kingdomino/terminal.py): help, and hints that wrap."""

from __future__ import annotations

import textwrap

from ludoteca.engine.rng import Rng
from ludoteca.games.kingdomino import terminal as ui
from ludoteca.games.kingdomino.rules import GAME


def fits(text: str, width: int = 80) -> bool:
    """Every line, wrapped at word boundaries as the session wraps it, fits ``width``."""
    return all(
        len(part) <= width
        for line in text.splitlines()
        for part in textwrap.wrap(line, width, break_long_words=False)
    )


def test_help_explains_letters_and_marks() -> None:
    """Issue 12 item 7: `help` explains terrain letters and square marks in 80 columns."""
    text = ui.help_text(GAME.view(GAME.setup({}, 2, 1), 0))
    for word in ("W wheat", "F forest", "L lake", "G grassland", "S swamp", "M mine",
                 "C your castle", "`·`", "crowns", "discard", "claim"):
        assert word in text
    assert all(len(line) <= 80 for line in text.splitlines())


def test_hints_and_errors_fit_80_columns() -> None:
    """Every hint and every refusal, wrapped at word boundaries, fits 80 columns, and a
    placement group `(x,y):E,S` stays one word."""
    for players, options in [(2, {"mighty_duel": True}), (4, {})]:
        s = GAME.setup(options, players, 3)
        rng = Rng(3)
        while not GAME.is_over(s):
            (seat,) = GAME.to_act(s)
            view = GAME.view(s, seat)
            legal = GAME.legal_actions(s, seat)
            assert fits(ui.hint(view, legal))
            for typed in ("9 9 E", "claim 99", "discard"):
                try:
                    ui.parse(typed, view, legal)
                except ValueError as err:
                    assert fits(str(err))
            GAME.apply(s, seat, legal[rng.below(len(legal))])
    assert ui.placement_summary([]) == ""
