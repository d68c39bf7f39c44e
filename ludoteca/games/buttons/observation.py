"""Buttons: one seat's observation (docs/rl.md "Buttons").

Mirrors ``games/buttons/view.py``: boards, cards, markers, stars, statuses and dice lie open;
of a simultaneous step's answers only the observer's own (its pending cell, its star picks) is
read, and whether the others answered already is not (their ``waiting`` bits and answers stay
unread), nor the dice to come. Round history appears only through the stars it left.

The ``plan`` and ``progress`` slices (appended later, docs/rl.md "Buttons") restate per cell
what the boards above say only jointly: how many of this round's markers the cell's colour
already has, whether it is a bonus colour, whether a marker may go there, and the longest run
of stars a star there would join. A policy network cannot cheaply multiply a marker plane by
a colour plane (every seat has its own layout), so without them it never learns what a cell
is worth (docs/rl.md, "What held the learners back").
"""

from __future__ import annotations

from array import array
from functools import lru_cache
from typing import Any

import numpy as np

from ludoteca.engine.game import Game, Seat
from ludoteca.games.buttons.grid import CELLS, FULL, LINES5, blocked
from ludoteca.games.buttons.scoring import round_stars
from ludoteca.games.buttons.state import NO_CELL, OVER, STARS, TURN, ButtonsState
from ludoteca.rl.encode import Fills, Layout, Vector, bit_array, unit

PER_SEAT = 7 * CELLS
"""Bits per seat: red, yellow, green, blue cells of its board, markers, stars, last placed."""
CARDS = [array("f", [float(cards >> i & 1) for i in range(4)]) for cards in range(16)]
"""A set of colour cards (4 bits) as 0/1 per card."""
PLAN_PLANES = 9
PLAN_SEAT = PLAN_PLANES * CELLS + 16
"""Plan bits per seat: 9 planes of 36 cells, then per colour its markers one-hot 0, 1, 2, 3+."""


@lru_cache(maxsize=8192)
def runs(stars: int) -> tuple[int, int]:
    """(4 planes packed: cells in a 5-cell window holding >= 1, 2, 3, 4 of ``stars``, the most
    stars in one window)."""
    planes = [0, 0, 0, 0]
    best = 0
    for line in LINES5:
        k = (stars & line).bit_count()
        if k > best:
            best = k
        for t in range(min(k, 4)):
            planes[t] |= line
    return planes[0] | planes[1] << 36 | planes[2] << 72 | planes[3] << 108, best


@lru_cache(maxsize=65536)
def seat_plan(markers: int, stars: int, board: tuple[int, ...], cards: int,
              line_stars: int) -> tuple[int, float, float, float]:
    """One seat's plan bits (``PLAN_SEAT`` of them; see ``Encoder``) and its ``progress``
    values. Cached: between two observations most seats' markers and stars have not moved."""
    at_least = [0, 0, 0]
    counts = 0
    bonus = 0
    for k in range(4):
        colour = board[k]
        n = (markers & colour).bit_count()
        for t in range(min(n, 3)):
            at_least[t] |= colour
        counts |= 1 << (4 * k + min(n, 3))
        if cards >> k & 1:
            bonus |= colour
    free = FULL & ~blocked(markers, stars)
    planes, best = runs(line_stars)
    bits = (
        at_least[0] | at_least[1] << 36 | at_least[2] << 72 | bonus << 108 | free << 144
        | planes << 180 | counts << 324
    )
    stop = round_stars(markers, board, cards)[2] / 8 if markers else 0.0
    return bits, stop, unit(stars.bit_count(), 12), best / 5


class Canvas:
    """One observer's last vector, written in place: its bit planes are rewritten where they
    changed since, the rest at every observation (``Encoder.fill``)."""

    def __init__(self, size: int) -> None:
        self.buf = array("f", bytes(4 * size))
        self.vec: Vector = np.frombuffer(self.buf, dtype=np.float32)
        self.bits = 0
        """The bit planes' values now in ``buf``."""
        self.plan = 0
        """The plan bits' values now in ``buf``."""


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
        self.o_progress = lay.add(
            "progress", 3 * n,
            "per relative seat: stars stopping now would earn / 8 (0 without markers), its "
            "stars / 12, the most of its stars in one 5-cell line / 5")
        self.ntail = lay.size - self.nbits
        self.o_plan = lay.add(
            "plan", n * PLAN_SEAT,
            "per relative seat, 9 planes of 36 cells: the cell's colour has >= 1, >= 2, >= 3 "
            "of this round's markers; the cell's colour is a bonus card's; a marker may go "
            "there; a 5-cell line through the cell holds >= 1, 2, 3, 4 of its stars (the "
            "observer's own picks count); then per colour (red, yellow, green, blue) its "
            "markers one-hot 0, 1, 2, 3+")
        self.nplan = n * PLAN_SEAT
        self.shape = (lay.size,)
        self.tail = array("f", bytes(4 * self.ntail))
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
        buf[self.nbits:self.nbits + self.ntail] = self.tail
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
        plan = 0
        shift = 0
        o = self.o_progress
        for r in range(n):
            p = (seat + r) % n
            stars = s.stars[p]
            line_stars = stars | s.picks[seat] if r == 0 and stars_phase else stars
            bits, buf[o], buf[o + 1], buf[o + 2] = seat_plan(
                s.markers[p], stars, s.boards[p], s.cards[p], line_stars)
            plan |= bits << shift
            shift += PLAN_SEAT
            o += 3
        if plan != c.plan:  # many bits move at once: numpy writes them all in one pass
            c.vec[self.o_plan:] = bit_array(plan, self.nplan)
        c.plan = plan
        return c.vec
