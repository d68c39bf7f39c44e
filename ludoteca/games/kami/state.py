"""Kami match state: packed hands, short per-seat lines, a hand-written cheap clone."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ludoteca.engine.game import SlotState
from ludoteca.engine.rng import Rng
from ludoteca.games.kami.components import POINTS

DECLARE, DECIDE, PLAY, OVER = range(4)
PHASE_NAMES = ("declare", "decide", "play", "over")

# Line entries are a card type plus flags.
FACE_DOWN = 8
"""Defense entry played face down (a lead's defense, A4.1)."""
FROM_MERC = 16
"""Entry taken from a mercenary stack (2 players, A5.4)."""
TYPE_MASK = 7

END_MODES = ("soldier", "lord", "kami")


@dataclass(frozen=True, slots=True)
class Config:
    """Everything fixed for the whole match, derived once from the validated options."""

    game: str  # "kami" or "goita"
    players: int
    sides: int  # scoring sides: 2 teams with 4 players, else one per player
    side_of: tuple[int, ...]
    step: int  # +1 clockwise (Kami A2.1), -1 counter-clockwise (Goita B1)
    end_mode: str
    target: int
    demoralized: bool  # Kami A6 asked after every 4-player deal
    goita: bool
    values: tuple[int, ...]
    options: tuple[tuple[str, Any], ...]
    after: tuple[int, ...]  # after[seat]: the next seat in play direction (step)

    @classmethod
    def from_options(cls, game: str, opts: dict[str, Any], players: int) -> Config:
        goita = game == "goita"
        teams = players == 4
        return cls(
            game=game,
            players=players,
            sides=2 if teams else players,
            side_of=tuple(s % 2 for s in range(4)) if teams else tuple(range(players)),
            step=-1 if goita else 1,
            end_mode="soldier" if goita else str(opts["end_mode"]),
            target=int(opts["target"]),
            demoralized=teams and not goita and bool(opts["demoralized"]),
            goita=goita,
            values=tuple(10 * p for p in POINTS) if goita else POINTS,
            options=tuple(sorted(opts.items())),
            after=tuple((s + (-1 if goita else 1)) % players for s in range(players)),
        )


class KamiState(SlotState):
    """One match. Lists marked *shared* are replaced, never mutated, so clones may share them."""

    __slots__ = (
        "asked",  # DECLARE: seat being asked; DECIDE: the demoralized holder
        "attack",  # type of the current attack, -1 before the first lead of a round
        "attacker",  # owner of the current attack; play returns to them to lead (A4.3)
        "attacks",  # per seat attack line: type | FROM_MERC
        "cfg",
        "defense",  # per seat defense line: type | FACE_DOWN | FROM_MERC
        "draws",  # opening draw (A2.3, C5): rounds of (seat, type) (shared)
        "ended",  # the table when the last deal went out: (round, defense, attacks, sizes),
        # the very lists of that deal (never mutated again; shared by clones), or None
        "first",  # first player of this round
        "hands",  # per seat packed hand (components.py)
        "history",  # per scored or cancelled deal: see rules.award (shared tuples)
        "looked",  # 3 players: per seat the index into ``unused`` it looked at, -1 none
        "merc_down",  # per stack the face-down card, -1 none (2 players)
        "merc_up",  # per stack the face-up top card, -1 empty (2 players)
        "nasked",  # DECLARE: seats asked so far this deal
        "phase",
        "ply",
        "revealed",  # per seat Soldiers shown for A6 / B5 this deal (0 = none)
        "rng",
        "round",  # 1-based round number
        "scores",  # per side
        "sizes",  # per seat cards in hand
        "turn",  # seat to act in PLAY
        "unlocked",  # an Empress may attack (A4.5 a; Goita B3 "shown face up")
        "unused",  # 3 players: the two cards out of play (A3) (shared)
        "winner",  # winning side once OVER, else -1
    )

    asked: int
    attack: int
    attacker: int
    attacks: list[list[int]]
    cfg: Config
    defense: list[list[int]]
    draws: list[list[tuple[int, int]]]
    ended: tuple[int, list[list[int]], list[list[int]], list[int]] | None
    first: int
    hands: list[int]
    history: list[tuple[Any, ...]]
    merc_down: list[int]
    merc_up: list[int]
    nasked: int
    phase: int
    ply: int
    revealed: list[int]
    rng: Rng
    round: int
    scores: list[int]
    sizes: list[int]
    turn: int
    unlocked: bool
    unused: list[int]
    looked: list[int]
    winner: int

    def clone(self) -> KamiState:
        s = KamiState.__new__(KamiState)
        s.asked = self.asked
        s.attack = self.attack
        s.attacker = self.attacker
        s.attacks = [line[:] for line in self.attacks]
        s.cfg = self.cfg
        s.defense = [line[:] for line in self.defense]
        s.draws = self.draws
        s.ended = self.ended
        s.first = self.first
        s.hands = self.hands[:]
        s.history = self.history[:]
        s.merc_down = self.merc_down[:]
        s.merc_up = self.merc_up[:]
        s.nasked = self.nasked
        s.phase = self.phase
        s.ply = self.ply
        s.revealed = self.revealed[:]
        s.rng = self.rng.clone()
        s.round = self.round
        s.scores = self.scores[:]
        s.sizes = self.sizes[:]
        s.turn = self.turn
        s.unlocked = self.unlocked
        s.unused = self.unused
        s.looked = self.looked[:]
        s.winner = self.winner
        return s

    def __repr__(self) -> str:
        return (
            f"<KamiState {self.cfg.game} round {self.round} {PHASE_NAMES[self.phase]} "
            f"ply {self.ply} scores {self.scores}>"
        )
