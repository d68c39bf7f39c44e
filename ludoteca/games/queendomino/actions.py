"""Queendomino actions, one per step of a turn (rules "Turn" A-E).

Place, Discard and Claim are Kingdomino's own action values (same JSON, same meaning). The rest:
``Knight`` (step B, on a square of the domino just placed), ``Build`` (C), ``Dragon`` (D) and
``Pass`` (end the turn in the last round, where there is no claim). Optional steps are skipped by
taking a later step's action: building ends step B, claiming ends the turn.

Stable index layout (RL action masks), with CELLS = 13 × 14 board cells:

=============  ===============================  =========
0-727          Place: ``cell * 4 + direction``  (Kingdomino's)
728            Discard                          (Kingdomino's)
729-824        Claim: ``729 + id - 1``, ids 1-96 (Kingdomino's class; 49-96 = Royal Wedding)
825            Pass
826-1007       Knight: ``826 + cell``
1008-1013      Dragon: ``1008 + space``
1014-2105      Build: ``1014 + space * CELLS + cell``
=============  ===============================  =========

A board space is named by its price (0-5; 5 is next to the draw pile).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ludoteca.engine.errors import MalformedAction
from ludoteca.engine.game import JSON, require_index, require_int, require_json_object
from ludoteca.engine.i18n import N_, t
from ludoteca.games.kingdomino.actions import (
    DISCARD,
    PLACE_COUNT,
    PLACES,
    Claim,
    Discard,
    Place,
    domino_action_from_json,
    square,
)
from ludoteca.games.kingdomino.grid import HALF, SIZE, STRIDE
from ludoteca.games.queendomino.components import BOARD_SPACES, MAX_ID

CELLS = SIZE * STRIDE
CLAIM_BASE = PLACE_COUNT + 1
PASS_INDEX = CLAIM_BASE + MAX_ID
KNIGHT_BASE = PASS_INDEX + 1
DRAGON_BASE = KNIGHT_BASE + CELLS
BUILD_BASE = DRAGON_BASE + BOARD_SPACES
NUM_ACTIONS = BUILD_BASE + BOARD_SPACES * CELLS


def _space(space: int) -> None:
    if isinstance(space, bool) or not isinstance(space, int) or not 0 <= space < BOARD_SPACES:
        raise MalformedAction(
            msgid=N_("a builders' board space is 0-{last}, not {space!r}"),
            last=BOARD_SPACES - 1,
            space=space,
        )


@dataclass(frozen=True, slots=True)
class Knight:
    """Step B: a knight goes on square (x, y) of the domino just placed; it collects tax."""

    x: int
    y: int
    cell: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cell", square(self.x, self.y))

    @property
    def index(self) -> int:
        return KNIGHT_BASE + self.cell

    def to_json(self) -> JSON:
        return {"type": "knight", "x": self.x, "y": self.y}


@dataclass(frozen=True, slots=True)
class Build:
    """Step C: buy the tile on board space ``space`` and build it on town square (x, y)."""

    space: int
    x: int
    y: int
    cell: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _space(self.space)
        object.__setattr__(self, "cell", square(self.x, self.y))

    @property
    def index(self) -> int:
        return BUILD_BASE + self.space * CELLS + self.cell

    def to_json(self) -> JSON:
        return {"type": "build", "space": self.space, "x": self.x, "y": self.y}


@dataclass(frozen=True, slots=True)
class Dragon:
    """Step D: pay 1 coin to have the Dragon burn the tile on board space ``space``."""

    space: int

    def __post_init__(self) -> None:
        _space(self.space)

    @property
    def index(self) -> int:
        return DRAGON_BASE + self.space

    def to_json(self) -> JSON:
        return {"type": "dragon", "space": self.space}


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without claiming: only in the last round, which has no next line."""

    @property
    def index(self) -> int:
        return PASS_INDEX

    def to_json(self) -> JSON:
        return {"type": "pass"}


Action = Place | Discard | Claim | Pass | Knight | Dragon | Build

# Prebuilt tables, indexed like the action index minus the base; None off the board.
CLAIMS: list[Claim] = [Claim(0)] + [Claim(n) for n in range(1, MAX_ID + 1)]  # CLAIMS[id]
PASS = Pass()
KNIGHTS: list[Knight | None] = [None] * CELLS
BUILDS: list[Build | None] = [None] * (BOARD_SPACES * CELLS)
for _row in range(SIZE):
    for _col in range(SIZE):
        _c = _row * STRIDE + _col
        KNIGHTS[_c] = Knight(_col - HALF, _row - HALF)
        for _s in range(BOARD_SPACES):
            BUILDS[_s * CELLS + _c] = Build(_s, _col - HALF, _row - HALF)
DRAGONS = [Dragon(s) for s in range(BOARD_SPACES)]


def action_from_index(index: int) -> Action:
    require_index(index, NUM_ACTIONS)
    found: Action | None
    if index < PLACE_COUNT:
        found = PLACES[index]
    elif index == PLACE_COUNT:
        found = DISCARD
    elif index < PASS_INDEX:
        found = CLAIMS[index - CLAIM_BASE + 1]
    elif index == PASS_INDEX:
        found = PASS
    elif index < DRAGON_BASE:
        found = KNIGHTS[index - KNIGHT_BASE]
    elif index < BUILD_BASE:
        found = DRAGONS[index - DRAGON_BASE]
    else:
        found = BUILDS[index - BUILD_BASE]
    if found is None:
        raise MalformedAction(msgid=N_("action index {index} names no square"), index=index)
    return found


def action_from_json(data: object) -> Action:
    """The action of its canonical JSON form, or MalformedAction saying what is wrong."""
    obj = require_json_object(data)
    common = domino_action_from_json(obj, CLAIMS)
    if common is not None:
        return common
    kind = obj.get("type")
    if kind == "pass":
        return PASS
    if kind == "knight":
        knight = Knight(require_int(obj, "x"), require_int(obj, "y"))
        return KNIGHTS[knight.cell] or knight
    if kind == "dragon":
        space = require_int(obj, "space")
        _space(space)
        return DRAGONS[space]
    if kind == "build":
        build = Build(require_int(obj, "space"), require_int(obj, "x"), require_int(obj, "y"))
        return BUILDS[build.space * CELLS + build.cell] or build
    raise MalformedAction(
        msgid=N_(
            "unknown action type {type!r}; expected place, discard, knight, build, dragon, "
            "claim or pass"
        ),
        type=kind,
    )


def describe(action: Action) -> str:
    """The action in words, in the language being spoken (``engine.i18n.speaking``)."""
    if isinstance(action, Place):
        return t("place at ({x}, {y}) facing {dir}", x=action.x, y=action.y, dir=action.dir)
    if isinstance(action, Discard):
        return t("discard")
    if isinstance(action, Claim):
        return t("claim domino {domino}", domino=action.domino)
    if isinstance(action, Knight):
        return t("knight on ({x}, {y})", x=action.x, y=action.y)
    if isinstance(action, Build):
        return t("build from space {space} on ({x}, {y})", space=action.space, x=action.x,
                 y=action.y)
    if isinstance(action, Dragon):
        return t("dragon burns space {space}", space=action.space)
    return t("pass")


__all__ = [
    "BUILDS", "CLAIMS", "DISCARD", "DRAGONS", "KNIGHTS", "PASS", "PLACES", "Action", "Build",
    "Claim", "Discard", "Dragon", "Knight", "Pass", "Place",
]
