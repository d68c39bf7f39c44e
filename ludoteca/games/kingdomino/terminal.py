"""Kingdomino in the terminal: kingdoms in colour, the two lines, and typed moves.

Coordinates are the engine's: castle-relative, x to the right, y down, the castle at (0, 0), so
what a person types is exactly ``Place(x, y, dir)``. A kingdom is drawn over every square a domino
could cover this turn (two squares around it, inside the frame), so nothing off screen is legal.
Each square shows a terrain letter and its crowns as well as a colour, so it reads without colour.

Screen layout: a person's own kingdom, with the lines beside it and whose turn it is below, is
drawn last, so that with the hint and the prompt it fits an 80×24 terminal (issue 12 item 7);
the other kingdoms are above it and scroll away first. Its title starts with ``YOURS``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ludoteca.engine.i18n import N_, t
from ludoteca.games.kingdomino.actions import Claim, Discard, Place

# terrain -> (letter, style)
TERRAIN_STYLE: dict[str, tuple[str, str]] = {
    "wheat": ("W", "black on yellow3"),
    "forest": ("F", "bright_white on dark_green"),
    "lake": ("L", "bright_white on blue3"),
    "grassland": ("G", "black on pale_green3"),
    "swamp": ("S", "bright_white on orange4"),
    "mine": ("M", "bright_white on grey23"),
}
CASTLE_STYLE = "bold black on bright_white"
EMPTY_STYLE = "grey50"
DIRECTION_WORDS = {
    "e": "E", "east": "E", "right": "E",
    "s": "S", "south": "S", "down": "S",
    "w": "W", "west": "W", "left": "W",
    "n": "N", "north": "N", "up": "N",
    "este": "E", "derecha": "E", "sur": "S", "abajo": "S",
    "oeste": "W", "izquierda": "W", "norte": "N", "arriba": "N",
}
DIRECTION_NAMES = {"E": "east", "S": "south", "W": "west", "N": "north"}
YOURS = N_("Your kingdom")
"""How the title of the viewer's own kingdom begins (the top of their block on screen), in
English: ``t(YOURS)`` says it in the session's language."""


def seat_label(seat: int, viewer: int | None) -> str:
    return f"P{seat + 1}" + (f" ({t('you')})" if seat == viewer else "")


def square(terrain: str | None, crowns: int) -> Text:
    """One 3-character cell: terrain letter and crowns on the terrain's colour."""
    if terrain is None:
        return Text(" C ", style=CASTLE_STYLE)
    letter, style = TERRAIN_STYLE[terrain]
    return Text(f" {letter}{crowns if crowns else ' '}", style=style)


def domino_text(d: dict[str, Any]) -> Text:
    """A domino's two halves side by side, first half on the left."""
    text = Text()
    for terrain, crowns in zip(d["terrains"], d["crowns"], strict=True):
        text.append_text(square(terrain, crowns))
    return text


def kingdom_grid(
    kingdom: dict[str, Any],
    frame: int,
    draw: Callable[[dict[str, Any]], Text] | None = None,
) -> Text:
    """The kingdom and every square a domino could cover this turn (up to two squares around
    it, inside the ``frame``×``frame`` square it must fit), with x/y axis labels. ``draw``
    renders one occupied square (Queendomino adds knight and building marks)."""
    draw = draw or (lambda sq: square(sq["terrain"], sq["crowns"]))
    by_xy = {(s["x"], s["y"]): s for s in kingdom["squares"]}
    xs = [0, *(x for x, _ in by_xy)]
    ys = [0, *(y for _, y in by_xy)]
    x_range = range(max(max(xs) - frame + 1, min(xs) - 2), min(min(xs) + frame, max(xs) + 3))
    y_range = range(max(max(ys) - frame + 1, min(ys) - 2), min(min(ys) + frame, max(ys) + 3))
    out = Text()
    out.append("y\\x" + "".join(f"{x:>3}" for x in x_range) + "\n", style="dim")
    for y in y_range:
        out.append(f"{y:>3}", style="dim")
        for x in x_range:
            if (x, y) == (0, 0):
                out.append_text(square(None, 0))
            elif (x, y) in by_xy:
                out.append_text(draw(by_xy[(x, y)]))
            else:
                out.append("  ·", style=EMPTY_STYLE)
        if y != y_range[-1]:
            out.append("\n")
    return out


def kingdom_panel(grid: Text, title: str, style: str = "", subtitle: str | None = None) -> Panel:
    """A kingdom grid in a frame just wide enough for it and its titles."""
    width = max(*(line.cell_len for line in grid.split()), len(title) + 2,
                len(subtitle or "") + 2) + 4
    return Panel(grid, title=title, subtitle=subtitle, border_style=style, width=width,
                 expand=False)


def status(view: dict[str, Any], seat: int | None) -> str:
    """Who must do what now."""
    if view["phase"] == "over":
        return t("The game is over.")
    actors = view["to_act"]
    who = ", ".join(seat_label(s, seat) for s in actors)
    if seat in actors:
        who = t("Your turn")
    if view["phase"] == "play" and view["step"] == "place":
        return t("{who}: place domino {domino}", who=who, domino=view["acting_domino"])
    return t("{who}: claim a domino of the next line", who=who)


def line_table(view: dict[str, Any], which: str, seat: int | None) -> Group:
    """One line, a domino a row: number, domino, king, and where the turn is."""
    current = which == "current_line"
    title = t("Current line") if current else t("Next line")
    table = Table.grid(padding=(0, 1))
    table.add_column(justify="right")
    for _ in range(3):
        table.add_column()
    playing = view["phase"] == "play"
    for i, d in enumerate(view[which]):
        king = "-" if d["king"] is None else seat_label(d["king"], seat)
        note = ""
        if current and playing:
            if i == view["acting"]:
                note = "◀ " + (t("placing") if view["step"] == "place" else t("claiming"))
            elif i < view["acting"]:
                note = t("done")
        elif not current and d["king"] is None:
            note = t("free")
        table.add_row(str(d["number"]), domino_text(d), king, note)
    return Group(Text(title, style="bold underline"), table)


def side_by_side(left: Panel, right: RenderableType) -> Table:
    """A kingdom's panel with ``right`` beside it, two columns apart."""
    table = Table.grid(padding=(0, 2))
    table.add_column(width=left.width)
    table.add_column()
    table.add_row(left, right)
    return table


def header(view: dict[str, Any]) -> Text:
    head = Text(t("Kingdomino · {players} players", players=view["players"]), style="bold")
    if view["games"] > 1:
        head.append(" · " + t("Dynasty game {number}/{games}", number=view["game_number"],
                              games=view["games"]))
    if view["phase"] == "draft":
        head.append(" · " + t("first draft"))
    else:
        head.append(" · " + t("round {round}/{rounds}", round=view["round"],
                              rounds=view["rounds"]))
    head.append(" · " + t("{n} dominoes in the pile", n=view["deck_remaining"]))
    head.append(" · " + t("{frame}×{frame} kingdoms", frame=view["frame"]), style="dim")
    return head


def panel(view: dict[str, Any], i: int, seat: int | None) -> Panel:
    """Kingdom ``i``, titled with its owner and score (``YOURS`` for the viewer's own)."""
    k = view["kingdoms"][i]
    title = f"{t(YOURS)} (P{i + 1})" if i == seat else seat_label(i, seat)
    title += " · " + t("{score} pts", score=k["score"])
    if view["games"] > 1 and view["past_games"]:
        earlier = ", ".join(str(g[i]["score"]) for g in view["past_games"])
        title += " " + t("(earlier games: {scores})", scores=earlier)
    style = "bold cyan" if i in view["to_act"] else ""
    return kingdom_panel(kingdom_grid(k, view["frame"]), title, style)


def lines_and_order(view: dict[str, Any], seat: int | None) -> list[RenderableType]:
    """The current and next lines, and in the first draft who claims in which order."""
    parts: list[RenderableType] = [
        line_table(view, which, seat) for which in ("current_line", "next_line") if view[which]
    ]
    if view["phase"] == "draft":
        order = [seat_label(s, seat) for s in view["draft_order"]]
        pos = view["draft_pos"]
        order[pos] = f"[{order[pos]}]"
        parts.append(Text(t("Draft order: {order}", order=", ".join(order))))
    return parts


def render(view: dict[str, Any], seat: int | None) -> RenderableType:
    """The whole table as ``seat`` sees it: header, the other kingdoms, then the viewer's own
    with the lines beside it and the turn below (a spectator sees every kingdom alike)."""
    mine = seat is not None and 0 <= seat < len(view["kingdoms"])
    parts: list[RenderableType] = [header(view)]
    if view["discarded"]:
        parts.append(Text(t("Discarded: {numbers}", numbers=", ".join(
            str(n) for n in view["discarded"])), "dim"))
    others = [panel(view, i, seat) for i in range(len(view["kingdoms"])) if i != seat]
    if others:
        parts.append(Columns(others))
    if mine:
        assert seat is not None
        parts.append(side_by_side(panel(view, seat, seat), Group(*lines_and_order(view, seat))))
    else:
        parts.append(Columns(lines_and_order(view, seat), padding=(0, 4)))
    parts.append(Text(status(view, seat), style="bold"))
    return Group(*parts)


def placement_summary(legal: list[Any]) -> str:
    """Legal placements grouped by the first half's square: '(1,0):E,S (0,1):E,W'. Each group
    is one word, so a wrapped line never splits a square from its directions."""
    by_cell: dict[tuple[int, int], list[str]] = {}
    for a in legal:
        if isinstance(a, Place):
            by_cell.setdefault((a.x, a.y), []).append(a.dir)
    return " ".join(f"({x},{y}):{','.join(ds)}" for (x, y), ds in sorted(by_cell.items()))


TERRAIN_HELP = N_(
    "Squares: a terrain letter and its crowns, e.g. `G2` = grassland with 2 crowns.\n"
    "  W wheat · F forest · L lake · G grassland · S swamp · M mine · C your castle\n"
    "  `·` is an empty square that a domino could cover this turn."
)


def help_text(view: dict[str, Any]) -> str:
    """What the board's letters and marks mean and how moves are typed (plain text, lines of
    at most 80 columns)."""
    frame = view["frame"]
    return t(TERRAIN_HELP) + "\n" + t(
        "Coordinates: (x, y) from your castle at (0, 0), x to the right, y downwards.\n"
        "A kingdom must fit in {frame}×{frame} squares; a domino must touch your castle or a\n"
        "square of the same terrain (docs/rules/kingdomino.md §4).\n"
        "Moves: `x y dir` puts the domino's first (left) half on (x, y), the second half\n"
        "one square E, S, W or N; `discard` only when it fits nowhere (§4.3);\n"
        "`claim n` puts your king on domino n of the next line. In the legal list,\n"
        "`(1,0):E,S` means first half on (1, 0), second half east or south.", frame=frame)


def hint(view: dict[str, Any], legal: list[Any]) -> str:
    """What may be typed now, with every legal choice."""
    if not legal:
        return t("Nothing to do now.")
    if any(isinstance(a, Claim) for a in legal):
        free = ", ".join(str(a.domino) for a in legal if isinstance(a, Claim))
        return t("Claim a domino: type its number ({free}), e.g. `claim {domino}`.", free=free,
                 domino=legal[0].domino)
    n = view["acting_domino"]
    if all(isinstance(a, Discard) for a in legal):
        return t("Domino {n} fits nowhere in your kingdom: type `discard`.", n=n)
    first = next(a for a in legal if isinstance(a, Place))
    return t(
        "Place domino {n}: type `x y dir` — its first (left) half on (x, y), the second half "
        "one square E, S, W or N; e.g. `{x} {y} {dir}`.", n=n, x=first.x, y=first.y,
        dir=first.dir,
    ) + "\n" + t("Legal (first half:directions): {moves}", moves=placement_summary(legal))


def parse(text: str, view: dict[str, Any], legal: list[Any]) -> Any:
    """The action typed, if legal now; ValueError with a message to show otherwise."""
    words = re.sub(r"[(),;]", " ", text.strip().lower()).split()
    if not words:
        raise ValueError(t("type a move (or `help`)"))
    claiming = any(isinstance(a, Claim) for a in legal)
    if words[0] in ("claim", "take", "pick", "reclamar", "reclama", "coger"):
        words = words[1:]
        if not claiming:
            raise ValueError(t("place domino {n} first (type x y dir)", n=view["acting_domino"]))
    if claiming:
        if len(words) != 1 or not words[0].isdigit():
            raise ValueError(t("claim a domino of the next line: type its number, e.g. "
                               "`claim 12`"))
        n = int(words[0])
        for a in legal:
            if isinstance(a, Claim) and a.domino == n:
                return a
        numbers = [d["number"] for d in view["next_line"]]
        if n in numbers:
            raise ValueError(t("domino {n} is already claimed", n=n))
        free = ", ".join(str(a.domino) for a in legal if isinstance(a, Claim))
        raise ValueError(t("domino {n} is not in the next line; free: {free}", n=n, free=free))
    n = view["acting_domino"]
    if words[0] in ("discard", "descartar", "descarta"):
        if legal and isinstance(legal[0], Discard):
            return legal[0]
        raise ValueError(t("domino {n} can be placed, so it may not be discarded (rule 4.3)",
                           n=n))
    if words[0] in ("place", "colocar", "coloca"):
        words = words[1:]
    if len(words) != 3:
        raise ValueError(t("type a placement as `x y dir`, e.g. `1 0 E` (or `discard`)"))
    try:
        x, y = int(words[0]), int(words[1])
    except ValueError:
        raise ValueError(t("x and y must be whole numbers, not {x!r} {y!r}", x=words[0],
                           y=words[1])) from None
    direction = DIRECTION_WORDS.get(words[2])
    if direction is None:
        raise ValueError(t("the direction is one of E, S, W, N, not {word!r}", word=words[2]))
    for a in legal:
        if isinstance(a, Place) and (a.x, a.y, a.dir) == (x, y, direction):
            return a
    if legal and isinstance(legal[0], Discard):
        raise ValueError(t("domino {n} fits nowhere in your kingdom: type `discard`", n=n))
    cells = sorted({(a.x, a.y) for a in legal if isinstance(a, Place)})
    starts = " ".join(f"({cx},{cy})" for cx, cy in cells)
    raise ValueError(t(
        "({x}, {y}) facing {dir} is not a legal placement of domino {n}; "
        "legal placements start at: {starts}", x=x, y=y, dir=direction, n=n, starts=starts,
    ))
