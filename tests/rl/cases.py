"""The (game, players, options) cases every RL test runs: at least 2 players of every game,
Kami and Goita with 4 (partnerships), Buttons with 3, and option variants that change an
observation's size (Mighty Duel's 7×7 frame, Dynasty, Royal Wedding teams); every other
registered game (the test game Nim, tests/conftest.py) at its fewest players."""

from __future__ import annotations

from typing import Any

from ludoteca.games import entry, game_names, get_game

VARIANTS: dict[str, list[tuple[str, int, dict[str, Any]]]] = {
    "kingdomino": [("kingdomino", 2, {}), ("kingdomino", 3, {}), ("kingdomino", 4, {}),
                   ("kingdomino", 2, {"mighty_duel": True, "dynasty": True})],
    "queendomino": [("queendomino", 2, {}), ("queendomino", 4, {"royal_wedding": True}),
                    ("queendomino", 6, {"royal_wedding": True, "teams": True})],
    "buttons": [("buttons", 2, {}), ("buttons", 3, {}), ("buttons", 4, {"winner": "stars"})],
    "kami": [("kami", 2, {}), ("kami", 3, {}), ("kami", 4, {})],
    "goita": [("goita", 4, {})],
}
"""The counts and options that change a game's observation; a game not named here (the test
game, a new one) plays at its fewest players with its default options."""

CASES: list[tuple[str, int, dict[str, Any]]] = [
    case for name in game_names() if entry(name).rl_observation
    for case in VARIANTS.get(name, [(name, get_game(name).spec.min_players, {})])
]
"""Every registered game with an RL encoder (the registry's order)."""


def case_id(case: tuple[str, int, dict[str, Any]]) -> str:
    name, players, options = case
    return f"{name}-{players}p" + "".join(f"-{k}" for k in sorted(options))
