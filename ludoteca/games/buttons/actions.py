"""Buttons actions, all built once at import.

Index layout (stable, for RL action masks): 0 roll, 1 stop, 2 decline, ``3 + cell`` place a
marker on cell (0-35 → 3-38), ``39 + cell`` turn the marker on cell into a star (39-74).
Cells are numbered ``(row - 1) * 6 + (col - 1)`` with row = white die, col = black die.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ludoteca.engine.errors import MalformedAction
from ludoteca.engine.game import JSON, require_index, require_int, require_json_object
from ludoteca.engine.i18n import N_, t
from ludoteca.games.buttons.grid import CELLS, SIZE, cell_of

ROLL_INDEX, STOP_INDEX, DECLINE_INDEX = 0, 1, 2
PLACE_BASE = 3
STAR_BASE = PLACE_BASE + CELLS
NUM_ACTIONS = STAR_BASE + CELLS


@dataclass(frozen=True, slots=True)
class Roll:
    """Roll every die still in play (rules §3.2)."""

    index: ClassVar[int] = ROLL_INDEX

    def to_json(self) -> JSON:
        return {"type": "roll"}


@dataclass(frozen=True, slots=True)
class Stop:
    """Leave the round, keeping this round's markers (rules §3.1)."""

    index: ClassVar[int] = STOP_INDEX

    def to_json(self) -> JSON:
        return {"type": "stop"}


@dataclass(frozen=True, slots=True)
class Decline:
    """A waiting player does not use the gold combination this roll (rules §3.2 item 3)."""

    index: ClassVar[int] = DECLINE_INDEX

    def to_json(self) -> JSON:
        return {"type": "decline"}


def _check_cell(row: int, col: int) -> int:
    if not (1 <= row <= SIZE and 1 <= col <= SIZE):
        raise MalformedAction(
            msgid=N_("row and column are dice values 1-6, not ({row}, {col})"), row=row, col=col
        )
    return cell_of(row, col)


@dataclass(frozen=True, slots=True)
class Place:
    """Put a marker on (row, col): row = white die, col = the chosen black die."""

    row: int
    col: int
    cell: int = field(init=False, repr=False, compare=False)
    index: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        cell = _check_cell(self.row, self.col)
        object.__setattr__(self, "cell", cell)
        object.__setattr__(self, "index", PLACE_BASE + cell)

    def to_json(self) -> JSON:
        return {"type": "place", "row": self.row, "col": self.col}


@dataclass(frozen=True, slots=True)
class Star:
    """At round end, turn this round's marker on (row, col) into a star (rules §4)."""

    row: int
    col: int
    cell: int = field(init=False, repr=False, compare=False)
    index: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        cell = _check_cell(self.row, self.col)
        object.__setattr__(self, "cell", cell)
        object.__setattr__(self, "index", STAR_BASE + cell)

    def to_json(self) -> JSON:
        return {"type": "star", "row": self.row, "col": self.col}


Action = Roll | Stop | Decline | Place | Star

ROLL, STOP, DECLINE = Roll(), Stop(), Decline()
PLACES: tuple[Place, ...] = tuple(Place(c // SIZE + 1, c % SIZE + 1) for c in range(CELLS))
STARS: tuple[Star, ...] = tuple(Star(c // SIZE + 1, c % SIZE + 1) for c in range(CELLS))
_BY_INDEX: tuple[Action, ...] = (ROLL, STOP, DECLINE, *PLACES, *STARS)


def action_from_index(index: int) -> Action:
    return _BY_INDEX[require_index(index, NUM_ACTIONS)]


def action_from_json(data: object) -> Action:
    obj = require_json_object(data)
    kind = obj.get("type")
    if kind == "roll":
        return ROLL
    if kind == "stop":
        return STOP
    if kind == "decline":
        return DECLINE
    if kind in ("place", "star"):
        cell = _check_cell(require_int(obj, "row"), require_int(obj, "col"))
        return PLACES[cell] if kind == "place" else STARS[cell]
    raise MalformedAction(
        msgid=N_("unknown action type {type!r}; expected roll, stop, decline, place or star"),
        type=kind,
    )


def describe(action: Action) -> str:
    """The action in words, in the language being spoken (``engine.i18n.speaking``)."""
    if isinstance(action, Place):
        return t("place a marker on row {row}, column {col}", row=action.row, col=action.col)
    if isinstance(action, Star):
        return t("put a star on row {row}, column {col}", row=action.row, col=action.col)
    return t(str(action.to_json()["type"]))
