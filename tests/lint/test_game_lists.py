"""No test module lists the games by hand (issue 38): a suite that runs "for every game" asks
the registry (``ludoteca.games.game_names()``, which holds the test game Nim in a test run,
tests/conftest.py), so a new game is played by every such suite the day it is registered.

Read from the source (AST): a literal list, tuple or set holding two or more game names fails,
unless ``ALLOWED`` names it with the reason (a test about those games' own rules or code).
Games in a case table with their own options (``("kami", 4, {...})``) are choices of variants,
not lists of games, and are not counted."""

from __future__ import annotations

import ast
from pathlib import Path

from ludoteca.games import game_names

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"

ALLOWED: dict[tuple[str, frozenset[str]], str] = {
    ("tests/engine/test_parts.py", frozenset({"kami", "goita"})):
        "the rules seat Kami's and Goita's partners opposite at 4 (A2.2, B1)",
    ("tests/engine/test_match.py", frozenset({"kingdomino", "buttons", "queendomino"})):
        "the games whose records existed at format v1",
    ("tests/i18n/test_errors.py", frozenset({"kami", "goita"})):
        "Kami's and Goita's partnership refusals need 4 seats, and their deals run longer",
    ("tests/kingdomino/test_view_reach.py", frozenset({"kingdomino", "queendomino"})):
        "the view code both domino games share",
    ("tests/bots/test_priors.py", frozenset({"kami", "buttons"})):
        "Kami's and Buttons' own greedy round rollouts, imported by name",
    ("tests/rl/test_openspiel.py", frozenset({"buttons", "kami", "goita"})):
        "the rules that hide a move from the other seats (Buttons' answers, face-down leads)",
    ("tests/web/test_board.py", frozenset({"kingdomino", "queendomino"})):
        "the colour schemes of the domino board sprite both domino games draw",
    ("tests/web/test_analysis.py", frozenset({"buttons", "queendomino"})):
        "two more games' analysed-move drawings in Chromium (a browser match and its analysis "
        "each); Kingdomino's is the first test there",
    ("tests/rl/test_native_vector.py", frozenset({"kami", "queendomino"})):
        "the games whose matches are too long to end within the step-for-step test's steps",
    ("tests/web/test_spanish_words.py", frozenset({"kami", "goita"})):
        "words, not a list of games: names a Spanish page may show that are not English",
}


def listed_games(path: Path, names: set[str]) -> list[tuple[int, frozenset[str]]]:
    """Each literal list, tuple or set in ``path`` holding two or more of ``names``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.List | ast.Tuple | ast.Set):
            named = {e.value.lower() for e in node.elts
                     if isinstance(e, ast.Constant) and isinstance(e.value, str)
                     and e.value.lower() in names}
            if len(named) >= 2:
                found.append((node.lineno, frozenset(named)))
    return found


def test_no_test_module_lists_games_by_hand() -> None:
    names = set(game_names())
    assert {"kingdomino", "nim"} <= names  # the shipped games and the test game
    modules = [p for p in TESTS.rglob("*.py")
               if "node_modules" not in p.parts and p != Path(__file__)]  # not its own table
    bad = []
    used = set()
    for path in modules:
        where = str(path.relative_to(ROOT))
        for line, named in listed_games(path, names):
            if (where, named) in ALLOWED:
                used.add((where, named))
            else:
                bad.append(f"{where}:{line}: {sorted(named)}")
    assert bad == [], "ask the registry (ludoteca.games.game_names()), or allow it with a reason"
    assert set(ALLOWED) - used == set(), "an allowance no longer needed"


def test_the_reading_finds_lists(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text('A = ["kami", "Goita"]\nB = ("kami", 4, {})\nC = {"nim", "buttons", 3}\n'
                    'D = [("kami", 4), ("goita", 4)]\nE = "kami" in ("kami",)\n')
    assert listed_games(path, {"kami", "goita", "nim", "buttons"}) == [
        (1, frozenset({"kami", "goita"})), (3, frozenset({"nim", "buttons"}))]
