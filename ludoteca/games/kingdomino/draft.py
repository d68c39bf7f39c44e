"""The draft that Kingdomino and Queendomino share (rules/kingdomino.md §2-3; in
rules/queendomino.md, Setup and step E): kings claim dominoes of the next line, the claimed line
becomes the current one, its kings play in line order, and a domino nobody claimed is discarded.

Both games' states derive from ``DraftState``, which holds the draft's fields, compares and
copies them, and both games show and rebuild them with ``line_json`` and ``read_draft``. The
grid they share is ``grid.py``; what differs (Dynasty, the builders' board) stays in each game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ludoteca.engine.errors import Reason, because
from ludoteca.engine.game import JSON, SlotState
from ludoteca.engine.i18n import N_
from ludoteca.engine.rng import Rng

DRAFT, PLAY, OVER = range(3)
PHASE_NAMES = ("draft", "play", "over")

DRAFT_SLOTS = (
    "acting",  # slot of the current line whose king acts (play phase)
    "cur",  # current line, domino numbers ascending (shared)
    "cur_owner",  # seat of the king on each slot of the current line, -1 for none (shared)
    "deck",  # the draw pile in order, hidden from everyone (shared)
    "deck_pos",  # next undrawn position of ``deck``
    "discarded",  # dominoes discarded (unplaceable or unclaimed)
    "draft_order",  # seats of the kings in first-draft order (shared)
    "draft_pos",
    "nxt",  # next line, ascending (shared)
    "nxt_owner",  # claims on the next line, -1 for unclaimed
    "phase",
    "round",  # 1-based round of the play phase, 0 during the first draft
)


class DraftState(SlotState):
    """The draft's fields. Lists marked *shared* are replaced, never mutated, so clones share
    them; a subclass's ``clone`` calls ``copy_draft``."""

    __slots__ = DRAFT_SLOTS

    acting: int
    cur: list[int]
    cur_owner: list[int]
    deck: list[int]
    deck_pos: int
    discarded: list[int]
    draft_order: list[int]
    draft_pos: int
    nxt: list[int]
    nxt_owner: list[int]
    phase: int
    round: int

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        for name in DRAFT_SLOTS:
            if getattr(self, name) != getattr(other, name):
                return False
        return SlotState.__eq__(self, other)  # the subclass's own slots

    __hash__ = None

    def copy_draft(self, s: DraftState) -> None:
        """Copy the draft's fields into the new clone ``s``."""
        s.acting = self.acting
        s.cur = self.cur
        s.cur_owner = self.cur_owner
        s.deck = self.deck
        s.deck_pos = self.deck_pos
        s.discarded = self.discarded[:]
        s.draft_order = self.draft_order
        s.draft_pos = self.draft_pos
        s.nxt = self.nxt
        s.nxt_owner = self.nxt_owner[:]
        s.phase = self.phase
        s.round = self.round

    def seat_acting(self) -> int:
        """The seat whose turn it is (play phase) or who claims next (first draft); -1 when over."""
        if self.phase == PLAY:
            return self.cur_owner[self.acting]
        if self.phase == DRAFT:
            return self.draft_order[self.draft_pos]
        return -1


def first_draft_order(rng: Rng, players: int, kings_per_player: int, abba: bool) -> list[int]:
    """The kings' order in the first draft: A, B, B, A for two players when ``abba``, else the
    kings drawn at random (rules/kingdomino.md §2, §9.3; rules/queendomino.md Setup)."""
    if abba:
        a = rng.below(2)
        return [a, 1 - a, 1 - a, a]
    order = [seat for seat in range(players) for _ in range(kings_per_player)]
    rng.shuffle(order)
    return order


def open_draft(s: DraftState, order: list[int], line_size: int) -> None:
    """Start the first draft: the first line is the top of ``s.deck``, in ascending order."""
    s.draft_order = order
    s.draft_pos = 0
    s.discarded = []
    s.cur = []
    s.cur_owner = []
    s.nxt = sorted(s.deck[:line_size])
    s.nxt_owner = [-1] * line_size
    s.deck_pos = line_size
    s.phase = DRAFT
    s.round = 0
    s.acting = 0


def claim(s: DraftState, seat: int, domino: int) -> None:
    """Put ``seat``'s king on ``domino`` of the next line."""
    s.nxt_owner[s.nxt.index(domino)] = seat


def claim_first(s: DraftState, seat: int, domino: int) -> bool:
    """A claim of the first draft; True when every king has claimed (the round can start)."""
    s.nxt_owner[s.nxt.index(domino)] = seat
    s.draft_pos += 1
    return s.draft_pos == len(s.draft_order)


def next_king(s: DraftState) -> bool:
    """Hand the turn to the next king on the current line; False when the line is done."""
    i = s.acting + 1
    owners = s.cur_owner
    size = len(owners)
    while i < size and owners[i] < 0:
        i += 1
    if i < size:
        s.acting = i
        return True
    return False


def turn_line(s: DraftState, line_size: int) -> bool:
    """A new round (rules/kingdomino.md §3.1, §3.3): the unclaimed dominoes of the next line are
    discarded, it becomes the current line, and a new next line is drawn if the deck has one
    (True) or not (False: the last round). The first king on the line acts."""
    cur, owners = s.nxt, s.nxt_owner
    for i, n in enumerate(cur):
        if owners[i] < 0:
            s.discarded.append(n)
    s.cur = cur
    s.cur_owner = owners
    drew = s.deck_pos < len(s.deck)
    if drew:
        s.nxt = sorted(s.deck[s.deck_pos : s.deck_pos + line_size])
        s.nxt_owner = [-1] * line_size
        s.deck_pos += line_size
    else:
        s.nxt = []
        s.nxt_owner = []
    s.phase = PLAY
    s.round += 1
    i = 0
    while owners[i] < 0:
        i += 1
    s.acting = i
    return drew


C = TypeVar("C")


def free_claims(s: DraftState, claims: Sequence[C | None]) -> list[C]:
    """The prebuilt claim actions (``claims[number]``) of the unclaimed next-line dominoes."""
    owners = s.nxt_owner
    return [claims[n] for i, n in enumerate(s.nxt) if owners[i] < 0]  # type: ignore[misc]


def why_not_claim(s: DraftState, domino: int) -> Reason | None:
    if domino not in s.nxt:
        return because(N_("domino {domino} is not in the next line"), domino=domino)
    if s.nxt_owner[s.nxt.index(domino)] >= 0:
        return because(N_("domino {domino} is already claimed"), domino=domino)
    return None


def line_json(
    dominoes: list[int], owners: list[int], domino_json: Callable[[int], JSON]
) -> list[JSON]:
    """A line as the view shows it: each domino with the king on it (a seat, or None)."""
    return [
        {**domino_json(n), "king": owner if owner >= 0 else None}
        for n, owner in zip(dominoes, owners, strict=True)
    ]


def read_draft(s: DraftState, v: JSON, key: str) -> None:
    """The draft's fields from a view (``key`` names a domino: "number" or "id"); the deck is
    left to the caller, who deals it. Raises KeyError, TypeError or ValueError on a bad view."""
    s.phase = PHASE_NAMES.index(v["phase"])
    s.round = int(v["round"])
    s.acting = int(v["acting"])
    s.draft_order = [int(x) for x in v["draft_order"]]
    s.draft_pos = int(v["draft_pos"])
    s.cur, s.cur_owner = _read_line(v["current_line"], key)
    s.nxt, s.nxt_owner = _read_line(v["next_line"], key)
    s.discarded = [int(n) for n in v["discarded"]]


def _read_line(line: list[Any], key: str) -> tuple[list[int], list[int]]:
    return (
        [int(d[key]) for d in line],
        [-1 if d["king"] is None else int(d["king"]) for d in line],
    )


def seen_dominoes(s: DraftState, placed: list[list[tuple[int, int, int]]]) -> set[int]:
    """Dominoes a view shows: both lines, the discards and every kingdom's placements."""
    seen = set(s.cur) | set(s.nxt) | set(s.discarded)
    for p in placed:
        seen.update(n for n, _, _ in p)
    return seen
