"""Buttons match state: a handful of ints and short lists, so cloning is cheap."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ludoteca.engine.game import SlotState
from ludoteca.engine.rng import Rng

TURN, PLACE, STARS, OVER = range(4)
PHASE_NAMES = ("turn", "place", "stars", "over")
IN, STOPPED, BUSTED = range(3)
STATUS_NAMES = ("in", "stopped", "busted")
NO_CELL = -1


def draw_dice(rng: Rng, count: int) -> tuple[int, ...]:
    """``count`` dice from one draw (its base-6 digits): a roll (rules §3.2 item 1), and how the
    narration reads that roll again from the generator the state kept."""
    v = rng.below(6**count)
    dice = []
    for _ in range(count):
        dice.append(v % 6 + 1)
        v //= 6
    return tuple(dice)


@dataclass(frozen=True, slots=True)
class Config:
    """Fixed for the whole match, derived once from the validated options."""

    players: int
    bga_winner: bool  # True: 100-point line scoring (§6 BGA); False: printed "more stars"
    aside: int  # white-pip dice set aside per leaving player: 2 in 2 players, else 1 (§3.1)
    fixed_boards: bool
    options: tuple[tuple[str, Any], ...]

    @classmethod
    def from_options(cls, opts: dict[str, Any], players: int) -> Config:
        return cls(
            players=players,
            bga_winner=opts["winner"] == "bga",
            aside=2 if players == 2 else 1,
            fixed_boards=opts["boards"] == "fixed",
            options=tuple(sorted(opts.items())),
        )


class ButtonsState(SlotState):
    """One match. ``boards``, ``layout_ids`` and the tuples in ``history`` never change, so
    clones share them."""

    __slots__ = (
        "active",  # seat whose turn it is
        "boards",  # per seat, the four colour masks (R, Y, G, B) of its layout (shared)
        "cards",  # per seat, bit mask of the colours of the button cards it holds
        "cfg",
        "deciders",  # seats that had a real choice after the last roll (public)
        "dice",  # last roll: (white, gold black, *white-pip black dice), () before the first
        # roll of the game; the dice stay on the table until the next roll
        "earned",  # per seat, stars earned this round (set at round end)
        "free",  # white-pip black dice still in play this round
        "history",  # per finished round, per seat (status, markers, colours>=3, bonus, stars)
        "in_round",  # bit mask of seats still in the round
        "last_placed",  # per seat, the cell placed on by the last resolved roll, or NO_CELL
        "layout_ids",  # per seat, which of the 8 layouts it plays on, 0-7 (shared)
        "markers",  # per seat, this round's markers (36-bit mask)
        "options_mask",  # cells the active player may place on after the current roll
        "pending",  # per seat, its hidden answer this step: a cell, or NO_CELL
        "phase",
        "picks",  # per seat, cells chosen to become stars (STARS phase, hidden until resolved)
        "ply",
        "removed_card",  # colour bit mask of the card out of play (3 players), else 0
        "rng",
        "round",  # 1-based
        "stars",  # per seat, permanent stars (36-bit mask)
        "status",  # per seat: IN, STOPPED or BUSTED this round
        "waiting",  # bit mask of seats whose answer is still missing this step
    )

    active: int
    boards: tuple[tuple[int, int, int, int], ...]
    cards: list[int]
    cfg: Config
    deciders: int
    dice: tuple[int, ...]
    earned: list[int]
    free: int
    history: list[tuple[tuple[int, int, int, int, int], ...]]
    in_round: int
    last_placed: list[int]
    layout_ids: tuple[int, ...]
    markers: list[int]
    options_mask: int
    pending: list[int]
    phase: int
    picks: list[int]
    ply: int
    removed_card: int
    rng: Rng
    round: int
    stars: list[int]
    status: list[int]
    waiting: int

    def clone(self) -> ButtonsState:
        s = ButtonsState.__new__(ButtonsState)
        s.active = self.active
        s.boards = self.boards
        s.cards = self.cards[:]
        s.cfg = self.cfg
        s.deciders = self.deciders
        s.dice = self.dice
        s.earned = self.earned[:]
        s.free = self.free
        s.history = self.history[:]
        s.in_round = self.in_round
        s.last_placed = self.last_placed[:]
        s.layout_ids = self.layout_ids
        s.markers = self.markers[:]
        s.options_mask = self.options_mask
        s.pending = self.pending[:]
        s.phase = self.phase
        s.picks = self.picks[:]
        s.ply = self.ply
        s.removed_card = self.removed_card
        s.rng = self.rng.clone()
        s.round = self.round
        s.stars = self.stars[:]
        s.status = self.status[:]
        s.waiting = self.waiting
        return s

    def __repr__(self) -> str:
        return f"<ButtonsState round {self.round} {PHASE_NAMES[self.phase]} ply {self.ply}>"
