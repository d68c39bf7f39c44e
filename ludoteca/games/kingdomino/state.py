"""Kingdomino match state: compact, with a hand-written clone that shares what never mutates."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ludoteca.engine.game import SlotState
from ludoteca.engine.rng import Rng

DRAFT, PLAY, OVER = range(3)
PHASE_NAMES = ("draft", "play", "over")
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


class KingdominoState(SlotState):
    """One match (all games of a Dynasty). Lists marked *shared* are replaced, never mutated, so
    clones may share them."""

    __slots__ = (
        "acting",  # slot of the current line whose king acts (play phase)
        "cfg",
        "cur",  # current line, domino numbers ascending (shared)
        "cur_owner",  # seat of the king on each slot of the current line, -1 for none (shared)
        "deck",  # the draw pile in order, hidden from everyone (shared)
        "deck_pos",  # next undrawn position of ``deck``
        "discarded",  # dominoes discarded this game (forced or unclaimed)
        "draft_order",  # seats of the kings in first-draft order (shared)
        "draft_pos",
        "game_no",  # 0-based game of a Dynasty
        "kingdoms",  # per seat, the grid list of ``grid.py``
        "nxt",  # next line, ascending (shared)
        "nxt_owner",  # claims on the next line, -1 for unclaimed
        "past",  # finished Dynasty games: (kingdoms, placed) each (shared inside)
        "phase",
        "placed",  # per seat, (domino, cell, direction) in placement order
        "ply",
        "rng",
        "round",  # 1-based round of the play phase, 0 during the first draft
        "step",  # PLACE_STEP or CLAIM_STEP for the acting king
    )

    acting: int
    cfg: Config
    cur: list[int]
    cur_owner: list[int]
    deck: list[int]
    deck_pos: int
    discarded: list[int]
    draft_order: list[int]
    draft_pos: int
    game_no: int
    kingdoms: list[list[int]]
    nxt: list[int]
    nxt_owner: list[int]
    past: list[tuple[list[list[int]], list[list[tuple[int, int, int]]]]]
    phase: int
    placed: list[list[tuple[int, int, int]]]
    ply: int
    rng: Rng
    round: int
    step: int

    def clone(self) -> KingdominoState:
        s = KingdominoState.__new__(KingdominoState)
        s.acting = self.acting
        s.cfg = self.cfg
        s.cur = self.cur
        s.cur_owner = self.cur_owner
        s.deck = self.deck
        s.deck_pos = self.deck_pos
        s.discarded = self.discarded[:]
        s.draft_order = self.draft_order
        s.draft_pos = self.draft_pos
        s.game_no = self.game_no
        s.kingdoms = [k[:] for k in self.kingdoms]
        s.nxt = self.nxt
        s.nxt_owner = self.nxt_owner[:]
        s.past = self.past[:]
        s.phase = self.phase
        s.placed = [p[:] for p in self.placed]
        s.ply = self.ply
        s.rng = self.rng.clone()
        s.round = self.round
        s.step = self.step
        return s

    def __repr__(self) -> str:
        return (
            f"<KingdominoState game {self.game_no + 1} round {self.round} "
            f"{['draft', 'play', 'over'][self.phase]} ply {self.ply}>"
        )
