"""The browser shell names no game (DESIGN.md §1: everything about a game lives in
``games/<game>/``): no module, stylesheet, page or catalogue under ``ludoteca/web/static``
says a registered game's name or title. A game's words (its how-to, its actions in words, its
option labels), colours and drawing come from its own folder, through ``/api/games`` and its
renderer.

What counts as naming a game, for each registered game (``game_names()``, with each game's
title from its spec):

- its title (a proper noun: "Kingdomino", "Buttons"), as a whole word with its capital,
  anywhere: code, comments, catalogue values;
- its registry name (an identifier: ``"kingdomino"``, ``howto.goita.1``, ``.game-kami``), as a
  whole word in code and string literals (comments left out) and in catalogue keys.

The one principled exception is built into those two rules: a registry name said as a plain
lowercase word in prose (a comment, a catalogue sentence) is an ordinary English word, not a
game ("the legal actions as buttons"). Nothing else is excepted. ``RENDERERS.md`` beside the
shell is not part of it: it is the renderers' contract, written for game authors, and takes
the shipped games as its examples.
"""

from __future__ import annotations

import json
import re
from importlib import import_module
from pathlib import Path

from ludoteca.games import PACKAGES, game_names, get_game
from tools.js_import_cycles import STATIC, strip_comments

CODE = {".js", ".mjs", ".css", ".html"}


def games() -> list[tuple[str, str]]:
    """(registry name, title) of every registered game."""
    return [(name, get_game(name).spec.title) for name in game_names()]


def _word(text: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(text)}(?!\w)")


def _keys(data: object) -> list[str]:
    if isinstance(data, dict):
        return [k for key, value in data.items() for k in [key, *_keys(value)]]
    return []


def _values(data: object) -> list[str]:
    if isinstance(data, dict):
        return [v for value in data.values() for v in _values(value)]
    return [data] if isinstance(data, str) else []


def named(path: Path, text: str, known: list[tuple[str, str]]) -> list[str]:
    """Where ``text`` (the file at ``path``) names a game: one line per finding."""
    found = []
    if path.suffix == ".json":
        data = json.loads(text)
        code, prose = "\n".join(_keys(data)), "\n".join(_values(data))
    elif path.suffix in CODE:
        html = re.sub(r"<!--.*?-->", " ", text, flags=re.S)
        code, prose = strip_comments(html), text
    else:
        return []
    for name, title in known:
        if _word(title).search(prose) or _word(title).search(code):
            found.append(f"{path.name}: says the title {title!r}")
        if _word(name).search(code):
            found.append(f"{path.name}: says the game {name!r}")
    return found


def shell_files(static: Path = STATIC) -> list[Path]:
    return sorted(p for p in static.rglob("*")
                  if p.is_file() and (p.suffix in CODE or p.suffix == ".json"))


def test_no_shell_module_or_catalogue_names_a_game() -> None:
    known = games()
    files = shell_files()
    assert {"app.js", "score.js", "leaderboard.js", "words.js", "en.json", "es.json",
            "style.css", "index.html"} <= {p.name for p in files}
    shipped = {e.name for p in PACKAGES for e in import_module(p).ENTRIES}
    assert len(shipped) >= 5 and {name for name, _ in known} >= shipped  # every game, Goita too
    found = [line for path in files for line in named(path, path.read_text("utf-8"), known)]
    assert found == []


def test_the_check_finds_every_way_of_naming_a_game() -> None:
    known = [("buttons", "Buttons"), ("goita", "Goita"), ("kingdomino", "Kingdomino")]
    js, css, catalogue = Path("x.js"), Path("x.css"), Path("en.json")
    assert named(js, 'const game = id || "kingdomino";', known)
    assert named(js, "if (a.type === 'x') return; // a Goita piece by its name", known)
    assert named(js, "const key = `howto.${g}`; const d = { goita: 1 };", known)
    assert named(css, ".game-kingdomino .board { fill: red; }", known)
    assert named(catalogue, '{"howto.goita.1": "Four players"}', known)
    assert named(catalogue, '{"lobby.welcome": "Play Kingdomino with friends"}', known)
    # a plain lowercase word in prose is no game; neither is a longer word that contains a name
    assert named(js, "// the legal actions as buttons\nconst gameRoot = 1;", known) == []
    said = '{"table.legal": "Use the buttons below", "x": "buttonsets"}'
    assert named(catalogue, said, known) == []
    assert named(css, "/* zoom buttons */ .zoom-buttons { gap: 1px; }", known) != []  # code: a name
    assert named(Path("notes.md"), "Kingdomino", known) == []  # not a shell module
