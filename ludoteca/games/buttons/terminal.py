"""Buttons in the terminal: every board in colour, the dice, and typed moves.

A cell is typed as row then column, the dice values that address it: ``place 3 5`` (or just
``3 5`` / ``35``) puts a marker on row 3 (white die) column 5 (black die); ``star 3 5`` picks a
marker to become a star. ``roll``, ``stop`` and ``decline`` (or ``r``, ``s``, ``d``) do the rest.
Cells show a letter as well as a colour, so the board reads without colour: ``o`` is a marker,
``*`` a star, ``+`` your answer waiting to be revealed.

Screen layout: a person's own board (titled ``YOURS``) and the dice come last, under the other
boards, so that with the hint and the prompt they fit an 80×24 terminal (issue 12 item 7).
"""

from __future__ import annotations

import re
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ludoteca.games.buttons.actions import (
    DECLINE,
    ROLL,
    STOP,
    Decline,
    Place,
    Star,
    Stop,
    action_from_index,
)

COLOUR_STYLE = {
    "R": "bold bright_white on red3",
    "Y": "bold black on yellow3",
    "G": "bold bright_white on green4",
    "B": "bold bright_white on blue3",
}
COLOUR_NAMES = {"red": "R", "yellow": "Y", "green": "G", "blue": "B"}
YOURS = "Your board"
"""How the title of the viewer's own board begins (the top of their block on screen)."""
WORDS = {
    "roll": ROLL, "r": ROLL,
    "stop": STOP, "s": STOP, "out": STOP,
    "decline": DECLINE, "d": DECLINE, "pass": DECLINE, "no": DECLINE,
}


def typed(action: Any) -> str:
    """What a person types for ``action`` (the inverse of ``parse``)."""
    if isinstance(action, Place):
        return f"place {action.row} {action.col}"
    if isinstance(action, Star):
        return f"star {action.row} {action.col}"
    return str(action.to_json()["type"])


def board(p: dict[str, Any], mine: dict[str, Any] | None) -> Table:
    markers = {tuple(c) for c in p["markers"]}
    stars = {tuple(c) for c in p["stars"]}
    picks = {tuple(c) for c in mine["picks"]} if mine else set()
    pending = tuple(mine["pending"]) if mine and mine["pending"] else None
    last = tuple(p["last_placed"]) if p["last_placed"] else None
    t = Table.grid(padding=0)
    t.add_column(justify="right")
    for _ in range(6):
        t.add_column()
    t.add_row(" ", *[Text(f" {c} ") for c in range(1, 7)])
    for r in range(1, 7):
        row: list[Text] = [Text(f"{r} ")]
        for c in range(1, 7):
            letter = p["board"][r - 1][c - 1]
            cell = (r, c)
            if cell in stars:
                mark = "*"
            elif cell in picks:
                mark = "☆"
            elif cell in markers:
                mark = "o"
            elif cell == pending:
                mark = "+"
            else:
                mark = letter.lower()
            style = COLOUR_STYLE[letter] + (" underline" if cell == last else "")
            row.append(Text(f" {mark} ", style=style))
        t.add_row(*row)
    return t


def render(view: dict[str, Any], seat: int | None) -> RenderableType:
    """The other boards, then the viewer's own board with the dice under it (so that with
    the hint and the prompt it fits an 80×24 terminal, issue 12 item 7); a spectator sees
    the dice first, then every board alike."""
    head = Text(f"Buttons — round {view['round']} — ", style="bold")
    head.append(f"phase {view['phase']}, P{view['active'] + 1} to play")
    dice = view["dice"]
    if dice:
        roll = Text("Dice: " if view["phase"] == "place" else "Last roll: ")
        roll.append(f" white {dice['white']} ", style="black on bright_white")
        roll.append(" ")
        roll.append(f" gold {dice['gold']} ", style="bold yellow on black")
        for d in dice["black"]:
            roll.append(" ")
            roll.append(f" {d} ", style="bright_white on grey15")
        roll.append(f"   ({view['free_dice']} white-pip dice in play)")
    else:
        roll = Text(f"No roll yet ({view['free_dice']} white-pip dice in play)")
    table: list[RenderableType] = [roll]
    if view["deciders"] and view["phase"] in ("place", "stars"):
        who = ", ".join(f"P{s + 1}" for s in view["deciders"])
        table.append(Text(f"Deciding at once: {who} (answers stay hidden until all are in)"))
    chosen = view["options"].get("layouts", "ludoteca")
    layout_set = "" if chosen == "ludoteca" else f" of set {chosen}"
    panels = []
    own: Panel | None = None
    for i, p in enumerate(view["seats"]):
        mine = view["you"] if i == seat else None
        name = f"{YOURS} (P{i + 1})" if i == seat else f"P{i + 1}"
        cards = " ".join(p["cards"]) or "no card"
        info = Text(f"stars {p['star_count']}  cards: {cards}  layout {p['layout']}{layout_set}")
        if p["stars_to_place"]:
            info.append(f"\nstars to place this round: {p['stars_to_place']}")
        board_panel = Panel(Group(board(p, mine), info), title=f"{name} — {p['status']}",
                            border_style="bold cyan" if i == view["active"] else "",
                            expand=False)
        if i == seat:
            own = board_panel
        else:
            panels.append(board_panel)
    parts: list[RenderableType] = [head]
    if own is None:
        parts.extend(table)
    if panels:
        parts.append(Columns(panels))
    if own is not None:
        parts.append(own)
        parts.extend(table)
    if view["result"]:
        res = view["result"]
        winners = ", ".join(f"P{w + 1}" for w in res["winners"])
        scores = "  ".join(f"P{i + 1}: {s}" for i, s in enumerate(res["scores"]))
        parts.append(Text(f"Game over — winner: {winners}   scores {scores}", style="bold"))
    return Group(*parts)


def hint(view: dict[str, Any], legal: list[Any]) -> str:
    """One line saying what may be typed now."""
    if not legal:
        return "Nothing to do: waiting for the other players."
    kinds = {type(a) for a in legal}
    if Star in kinds:
        cells = ", ".join(f"{a.row} {a.col}" for a in legal)
        return f"Choose a marker to become a star: star ROW COL ({cells})"
    if Place in kinds:
        cells = ", ".join(f"{a.row} {a.col}" for a in legal if isinstance(a, Place))
        extra = " or decline" if Decline in kinds else ""
        return f"Place a marker: place ROW COL ({cells}){extra}"
    return "roll" + (" or stop" if Stop in kinds else " (you have no marker yet, so you must roll)")


def parse(text: str, view: dict[str, Any], legal: list[Any]) -> Any:
    """The action typed, or ValueError explaining why it cannot be used now."""
    words = text.strip().lower().replace(",", " ").split()
    if not words:
        raise ValueError("type something: " + hint(view, legal))
    action: Any
    if len(words) == 1 and words[0] in WORDS:
        action = WORDS[words[0]]
    else:
        kind = "place"
        if words[0] in ("place", "p", "star", "*"):
            kind = "star" if words[0] in ("star", "*") else "place"
            words = words[1:]
        digits = "".join(words)
        if not re.fullmatch(r"[1-6]{2}", digits):
            raise ValueError(
                f"cannot read {text.strip()!r}: type roll, stop, decline, place ROW COL or "
                "star ROW COL (row and column are dice values 1-6)"
            )
        row, col = int(digits[0]), int(digits[1])
        action = Place(row, col) if kind == "place" else Star(row, col)
        if kind == "place" and action not in legal and Star(row, col) in legal:
            action = Star(row, col)
    return next((a for a in legal if a == action), action_from_index(action.index))


__all__ = ["hint", "parse", "render", "typed"]
