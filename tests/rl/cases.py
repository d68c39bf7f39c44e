"""The (game, players, options) cases every RL test runs: at least 2 players of every game,
Kami and Goita with 4 (partnerships), Buttons with 3, and option variants that change an
observation's size (Mighty Duel's 7×7 frame, Dynasty, Royal Wedding teams)."""

from __future__ import annotations

from typing import Any

CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("kingdomino", 2, {}),
    ("kingdomino", 3, {}),
    ("kingdomino", 4, {}),
    ("kingdomino", 2, {"mighty_duel": True, "dynasty": True}),
    ("queendomino", 2, {}),
    ("queendomino", 4, {"royal_wedding": True}),
    ("queendomino", 6, {"royal_wedding": True, "teams": True}),
    ("buttons", 2, {}),
    ("buttons", 3, {}),
    ("buttons", 4, {"winner": "stars"}),
    ("kami", 2, {}),
    ("kami", 3, {}),
    ("kami", 4, {}),
    ("goita", 4, {}),
]


def case_id(case: tuple[str, int, dict[str, Any]]) -> str:
    name, players, options = case
    return f"{name}-{players}p" + "".join(f"-{k}" for k in sorted(options))
