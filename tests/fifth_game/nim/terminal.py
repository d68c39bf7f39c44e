"""Nim in the terminal."""

from typing import Any

YOURS = "Your seat"
"""The words that start the seat's own block (tests/cli/test_screen.py looks for them)."""


def render(view: dict[str, Any], seat: int | None) -> str:
    pile = f"Pile: {'o' * view['pile']} ({view['pile']})"
    if seat is None:
        return pile
    turn = "your turn" if view["turn"] == seat else f"P{view['turn'] + 1} to play"
    return f"{pile}\n{YOURS}: P{seat + 1}, {turn}"


def hint(view: dict[str, Any], legal: list[Any]) -> str:
    return "Take 1, 2 or 3 stones: type the number."


def parse(text: str, view: dict[str, Any], legal: list[Any]) -> Any:
    for a in legal:
        if text.strip() == str(a.count):
            return a
    raise ValueError("type 1, 2 or 3 (no more than the pile)")
