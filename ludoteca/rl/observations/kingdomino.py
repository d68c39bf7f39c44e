"""Kingdomino: one seat's observation (docs/rl.md "Kingdomino").

Everything in Kingdomino is public except the draw pile's order (rules §8), so this reads what
``games/kingdomino/view.py`` shows: the lines with their kings, the draft order, the discards,
the count of undrawn dominoes and every kingdom; never ``deck`` beyond that count, nor the RNG.

A kingdom is a window of ``2 * frame - 1`` squares a side centred on its castle (any kingdom
that fits the frame fits the window): one plane per terrain, then crowns / 3. Kingdom planes
and scores are cached by the kingdom's bitboards (a kingdom changes once per turn).
``DraftEncoder`` holds what Queendomino's encoder shares.
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
from ludoteca.rl.encode import Layout, Vector, unit

GRID_BYTES = (SIZE * STRIDE + 7) // 8
CACHE_LIMIT = 20_000
Floats = npt.NDArray[np.float32]
Buffer: TypeAlias = "array[float]"
"""An observation being written (``array("f")``), handed to numpy without a copy."""


def domino_features(
    terrains: tuple[int, int], crowns: tuple[int, int], number: float, kinds: int
) -> Buffer:
    """A domino: its number / highest, each half's terrain one-hot, each half's crowns / 3."""
    f = array("f", bytes(4 * (1 + 2 * kinds + 2)))
    f[0] = number
    f[1 + terrains[0]] = 1.0
    f[1 + kinds + terrains[1]] = 1.0
    f[1 + 2 * kinds] = crowns[0] / 3
    f[2 + 2 * kinds] = crowns[1] / 3
    return f


class DraftEncoder:
    """The parts both domino games share: lines, draft order, discards, kingdom windows."""

    kinds: int
    """Terrain kinds (6, or 7 with Queendomino's towns)."""

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
        self.window = (lo, lo + 2 * frame - 1)
        self.cells = (2 * frame - 1) ** 2
        self._planes: dict[tuple[int, ...], Buffer] = {}
        self.layout = Layout()

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

    def draft(self, s: DraftState, seat: Seat, buf: Buffer) -> None:
        n = self.n
        if s.phase == DRAFT:
            for k, p in enumerate(s.draft_order):
                buf[self.o_order + k * n + (p - seat) % n] = 1.0
            buf[self.o_pos + s.draft_pos] = 1.0
        acting = s.acting if s.phase == PLAY else -1
        dfeat, slot, dominoes = self.dfeat, self.slot, self.dominoes
        for o, line, owners in ((self.o_cur, s.cur, s.cur_owner),
                                (self.o_next, s.nxt, s.nxt_owner)):
            for i, d in enumerate(line):
                base = o + i * slot
                buf[base] = 1.0
                buf[base + 1:base + 1 + dfeat] = dominoes[d]
                if owners[i] >= 0:
                    buf[base + 1 + dfeat + (owners[i] - seat) % n] = 1.0
                if i == acting:
                    buf[base + slot - 1] = 1.0
            acting = -1
        o = self.o_disc - 1
        for d in s.discarded:
            buf[o + d] = 1.0

    def planes(self, k: list[int], extra: tuple[int, ...] = ()) -> Buffer:
        """Terrain planes, crowns / 3, then one plane per mask of ``extra``, in the window."""
        key = (*k, *extra)
        got = self._planes.get(key)
        if got is None:
            kinds = self.kinds
            masks = [*k[TERR:TERR + kinds], *k[CR1:CR1 + 3], *extra]
            raw = b"".join(m.to_bytes(GRID_BYTES, "little") for m in masks)
            b = np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little")
            lo, hi = self.window
            grid = b.reshape(len(masks), GRID_BYTES * 8)[:, :SIZE * STRIDE]
            win = grid.reshape(len(masks), SIZE, STRIDE)[:, lo:hi, lo:hi].astype(np.float32)
            crowns = (win[kinds] + 2 * win[kinds + 1] + 3 * win[kinds + 2]) / 3
            got = array("f", np.concatenate([win[:kinds].ravel(), crowns.ravel(),
                                             win[kinds + 3:].ravel()]).tobytes())
            if len(self._planes) > CACHE_LIMIT:
                self._planes.clear()
            self._planes[key] = got
        return got


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
        self.template = array("f", bytes(4 * lay.size))
        self._scores: dict[tuple[int, ...], float] = {}

    def score(self, k: list[int]) -> float:
        key = tuple(k)
        got = self._scores.get(key)
        if got is None:
            cfg = self.cfg
            got = unit(scoring.score(k, cfg.frame, cfg.harmony, cfg.middle_kingdom), 100)
            if len(self._scores) > CACHE_LIMIT:
                self._scores.clear()
            self._scores[key] = got
        return got

    def encode(self, s: KingdominoState, seat: Seat) -> Vector:
        n = self.n
        cfg = self.cfg
        buf = self.template[:]
        buf[self.o_seat + seat] = 1.0
        buf[self.o_phase + s.phase] = 1.0
        if s.phase != OVER:
            buf[self.o_step + (1 if s.step == CLAIM_STEP else 0)] = 1.0
        buf[self.o_round] = s.round / cfg.rounds
        buf[self.o_game] = s.game_no / 2
        buf[self.o_deck] = (len(s.deck) - s.deck_pos) / cfg.deck_size
        self.draft(s, seat, buf)
        size = self.plane_size
        for r in range(n):
            p = (seat + r) % n
            k = s.kingdoms[p]
            o = self.o_kingdoms + r * size
            buf[o:o + size] = self.planes(k)
            buf[self.o_scores + r] = self.score(k)
            for g, (kingdoms, _) in enumerate(s.past):
                buf[self.o_past + g * n + r] = self.score(kingdoms[p])
        return np.frombuffer(buf, dtype=np.float32)
