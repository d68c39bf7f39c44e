"""A small raster kit for the environments' ``rgb_array`` pictures (docs/rl.md "Rendering").

Each game draws its picture in its own folder (``games/<game>/picture.py``, named by its registry
entry's ``rl_picture``) with these few shapes: filled and outlined rectangles, discs and text in
a built-in 3×5 pixel font. Drawing straight into a numpy array costs a few milliseconds a
picture, where a matplotlib figure costs a hundred: PettingZoo's ``render_test`` over every game
stays a matter of seconds, and a researcher can record every frame of an episode.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Colour = tuple[int, int, int]
Image = npt.NDArray[np.uint8]

BACKGROUND: Colour = (246, 244, 238)
INK: Colour = (30, 30, 34)
FAINT: Colour = (200, 198, 190)
HIGHLIGHT: Colour = (214, 40, 40)
SEATS: tuple[Colour, ...] = (
    (200, 40, 40), (40, 90, 200), (30, 150, 60), (150, 60, 170),
    (230, 130, 20), (20, 150, 160), (120, 80, 40), (90, 90, 90),
)
"""A colour per seat (kings, knights, turn marks), the same in every game."""

_GLYPHS: dict[str, tuple[str, ...]] = {
    "0": ("###", "#.#", "#.#", "#.#", "###"), "1": (".#.", "##.", ".#.", ".#.", "###"),
    "2": ("###", "..#", "###", "#..", "###"), "3": ("###", "..#", ".##", "..#", "###"),
    "4": ("#.#", "#.#", "###", "..#", "..#"), "5": ("###", "#..", "###", "..#", "###"),
    "6": ("###", "#..", "###", "#.#", "###"), "7": ("###", "..#", ".#.", ".#.", ".#."),
    "8": ("###", "#.#", "###", "#.#", "###"), "9": ("###", "#.#", "###", "..#", "###"),
    "A": (".#.", "#.#", "###", "#.#", "#.#"), "B": ("##.", "#.#", "##.", "#.#", "##."),
    "C": (".##", "#..", "#..", "#..", ".##"), "D": ("##.", "#.#", "#.#", "#.#", "##."),
    "E": ("###", "#..", "##.", "#..", "###"), "F": ("###", "#..", "##.", "#..", "#.."),
    "G": (".##", "#..", "#.#", "#.#", ".##"), "H": ("#.#", "#.#", "###", "#.#", "#.#"),
    "I": ("###", ".#.", ".#.", ".#.", "###"), "J": ("..#", "..#", "..#", "#.#", ".#."),
    "K": ("#.#", "#.#", "##.", "#.#", "#.#"), "L": ("#..", "#..", "#..", "#..", "###"),
    "M": ("#.#", "###", "###", "#.#", "#.#"), "N": ("##.", "#.#", "#.#", "#.#", "#.#"),
    "O": (".#.", "#.#", "#.#", "#.#", ".#."), "P": ("##.", "#.#", "##.", "#..", "#.."),
    "Q": (".#.", "#.#", "#.#", "##.", ".##"), "R": ("##.", "#.#", "##.", "#.#", "#.#"),
    "S": (".##", "#..", ".#.", "..#", "##."), "T": ("###", ".#.", ".#.", ".#.", ".#."),
    "U": ("#.#", "#.#", "#.#", "#.#", "###"), "V": ("#.#", "#.#", "#.#", "#.#", ".#."),
    "W": ("#.#", "#.#", "###", "###", "#.#"), "X": ("#.#", "#.#", ".#.", "#.#", "#.#"),
    "Y": ("#.#", "#.#", ".#.", ".#.", ".#."), "Z": ("###", "..#", ".#.", "#..", "###"),
    "-": ("...", "...", "###", "...", "..."), "/": ("..#", "..#", ".#.", "#..", "#.."),
    ":": ("...", ".#.", "...", ".#.", "..."), "+": ("...", ".#.", "###", ".#.", "..."),
    ".": ("...", "...", "...", "...", ".#."), "?": ("###", "..#", ".#.", "...", ".#."),
    " ": ("...", "...", "...", "...", "..."), "*": ("#.#", ".#.", "###", ".#.", "#.#"),
}
_SCALED: dict[tuple[str, int], npt.NDArray[np.bool_]] = {}
_DISCS: dict[int, npt.NDArray[np.bool_]] = {}


def glyph(char: str, scale: int) -> npt.NDArray[np.bool_]:
    """The pixels of ``char`` (upper-cased; unknown characters draw as "?") at ``scale``."""
    key = (char, scale)
    got = _SCALED.get(key)
    if got is None:
        rows = _GLYPHS.get(char.upper(), _GLYPHS["?"])
        small = np.array([[c == "#" for c in row] for row in rows], dtype=bool)
        got = _SCALED[key] = np.kron(small, np.ones((scale, scale), dtype=bool))
    return got


def text_width(text: str, scale: int = 2) -> int:
    """Pixels ``text`` takes at ``scale`` (each character 3 wide and 1 apart)."""
    return max(0, 4 * scale * len(text) - scale)


class Canvas:
    """An RGB picture being drawn; shapes are clipped to it. ``pixels`` is the image."""

    def __init__(self, width: int, height: int, background: Colour = BACKGROUND) -> None:
        self.width = width
        self.height = height
        self.pixels: Image = np.empty((height, width, 3), dtype=np.uint8)
        self.pixels[:, :] = background

    def _clip(self, x: int, y: int, w: int, h: int) -> tuple[int, int, int, int] | None:
        x0, y0 = max(0, x), max(0, y)
        x1, y1 = min(self.width, x + w), min(self.height, y + h)
        return None if x0 >= x1 or y0 >= y1 else (x0, y0, x1, y1)

    def rect(self, x: int, y: int, w: int, h: int, colour: Colour) -> None:
        box = self._clip(x, y, w, h)
        if box is not None:
            x0, y0, x1, y1 = box
            self.pixels[y0:y1, x0:x1] = colour

    def outline(self, x: int, y: int, w: int, h: int, colour: Colour, thick: int = 1) -> None:
        self.rect(x, y, w, thick, colour)
        self.rect(x, y + h - thick, w, thick, colour)
        self.rect(x, y, thick, h, colour)
        self.rect(x + w - thick, y, thick, h, colour)

    def mask(self, x: int, y: int, shape: npt.NDArray[np.bool_], colour: Colour) -> None:
        """Paint the True pixels of ``shape`` with its top-left corner at (x, y)."""
        h, w = shape.shape
        box = self._clip(x, y, w, h)
        if box is not None:
            x0, y0, x1, y1 = box
            part = shape[y0 - y:y1 - y, x0 - x:x1 - x]
            self.pixels[y0:y1, x0:x1][part] = colour

    def disc(self, cx: int, cy: int, r: int, colour: Colour) -> None:
        shape = _DISCS.get(r)
        if shape is None:
            yy, xx = np.mgrid[-r:r + 1, -r:r + 1]
            shape = _DISCS[r] = (xx * xx + yy * yy) <= r * r + r
        self.mask(cx - r, cy - r, shape, colour)

    def text(self, x: int, y: int, text: str, colour: Colour = INK, scale: int = 2) -> int:
        """Draw ``text`` with its top-left corner at (x, y); returns the x after it."""
        for char in text:
            if char != " ":
                self.mask(x, y, glyph(char, scale), colour)
            x += 4 * scale
        return x
