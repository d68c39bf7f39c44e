"""Nim in the terminal."""

from typing import Any


def render(view: dict[str, Any], seat: int | None) -> str:
    return f"Pile: {'o' * view['pile']} ({view['pile']})"


def hint(view: dict[str, Any], legal: list[Any]) -> str:
    return "Take 1, 2 or 3 stones: type the number."


def parse(text: str, view: dict[str, Any], legal: list[Any]) -> Any:
    for a in legal:
        if text.strip() == str(a.count):
            return a
    raise ValueError("type 1, 2 or 3 (no more than the pile)")
