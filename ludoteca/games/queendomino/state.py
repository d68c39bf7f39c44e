"""Queendomino match state: compact lists of ints, with a hand-written clone that shares what
never mutates (lists marked *shared* are replaced, never changed in place)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ludoteca.engine.game import SlotState
from ludoteca.engine.rng import Rng
from ludoteca.games.queendomino.buildings import Table

DRAFT, PLAY, OVER = range(3)
PHASE_NAMES = ("draft", "play", "over")
# Steps of a turn (rules "Turn" A-E). A step is where the turn stands; later steps' actions
# are also open, so an optional step is skipped by acting in a later one.
PLACE, TAX, BUILD, DRAGON, CLAIM = range(5)
STEP_NAMES = ("place", "tax", "build", "dragon", "claim")
EMPTY = 0  # an empty builders' board space (tile ids are 1-32)


@dataclass(frozen=True, slots=True)
class Config:
    """Everything fixed for the whole match, derived once from the validated options."""

    players: int
    frame: int
    line_size: int
    kings_per_player: int
    royal_wedding: bool
    tax_bonus_per_turn: bool
    tiles: Table
    options: tuple[tuple[str, Any], ...]

    @property
    def total_dominoes(self) -> int:
        return 96 if self.royal_wedding else 48

    @property
    def rounds(self) -> int:
        return self.total_dominoes // self.line_size

    @classmethod
    def from_options(cls, opts: dict[str, Any], players: int, tiles: Table) -> Config:
        wedding = bool(opts["royal_wedding"])
        if wedding:
            frame = 7 if players <= 4 else 5
            line = 4 if players <= 4 else 8
        else:
            frame = 7 if players == 2 else 5
            line = 4
        return cls(
            players=players,
            frame=frame,
            line_size=line,
            kings_per_player=2 if players == 2 else 1,
            royal_wedding=wedding,
            tax_bonus_per_turn=opts["tax_bonus"] == "per_turn",
            tiles=tiles,
            options=tuple(sorted(opts.items())),
        )


class QueendominoState(SlotState):
    """One match. Per-seat lists are indexed by seat."""

    __slots__ = (
        "acting",  # slot of the current line whose king acts (play phase)
        "board",  # builders' board: board[price] = tile id or EMPTY
        "built",  # per seat, (tile id, cell) in build order
        "built_cells",  # per seat, bitmask of town squares holding a building
        "burnt",  # tiles the Dragon removed from the game
        "cfg",
        "coins",
        "cur",  # current line, domino ids ascending (shared)
        "cur_owner",  # seat of the king on each slot of the current line, -1 for none (shared)
        "deck",  # every domino in draw order, hidden from everyone (shared)
        "deck_pos",  # next undrawn position of ``deck``
        "discarded",  # dominoes discarded (unplaceable or unclaimed)
        "draft_order",  # seats of the kings in first-draft order (shared)
        "draft_pos",
        "dragon",  # board space the Dragon stands on this round, -1 in its cave
        "kingdoms",  # per seat, the grid list of ``kingdomino/grid.py`` (7 terrains)
        "knight_cells",  # per seat, bitmask of cells holding a knight
        "knights",  # per seat, unplaced knights
        "last_cells",  # bitmask of the squares of the domino just placed this turn (0 if none)
        "lines_drawn",  # lines drawn so far (Royal Wedding alternates boxes)
        "nxt",  # next line, ascending (shared)
        "nxt_owner",  # claims on the next line, -1 for unclaimed
        "phase",
        "pile",  # building draw pile in order, hidden from everyone (shared)
        "pile_pos",
        "placed",  # per seat, (domino, cell, direction) in placement order
        "ply",
        "queen",  # seat hosting the Queen, -1 for nobody
        "rng",
        "round",  # 1-based round of the play phase, 0 during the first draft
        "step",
        "taxed",  # knights placed this turn (bitmask of their cells)
        "towers",  # per seat
    )

    acting: int
    board: list[int]
    built: list[list[tuple[int, int]]]
    built_cells: list[int]
    burnt: list[int]
    cfg: Config
    coins: list[int]
    cur: list[int]
    cur_owner: list[int]
    deck: list[int]
    deck_pos: int
    discarded: list[int]
    draft_order: list[int]
    draft_pos: int
    dragon: int
    kingdoms: list[list[int]]
    knight_cells: list[int]
    knights: list[int]
    last_cells: int
    lines_drawn: int
    nxt: list[int]
    nxt_owner: list[int]
    phase: int
    pile: list[int]
    pile_pos: int
    placed: list[list[tuple[int, int, int]]]
    ply: int
    queen: int
    rng: Rng
    round: int
    step: int
    taxed: int
    towers: list[int]

    def clone(self) -> QueendominoState:
        s = QueendominoState.__new__(QueendominoState)
        s.acting = self.acting
        s.board = self.board[:]
        s.built = [b[:] for b in self.built]
        s.built_cells = self.built_cells[:]
        s.burnt = self.burnt[:]
        s.cfg = self.cfg
        s.coins = self.coins[:]
        s.cur = self.cur
        s.cur_owner = self.cur_owner
        s.deck = self.deck
        s.deck_pos = self.deck_pos
        s.discarded = self.discarded[:]
        s.draft_order = self.draft_order
        s.draft_pos = self.draft_pos
        s.dragon = self.dragon
        s.kingdoms = [k[:] for k in self.kingdoms]
        s.knight_cells = self.knight_cells[:]
        s.knights = self.knights[:]
        s.last_cells = self.last_cells
        s.lines_drawn = self.lines_drawn
        s.nxt = self.nxt
        s.nxt_owner = self.nxt_owner[:]
        s.phase = self.phase
        s.pile = self.pile
        s.pile_pos = self.pile_pos
        s.placed = [p[:] for p in self.placed]
        s.ply = self.ply
        s.queen = self.queen
        s.rng = self.rng.clone()
        s.round = self.round
        s.step = self.step
        s.taxed = self.taxed
        s.towers = self.towers[:]
        return s

    def seat_acting(self) -> int:
        """The seat whose turn it is (play phase) or who claims next (first draft); -1 when over."""
        if self.phase == PLAY:
            return self.cur_owner[self.acting]
        if self.phase == DRAFT:
            return self.draft_order[self.draft_pos]
        return -1

    def __repr__(self) -> str:
        return (
            f"<QueendominoState round {self.round} {PHASE_NAMES[self.phase]} "
            f"{STEP_NAMES[self.step]} ply {self.ply}>"
        )
