"""The terminal renderer: draws a seat's view and reads typed moves back."""

from __future__ import annotations

import textwrap

import pytest
from kami_helpers import play, position
from rich.console import Console

from ludoteca.engine.errors import IllegalAction
from ludoteca.engine.rng import Rng
from ludoteca.games.kami import terminal as term
from ludoteca.games.kami.goita import GAME as GOITA
from ludoteca.games.kami.rules import GAME


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
        assert f"{term.YOURS} (P{seat + 1}" in out  # the seat's own hand, named
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
    assert f"{term.YOURS} (P{seat + 1}" in out and "leads" in out
    assert term.YOURS not in text_of(GAME.view(s, None), None)


def test_parse_reports_bad_and_illegal_moves() -> None:
    """rules/kami.md A4.3: a leading player may not pass; unreadable text gets a clear message."""
    s = GAME.setup({"demoralized": False}, 4, seed=1)
    seat = s.turn
    view, legal = GAME.view(s, seat), GAME.legal_actions(s, seat)
    illegal = term.parse("pass", view, legal)  # readable: the engine says why it is illegal
    assert illegal not in legal
    with pytest.raises(IllegalAction, match="pass"):
        GAME.apply(s, seat, illegal)
    with pytest.raises(ValueError, match="not a card"):
        term.parse("dragon gold", view, legal)
    with pytest.raises(ValueError, match="type a move"):
        term.parse("  ", view, legal)
    a = legal[0]
    words = term.typed(a).split()
    assert term.parse(" ".join(w[:3] for w in words), view, legal) == a


def test_kami_hint_lists_every_legal_play() -> None:
    """rules/kami.md A4: the hint ends with every legal play, readable: grouped by defense
    card, mercenary stacks as ranges; each listed word is a legal choice."""
    s = position(hands={0: "gold silver soldier soldier", 1: "silver tower empress spear"})
    GAME.apply(s, 0, GAME.action_from_json(play("gold", "silver")))
    view, legal = GAME.view(s, 1), GAME.legal_actions(s, 1)
    assert term.legal_text(view, legal) == "silver spear/tower, empress spear/silver/tower, pass"
    assert term.hint(view, legal).endswith("\nLegal: silver spear/tower, empress "
                                           "spear/silver/tower, pass")
    lead = position(players=2, hands={0: "gold silver soldier soldier"},
                    mercs=[("tower", None)] * 4 + [(None, None)] * 4)
    text = term.legal_text(GAME.view(lead, 0), GAME.legal_actions(lead, 0))
    assert text == ("any of soldier/silver/gold/m0-m3 then any other of "
                    "soldier/silver/gold/m0-m3 (or a pair: soldier)")
    assert read_legal(text) == {term.typed(a) for a in GAME.legal_actions(lead, 0)}


def read_legal(text: str) -> set[str]:
    """The typed moves a legal list stands for (the reading a person makes of it)."""

    def sources(group: str) -> list[str]:
        out = []
        for w in group.split("/"):
            if w[0] == "m" and "-" in w:
                lo, hi = w[1:].split("-m")
                out += [f"m{k}" for k in range(int(lo), int(hi) + 1)]
            else:
                out.append(w)
        return out

    moves: set[str] = set()
    for part in text.split(", "):
        words = part.split()
        if words[:2] == ["any", "of"]:
            ds, as_ = sources(words[2]), sources(words[7])
            pairs = sources(words[-1].rstrip(")")) if "pair:" in words else []
            moves |= {f"{d} {a}" for d in ds for a in as_ if a != d or d in pairs}
        elif len(words) == 2:
            moves |= {f"{words[0]} {a}" for a in sources(words[1])}
        else:
            moves.add(part)
    return moves


@pytest.mark.parametrize(("game", "players"), [(GAME, 2), (GAME, 3), (GAME, 4), (GOITA, 4)])
def test_hint_words_are_legal_and_wrap_at_80_columns(game, players) -> None:
    """Every word of the legal list is a card, a stack or a command a person may type, and the
    hint wraps at word boundaries within 80 columns."""
    rng = Rng(7)
    s = game.setup({}, players, seed=7)
    for _ in range(150):
        if game.is_over(s):
            break
        seat = next(iter(game.to_act(s)))
        view, legal = game.view(s, seat), game.legal_actions(s, seat)
        hint = term.hint(view, legal)
        for line in hint.splitlines():
            assert all(len(w) <= 80 for w in line.split())
            assert all(len(x) <= 80 for x in textwrap.wrap(line, 80))
        if "\nLegal: " in hint:
            assert read_legal(hint.split("\nLegal: ")[1]) == {term.typed(a, view) for a in legal}
        game.apply(s, seat, legal[rng.below(len(legal))])


def test_goita_hints_errors_and_parsing_use_goita_pieces() -> None:
    """rules/kami.md B1: Goita's pieces are Shi, Gon, Bakko, Gin, Kin, Hisha, Kaku, Ou; hints,
    the legal list and errors say those names, and typing them (or a unique beginning, or
    Kami's names) works."""
    s = position(goita=True, hands={0: "gold silver soldier soldier", 3: "silver tower gold spear"})
    GOITA.apply(s, 0, GOITA.action_from_json(play("gold", "silver")))  # B2: seat 3 answers
    view, legal = GOITA.view(s, 3), GOITA.legal_actions(s, 3)
    hint = term.hint(view, legal)
    assert hint.endswith("Legal: gin gon/kin/hisha, pass") and "gin" in hint
    kami_words = ("silver", "gold", "tower", "spear", "empress", "soldier")
    assert not any(w in hint for w in kami_words)
    want = GOITA.action_from_json(play("silver", "tower"))
    assert term.parse("gin hisha", view, legal) == want
    assert term.parse("gi hi", view, legal) == want
    assert term.parse("silver tower", view, legal) == want
    assert term.typed(want, view) == "gin hisha"
    with pytest.raises(ValueError, match="is not a piece: use shi, gon, bakko") as err:
        term.parse("dragon kin", view, legal)
    assert "m0" not in str(err.value)
    kin_kin = term.parse("kin kin", view, legal)
    assert kin_kin not in legal
    with pytest.raises(IllegalAction) as err:
        GOITA.apply(s, 3, kin_kin)
    assert not any(w in str(err.value) for w in kami_words)
    with pytest.raises(ValueError, match="not a piece"):
        term.parse("g hisha", view, legal)  # gon or gin or kin? g is ambiguous
    out = text_of(view, 3)
    assert "[Gin]" in out and "Silver" not in out


def test_help_text_explains_names_marks_and_commands() -> None:
    """The help explains every card name and how to shorten it, the face-down and hidden
    marks, and the commands of this game."""
    kami = term.help_text(GAME.view(GAME.setup({}, 2, seed=1), 0))
    for word in ("silver = Silver Dragon (3)", "(Gold Dragon) is face down", "[??]", "pass",
                 "m0-m7", "reveal", "quiet", "redeal"):
        assert word in kami, word
    goita = term.help_text(GOITA.view(GOITA.setup({}, 4, seed=1), 0))
    for word in ("hisha = Hisha (40)", "ou = Ou (50)", "(Kin) is face down", "[??]", "pass",
                 "redeal"):
        assert word in goita, word
    assert "Empress" not in goita and "Soldier" not in goita


def test_goita_illegal_moves_name_goita_pieces() -> None:
    """rules/kami.md B3: the engine's reasons for an illegal Goita move use Goita's names."""
    s = position(goita=True, hands={0: "soldier silver gold gold", 3: "empress tower gold spear"})
    GOITA.apply(s, 0, GOITA.action_from_json(play("silver", "soldier")))
    with pytest.raises(IllegalAction, match=r"Ou cannot counter Shi \(B3\)"):
        GOITA.apply(s, 3, GOITA.action_from_json(play("empress", "tower")))
    with pytest.raises(IllegalAction, match="you do not hold a Gin"):
        GOITA.apply(s, 3, GOITA.action_from_json(play("silver", "tower")))
    lead = position(goita=True, hands={0: "empress tower gold spear"})
    with pytest.raises(IllegalAction, match=r"Ou may attack only when .*\(B3\)"):
        GOITA.apply(lead, 0, GOITA.action_from_json(play("gold", "empress")))
    kami = position(hands={0: "soldier silver gold gold", 1: "empress tower gold spear"})
    GAME.apply(kami, 0, GAME.action_from_json(play("silver", "soldier")))
    with pytest.raises(IllegalAction, match=r"the Empress cannot counter a Soldier \(A4.4\)"):
        GAME.apply(kami, 1, GAME.action_from_json(play("empress", "tower")))
