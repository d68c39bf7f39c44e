"""Nim in the terminal, in the session's language (``t``: its own catalog, ``locale/es.po``)."""

from typing import Any

from ludoteca.engine.i18n import N_, t

YOURS = N_("Your seat")
"""The words that start the seat's own block (tests/cli/test_screen.py looks for them);
``t(YOURS)`` in the session's language."""


def render(view: dict[str, Any], seat: int | None) -> str:
    pile = t("Pile: {stones} ({n})", stones="●" * view["pile"], n=view["pile"])
    if seat is None:
        return pile
    turn = t("your turn") if view["turn"] == seat else t("P{n} to play", n=view["turn"] + 1)
    return f"{pile}\n{t(YOURS)}: P{seat + 1}, {turn}"


def hint(view: dict[str, Any], legal: list[Any]) -> str:
    return t("Take 1, 2 or 3 stones: type the number.")


def parse(text: str, view: dict[str, Any], legal: list[Any]) -> Any:
    for a in legal:
        if text.strip() == str(a.count):
            return a
    raise ValueError(t("type 1, 2 or 3 (no more than the pile)"))
