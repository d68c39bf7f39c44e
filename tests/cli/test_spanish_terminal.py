"""The terminal in Spanish says no English word (issue 38): the boards, hints, help and typing
errors of every game in the registry, at every decision of a bots' match, and a whole watched
``ludoteca play --lang es`` session to its end; the move a hint gives as an example, in its
language's words, is read back as a legal move.

The English words looked for are the ones the same texts say in English that no Spanish
catalog says (as tests/web/test_spanish_words.py does for the pages): a word printed in
English and never in Spanish is an untranslated one, whether or not it went through a catalog.
"""

from __future__ import annotations

import re
from functools import cache
from io import StringIO

import pytest
from rich.console import Console
from typer.testing import CliRunner

from ludoteca import cli
from ludoteca.bots import make_bot
from ludoteca.engine.i18n import speaking
from ludoteca.engine.match import Match
from ludoteca.games import game_names, get_game
from ludoteca.terminal.session import load_renderer
from tests.i18n.glossary import pairs

WORD = re.compile(r"[^\W\d_]+")
FIELD = re.compile(r"\{[^{}]*\}")
TYPED = ["xyz", "1 2", "99", "claim 99", "place 9 9 q", "star 9 9", "claim", "discard", "play",
         "attack 9", "place 1 1", "9 9 E", "0 0 N", "build 99", "stop", "roll"]
"""Things a person might type wrongly, for the parse errors (echoed in quotes, not judged)."""
EXAMPLE = re.compile(r"(?:e\.g\.|p\. ej\.) [`']([^`']+)[`']")
"""The example move of a hint (``e.g. `claim 5```, ``p. ej. 'oro plata'``)."""
STEPS = 120
"""Decisions looked at per match (enough to reach every phase of every game)."""
NAMES = re.compile(r"'[^']*'|\bP\d\b|\([^()]*bot\)|\bbots?\b|\S*\/\S*")


def words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(FIELD.sub(" ", text)) if len(w) >= 3}


@cache
def spanish_words() -> frozenset[str]:
    found: set[str] = set()
    for pair in pairs():
        found |= words(pair.es)
    return frozenset(found)


def console() -> Console:
    return Console(file=StringIO(), width=100, color_system=None, record=True)


def renderer_texts(game_name: str, lang: str) -> list[str]:
    """Every board, hint, help text and typing error the renderer gives a seat deciding, over
    the first ``STEPS`` decisions of a seeded bots' match, in ``lang``."""
    game = get_game(game_name)
    ui = load_renderer(game_name)
    players = game.spec.min_players if game_name != "kami" else 4
    voice = game.voice(lang, [f"P{s + 1}" for s in range(players)])
    bots = [make_bot("greedy" if s % 2 else "random", game_name, 7 + s) for s in range(players)]
    match = Match.new(game, {}, players, 11, controllers=bots, narrate=False)
    texts: list[str] = []
    with speaking(voice):
        for _ in range(STEPS):
            if match.is_over():
                break
            for seat in range(players):
                legal = match.legal(seat)
                if not legal:
                    continue
                view = match.view(seat)
                out = console()
                out.print(ui.render(view, seat))
                hint = ui.hint(view, legal)
                texts += [out.export_text(), hint]
                for example in EXAMPLE.findall(hint):  # typed as the hint says: a legal move
                    assert ui.parse(example, view, legal) in legal, (lang, example)
                if hasattr(ui, "help_text"):
                    texts.append(ui.help_text(view))
                for typed in TYPED:
                    try:
                        ui.parse(typed, view, legal)
                    except ValueError as exc:
                        texts.append(str(exc))
            match.run_bots(max_steps=1)
        out = console()
        out.print(ui.render(match.view(None), None))
        texts.append(out.export_text())
    return texts


def watched(game_name: str, lang: str) -> str:
    """A whole ``ludoteca play GAME --watch`` session, bots only, to the final scores."""
    players = "4" if game_name == "kami" else str(get_game(game_name).spec.min_players)
    result = CliRunner().invoke(cli.app, ["play", game_name, "--watch", "--delay", "0",
                                          "--players", players, "--seed", "5", "--lang", lang])
    assert result.exit_code == 0, result.output
    return result.output


def english_left(english: list[str], spanish: list[str]) -> list[str]:
    """The Spanish texts holding a word the English ones say and no Spanish catalog does."""
    said = set().union(*(words(NAMES.sub(" ", text)) for text in english))
    foreign = said - spanish_words()
    found = []
    for text in spanish:
        hits = words(NAMES.sub(" ", text)) & foreign
        if hits:
            found.append(f"{sorted(hits)} in {text[:300]!r}")
    return sorted(set(found))


@pytest.mark.parametrize("game_name", game_names())
def test_boards_hints_help_and_errors_speak_spanish(game_name: str) -> None:
    left = english_left(renderer_texts(game_name, "en"), renderer_texts(game_name, "es"))
    assert not left, "\n".join(left[:20])


@pytest.mark.parametrize("game_name", game_names())
def test_a_watched_session_speaks_spanish_to_the_end(game_name: str) -> None:
    spanish = watched(game_name, "es")
    assert "Clasificación final" in spanish or "final" in spanish.lower()
    left = english_left([watched(game_name, "en")], spanish.splitlines())
    assert not left, "\n".join(left[:20])


def test_the_check_sees_english() -> None:
    """The check finds an English word: the English texts against themselves."""
    english = renderer_texts("kingdomino", "en")
    assert english_left(english, english)
