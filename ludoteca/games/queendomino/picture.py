"""Queendomino as a picture, for the RL environments' ``rgb_array`` mode (docs/rl.md "Rendering").

Kingdomino's picture (``kingdomino.picture.Kingdoms``: lines, kingdoms, terrains, crowns) with
what Queendomino adds, all public: the builders' board (a box per space with its price and the
tile's id, the Dragon's space outlined in red), the building pile, each side's buildings (a
dark block on the square), knights (a dot in the side's colour), and in its label its score,
coins, knights, towers and the Queen. Drawn from the spectator's view.
"""

from __future__ import annotations

from ludoteca.engine.game import JSON
from ludoteca.games.kingdomino.picture import Kingdoms
from ludoteca.rl.picture import FAINT, HIGHLIGHT, INK, SEATS, Canvas, Colour, Image

BUILDING: Colour = (40, 30, 50)
ROOF: Colour = (250, 250, 250)
SPACE: Colour = (236, 226, 200)


def draw(view: JSON) -> Image:
    """The public picture of a Queendomino position (``view``: the spectator's view)."""
    kingdoms = view["kingdoms"]
    geo = Kingdoms(int(view["frame"]), len(kingdoms), 96)
    c = geo.canvas()
    c.text(8, 6, f"ROUND {view['round']}/{view['rounds']}  DECK {view['deck_remaining']}  "
                 f"{str(view['phase']).upper()} {str(view['step']).upper()}", INK)
    acting = view.get("acting") if view["phase"] == "play" else None
    c.text(8, 24, "NOW", INK)
    geo.line(c, 44, 22, view["current_line"], acting, seat_colour)
    c.text(8, 44, "NEXT", INK)
    geo.line(c, 44, 42, view["next_line"], None, seat_colour)
    board(c, 8, 62, view)
    to_act = {view["sides"][s] for s in view.get("to_act", ())}
    for i, k in enumerate(kingdoms):
        colour = seat_colour(i)
        who = f"P{i + 1}" if len(kingdoms) == view["players"] else f"T{i + 1}"
        label = (f"{who}{'*' if i in to_act else ''} {k.get('score', 0)} C{k['coins']} "
                 f"K{k['knights']} "
                 f"T{k['towers']}{' Q' if k.get('queen') else ''}")
        geo.kingdom(c, i, k, colour, label)
        cell = geo.cell
        for b in k["buildings"]:
            px, py = geo.square(i, b["x"], b["y"])
            c.rect(px + 3, py + cell // 2 - 1, cell - 5, cell // 2, BUILDING)
            c.rect(px + cell // 2 - 1, py + cell // 2 + 1, 2, 2, ROOF)
        for x, y in k["knight_squares"]:
            px, py = geo.square(i, x, y)
            c.disc(px + cell - 4, py + cell - 4, 3, INK)
            c.disc(px + cell - 4, py + cell - 4, 2, colour)
    turn = view.get("turn") or {}
    if acting is not None and turn.get("domino_squares"):
        side = view["sides"][view["current_line"][acting]["king"]] \
            if view["current_line"][acting].get("king") is not None else None
        if side is not None:
            for x, y in turn["domino_squares"]:
                px, py = geo.square(side, x, y)
                c.outline(px, py, geo.cell + 1, geo.cell + 1, HIGHLIGHT)
    return c.pixels


def seat_colour(side: int) -> Colour:
    return SEATS[side % len(SEATS)]


def board(c: Canvas, x: int, y: int, view: JSON) -> None:
    """The builders' board: per space its price and tile id (or empty), the Dragon's space
    outlined in red; then the building pile's count and where the Dragon is."""
    for space in view["board"]:
        bx = x + 36 * int(space["space"])
        c.rect(bx, y, 32, 26, SPACE)
        c.text(bx + 2, y + 2, str(space["price"]), FAINT if space["building"] is None else INK)
        tile = space["building"]
        if tile is not None:
            c.rect(bx + 12, y + 8, 18, 16, BUILDING)
            c.text(bx + 13, y + 11, str(tile["id"]), ROOF, 1)
        if space["dragon"]:
            c.outline(bx, y, 32, 26, HIGHLIGHT, 2)
    dragon = "CAVE" if view["dragon"] is None else f"{view['dragon']}"
    c.text(x + 36 * len(view["board"]) + 4, y + 2, f"PILE {view['building_pile']}", INK)
    c.text(x + 36 * len(view["board"]) + 4, y + 14, f"DRAGON {dragon}", HIGHLIGHT)
