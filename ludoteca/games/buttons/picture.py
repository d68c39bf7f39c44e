"""Buttons as a picture, for the RL environments' ``rgb_array`` mode (docs/rl.md "Rendering").

Drawn from the spectator's view: the dice on the table (white, gold, and the black dice still in
play), and per seat its 6×6 board (rows by the white die, columns by the black), its round's
markers (white dots), its stars (gold dots), the cell its last roll placed on (outlined), its
colour cards, status and star count. Answers not yet revealed are not in the view, so not here.
"""

from __future__ import annotations

from ludoteca.engine.game import JSON
from ludoteca.rl.picture import HIGHLIGHT, INK, SEATS, Canvas, Colour, Image

COLOURS: dict[str, Colour] = {
    "R": (205, 50, 45), "Y": (240, 200, 40), "G": (50, 150, 70), "B": (50, 95, 190),
    "red": (205, 50, 45), "yellow": (240, 200, 40), "green": (50, 150, 70),
    "blue": (50, 95, 190),
}
MARKER: Colour = (255, 255, 255)
STAR: Colour = (255, 215, 0)
DIE: Colour = (252, 252, 252)
GOLD_DIE: Colour = (230, 185, 40)
BLACK_DIE: Colour = (40, 40, 44)
CELL = 20
PANEL = 6 * CELL + 16
TOP = 40
HEADER = 30


def draw(view: JSON) -> Image:
    """The public picture of a Buttons position (``view``: the spectator's view)."""
    seats = view["seats"]
    c = Canvas(max(8 + len(seats) * PANEL, 300), TOP + HEADER + 6 * CELL + 8)
    active = int(view["active"])
    c.text(8, 6, f"ROUND {view['round']}  {str(view['phase']).upper()}  TURN P{active + 1}",
           INK)
    dice = view["dice"]
    if dice:
        x = die(c, 8, 18, dice["white"], DIE, INK)
        x = die(c, x, 18, dice["gold"], GOLD_DIE, INK)
        for value in dice["black"]:
            x = die(c, x, 18, value, BLACK_DIE, DIE)
    for i, seat in enumerate(seats):
        panel(c, 8 + i * PANEL, TOP, i, seat, i == active)
    return c.pixels


def die(c: Canvas, x: int, y: int, value: int, face: Colour, ink: Colour) -> int:
    c.rect(x, y, 16, 16, face)
    c.outline(x, y, 16, 16, INK)
    c.text(x + 5, y + 3, str(value), ink)
    return x + 20


def panel(c: Canvas, x: int, y: int, i: int, seat: JSON, active: bool) -> None:
    """One seat: its label and cards, then its board with markers, stars and last cell."""
    colour = SEATS[i % len(SEATS)]
    status = str(seat["status"]).upper()
    c.text(x, y, f"P{i + 1}{'*' if active else ''} {status} {seat['star_count']}", colour)
    for n, card in enumerate(seat["cards"]):
        c.rect(x + n * 14, y + 12, 12, 10, COLOURS.get(card, INK))
    top = y + HEADER
    for r, row in enumerate(seat["board"]):
        for col, letter in enumerate(row):
            c.rect(x + col * CELL, top + r * CELL, CELL - 1, CELL - 1, COLOURS.get(letter, INK))
    half = CELL // 2
    for row, col in seat["markers"]:
        px, py = x + (col - 1) * CELL, top + (row - 1) * CELL
        c.disc(px + half, py + half, 5, INK)
        c.disc(px + half, py + half, 4, MARKER)
    for row, col in seat["stars"]:
        px, py = x + (col - 1) * CELL, top + (row - 1) * CELL
        c.disc(px + half, py + half, 6, INK)
        c.disc(px + half, py + half, 5, STAR)
        c.text(px + half - 2, py + half - 2, "*", INK, 1)
    last = seat.get("last_placed")
    if last:
        row, col = last
        c.outline(x + (col - 1) * CELL - 1, top + (row - 1) * CELL - 1, CELL + 1, CELL + 1,
                  HIGHLIGHT, 2)
