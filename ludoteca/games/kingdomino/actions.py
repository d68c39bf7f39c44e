"""Kingdomino actions: place a domino, discard it (only when it cannot be placed), claim one.

Every action object is built once at import; ``legal_actions`` hands out these shared values.
Index layout (stable, used for RL action masks): ``cell * 4 + direction`` for placements
(0-727), 728 for discard, ``729 + number - 1`` for claims.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ludoteca.engine.errors import MalformedAction
from ludoteca.engine.game import JSON, require_index, require_int, require_json_object
from ludoteca.engine.i18n import N_, t
from ludoteca.games.kingdomino.grid import DIRECTIONS, HALF, SIZE, STRIDE, cell_of

MAX_DOMINO = 48
PLACE_COUNT = SIZE * STRIDE * 4
DISCARD_INDEX = PLACE_COUNT
CLAIM_BASE = DISCARD_INDEX + 1
NUM_ACTIONS = CLAIM_BASE + MAX_DOMINO


@dataclass(frozen=True, slots=True)
class Place:
    """The domino's first half on (x, y), its second half one step in ``dir`` (E, S, W or N)."""

    x: int
    y: int
    dir: str
    cell: int = field(init=False, repr=False, compare=False)
    d: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.dir not in DIRECTIONS:
            raise MalformedAction(
                msgid=N_("direction must be one of E, S, W, N, not {dir!r}"), dir=self.dir
            )
        cell = square(self.x, self.y)
        object.__setattr__(self, "cell", cell)
        object.__setattr__(self, "d", DIRECTIONS.index(self.dir))

    @property
    def index(self) -> int:
        return self.cell * 4 + self.d

    def to_json(self) -> JSON:
        return {"type": "place", "x": self.x, "y": self.y, "dir": self.dir}


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard the domino: allowed only when it has no legal placement (rule 4.3)."""

    @property
    def index(self) -> int:
        return DISCARD_INDEX

    def to_json(self) -> JSON:
        return {"type": "discard"}


@dataclass(frozen=True, slots=True)
class Claim:
    """Put the acting king on an unclaimed domino of the next line."""

    domino: int

    @property
    def index(self) -> int:
        return CLAIM_BASE + self.domino - 1

    def to_json(self) -> JSON:
        return {"type": "claim", "domino": self.domino}


Action = Place | Discard | Claim


def square(x: int, y: int) -> int:
    """The cell of square (x, y), or MalformedAction when it is off the board."""
    try:
        return cell_of(x, y)
    except ValueError:
        raise MalformedAction(msgid=N_("({x}, {y}) is off the board"), x=x, y=y) from None

# Prebuilt tables: PLACES[cell * 4 + d] (None for guard-column cells), CLAIMS[number].
PLACES: list[Place | None] = [None] * PLACE_COUNT
for _row in range(SIZE):
    for _col in range(SIZE):
        for _d, _name in enumerate(DIRECTIONS):
            _p = Place(_col - HALF, _row - HALF, _name)
            PLACES[_p.index] = _p
DISCARD = Discard()
CLAIMS: list[Claim | None] = [None] + [Claim(n) for n in range(1, MAX_DOMINO + 1)]


def action_from_index(index: int) -> Action:
    require_index(index, NUM_ACTIONS)
    if index < PLACE_COUNT:
        place = PLACES[index]
        if place is None:
            raise MalformedAction(msgid=N_("action index {index} names no square"), index=index)
        return place
    if index == DISCARD_INDEX:
        return DISCARD
    claim = CLAIMS[index - CLAIM_BASE + 1]
    assert claim is not None
    return claim


def domino_action_from_json(obj: JSON, claims: Sequence[Claim | None]) -> Action | None:
    """Place, Discard or Claim from its JSON object; None for any other type. Shared with
    Queendomino, whose ``claims`` table is longer (Royal Wedding numbers)."""
    kind = obj.get("type")
    if kind == "place":
        x, y = require_int(obj, "x"), require_int(obj, "y")
        direction = obj.get("dir")
        if not isinstance(direction, str):
            raise MalformedAction(msgid=N_("field 'dir' must be one of E, S, W, N"))
        place = Place(x, y, direction.upper())
        return PLACES[place.index] or place
    if kind == "discard":
        return DISCARD
    if kind == "claim":
        n = require_int(obj, "domino")
        claim = claims[n] if 1 <= n < len(claims) else None
        if claim is None:
            raise MalformedAction(
                msgid=N_("there is no domino {domino} (numbers are 1-{last})"),
                domino=n,
                last=len(claims) - 1,
            )
        return claim
    return None


def action_from_json(data: object) -> Action:
    obj = require_json_object(data)
    action = domino_action_from_json(obj, CLAIMS)
    if action is None:
        raise MalformedAction(
            msgid=N_("unknown action type {type!r}; expected place, discard or claim"),
            type=obj.get("type"),
        )
    return action


def describe(action: Action) -> str:
    """The action in words, in the language being spoken (``engine.i18n.speaking``)."""
    if isinstance(action, Place):
        return t("place at ({x}, {y}) facing {dir}", x=action.x, y=action.y, dir=action.dir)
    if isinstance(action, Discard):
        return t("discard")
    return t("claim domino {domino}", domino=action.domino)
