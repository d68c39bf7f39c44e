"""Queendomino: one seat's observation (docs/rl.md "Queendomino").

Everything is public except the order of the two piles (undrawn dominoes, building tiles), so
this reads what ``games/queendomino/view.py`` shows: Kingdomino's draft parts
(``kingdomino.DraftEncoder``), the builders' board, the Dragon and the Queen, each side's
treasury, knights, towers, buildings and kingdom, and the pile counts; never the piles' order,
nor the RNG. Sides (one per player, one per team in team play) are relative to the observer's.
"""

from __future__ import annotations

from array import array
from typing import Any

import numpy as np

from ludoteca.engine.game import Game, Seat
from ludoteca.games.kingdomino.grid import TERR
from ludoteca.games.queendomino import scoring
from ludoteca.games.queendomino.buildings import NUM_TILES
from ludoteca.games.queendomino.components import (
    BOARD_SPACES,
    DOMINOES,
    MAX_ID,
    QUEENDOMINO_BOX,
    TERRAINS,
)
from ludoteca.games.queendomino.state import OVER, STEP_NAMES, Config, QueendominoState
from ludoteca.rl.encode import Vector, unit
from ludoteca.rl.observations.kingdomino import CACHE_LIMIT, DraftEncoder, domino_features

QD_FEATURES = {
    n: domino_features(d.terrains, d.crowns, n / MAX_ID, len(TERRAINS))
    for n, d in DOMINOES.items()
}


class Encoder(DraftEncoder):
    """Queendomino observation for one player count and options."""

    kinds = len(TERRAINS)

    def __init__(self, game: Game[Any, Any], options: dict[str, Any], players: int) -> None:
        cfg = self.cfg = Config.from_options(options, players)
        super().__init__(players, cfg.frame, cfg.line_size, cfg.kings_per_player, QD_FEATURES)
        n = players
        sides = self.sides = cfg.sides
        lay = self.layout
        self.o_seat = lay.add("seat", n, "the observer's seat, one-hot")
        self.o_phase = lay.add("phase", 3, "draft, play, over (one-hot)")
        self.o_step = lay.add("step", len(STEP_NAMES), "place, tax, build, dragon, claim")
        self.o_round = lay.add("round", 1, "round / rounds")
        self.o_deck = lay.add("deck_remaining", 2,
                              "undrawn dominoes of the Queendomino box / 48, of the Kingdomino "
                              "box (Royal Wedding) / 48")
        self.add_draft(lay)
        self.o_board = lay.add("board", BOARD_SPACES * (NUM_TILES + 1),
                               "per builders' board space (price 0-5): its tile id one-hot, or "
                               "empty (last)")
        self.o_dragon = lay.add("dragon", BOARD_SPACES + 1, "the Dragon's space, or its cave")
        self.o_pile = lay.add("building_pile", 1, "tiles left in the pile / 32")
        self.o_burnt = lay.add("burnt", NUM_TILES, "tiles the Dragon burnt, by id")
        self.o_queen = lay.add("queen", sides + 1, "side hosting the Queen (relative), or none")
        self.o_side = lay.add(
            "sides", sides * 5,
            "per relative side: coins / 30, knights in hand / 10, towers / 10, its seats "
            "include the observer, score now / 100")
        self.o_built = lay.add("built", sides * NUM_TILES, "per relative side, tiles built")
        w = 2 * cfg.frame - 1
        self.plane_size = (self.kinds + 3) * self.cells
        self.o_kingdoms = lay.add(
            "kingdoms", sides * self.plane_size,
            f"per relative side, {self.kinds} terrain planes ({', '.join(TERRAINS)}), crowns / "
            f"3, knights, buildings; each {w}×{w} centred on the castle (row-major, y down)")
        self.o_turn = lay.add("turn", 2 * self.cells,
                              "the acting side's squares of the domino just placed, and its "
                              "squares taxed this turn (two planes in the kingdom window)")
        self.shape = (lay.size,)
        self.template = array("f", bytes(4 * lay.size))
        self.rounds = cfg.rounds
        self.empty = [0] * (TERR + self.kinds)
        self._scores: dict[tuple[Any, ...], float] = {}

    def score(self, s: QueendominoState, side: int) -> float:
        k = s.kingdoms[side]
        knights = s.knights[side] + s.knight_cells[side].bit_count()
        key = (*k, *(t for t, _ in s.built[side]), -1, s.coins[side], s.towers[side], knights,
               s.queen == side)
        got = self._scores.get(key)
        if got is None:
            tiles = [self.cfg.tiles[t - 1] for t, _ in s.built[side]]
            got = unit(scoring.score(k, tiles, s.coins[side], s.towers[side], knights,
                                     s.queen == side), 100)
            if len(self._scores) > CACHE_LIMIT:
                self._scores.clear()
            self._scores[key] = got
        return got

    def encode(self, s: QueendominoState, seat: Seat) -> Vector:
        cfg = self.cfg
        sides = self.sides
        buf = self.template[:]
        buf[self.o_seat + seat] = 1.0
        buf[self.o_phase + s.phase] = 1.0
        buf[self.o_round] = s.round / self.rounds
        buf[self.o_pile] = (len(s.pile) - s.pile_pos) / NUM_TILES
        if s.phase != OVER:
            buf[self.o_step + s.step] = 1.0
        left = len(s.deck) - s.deck_pos
        queen_box = left  # without Royal Wedding every domino is of the Queendomino box
        if cfg.royal_wedding:  # counts per box are public (view "deck_remaining_by_box")
            queen_box = sum(1 for d in s.deck[s.deck_pos:] if d <= QUEENDOMINO_BOX)
        buf[self.o_deck] = queen_box / 48
        buf[self.o_deck + 1] = (left - queen_box) / 48
        self.draft(s, seat, buf)
        o = self.o_board
        for space, tile in enumerate(s.board):
            buf[o + space * (NUM_TILES + 1) + (tile - 1 if tile else NUM_TILES)] = 1.0
        buf[self.o_dragon + (s.dragon if s.dragon >= 0 else BOARD_SPACES)] = 1.0
        for t in s.burnt:
            buf[self.o_burnt + t - 1] = 1.0
        mine = cfg.side_of[seat]
        buf[self.o_queen + ((s.queen - mine) % sides if s.queen >= 0 else sides)] = 1.0
        size = self.plane_size
        for r in range(sides):
            side = (mine + r) % sides
            o = self.o_side + 5 * r
            buf[o] = unit(s.coins[side], 30)
            buf[o + 1] = unit(s.knights[side], 10)
            buf[o + 2] = unit(s.towers[side], 10)
            buf[o + 4] = self.score(s, side)
            if r == 0:
                buf[o + 3] = 1.0
            o = self.o_built + r * NUM_TILES - 1
            for t, _ in s.built[side]:
                buf[o + t] = 1.0
            o = self.o_kingdoms + r * size
            buf[o:o + size] = self.planes(s.kingdoms[side],
                                          (s.knight_cells[side], s.built_cells[side]))
        if s.last_cells or s.taxed:
            turn = self.planes(self.empty, (s.last_cells, s.taxed))
            cells = 2 * self.cells
            o = self.o_turn
            buf[o:o + cells] = turn[len(turn) - cells:]
        return np.frombuffer(buf, dtype=np.float32)
