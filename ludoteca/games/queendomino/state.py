"""Queendomino match state: compact lists of ints, with a hand-written clone that shares what
never mutates (lists marked *shared* are replaced, never changed in place)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ludoteca.engine.rng import Rng
from ludoteca.games.kingdomino.draft import DRAFT, OVER, PHASE_NAMES, PLAY, DraftState
from ludoteca.games.queendomino.buildings import Table, table

__all__ = [
    "BUILD", "CLAIM", "DRAFT", "DRAGON", "EMPTY", "OVER", "PHASE_NAMES", "PLACE", "PLAY",
    "STEP_NAMES", "TAX", "Config", "QueendominoState",
]
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
    teams: bool = False
    sides: int = 0
    """Kingdoms in play: one per player, or one per team (rules §7.6)."""
    side_of: tuple[int, ...] = ()
    """Each seat's side: the kingdom, treasury, knights and towers it plays with. Alone, a side
    is the seat itself; in teams (rules §7.6, ruling 10) seats s and s + players/2 share side
    s mod players/2, Kami's convention."""

    @property
    def total_dominoes(self) -> int:
        return 96 if self.royal_wedding else 48

    @property
    def rounds(self) -> int:
        return self.total_dominoes // self.line_size

    def partners(self, side: int) -> list[int]:
        """The seats playing ``side``, lowest first."""
        return [seat for seat, s in enumerate(self.side_of) if s == side]

    @classmethod
    def from_options(cls, opts: dict[str, Any], players: int) -> Config:
        wedding = bool(opts["royal_wedding"])
        teams = bool(opts.get("teams", False))
        sides = players // 2 if teams else players
        if teams:  # rules §7.6: a shared 7×7 kingdom per team, lines of 8
            frame, line = 7, 8
        elif wedding:  # rules §7.3-7.5
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
            tiles=table(opts["buildings"]),
            options=tuple(sorted(opts.items())),
            teams=teams,
            sides=sides,
            side_of=tuple(seat % sides for seat in range(players)),
        )


class QueendominoState(DraftState):
    """One match. The per-side lists (kingdom, treasury, knights, towers, buildings) are
    indexed by side, ``cfg.side_of[seat]``: the seat itself except in team play (rules §7.6);
    the kings on the lines belong to seats. The draft's fields (lines, kings, deck, phase,
    round) are ``DraftState``'s."""

    __slots__ = (
        "board",  # builders' board: board[price] = tile id or EMPTY
        "built",  # per side, (tile id, cell) in build order
        "built_cells",  # per side, bitmask of town squares holding a building
        "burnt",  # tiles the Dragon removed from the game
        "cfg",
        "coins",  # per side
        "dragon",  # board space the Dragon stands on this round, -1 in its cave
        "kingdoms",  # per side, the grid list of ``kingdomino/grid.py`` (7 terrains)
        "knight_cells",  # per side, bitmask of cells holding a knight
        "knights",  # per side, unplaced knights
        "last_cells",  # bitmask of the squares of the domino just placed this turn (0 if none)
        "lines_drawn",  # lines drawn so far (Royal Wedding alternates boxes)
        "pile",  # building draw pile in order, hidden from everyone (shared)
        "pile_pos",
        "placed",  # per side, (domino, cell, direction) in placement order
        "ply",
        "queen",  # side hosting the Queen, -1 for nobody
        "rng",
        "step",
        "taxed",  # knights placed this turn (bitmask of their cells)
        "towers",  # per side
    )

    board: list[int]
    built: list[list[tuple[int, int]]]
    built_cells: list[int]
    burnt: list[int]
    cfg: Config
    coins: list[int]
    dragon: int
    kingdoms: list[list[int]]
    knight_cells: list[int]
    knights: list[int]
    last_cells: int
    lines_drawn: int
    pile: list[int]
    pile_pos: int
    placed: list[list[tuple[int, int, int]]]
    ply: int
    queen: int
    rng: Rng
    step: int
    taxed: int
    towers: list[int]

    def clone(self) -> QueendominoState:
        s = QueendominoState.__new__(QueendominoState)
        self.copy_draft(s)
        s.board = self.board[:]
        s.built = [b[:] for b in self.built]
        s.built_cells = self.built_cells[:]
        s.burnt = self.burnt[:]
        s.cfg = self.cfg
        s.coins = self.coins[:]
        s.dragon = self.dragon
        s.kingdoms = [k[:] for k in self.kingdoms]
        s.knight_cells = self.knight_cells[:]
        s.knights = self.knights[:]
        s.last_cells = self.last_cells
        s.lines_drawn = self.lines_drawn
        s.pile = self.pile
        s.pile_pos = self.pile_pos
        s.placed = [p[:] for p in self.placed]
        s.ply = self.ply
        s.queen = self.queen
        s.rng = self.rng.clone()
        s.step = self.step
        s.taxed = self.taxed
        s.towers = self.towers[:]
        return s

    def __repr__(self) -> str:
        return (
            f"<QueendominoState round {self.round} {PHASE_NAMES[self.phase]} "
            f"{STEP_NAMES[self.step]} ply {self.ply}>"
        )
