"""The Buttons terminal renderer: it draws only the view, and every legal move can be typed."""

from __future__ import annotations

import pytest
from rich.console import Console

from ludoteca.engine.errors import IllegalAction
from ludoteca.engine.rng import Rng
from ludoteca.games.buttons import terminal as term
from ludoteca.games.buttons.actions import DECLINE, ROLL, STOP
from ludoteca.games.buttons.rules import GAME
from ludoteca.terminal.session import final_renderable
from ludoteca.terminal.session import load_renderer as renderer


def text_of(view: dict, seat: int | None) -> str:
    console = Console(record=True, width=160, color_system=None)
    console.print(term.render(view, seat))
    return console.export_text()


def test_registered() -> None:
    """rules/buttons.md §3 (play in the terminal): the renderer is registered."""
    assert renderer("buttons") is term


def test_render_parse_round_trip_through_random_games() -> None:
    """rules/buttons.md §3.2 and §4: every legal action's typed form parses back to it, and the
    renderer draws every phase for every seat and for a spectator."""
    for players in (2, 4):
        s = GAME.setup(None, players, players)
        rng = Rng(players)
        phases = set()
        step = 0
        while seats := GAME.to_act(s):
            seat = sorted(seats)[rng.below(len(seats))]
            view = GAME.view(s, seat)
            if view["phase"] not in phases or step % 8 == 0:  # drawing is the slow part
                for who in (*range(players), None):
                    seen = GAME.view(s, who)
                    assert f"round {seen['round']}" in text_of(seen, who)
            step += 1
            legal = GAME.legal_actions(s, seat)
            phases.add(view["phase"])
            assert term.hint(view, legal)
            for action in legal:
                assert term.parse(term.typed(action), view, legal) == action
            GAME.apply(s, seat, legal[rng.below(len(legal))])
        assert "Game over" in text_of(GAME.view(s, 0), 0)
        console = Console(record=True, width=160, color_system=None)
        outcome = GAME.outcome(s)
        assert outcome is not None
        console.print(final_renderable(outcome.to_json(), GAME.voice(), 0))
        text = console.export_text()
        assert "stars for stopping" in text or "a line of 5 stars" in text
        assert {"turn", "place"} <= phases


def test_parse_short_forms_and_errors() -> None:
    """rules/buttons.md §3.1-3.2: short forms, and clear errors for what is not allowed."""
    s = GAME.setup({"boards": "fixed"}, 2, 0)
    view, legal = GAME.view(s, s.active), GAME.legal_actions(s, s.active)
    assert term.parse(" R ", view, legal) == ROLL
    assert term.parse("stop", view, legal) == STOP  # readable; the engine says why not:
    with pytest.raises(IllegalAction, match="no marker this round"):
        GAME.apply(s, s.active, STOP)
    with pytest.raises(ValueError, match="cannot read"):
        term.parse("jump 9", view, legal)
    with pytest.raises(ValueError, match="type something"):
        term.parse("  ", view, legal)
    s.markers[s.active] = 1
    legal = GAME.legal_actions(s, s.active)
    assert term.parse("s", view, legal) == STOP
    from ludoteca.games.buttons.rules import apply_roll

    apply_roll(s, (3, 4, 4, 4))
    other = 1 - s.active
    view, legal = GAME.view(s, other), GAME.legal_actions(s, other)
    assert term.parse("34", view, legal).to_json() == {"type": "place", "row": 3, "col": 4}
    assert term.parse("3,4", view, legal) == term.parse("p 3 4", view, legal)
    assert term.parse("d", view, legal) == DECLINE
    assert "decline" in term.hint(view, legal)


def test_render_hides_other_pending_answers() -> None:
    """rules/buttons.md §3.2 item 3: the screen of a waiting seat shows nobody else's answer."""
    s = GAME.setup({"boards": "fixed"}, 2, 0)
    from ludoteca.games.buttons.rules import apply_roll

    apply_roll(s, (3, 4, 4, 4))
    a, b = s.active, 1 - s.active
    before = text_of(GAME.view(s, b), b)
    GAME.apply(s, a, GAME.legal_actions(s, a)[0])
    assert text_of(GAME.view(s, b), b) == before
    assert "+" in text_of(GAME.view(s, a), a)


def test_render_names_a_layout_set_other_than_ours() -> None:
    """rules/buttons.md §1.2: a table dealt from another layout set says which one."""
    ours = GAME.setup(None, 2, 0)
    other = GAME.setup({"layouts": "alternate"}, 2, 0)
    assert "of set" not in text_of(GAME.view(ours, 0), 0)
    assert "of set alternate" in text_of(GAME.view(other, 0), 0)
