"""Queendomino: one seat's observation (docs/rl.md "Queendomino").

Everything is public except the order of the two piles (undrawn dominoes, building tiles), so
this reads what ``games/queendomino/view.py`` shows: Kingdomino's draft parts
(``kingdomino.DraftEncoder``), the builders' board, the Dragon and the Queen, each side's
treasury, knights, towers, buildings and kingdom, and the pile counts; never the piles' order,
nor the RNG. Sides (one per player, one per team in team play) are relative to the observer's.
As in Kingdomino, each observer's vector is kept and only what changed is rewritten.
"""

from __future__ import annotations

from typing import Any

from ludoteca.engine.game import Game, Seat
from ludoteca.games.kingdomino.grid import TERR, components
from ludoteca.games.kingdomino.observation import (
    CACHE_LIMIT,
    Canvas,
    DraftEncoder,
    domino_features,
    zeros,
)
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

QD_FEATURES = {
    n: domino_features(d.terrains, d.crowns, n / MAX_ID, len(TERRAINS))
    for n, d in DOMINOES.items()
}


class QueenCanvas(Canvas):
    """Kingdomino's canvas, and what Queendomino's other parts were written from."""

    def __init__(self, size: int, sides: int) -> None:
        super().__init__(size, sides)
        self.market: tuple[Any, ...] = ()
        """Builders' board, Dragon, burnt tiles, Queen, building pile."""
        self.sides: list[tuple[Any, ...]] = [()] * sides
        """Per relative side: its treasury, knights, towers, Queen and buildings."""
        self.turn = (0, 0)
        """The acting side's last domino and taxed squares."""


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
        self.head = zeros(self.o_cur)
        """The values before the lines, rewritten at every observation."""
        self.zero_market = zeros(self.o_side - self.o_board)
        self.zero_built = zeros(NUM_TILES)
        self.rounds = cfg.rounds
        self.blank = [0] * (TERR + self.kinds + 2)
        self._kingdoms: dict[tuple[int, ...], list[int]] = {}
        self._territories_of: dict[int, tuple[int, int]] = {}

    def new_canvas(self) -> Canvas:
        return QueenCanvas(self.shape[0], self.sides)

    def score(self, s: QueendominoState, side: int) -> float:
        """``scoring.score`` of a side / 100, clipped: the same sum, with what depends on the
        kingdom alone kept by the kingdom or by a terrain's squares (``territories``)."""
        k = s.kingdoms[side]
        towers = s.towers[side]
        knights = s.knights[side] + s.knight_cells[side].bit_count()
        terms = self.kingdom_terms(k)
        total = terms[0] + scoring.wealth_points(s.coins[side])
        if s.queen == side:
            if terms[1] < 0:  # scoring.largest_territory
                terms[1] = max(self.territories(k[t])[1] for t in range(TERR, len(k)))
            total += terms[1]
        for t, _ in s.built[side]:  # scoring.building_points
            tile = self.cfg.tiles[t - 1]
            total += tile.points + tile.per_tower * towers + tile.per_knight * knights
            if tile.per_territory:
                total += tile.per_territory * self.territories(k[TERR + tile.terrain])[0]
        return unit(total, 100)

    def kingdom_terms(self, k: list[int]) -> list[int]:
        """A kingdom's territory points and its largest territory (-1 until asked for)."""
        key = tuple(k)
        got = self._kingdoms.get(key)
        if got is None:
            got = [self.territory_points(k), -1]
            if len(self._kingdoms) > CACHE_LIMIT:
                self._kingdoms.clear()
            self._kingdoms[key] = got
        return got

    def territories(self, mask: int) -> tuple[int, int]:
        """A terrain's territories: how many, and the squares of the largest."""
        got = self._territories_of.get(mask)
        if got is None:
            sizes = [comp.bit_count() for comp in components(mask)]
            got = (len(sizes), max(sizes, default=0))
            if len(self._territories_of) > CACHE_LIMIT:
                self._territories_of.clear()
            self._territories_of[mask] = got
        return got

    def fill(self, s: QueendominoState, seat: Seat) -> Vector:
        cfg = self.cfg
        sides = self.sides
        c = self.canvas(seat)
        assert isinstance(c, QueenCanvas)
        buf = c.buf
        buf[:self.o_cur] = self.head
        buf[self.o_seat + seat] = 1.0
        buf[self.o_phase + s.phase] = 1.0
        buf[self.o_round] = s.round / self.rounds
        if s.phase != OVER:
            buf[self.o_step + s.step] = 1.0
        left = len(s.deck) - s.deck_pos
        queen_box = left  # without Royal Wedding every domino is of the Queendomino box
        if cfg.royal_wedding:  # counts per box are public (view "deck_remaining_by_box")
            queen_box = sum(1 for d in s.deck[s.deck_pos:] if d <= QUEENDOMINO_BOX)
        buf[self.o_deck] = queen_box / 48
        buf[self.o_deck + 1] = (left - queen_box) / 48
        self.draft(s, seat, c)
        mine = cfg.side_of[seat]
        market = (s.board, s.dragon, s.burnt, s.queen, s.pile_pos, len(s.pile))
        if market != c.market:
            self.market(s, mine, buf)
            c.market = (s.board[:], s.dragon, s.burnt[:], s.queen, s.pile_pos, len(s.pile))
        size = self.plane_size
        for r in range(sides):
            side = (mine + r) % sides
            full = [*s.kingdoms[side], s.knight_cells[side], s.built_cells[side]]
            record = (full, s.built[side], s.coins[side], s.knights[side], s.towers[side],
                      s.queen == side)
            last = c.sides[r]
            if record == last:
                continue
            o = self.o_side + 5 * r
            buf[o] = unit(s.coins[side], 30)
            buf[o + 1] = unit(s.knights[side], 10)
            buf[o + 2] = unit(s.towers[side], 10)
            buf[o + 3] = 1.0 if r == 0 else 0.0
            buf[o + 4] = self.score(s, side)
            if not last or s.built[side] != last[1]:
                o = self.o_built + r * NUM_TILES
                buf[o:o + NUM_TILES] = self.zero_built
                for t, _ in s.built[side]:
                    buf[o - 1 + t] = 1.0
            old = last[0] if last else self.blank
            if full != old:
                self.planes(buf, self.o_kingdoms + r * size, old, full)
            c.sides[r] = (full, s.built[side][:], *record[2:])
        last_cells, taxed = c.turn
        if s.last_cells != last_cells:
            self.bits(buf, self.o_turn, last_cells, s.last_cells)
        if s.taxed != taxed:
            self.bits(buf, self.o_turn + self.cells, taxed, s.taxed)
        c.turn = (s.last_cells, s.taxed)
        return c.vec

    def market(self, s: QueendominoState, mine: int, buf: Any) -> None:
        """The builders' board, the Dragon, the building pile, burnt tiles and the Queen."""
        sides = self.sides
        buf[self.o_board:self.o_side] = self.zero_market
        o = self.o_board
        for space, tile in enumerate(s.board):
            buf[o + space * (NUM_TILES + 1) + (tile - 1 if tile else NUM_TILES)] = 1.0
        buf[self.o_dragon + (s.dragon if s.dragon >= 0 else BOARD_SPACES)] = 1.0
        buf[self.o_pile] = (len(s.pile) - s.pile_pos) / NUM_TILES
        for t in s.burnt:
            buf[self.o_burnt + t - 1] = 1.0
        buf[self.o_queen + ((s.queen - mine) % sides if s.queen >= 0 else sides)] = 1.0
