"""The kingdom grid as bitboards on Python ints (shared with Queendomino).

A kingdom is unanchored: the castle sits at the centre of a 13×13 board, which holds any 5×5 or
7×7 frame the kingdom may end up in. A cell is ``row * STRIDE + col``; the extra column 13 is a
guard that stays empty, so shifting a mask by ±1 never wraps from one row to the next.

A kingdom is a flat ``list[int]`` (cheap to copy with ``k[:]``):

====  =======================================================
0     occupied squares, castle included
1-4   bounding box: min row, max row, min col, max col
5-7   squares with 1, 2, 3 crowns
8+t   squares of terrain t
====  =======================================================

Coordinates shown to people are ``(x, y)`` relative to the castle, x to the right, y down.
"""

from __future__ import annotations

from ludoteca.engine.bits import bit_list

SIZE = 13
STRIDE = 14
HALF = SIZE // 2
CASTLE = HALF * STRIDE + HALF
CASTLE_BIT = 1 << CASTLE

OCC, MINR, MAXR, MINC, MAXC, CR1, CR2, CR3, TERR = range(9)

EAST, SOUTH, WEST, NORTH = range(4)
DIRECTIONS = "ESWN"
DELTA = (1, STRIDE, -1, -STRIDE)


def cell_of(x: int, y: int) -> int:
    """Cell index of castle-relative coordinates; ValueError when off the board."""
    if not (-HALF <= x <= HALF and -HALF <= y <= HALF):
        raise ValueError(f"({x}, {y}) is off the board")
    return (y + HALF) * STRIDE + (x + HALF)


def xy_of(cell: int) -> tuple[int, int]:
    row, col = divmod(cell, STRIDE)
    return col - HALF, row - HALF


def _span_masks() -> tuple[list[int], list[int]]:
    rows = [0] * (SIZE * SIZE)
    cols = [0] * (SIZE * SIZE)
    for lo in range(SIZE):
        for hi in range(lo, SIZE):
            r = c = 0
            for row in range(SIZE):
                for col in range(SIZE):
                    bit = 1 << (row * STRIDE + col)
                    if lo <= row <= hi:
                        r |= bit
                    if lo <= col <= hi:
                        c |= bit
            rows[lo * SIZE + hi] = r
            cols[lo * SIZE + hi] = c
    return rows, cols


ROW_SPAN, COL_SPAN = _span_masks()
VALID = ROW_SPAN[SIZE - 1] & COL_SPAN[SIZE - 1]


def neighbours(mask: int) -> int:
    """Cells orthogonally adjacent to any cell of ``mask`` (may include cells of ``mask``)."""
    return ((mask << 1) | (mask >> 1) | (mask << STRIDE) | (mask >> STRIDE)) & VALID


def new_kingdom(terrains: int) -> list[int]:
    return [CASTLE_BIT, HALF, HALF, HALF, HALF, 0, 0, 0] + [0] * terrains


def frame_mask(k: list[int], frame: int) -> int:
    """Cells that may be filled without the kingdom outgrowing a ``frame``×``frame`` square."""
    rlo = k[MAXR] - frame + 1
    rhi = k[MINR] + frame - 1
    clo = k[MAXC] - frame + 1
    chi = k[MINC] + frame - 1
    rlo = 0 if rlo < 0 else rlo
    clo = 0 if clo < 0 else clo
    rhi = SIZE - 1 if rhi >= SIZE else rhi
    chi = SIZE - 1 if chi >= SIZE else chi
    return ROW_SPAN[rlo * SIZE + rhi] & COL_SPAN[clo * SIZE + chi]


def reach(k: list[int], frame: int) -> dict[str, int]:
    """The box of squares the kingdom may still grow into (``frame_mask``'s), castle-relative
    and inclusive, as views show it: a client draws that much of the kingdom without working
    the frame rule out itself."""
    return {"x0": k[MAXC] - frame + 1 - HALF, "x1": k[MINC] + frame - 1 - HALF,
            "y0": k[MAXR] - frame + 1 - HALF, "y1": k[MINR] + frame - 1 - HALF}


def placement_masks(k: list[int], t1: int, t2: int, frame: int) -> tuple[int, int, int, int]:
    """For each direction d (E, S, W, N), the cells a where the first half (terrain t1) can go
    with the second half (terrain t2) on ``a + DELTA[d]``: both empty, inside the frame, and
    one half touching the castle or its own terrain (rules 4.1, 4.2). ``frame_mask`` and
    ``neighbours`` are written out here: this runs for every placement of every playout."""
    rlo = k[MAXR] - frame + 1
    rhi = k[MINR] + frame - 1
    clo = k[MAXC] - frame + 1
    chi = k[MINC] + frame - 1
    rlo = 0 if rlo < 0 else rlo
    clo = 0 if clo < 0 else clo
    rhi = SIZE - 1 if rhi >= SIZE else rhi
    chi = SIZE - 1 if chi >= SIZE else chi
    ok = ROW_SPAN[rlo * SIZE + rhi] & COL_SPAN[clo * SIZE + chi] & ~k[OCC]
    m = CASTLE_BIT | k[TERR + t1]
    c1 = ((m << 1) | (m >> 1) | (m << STRIDE) | (m >> STRIDE)) & VALID
    if t1 == t2:
        c2 = c1
    else:
        m = CASTLE_BIT | k[TERR + t2]
        c2 = ((m << 1) | (m >> 1) | (m << STRIDE) | (m >> STRIDE)) & VALID
    return (
        ok & (ok >> 1) & (c1 | (c2 >> 1)),
        ok & (ok >> STRIDE) & (c1 | (c2 >> STRIDE)),
        ok & (ok << 1) & (c1 | (c2 << 1)),
        ok & (ok << STRIDE) & (c1 | (c2 << STRIDE)),
    )


def has_placement(k: list[int], t1: int, t2: int, frame: int) -> bool:
    e, s, w, n = placement_masks(k, t1, t2, frame)
    return bool(e | s | w | n)


def place(k: list[int], a: int, d: int, t1: int, c1: int, t2: int, c2: int) -> None:
    """Put a domino's halves on cells ``a`` and ``a + DELTA[d]``. No legality check."""
    b = a + DELTA[d]
    bit_a = 1 << a
    bit_b = 1 << b
    k[OCC] |= bit_a | bit_b
    k[TERR + t1] |= bit_a
    k[TERR + t2] |= bit_b
    if c1:
        k[CR1 + c1 - 1] |= bit_a
    if c2:
        k[CR1 + c2 - 1] |= bit_b
    ra, ca = divmod(a, STRIDE)
    rb, cb = divmod(b, STRIDE)
    lo_r, hi_r = (ra, rb) if ra <= rb else (rb, ra)
    lo_c, hi_c = (ca, cb) if ca <= cb else (cb, ca)
    if lo_r < k[MINR]:
        k[MINR] = lo_r
    if hi_r > k[MAXR]:
        k[MAXR] = hi_r
    if lo_c < k[MINC]:
        k[MINC] = lo_c
    if hi_c > k[MAXC]:
        k[MAXC] = hi_c


def components(mask: int) -> list[int]:
    """Maximal orthogonally connected groups of the cells in ``mask``."""
    out = []
    while mask:
        comp = mask & -mask
        while True:
            grown = (comp | (comp << 1) | (comp >> 1) | (comp << STRIDE) | (comp >> STRIDE)) & mask
            if grown == comp:
                break
            comp = grown
        out.append(comp)
        mask ^= comp
    return out


def component_of(mask: int, cell: int) -> int:
    """The connected group of ``mask`` that holds ``cell`` (0 if the cell is not in mask)."""
    comp = (1 << cell) & mask
    while comp:
        grown = (comp | (comp << 1) | (comp >> 1) | (comp << STRIDE) | (comp >> STRIDE)) & mask
        if grown == comp:
            break
        comp = grown
    return comp


def crowns_in(k: list[int], mask: int) -> int:
    return (
        (k[CR1] & mask).bit_count()
        + 2 * (k[CR2] & mask).bit_count()
        + 3 * (k[CR3] & mask).bit_count()
    )


def crown_at(k: list[int], cell: int) -> int:
    bit = 1 << cell
    if k[CR1] & bit:
        return 1
    if k[CR2] & bit:
        return 2
    if k[CR3] & bit:
        return 3
    return 0


def terrain_at(k: list[int], cell: int) -> int | None:
    """Terrain index of a cell, or None for the castle and empty cells."""
    bit = 1 << cell
    for t in range(len(k) - TERR):
        if k[TERR + t] & bit:
            return t
    return None


def width_height(k: list[int]) -> tuple[int, int]:
    return k[MAXC] - k[MINC] + 1, k[MAXR] - k[MINR] + 1


def is_complete(k: list[int], frame: int) -> bool:
    """Harmony: the whole frame is filled (the kingdom can never exceed it)."""
    return k[OCC].bit_count() == frame * frame


def is_centred(k: list[int], frame: int) -> bool:
    """Middle Kingdom: the frame is full-size and the castle is at its exact centre."""
    lo = HALF - frame // 2
    hi = HALF + frame // 2
    return k[MINR] == lo and k[MAXR] == hi and k[MINC] == lo and k[MAXC] == hi


def cells(mask: int) -> list[int]:
    return bit_list(mask)
