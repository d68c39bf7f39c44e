"""The 6×6 Buttons board as bitboards (rules §1.1).

A set of cells is one 36-bit int; cell ``(row, col)`` (both dice values 1-6) is bit
``(row - 1) * 6 + (col - 1)``. Neighbour and line masks are built once at import, so the hot path
is a few ANDs and shifts.
"""

from __future__ import annotations

SIZE = 6
CELLS = SIZE * SIZE
FULL = (1 << CELLS) - 1

COLOURS = ("red", "yellow", "green", "blue")
LETTERS = "RYGB"
RED = 0


def cell_of(row: int, col: int) -> int:
    """Bit index of cell (row, col), both 1-6 (white die, black die)."""
    return (row - 1) * SIZE + (col - 1)


def row_col(cell: int) -> tuple[int, int]:
    return cell // SIZE + 1, cell % SIZE + 1


# Orthogonal neighbours of each cell (rules §1.1: diagonals never matter).
NEIGH: tuple[int, ...] = tuple(
    sum(
        1 << cell_of(r + dr, c + dc)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
        if 1 <= r + dr <= SIZE and 1 <= c + dc <= SIZE
    )
    for r in range(1, SIZE + 1)
    for c in range(1, SIZE + 1)
)

ROW_MASK: tuple[int, ...] = (0, *(((1 << SIZE) - 1) << (SIZE * (r - 1)) for r in range(1, 7)))
"""ROW_MASK[r]: the six cells of row r (index 0 unused, so a die value indexes it)."""

_COL_BITS: tuple[int, ...] = (
    0, *(sum(1 << cell_of(r, c) for r in range(1, 7)) for c in range(1, 7))
)
COLS_MASK: tuple[int, ...] = tuple(
    sum(_COL_BITS[c] for c in range(1, 7) if vals >> c & 1) for vals in range(1 << 7)
)
"""COLS_MASK[v]: all cells in the columns whose bit ``1 << value`` is set in ``v``."""

# Every window of 5 consecutive cells in one row or one column (rules §6).
LINES5: tuple[int, ...] = tuple(
    [sum(1 << cell_of(r, c + i) for i in range(5)) for r in range(1, 7) for c in (1, 2)]
    + [sum(1 << cell_of(r + i, c) for i in range(5)) for c in range(1, 7) for r in (1, 2)]
)

LINES_THROUGH: tuple[tuple[int, ...], ...] = tuple(
    tuple(line for line in LINES5 if line >> c & 1) for c in range(CELLS)
)
"""LINES_THROUGH[cell]: the 5-cell windows that contain ``cell``."""

_NOT_COL1 = FULL & ~_COL_BITS[1]
_NOT_COL6 = FULL & ~_COL_BITS[6]


def blocked(markers: int, stars: int) -> int:
    """Cells where no marker may go (rules §3.2 item 4): covered, or next to a marker.
    Stars block only their own cell."""
    m = markers
    return (
        m | stars | ((m << SIZE) & FULL) | (m >> SIZE) | ((m << 1) & _NOT_COL1)
        | ((m >> 1) & _NOT_COL6)
    )


def five_line(stars: int) -> int:
    """The first 5-star line window fully covered by ``stars``, or 0."""
    for line in LINES5:
        if stars & line == line:
            return line
    return 0


def cells(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def board_masks(layout: tuple[str, ...]) -> tuple[int, int, int, int]:
    """The four colour masks (red, yellow, green, blue) of a layout."""
    masks = [0, 0, 0, 0]
    for r, row in enumerate(layout):
        for c, letter in enumerate(row):
            masks["RYGB".index(letter)] |= 1 << (r * SIZE + c)
    return masks[0], masks[1], masks[2], masks[3]
