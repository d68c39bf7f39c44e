"""Kingdomino as a picture, for the RL environments' ``rgb_array`` mode (docs/rl.md "Rendering").

Drawn from the spectator's view, so it shows only what is public: the round and the undrawn
count, the current and next lines with each domino's king, and every kingdom in a window centred
on its castle, one colour per terrain and a yellow dot per crown, with its score. ``Kingdoms``
is what Queendomino's picture shares.
"""

from __future__ import annotations

from typing import Any

from ludoteca.engine.game import JSON
from ludoteca.rl.picture import FAINT, HIGHLIGHT, INK, SEATS, Canvas, Colour, Image

TERRAIN_COLOURS: dict[str | None, Colour] = {
    "wheat": (236, 200, 60),
    "forest": (34, 100, 44),
    "lake": (50, 120, 210),
    "grassland": (140, 210, 90),
    "swamp": (130, 120, 90),
    "mine": (70, 56, 52),
    "town": (190, 90, 150),
    None: FAINT,
}
"""One colour per terrain, far apart in hue or lightness (Queendomino's town included)."""
CASTLE: Colour = (235, 235, 240)
EMPTY: Colour = (226, 223, 214)
CROWN: Colour = (255, 215, 0)
CROWN_EDGE: Colour = (120, 80, 0)
PER_ROW = 4
"""Kingdoms side by side before a new row starts."""
HEADER = 18
"""Pixels above each kingdom for its label."""
LINE_SLOTS = 8
"""Room for the longest line (Queendomino's Royal Wedding)."""


class Kingdoms:
    """The geometry of a picture of kingdoms and lines: ``cell`` pixels a square, a window of
    ``2 * frame - 1`` squares a side per kingdom, ``count`` kingdoms in rows of ``PER_ROW``,
    below ``top`` pixels of lines and labels. The size depends on nothing else, so every
    picture of a match has the same size."""

    def __init__(self, frame: int, count: int, top: int) -> None:
        self.frame = frame
        self.window = 2 * frame - 1
        self.cell = 14 if frame <= 5 else 11
        self.count = count
        self.panel = self.window * self.cell + 12
        self.top = top
        columns = min(count, PER_ROW)
        rows = -(-count // PER_ROW)
        self.width = max(columns * self.panel + 8, 44 + LINE_SLOTS * 3 * 14)
        self.height = top + rows * (self.panel + HEADER)

    def canvas(self) -> Canvas:
        return Canvas(self.width, self.height)

    def origin(self, i: int) -> tuple[int, int]:
        """The top-left pixel of kingdom ``i``'s window."""
        return (8 + (i % PER_ROW) * self.panel,
                self.top + (i // PER_ROW) * (self.panel + HEADER) + HEADER)

    def square(self, i: int, x: int, y: int) -> tuple[int, int]:
        """The top-left pixel of square (x, y) of kingdom ``i`` (castle at (0, 0))."""
        ox, oy = self.origin(i)
        half = self.frame - 1
        return ox + (x + half) * self.cell, oy + (y + half) * self.cell

    def kingdom(self, c: Canvas, i: int, k: JSON, colour: Colour, label: str) -> None:
        """Kingdom ``i``: its label, empty window, castle and squares with their crowns."""
        ox, oy = self.origin(i)
        cell = self.cell
        size = self.window * cell
        c.text(ox, oy - HEADER + 4, label, colour)
        c.rect(ox, oy, size, size, EMPTY)
        for j in range(self.window + 1):  # faint grid lines
            c.rect(ox + j * cell, oy, 1, size, FAINT)
            c.rect(ox, oy + j * cell, size, 1, FAINT)
        cx, cy = k.get("castle", (0, 0))
        px, py = self.square(i, cx, cy)
        c.rect(px + 1, py + 1, cell - 1, cell - 1, CASTLE)
        c.rect(px + 4, py + 4, cell - 7, cell - 7, colour)
        for sq in k["squares"]:
            px, py = self.square(i, sq["x"], sq["y"])
            c.rect(px + 1, py + 1, cell - 1, cell - 1, TERRAIN_COLOURS.get(sq["terrain"], FAINT))
            crowns(c, px + 1, py + 1, cell - 1, sq["crowns"])

    def line(self, c: Canvas, x: int, y: int, line: list[JSON], acting: int | None,
             king_colour: Any) -> None:
        """A line of dominoes from (x, y): each as its two halves, its king below."""
        cell = 14
        for slot, d in enumerate(line):
            dx = x + slot * 3 * cell
            if d is None:
                continue
            if slot == acting:
                c.outline(dx - 2, y - 2, 2 * cell + 4, cell + 4, HIGHLIGHT, 2)
            for half in range(2):
                c.rect(dx + half * cell, y, cell - 1, cell - 1,
                       TERRAIN_COLOURS.get(d["terrains"][half], FAINT))
                crowns(c, dx + half * cell, y, cell - 1, d["crowns"][half])
            king = d.get("king")
            if king is not None:
                c.rect(dx + 4, y + cell + 1, 2 * cell - 9, 4, king_colour(king))


def crowns(c: Canvas, x: int, y: int, size: int, count: int) -> None:
    """``count`` crowns as dots along the top of a square at (x, y)."""
    for n in range(min(count, 3)):
        cx = x + 3 + n * (size - 6) // 2 if count > 1 else x + size // 2
        c.disc(cx, y + 3, 2, CROWN_EDGE)
        c.disc(cx, y + 3, 1, CROWN)


def draw(view: JSON) -> Image:
    """The public picture of a Kingdomino position (``view``: the spectator's view)."""
    kingdoms = view["kingdoms"]
    geo = Kingdoms(int(view["frame"]), len(kingdoms), 64)
    c = geo.canvas()
    header = f"ROUND {view['round']}/{view['rounds']}  DECK {view['deck_remaining']}"
    if int(view.get("games", 1)) > 1:
        header += f"  GAME {view['game_number']}/{view['games']}"
    header += f"  {str(view['phase']).upper()}"
    c.text(8, 6, header, INK)

    def seat_colour(seat: int) -> Colour:
        return SEATS[seat % len(SEATS)]
    acting = view.get("acting") if view["phase"] == "play" else None
    c.text(8, 24, "NOW", INK)
    geo.line(c, 44, 22, view["current_line"], acting, seat_colour)
    c.text(8, 44, "NEXT", INK)
    geo.line(c, 44, 42, view["next_line"], None, seat_colour)
    for i, k in enumerate(kingdoms):
        mark = "*" if i in view.get("to_act", ()) else ""
        geo.kingdom(c, i, k, seat_colour(i), f"P{i + 1}{mark} {k['score']}")
    return c.pixels
