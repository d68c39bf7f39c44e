"""Buttons: one seat's observation (docs/rl.md "Buttons").

Mirrors ``games/buttons/view.py``: boards, cards, markers, stars, statuses and dice lie open;
of a simultaneous step's answers only the observer's own (its pending cell, its star picks) is
read, and whether the others answered already is not (their ``waiting`` bits and answers stay
unread), nor the dice to come. Round history appears only through the stars it left.
"""

from __future__ import annotations

from array import array
from typing import Any

import numpy as np

from ludoteca.engine.game import Game, Seat
from ludoteca.games.buttons.grid import CELLS
from ludoteca.games.buttons.state import NO_CELL, OVER, STARS, TURN, ButtonsState
from ludoteca.rl.encode import Fills, Layout, Vector, unit

PER_SEAT = 7 * CELLS
"""Bits per seat: red, yellow, green, blue cells of its board, markers, stars, last placed."""
CARDS = [array("f", [float(cards >> i & 1) for i in range(4)]) for cards in range(16)]
"""A set of colour cards (4 bits) as 0/1 per card."""


class Canvas:
    """One observer's last vector, written in place: its bit planes are rewritten where they
    changed since, the rest at every observation (``Encoder.fill``)."""

    def __init__(self, size: int) -> None:
        self.buf = array("f", bytes(4 * size))
        self.vec: Vector = np.frombuffer(self.buf, dtype=np.float32)
        self.bits = 0
        """The bit planes' values now in ``buf``."""


class Encoder(Fills):
    """Buttons observation for one player count and options."""

    def __init__(self, game: Game[Any, Any], options: dict[str, Any], players: int) -> None:
        n = self.n = players
        lay = self.layout = Layout()
        self.o_bits = lay.add(
            "boards", n * PER_SEAT,
            "per relative seat, 7 planes of 36 cells (cell = (row-1)*6 + col-1): its board's "
            "red, yellow, green and blue cells, this round's markers, its stars, the cell its "
            "last resolved roll placed on")
        lay.add("pending", CELLS, "the observer's own hidden answer this step (a cell), if any")
        lay.add("picks", CELLS, "stars phase: the observer's own cells picked to become stars")
        self.nbits = lay.size
        self.o_seat = lay.add("seat", n, "the observer's seat, one-hot")
        self.o_phase = lay.add("phase", 4, "turn, place, stars, over (one-hot)")
        self.o_round = lay.add("round", 1, "round / 20 (clipped)")
        self.o_active = lay.add("active", n, "seat whose turn it is, relative one-hot")
        self.o_dice = lay.add("dice", 1 + 6 + 6 + 6,
                              "a roll is on the table; white die one-hot; gold black die "
                              "one-hot; white-pip black dice per value / 4")
        self.o_free = lay.add("free_dice", 1, "white-pip black dice still in play / 4")
        self.o_deciders = lay.add("deciders", n, "seats with a real choice after the roll")
        self.o_to_act = lay.add("to_act", 1, "1 when the observer must answer now")
        self.o_removed = lay.add("removed_card", 4, "3 players: the colour card out of play")
        self.o_cards = lay.add("cards", n * 4, "per relative seat, the colour cards it holds")
        self.o_status = lay.add("status", n * 3, "per relative seat: in, stopped, busted")
        self.o_earned = lay.add("stars_to_place", n, "stars phase: stars earned / 8")
        self.shape = (lay.size,)
        self.tail = array("f", bytes(4 * (lay.size - self.nbits)))
        self._canvases: list[Canvas | None] = [None] * n

    def fill(self, s: ButtonsState, seat: Seat) -> Vector:
        n = self.n
        bits = 0
        shift = 0
        for r in range(n):
            p = (seat + r) % n
            board = s.boards[p]
            last = s.last_placed[p]
            bits |= (
                board[0] | board[1] << 36 | board[2] << 72 | board[3] << 108
                | s.markers[p] << 144 | s.stars[p] << 180
                | ((1 << last) << 216 if last != NO_CELL else 0)
            ) << shift
            shift += PER_SEAT
        pending = s.pending[seat]
        if pending != NO_CELL:
            bits |= 1 << (shift + pending)
        stars_phase = s.phase == STARS
        if stars_phase:
            bits |= s.picks[seat] << (shift + CELLS)
        c = self._canvases[seat]
        if c is None:
            c = self._canvases[seat] = Canvas(self.shape[0])
        buf = c.buf
        diff = bits ^ c.bits  # only the bits that changed since this seat's last observation
        while diff:
            low = diff & -diff
            diff ^= low
            buf[low.bit_length() - 1] = 1.0 if bits & low else 0.0
        c.bits = bits
        buf[self.nbits:] = self.tail
        buf[self.o_seat + seat] = 1.0
        buf[self.o_phase + s.phase] = 1.0
        buf[self.o_round] = unit(s.round, 20)
        buf[self.o_active + (s.active - seat) % n] = 1.0
        dice = s.dice
        if dice:
            o = self.o_dice
            buf[o] = 1.0
            buf[o + dice[0]] = 1.0
            buf[o + 6 + dice[1]] = 1.0
            for x in dice[2:]:
                buf[o + 12 + x] += 0.25
        buf[self.o_free] = unit(s.free, 4)
        for r in range(n):
            p = (seat + r) % n
            if s.deciders >> p & 1:
                buf[self.o_deciders + r] = 1.0
            cards = s.cards[p]
            if cards:
                buf[self.o_cards + 4 * r:self.o_cards + 4 * r + 4] = CARDS[cards]
            buf[self.o_status + 3 * r + s.status[p]] = 1.0
            if stars_phase and s.earned[p]:
                buf[self.o_earned + r] = unit(s.earned[p], 8)
        phase = s.phase
        if (s.active == seat) if phase == TURN else (phase != OVER and s.waiting >> seat & 1):
            buf[self.o_to_act] = 1.0
        removed = s.removed_card
        if removed:
            buf[self.o_removed:self.o_removed + 4] = CARDS[removed]
        return c.vec
