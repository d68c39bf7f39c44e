"""Kingdomino: one seat's observation (docs/rl.md "Kingdomino").

Everything in Kingdomino is public except the draw pile's order (rules §8), so this reads what
``games/kingdomino/view.py`` shows: the lines with their kings, the draft order, the discards,
the count of undrawn dominoes and every kingdom; never ``deck`` beyond that count, nor the RNG.

A kingdom is a window of ``2 * frame - 1`` squares a side centred on its castle (any kingdom
that fits the frame fits the window): one plane per terrain, then crowns / 3.

Speed: each observer seat keeps its last vector (a ``Canvas``) with what it was written from,
and only the parts that changed since are rewritten (a kingdom changes by one domino a turn:
only the squares whose bits differ are written); ``encode`` copies it out. Kingdom scores
are cached by the kingdom's bitboards. ``DraftEncoder`` holds what Queendomino's encoder
shares.
"""

from __future__ import annotations

from array import array
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from ludoteca.engine.game import Game, Seat
from ludoteca.games.kingdomino import scoring
from ludoteca.games.kingdomino.components import DOMINOES, TERRAINS
from ludoteca.games.kingdomino.draft import DRAFT, OVER, PLAY, DraftState
from ludoteca.games.kingdomino.grid import CR1, HALF, SIZE, STRIDE, TERR
from ludoteca.games.kingdomino.state import CLAIM_STEP, Config, KingdominoState
from ludoteca.rl.encode import Fills, Layout, Vector, unit

CACHE_LIMIT = 20_000
Floats = npt.NDArray[np.float32]
Buffer: TypeAlias = "array[float]"
"""An observation being written (``array("f")``), handed to numpy without a copy."""
CROWNS = [float(np.float32(c) / np.float32(3)) for c in range(7)]
"""A square's crowns plane value by 1 × (1 crown) + 2 × (2) + 3 × (3), as float32 divides."""


def zeros(size: int) -> Buffer:
    return array("f", bytes(4 * size))


def domino_features(
    terrains: tuple[int, int], crowns: tuple[int, int], number: float, kinds: int
) -> Buffer:
    """A domino: its number / highest, each half's terrain one-hot, each half's crowns / 3."""
    f = zeros(1 + 2 * kinds + 2)
    f[0] = number
    f[1 + terrains[0]] = 1.0
    f[1 + kinds + terrains[1]] = 1.0
    f[1 + 2 * kinds] = crowns[0] / 3
    f[2 + 2 * kinds] = crowns[1] / 3
    return f


class Canvas:
    """One observer's last vector, written in place, and what each part was written from."""

    def __init__(self, size: int, slots: int) -> None:
        self.buf = zeros(size)
        self.vec: Floats = np.frombuffer(self.buf, dtype=np.float32)
        self.lines: list[tuple[list[int], list[int], int] | None] = [None, None]
        """Current and next line: dominoes, owners, acting slot."""
        self.discarded: list[int] = []
        self.kingdoms: list[list[int] | None] = [None] * slots
        """Per relative slot, the kingdom (with Queendomino's extra masks last) drawn there."""


class DraftEncoder(Fills):
    """The parts both domino games share: lines, draft order, discards, kingdom windows."""

    kinds: int
    """Terrain kinds (6, or 7 with Queendomino's towns)."""
    o_cur: int
    o_next: int
    o_disc: int
    shape: tuple[int]

    def __init__(self, players: int, frame: int, line_size: int, kings: int,
                 dominoes: dict[int, Buffer]) -> None:
        self.n = players
        self.frame = frame
        self.line_size = line_size
        self.order_len = players * kings
        self.dominoes = dominoes
        self.max_domino = max(dominoes)
        self.dfeat = len(next(iter(dominoes.values())))
        self.slot = 1 + self.dfeat + players + 1
        lo = HALF - (frame - 1)
        width = 2 * frame - 1
        self.cells = width * width
        self.window = [-1] * (SIZE * STRIDE)
        """Board cell -> its square in the window (row-major), -1 outside."""
        for row in range(width):
            for col in range(width):
                self.window[(lo + row) * STRIDE + lo + col] = row * width + col
        self.empty_slot = zeros(self.slot)
        self.slots = {d: zeros(self.slot) for d in dominoes}
        """A line slot's values by domino, before its king and acting flag: present, the
        domino's features."""
        for d, f in self.slots.items():
            f[0] = 1.0
            f[1:1 + self.dfeat] = dominoes[d]
        self.zero_disc = zeros(self.max_domino)
        self.layout = Layout()
        self._canvases: list[Canvas | None] = [None] * players
        self._territories: dict[tuple[int, int, int, int], int] = {}

    def add_draft(self, lay: Layout) -> None:
        n, slot, dfeat = self.n, self.slot, self.dfeat
        self.o_order = lay.add("draft_order", self.order_len * n,
                               "first draft: the kings' order, relative seat one-hot per king")
        self.o_pos = lay.add("draft_pos", self.order_len + 1, "first draft: kings done, one-hot")
        what = (f"per slot: present, the domino ({dfeat}: number / {self.max_domino}, each "
                f"half's terrain one-hot, each half's crowns / 3), its king's relative seat "
                f"one-hot ({n}), acting")
        self.o_cur = lay.add("current_line", self.line_size * slot, "current line " + what)
        self.o_next = lay.add("next_line", self.line_size * slot, "next line " + what)
        self.o_disc = lay.add("discarded", self.max_domino, "discarded dominoes by number")

    def canvas(self, seat: Seat) -> Canvas:
        """``seat``'s canvas, made at its first observation."""
        c = self._canvases[seat]
        if c is None:
            c = self._canvases[seat] = self.new_canvas()
        return c

    def new_canvas(self) -> Canvas:
        return Canvas(self.shape[0], self.n)

    def draft(self, s: DraftState, seat: Seat, c: Canvas) -> None:
        """The draft order (its slices must be zero), and the lines and discards if changed."""
        n, buf = self.n, c.buf
        if s.phase == DRAFT:
            for k, p in enumerate(s.draft_order):
                buf[self.o_order + k * n + (p - seat) % n] = 1.0
            buf[self.o_pos + s.draft_pos] = 1.0
        acting = s.acting if s.phase == PLAY else -1
        last = c.lines[0]
        if last is None or acting != last[2] or s.cur != last[0] or s.cur_owner != last[1]:
            self.line(buf, self.o_cur, s.cur, s.cur_owner, seat, acting)
            c.lines[0] = (s.cur[:], s.cur_owner[:], acting)
        last = c.lines[1]
        if last is None or s.nxt != last[0] or s.nxt_owner != last[1]:
            self.line(buf, self.o_next, s.nxt, s.nxt_owner, seat, -1)
            c.lines[1] = (s.nxt[:], s.nxt_owner[:], -1)
        if s.discarded != c.discarded:
            o = self.o_disc
            buf[o:o + self.max_domino] = self.zero_disc
            for d in s.discarded:
                buf[o - 1 + d] = 1.0
            c.discarded = s.discarded[:]

    def line(self, buf: Buffer, o: int, line: list[int], owners: list[int], seat: Seat,
             acting: int) -> None:
        n, slot, king = self.n, self.slot, 1 + self.dfeat
        for i in range(self.line_size):
            base = o + i * slot
            if i >= len(line):
                buf[base:base + slot] = self.empty_slot
                continue
            buf[base:base + slot] = self.slots[line[i]]
            if owners[i] >= 0:
                buf[base + king + (owners[i] - seat) % n] = 1.0
            if i == acting:
                buf[base + slot - 1] = 1.0

    def territory_points(self, k: list[int]) -> int:
        """``scoring.territory_points``, summed per terrain: each terrain's points are kept by
        its squares and their crowns (a domino changes at most two terrains)."""
        c1, c2, c3 = k[CR1], k[CR1 + 1], k[CR1 + 2]
        crowned = c1 | c2 | c3
        total = 0
        for t in range(TERR, len(k)):
            m = k[t]
            if not m & crowned:
                continue  # no crown, no points
            key = (m, c1 & m, c2 & m, c3 & m)
            got = self._territories.get(key)
            if got is None:
                alone = [0] * (TERR + 1)  # a kingdom of this terrain and its crowns alone
                alone[CR1:CR1 + 3] = key[1:]
                alone[TERR] = m
                got = scoring.territory_points(alone)
                if len(self._territories) > CACHE_LIMIT:
                    self._territories.clear()
                self._territories[key] = got
            total += got
        return total

    def planes(self, buf: Buffer, o: int, old: list[int], new: list[int]) -> None:
        """Rewrite the window planes at ``o`` from kingdom ``old`` to ``new``, only where their
        bits differ: terrain planes, crowns / 3, then one plane per mask after the terrains
        (Queendomino's knights and buildings)."""
        cells = self.cells
        for t in range(self.kinds):
            if old[TERR + t] != new[TERR + t]:
                self.bits(buf, o + t * cells, old[TERR + t], new[TERR + t])
        o_crowns = o + self.kinds * cells
        c1, c2, c3 = new[CR1], new[CR1 + 1], new[CR1 + 2]
        diff = (old[CR1] ^ c1) | (old[CR1 + 1] ^ c2) | (old[CR1 + 2] ^ c3)
        window = self.window
        while diff:
            low = diff & -diff
            diff ^= low
            w = window[low.bit_length() - 1]
            if w >= 0:
                buf[o_crowns + w] = CROWNS[(c1 & low != 0) + 2 * (c2 & low != 0)
                                           + 3 * (c3 & low != 0)]
        end = TERR + self.kinds
        for i in range(len(new) - end):
            if old[end + i] != new[end + i]:
                self.bits(buf, o_crowns + (1 + i) * cells, old[end + i], new[end + i])

    def bits(self, buf: Buffer, o: int, old: int, new: int) -> None:
        """Rewrite the squares of the 0/1 window plane at ``o`` where ``new`` and ``old``
        differ."""
        window = self.window
        diff = old ^ new
        while diff:
            low = diff & -diff
            diff ^= low
            w = window[low.bit_length() - 1]
            if w >= 0:
                buf[o + w] = 1.0 if new & low else 0.0


KD_FEATURES = {
    n: domino_features(d.terrains, d.crowns, n / len(DOMINOES), len(TERRAINS))
    for n, d in DOMINOES.items()
}


class Encoder(DraftEncoder):
    """Kingdomino observation for one player count and options."""

    kinds = len(TERRAINS)

    def __init__(self, game: Game[Any, Any], options: dict[str, Any], players: int) -> None:
        cfg = self.cfg = Config.from_options(options, players)
        super().__init__(players, cfg.frame, cfg.line_size, cfg.kings_per_player, KD_FEATURES)
        n = players
        lay = self.layout
        self.o_seat = lay.add("seat", n, "the observer's seat, one-hot")
        self.o_phase = lay.add("phase", 3, "draft, play, over (one-hot)")
        self.o_step = lay.add("step", 2, "the acting king must place, or claim (one-hot)")
        self.o_round = lay.add("round", 1, "round / rounds")
        self.o_game = lay.add("game", 1, "Dynasty: games finished / 2")
        self.o_deck = lay.add("deck_remaining", 1, "undrawn dominoes / deck size")
        self.add_draft(lay)
        self.o_scores = lay.add("scores", n, "each relative seat's kingdom score now / 100")
        self.o_past = lay.add("past_scores", (cfg.games - 1) * n,
                              "Dynasty: per finished game, each relative seat's score / 100")
        self.plane_size = (self.kinds + 1) * self.cells
        w = 2 * cfg.frame - 1
        self.o_kingdoms = lay.add(
            "kingdoms", n * self.plane_size,
            f"per relative seat, {self.kinds} terrain planes "
            f"({', '.join(TERRAINS)}) then crowns / 3, each {w}×{w} centred on the castle "
            f"(row-major, y down, x right)")
        self.shape = (lay.size,)
        self.head = zeros(self.o_cur)
        """The values before the lines, rewritten at every observation."""
        self.zero_past = zeros((cfg.games - 1) * n)
        self.blank = [0] * (TERR + self.kinds)
        self._scores: dict[tuple[int, ...], float] = {}

    def score(self, k: list[int]) -> float:
        key = tuple(k)
        got = self._scores.get(key)
        if got is None:
            cfg = self.cfg
            got = unit(self.territory_points(k)  # scoring.score's sum
                       + scoring.bonus_points(k, cfg.frame, cfg.harmony, cfg.middle_kingdom), 100)
            if len(self._scores) > CACHE_LIMIT:
                self._scores.clear()
            self._scores[key] = got
        return got

    def fill(self, s: KingdominoState, seat: Seat) -> Vector:
        n = self.n
        cfg = self.cfg
        c = self.canvas(seat)
        buf = c.buf
        buf[:self.o_cur] = self.head
        buf[self.o_seat + seat] = 1.0
        buf[self.o_phase + s.phase] = 1.0
        if s.phase != OVER:
            buf[self.o_step + (1 if s.step == CLAIM_STEP else 0)] = 1.0
        buf[self.o_round] = s.round / cfg.rounds
        buf[self.o_game] = s.game_no / 2
        buf[self.o_deck] = (len(s.deck) - s.deck_pos) / cfg.deck_size
        self.draft(s, seat, c)
        size = self.plane_size
        kingdoms = c.kingdoms
        for r in range(n):
            p = (seat + r) % n
            k = s.kingdoms[p]
            old = kingdoms[r]
            if k != old:
                self.planes(buf, self.o_kingdoms + r * size, old or self.blank, k)
                buf[self.o_scores + r] = self.score(k)
                kingdoms[r] = k[:]
        if self.zero_past:  # Dynasty
            buf[self.o_past:self.o_past + len(self.zero_past)] = self.zero_past
            for g, (past, _) in enumerate(s.past):
                for r in range(n):
                    buf[self.o_past + g * n + r] = self.score(past[(seat + r) % n])
        return c.vec
