"""The board layouts (rules §1.2): sets of 8, shipped as package data, chosen by an option.

The printed layouts are not published, so we generate ours with a fixed seed and check them for
the constraints the rules recommend: 9 cells of each colour, every colour in every row and column
once or twice (so no colour is much easier to hit with the dice than another), no same-colour
group of more than 2 cells, and all 8 different even up to turning, mirroring or recolouring.

Every file ``data/layouts-<name>.json`` is a layout *set* that the ``layouts`` table option can
name. We ship two, both this generator's output (a test keeps them equal): ``ludoteca`` (seed
20150601, the default) and ``alternate`` (seed 7). An operator with other layouts (the real
boards, if obtained) adds a file of the same shape to that folder. The sets are read once, at
import: games read no file after import (DESIGN.md §2). A set's content hash goes into every match
record (``data_version``), so a record never replays against other boards. A file that is not
well-formed (8 different 6×6 layouts over R, Y, G, B) still shows up as a choice, and a table
that picks it is refused with the reason; the balance constraints are only recommended, so they
are not enforced on an operator's set.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections.abc import Iterable
from importlib import resources
from importlib.resources.abc import Traversable
from itertools import permutations
from pathlib import Path

from ludoteca.engine.errors import LudotecaError
from ludoteca.engine.rng import Rng
from ludoteca.games.buttons.grid import LETTERS, SIZE

FORMAT = "ludoteca-buttons-layouts"
VERSION = 1
COUNT = 8
SEED = 20150601  # any fixed number; chosen once, never to change (it would change every board)
DEFAULT = "ludoteca"
GENERATED = {DEFAULT: SEED, "alternate": 7}
"""The sets we ship, each the generator's output for its seed."""
FILE = re.compile(r"layouts-([a-z0-9][a-z0-9_-]*)\.json")

Layout = tuple[str, ...]
"""Six strings of six letters from ``RYGB``: row 1 first, column 1 leftmost."""


class LayoutError(LudotecaError, ValueError):
    """A layouts file an operator supplied cannot be used; the message says why."""


# ---- the recommended constraints ----------------------------------------------------------
def problems(layout: Layout) -> list[str]:
    """Every way ``layout`` misses the recommended constraints (empty when it meets them)."""
    out = []
    flat = "".join(layout)
    for letter in LETTERS:
        if flat.count(letter) != 9:
            out.append(f"{letter} appears {flat.count(letter)} times, not 9")
    for i in range(SIZE):
        row = layout[i]
        col = "".join(layout[r][i] for r in range(SIZE))
        for letter in LETTERS:
            if not 1 <= row.count(letter) <= 2:
                out.append(f"row {i + 1} has {row.count(letter)} {letter}")
            if not 1 <= col.count(letter) <= 2:
                out.append(f"column {i + 1} has {col.count(letter)} {letter}")
    for r in range(SIZE):
        for c in range(SIZE):
            if _same_neighbours(layout, r, c) > 1:
                out.append(f"a group of 3 or more {layout[r][c]} touches row {r + 1} col {c + 1}")
    return out


def _same_neighbours(layout: Layout, r: int, c: int) -> int:
    letter = layout[r][c]
    return sum(
        1
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        if 0 <= rr < SIZE and 0 <= cc < SIZE and layout[rr][cc] == letter
    )


def canonical(layout: Layout) -> str:
    """One string per layout up to the 8 symmetries of the square and the 24 recolourings.

    Two layouts with the same canonical form would be the same board seen another way."""
    grid = [list(row) for row in layout]
    shapes = []
    for _ in range(4):
        grid = [list(row) for row in zip(*grid[::-1], strict=True)]  # turn a quarter
        shapes.append(grid)
        shapes.append([row[::-1] for row in grid])  # and its mirror image
    best = None
    for perm in permutations(LETTERS):
        table = str.maketrans(LETTERS, "".join(perm))
        for g in shapes:
            s = "".join("".join(row) for row in g).translate(table)
            if best is None or s < best:
                best = s
    assert best is not None
    return best


def check_all(layouts: list[Layout]) -> list[str]:
    """Problems of the whole table: per-layout constraints plus pairwise difference."""
    out = [f"layout {i + 1}: {p}" for i, lay in enumerate(layouts) for p in problems(lay)]
    seen: dict[str, int] = {}
    for i, lay in enumerate(layouts):
        key = canonical(lay)
        if key in seen:
            out.append(f"layouts {seen[key] + 1} and {i + 1} are the same board up to symmetry")
        seen[key] = i
    if len(layouts) != COUNT:
        out.append(f"there are {len(layouts)} layouts, not {COUNT}")
    return out


# ---- the generator -------------------------------------------------------------------------
def _penalty(g: list[list[str]]) -> int:
    pen = 0
    for i in range(SIZE):
        row = g[i]
        col = [g[r][i] for r in range(SIZE)]
        for letter in LETTERS:
            for n in (row.count(letter), col.count(letter)):
                pen += max(0, n - 2) + max(0, 1 - n)
    lay = tuple("".join(row) for row in g)
    for r in range(SIZE):
        for c in range(SIZE):
            pen += max(0, _same_neighbours(lay, r, c) - 1)
    return pen


def _one_layout(rng: Rng) -> Layout:
    """Local search from a random start: swap two cells while the penalty does not grow."""
    while True:
        flat = [letter for letter in LETTERS for _ in range(9)]
        rng.shuffle(flat)
        g = [flat[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)]
        pen = _penalty(g)
        for _ in range(4000):
            if pen == 0:
                return tuple("".join(row) for row in g)
            a, b = rng.below(SIZE * SIZE), rng.below(SIZE * SIZE)
            ra, ca, rb, cb = a // SIZE, a % SIZE, b // SIZE, b % SIZE
            if g[ra][ca] == g[rb][cb]:
                continue
            g[ra][ca], g[rb][cb] = g[rb][cb], g[ra][ca]
            new = _penalty(g)
            if new <= pen:
                pen = new
            else:
                g[ra][ca], g[rb][cb] = g[rb][cb], g[ra][ca]


def generate(seed: int = SEED) -> list[Layout]:
    """The 8 layouts for ``seed``: deterministic, each meeting ``problems() == []``, all
    different up to symmetry and recolouring."""
    rng = Rng(seed)
    out: list[Layout] = []
    keys: set[str] = set()
    while len(out) < COUNT:
        lay = _one_layout(rng)
        key = canonical(lay)
        if key not in keys:
            keys.add(key)
            out.append(lay)
    return out


def to_json(layouts: list[Layout], name: str = DEFAULT, seed: int = SEED) -> dict[str, object]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "name": name,
        "seed": seed,
        "about": f"Ludoteca's own Buttons layouts, generated by ludoteca/games/buttons/layouts.py "
        f"with seed {seed}; not the printed boards (rules/buttons.md §1.2).",
        "layouts": [list(lay) for lay in layouts],
    }


# ---- loading ---------------------------------------------------------------------------------
def from_json(data: object, where: str = "layouts file") -> list[Layout]:
    """Validated layouts from parsed JSON, or LayoutError saying what is wrong and where."""
    if not isinstance(data, dict):
        raise LayoutError(f"{where}: expected a JSON object with a 'layouts' list")
    if data.get("format", FORMAT) != FORMAT:
        raise LayoutError(f"{where}: 'format' must be {FORMAT!r}")
    raw = data.get("layouts")
    if not isinstance(raw, list):
        raise LayoutError(f"{where}: 'layouts' must be a list of {COUNT} layouts")
    if len(raw) != COUNT:
        raise LayoutError(f"{where}: there must be exactly {COUNT} layouts, not {len(raw)}")
    out: list[Layout] = []
    for i, lay in enumerate(raw, 1):
        if not isinstance(lay, list) or len(lay) != SIZE:
            raise LayoutError(f"{where}: layout {i} must be a list of {SIZE} row strings")
        rows = []
        for r, row in enumerate(lay, 1):
            if not isinstance(row, str) or len(row) != SIZE:
                raise LayoutError(f"{where}: layout {i} row {r} must be a string of {SIZE} letters")
            row = row.upper()
            bad = sorted(set(row) - set(LETTERS))
            if bad:
                raise LayoutError(
                    f"{where}: layout {i} row {r} has {bad[0]!r}; use only R, Y, G, B"
                )
            rows.append(row)
        out.append(tuple(rows))
    for i in range(COUNT):
        for j in range(i):
            if out[i] == out[j]:
                raise LayoutError(f"{where}: layouts {j + 1} and {i + 1} are identical")
    return out


def from_text(text: str, where: str) -> list[Layout]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LayoutError(f"{where} is not valid JSON: {exc}") from None
    return from_json(data, where)


def digest(table: Iterable[Layout]) -> str:
    """The sha256 of a set's layouts (not of its file, so spacing and notes do not count)."""
    text = json.dumps([list(lay) for lay in table], separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def discover(
    folder: Traversable | Path,
) -> tuple[dict[str, tuple[Layout, ...]], dict[str, str]]:
    """Every ``layouts-<name>.json`` in ``folder``: (usable sets by name, why each other one
    cannot be used)."""
    sets: dict[str, tuple[Layout, ...]] = {}
    broken: dict[str, str] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        found = FILE.fullmatch(entry.name)
        if found is None or not entry.is_file():
            continue
        name = found.group(1)
        where = f"Buttons layouts file data/{entry.name}"
        try:
            sets[name] = tuple(from_text(entry.read_bytes().decode("utf-8"), where))
        except UnicodeDecodeError:
            broken[name] = f"{where} is not UTF-8 text"
        except LayoutError as exc:
            broken[name] = str(exc)
    return sets, broken


SETS, BROKEN = discover(resources.files("ludoteca.games.buttons").joinpath("data"))
"""The layout sets, read once at import; a table picks one with the ``layouts`` option."""
HASHES = {name: digest(table) for name, table in SETS.items()}
NAMES: tuple[str, ...] = (DEFAULT, *sorted((set(SETS) | set(BROKEN)) - {DEFAULT}))
"""The choices of the ``layouts`` option, the default first."""


def get(name: str = DEFAULT) -> tuple[Layout, ...]:
    """The layout set called ``name``; LayoutError (with the reason) for a broken one."""
    if name in BROKEN:
        raise LayoutError(BROKEN[name])
    try:
        return SETS[name]
    except KeyError:
        raise LayoutError(
            f"no Buttons layout set {name!r}; known: {', '.join(NAMES)}"
        ) from None


def main(argv: list[str]) -> None:
    """``python -m ludoteca.games.buttons.layouts [NAME [SEED]]``: print a generated set."""
    name = argv[0] if argv else DEFAULT
    seed = int(argv[1]) if len(argv) > 1 else GENERATED.get(name, SEED)
    print(json.dumps(to_json(generate(seed), name, seed), indent=1))


if __name__ == "__main__":  # python -m ludoteca.games.buttons.layouts alternate > data/...
    main(sys.argv[1:])
