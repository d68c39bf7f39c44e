"""The terminal renderer (ludoteca/games/queendomino/terminal.py): render, hint, parse."""

from __future__ import annotations

import re

import pytest
from rich.console import Console

from ludoteca.engine.rng import Rng
from ludoteca.games.queendomino import terminal as ui
from ludoteca.games.queendomino.actions import Build, Claim, Knight, Pass, Place
from ludoteca.games.queendomino.rules import GAME
from ludoteca.terminal.session import final_renderable
from ludoteca.terminal.session import load_renderer as renderer


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
                         [(2, {}), (4, {}), (3, {"royal_wedding": True}), (7, {}),
                          (6, {"teams": True})])
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
    assert "Builders'" in text and "(pile " in text and "Queen's Tower" not in text  # built
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


def test_final(q) -> None:
    """The final breakdown renders the outcome's parts (rules §6): wealth, the total."""
    s = q.started(2, seed=2)
    while not GAME.is_over(s):
        q.end_turn(s)
    outcome = GAME.outcome(s)
    assert outcome is not None
    console = Console(record=True, width=200)
    console.print(final_renderable(outcome.to_json(), GAME.voice(), 0))
    text = console.export_text()
    assert "rank" in text and "Wealth" in text and "total" in text
    assert isinstance(ui.parse("pass", GAME.view(s, 0), [Pass()]), Pass)


def _fits(text: str, width: int = 80) -> bool:
    import textwrap

    return all(len(part) <= width for line in text.splitlines()
               for part in textwrap.wrap(line, width, break_long_words=False))


def test_help_explains_letters_marks_and_steps() -> None:
    """Issue 12 item 7: `help` explains terrain letters, the k/b/* marks and the step letters
    A-E, in lines of at most 80 columns."""
    text = ui.help_text(GAME.view(GAME.setup({}, 2, 1), 0))
    for word in ("W wheat", "T town", "`k` a knight", "`b` a building", "`*` both",
                 "A place", "B knight", "C build", "D dragon", "E claim", "pass"):
        assert word in text
    assert all(len(line) <= 80 for line in text.splitlines())


@pytest.mark.parametrize(("players", "options"),
                         [(2, {}), (4, {"royal_wedding": True}), (8, {"teams": True})])
def test_hints_fit_80_columns(players: int, options: dict) -> None:
    """Every hint and legal-move line, wrapped at word boundaries, fits 80 columns."""
    for s in states(players, options, 5):
        if GAME.is_over(s):
            break
        (seat,) = GAME.to_act(s)
        assert _fits(ui.hint(GAME.view(s, seat), GAME.legal_actions(s, seat)))


def _text(renderable, width: int = 200) -> str:
    console = Console(record=True, width=width)
    console.print(renderable)
    return console.export_text()


def test_team_table_shows_the_own_kingdom_last(q) -> None:
    """rules/queendomino.md §7.6 and ruling 10: in team play the viewer's team kingdom comes
    last (nearest the prompt, issue 12 item 7), titled with both partners, each kingdom once;
    the partner is marked on the lines; the final breakdown has one panel per team with the
    team's rank over teams, the viewer's first."""
    s = q.started(6, seed=1, teams=True)
    seat = 4  # partners with seat 1: team P2 + P5
    text = _text(ui.render(GAME.view(s, seat), seat))
    assert "teams of 2" in text
    own = text.index(f"{ui.YOURS} (P2 + P5)")
    assert all(text.index(t) < own for t in ("P1 + P4", "P3 + P6"))
    assert len(re.findall(r"P\d( \(you\))? \+ P\d\)? · \d+ pts", text)) == 3
    assert "P2 (partner)" in text
    while not GAME.is_over(s):
        q.end_turn(s)
    outcome = GAME.outcome(s)
    assert outcome is not None
    voice = GAME.voice(names=[f"P{n + 1}" + (" (you)" if n == seat else "") for n in range(6)])
    final = _text(final_renderable(outcome.to_json(), voice, seat))
    assert final.count("rank") == 3
    assert final.index("Team B: P2 and P5 (you)") < final.index("Team A: P1 and P4")
    ranks = sorted(int(r) for r in re.findall(r"· rank (\d) ·", final))
    assert ranks[0] == 1 and ranks[-1] <= 3  # counted over the three teams, not six seats


def test_eight_kingdoms_stay_compact(q) -> None:
    """rules/queendomino.md §7.5: at 8 players the other seven kingdoms are drawn only as far
    as they reach, above the viewer's own, which shows every square a domino could cover."""
    s = q.started(8, seed=1)
    text = _text(ui.render(GAME.view(s, 5), 5))
    assert text.index(f"{ui.YOURS} (P6)") > text.index("P1 ·")
    assert len(re.findall(r"P\d\)? · \d+ pts", text)) == 8
    assert "y\\x -2 -1  0  1  2" in text  # the castle and two squares around it
    assert "knights 1 free, 0 placed" in text and "knights 1+0" in text
