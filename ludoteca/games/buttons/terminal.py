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

from ludoteca.engine.i18n import N_, t
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
YOURS = N_("Your board")
"""How the title of the viewer's own board begins (the top of their block on screen), in
English: ``t(YOURS)`` says it in the session's language."""
WORDS = {
    "roll": ROLL, "r": ROLL, "tirar": ROLL, "tira": ROLL, "t": ROLL,
    "stop": STOP, "s": STOP, "out": STOP, "salir": STOP, "sal": STOP,
    "decline": DECLINE, "d": DECLINE, "pass": DECLINE, "no": DECLINE, "renunciar": DECLINE,
}
PLACE_WORDS = ("place", "p", "colocar", "coloca", "c")
STAR_WORDS = ("star", "*", "estrella", "e")
PHASES = {"turn": N_("roll or stop"), "place": N_("placing markers"),
          "stars": N_("choosing stars"), "over": N_("game over")}
STATUSES = {"in": N_("in the round"), "stopped": N_("stopped"), "busted": N_("busted")}


def typed(action: Any) -> str:
    """What a person types for ``action`` (the inverse of ``parse``)."""
    if isinstance(action, Place):
        return t("place {row} {col}", row=action.row, col=action.col)
    if isinstance(action, Star):
        return t("star {row} {col}", row=action.row, col=action.col)
    return t(str(action.to_json()["type"]))


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
    head = Text(t("Buttons — round {round} — ", round=view["round"]), style="bold")
    head.append(t("{phase}, {player} to play", phase=t(PHASES[view["phase"]]),
                  player=f"P{view['active'] + 1}"))
    dice = view["dice"]
    if dice:
        roll = Text(t("Dice: ") if view["phase"] == "place" else t("Last roll: "))
        roll.append(" " + t("white {n}", n=dice["white"]) + " ", style="black on bright_white")
        roll.append(" ")
        roll.append(" " + t("gold {n}", n=dice["gold"]) + " ", style="bold yellow on black")
        for d in dice["black"]:
            roll.append(" ")
            roll.append(f" {d} ", style="bright_white on grey15")
        roll.append("   " + t("({n} white-pip dice in play)", n=view["free_dice"]))
    else:
        roll = Text(t("No roll yet ({n} white-pip dice in play)", n=view["free_dice"]))
    table: list[RenderableType] = [roll]
    if view["deciders"] and view["phase"] in ("place", "stars"):
        who = ", ".join(f"P{s + 1}" for s in view["deciders"])
        table.append(Text(t("Deciding at once: {players} (answers stay hidden until all are in)",
                            players=who)))
    chosen = view["options"].get("layouts", "ludoteca")
    layout_set = "" if chosen == "ludoteca" else " " + t("of set {name}", name=chosen)
    panels = []
    own: Panel | None = None
    for i, p in enumerate(view["seats"]):
        mine = view["you"] if i == seat else None
        name = f"{t(YOURS)} (P{i + 1})" if i == seat else f"P{i + 1}"
        cards = " ".join(t(c) for c in p["cards"]) or t("no card")
        info = Text(t("stars {stars}  cards: {cards}  layout {layout}", stars=p["star_count"],
                      cards=cards, layout=p["layout"]) + layout_set)
        if p["stars_to_place"]:
            info.append("\n" + t("stars to place this round: {n}", n=p["stars_to_place"]))
        board_panel = Panel(Group(board(p, mine), info),
                            title=f"{name} — {t(STATUSES[p['status']])}",
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
        parts.append(Text(t("Game over — winner: {winners}   scores {scores}", winners=winners,
                            scores=scores), style="bold"))
    return Group(*parts)


def hint(view: dict[str, Any], legal: list[Any]) -> str:
    """One line saying what may be typed now."""
    if not legal:
        return t("Nothing to do: waiting for the other players.")
    kinds = {type(a) for a in legal}
    if Star in kinds:
        cells = ", ".join(f"{a.row} {a.col}" for a in legal)
        return t("Choose a marker to become a star: star ROW COL ({cells})", cells=cells)
    if Place in kinds:
        cells = ", ".join(f"{a.row} {a.col}" for a in legal if isinstance(a, Place))
        if Decline in kinds:
            return t("Place a marker: place ROW COL ({cells}) or decline", cells=cells)
        return t("Place a marker: place ROW COL ({cells})", cells=cells)
    if Stop in kinds:
        return t("roll or stop")
    return t("roll (you have no marker yet, so you must roll)")


def parse(text: str, view: dict[str, Any], legal: list[Any]) -> Any:
    """The action typed, or ValueError explaining why it cannot be used now."""
    words = text.strip().lower().replace(",", " ").split()
    if not words:
        raise ValueError(t("type something: {hint}", hint=hint(view, legal)))
    action: Any
    if len(words) == 1 and words[0] in WORDS:
        action = WORDS[words[0]]
    else:
        kind = "place"
        if words[0] in PLACE_WORDS + STAR_WORDS:
            kind = "star" if words[0] in STAR_WORDS else "place"
            words = words[1:]
        digits = "".join(words)
        if not re.fullmatch(r"[1-6]{2}", digits):
            raise ValueError(t(
                "cannot read {text!r}: type roll, stop, decline, place ROW COL or "
                "star ROW COL (row and column are dice values 1-6)", text=text.strip()))
        row, col = int(digits[0]), int(digits[1])
        action = Place(row, col) if kind == "place" else Star(row, col)
        if kind == "place" and action not in legal and Star(row, col) in legal:
            action = Star(row, col)
    return next((a for a in legal if a == action), action_from_index(action.index))


__all__ = ["hint", "parse", "render", "typed"]
