"""Kingdomino match state: compact, with a hand-written clone that shares what never mutates."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ludoteca.engine.rng import Rng
from ludoteca.games.kingdomino.draft import DRAFT, OVER, PHASE_NAMES, PLAY, DraftState

__all__ = [
    "CLAIM_STEP", "DRAFT", "OVER", "PHASE_NAMES", "PLACE_STEP", "PLAY", "Config", "KingdominoState",
]

PLACE_STEP, CLAIM_STEP = range(2)


@dataclass(frozen=True, slots=True)
class Config:
    """Everything fixed for the whole match, derived once from the validated options."""

    players: int
    frame: int
    line_size: int
    deck_size: int
    kings_per_player: int
    bga_three_player: bool
    harmony: bool
    middle_kingdom: bool
    games: int
    crowns_tiebreak: bool
    abba_first_draft: bool
    options: tuple[tuple[str, Any], ...]

    @property
    def rounds(self) -> int:
        return self.deck_size // self.line_size

    @classmethod
    def from_options(cls, opts: dict[str, Any], players: int) -> Config:
        duel = players == 2 and bool(opts["mighty_duel"])
        bga3 = players == 3 and opts["three_player_draft"] == "bga"
        if players == 2:
            deck = 48 if duel else 24
        elif players == 3:
            deck = 48 if bga3 else 36
        else:
            deck = 48
        return cls(
            players=players,
            frame=7 if duel else 5,
            line_size=3 if players == 3 and not bga3 else 4,
            deck_size=deck,
            kings_per_player=2 if players == 2 else 1,
            bga_three_player=bga3,
            harmony=bool(opts["harmony"]),
            middle_kingdom=bool(opts["middle_kingdom"]),
            games=3 if opts["dynasty"] else 1,
            crowns_tiebreak=opts["tiebreak"] == "rulebook",
            abba_first_draft=players == 2 and opts["first_draft"] == "abba",
            options=tuple(sorted(opts.items())),
        )


class KingdominoState(DraftState):
    """One match (all games of a Dynasty). The draft's fields (lines, kings, deck, phase,
    round) are ``DraftState``'s; lists marked *shared* are replaced, never mutated, so clones
    share them."""

    __slots__ = (
        "cfg",
        "game_no",  # 0-based game of a Dynasty
        "kingdoms",  # per seat, the grid list of ``grid.py``
        "past",  # finished Dynasty games: (kingdoms, placed) each (shared inside)
        "placed",  # per seat, (domino, cell, direction) in placement order
        "ply",
        "rng",
        "step",  # PLACE_STEP or CLAIM_STEP for the acting king
    )

    cfg: Config
    game_no: int
    kingdoms: list[list[int]]
    past: list[tuple[list[list[int]], list[list[tuple[int, int, int]]]]]
    placed: list[list[tuple[int, int, int]]]
    ply: int
    rng: Rng
    step: int

    def clone(self) -> KingdominoState:
        s = KingdominoState.__new__(KingdominoState)
        self.copy_draft(s)
        s.cfg = self.cfg
        s.game_no = self.game_no
        s.kingdoms = [k[:] for k in self.kingdoms]
        s.past = self.past[:]
        s.placed = [p[:] for p in self.placed]
        s.ply = self.ply
        s.rng = self.rng.clone()
        s.step = self.step
        return s

    def __repr__(self) -> str:
        return (
            f"<KingdominoState game {self.game_no + 1} round {self.round} "
            f"{PHASE_NAMES[self.phase]} ply {self.ply}>"
        )
