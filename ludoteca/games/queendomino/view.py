"""What a seat may know, and a full state rebuilt from it for bots (DESIGN.md §2).

Everything is public except the order of the two draw piles: the undrawn dominoes and the
building tiles under the board. Every seat therefore gets the same view; the piles appear only
as counts. Each building shown carries ``"inferred": true`` when its effects come from
SOURCES.md §7.4 rather than from the printed tile.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ludoteca.engine.bits import bit_list
from ludoteca.engine.errors import RecordError
from ludoteca.engine.game import JSON, Seat
from ludoteca.engine.rng import Rng
from ludoteca.games.kingdomino.grid import (
    CASTLE,
    CR1,
    DELTA,
    DIRECTIONS,
    cell_of,
    crown_at,
    new_kingdom,
    place,
    terrain_at,
    xy_of,
)
from ludoteca.games.queendomino import scoring
from ludoteca.games.queendomino.components import (
    BOARD_SPACES,
    C1,
    C2,
    KINGDOMINO_OFFSET,
    MAX_ID,
    QUEENDOMINO_BOX,
    T1,
    T2,
    TERRAINS,
    box_of,
    domino_json,
)
from ludoteca.games.queendomino.state import (
    PHASE_NAMES,
    PLAY,
    STEP_NAMES,
    Config,
    QueendominoState,
)

if TYPE_CHECKING:
    from ludoteca.games.queendomino.rules import Queendomino


def _xy_list(mask: int) -> list[list[int]]:
    return [list(xy_of(c)) for c in bit_list(mask)]


def kingdom_json(state: QueendominoState, seat: int) -> JSON:
    cfg = state.cfg
    k = state.kingdoms[seat]
    placed = state.placed[seat]
    squares = []
    for n, a, d in placed:
        for cell in (a, a + DELTA[d]):
            x, y = xy_of(cell)
            t = terrain_at(k, cell)
            squares.append(
                {"x": x, "y": y, "terrain": TERRAINS[t] if t is not None else None,
                 "crowns": crown_at(k, cell), "domino": n}
            )
    tiles = [cfg.tiles[t - 1] for t, _ in state.built[seat]]
    knights_total = state.knights[seat] + state.knight_cells[seat].bit_count()
    return {
        "placements": [
            {"domino": n, "x": xy_of(a)[0], "y": xy_of(a)[1], "dir": DIRECTIONS[d]}
            for n, a, d in placed
        ],
        "squares": squares,
        "castle": list(xy_of(CASTLE)),
        "coins": state.coins[seat],
        "knights": state.knights[seat],
        "knight_squares": _xy_list(state.knight_cells[seat]),
        "towers": state.towers[seat],
        "buildings": [
            {**cfg.tiles[t - 1].to_json(), "x": xy_of(cell)[0], "y": xy_of(cell)[1]}
            for t, cell in state.built[seat]
        ],
        "queen": state.queen == seat,
        "score": scoring.score(
            k, tiles, state.coins[seat], state.towers[seat], knights_total, state.queen == seat
        ),
    }


def view(state: QueendominoState, seat: Seat | None, to_act: frozenset[int]) -> JSON:
    cfg = state.cfg
    playing = state.phase == PLAY
    future = state.deck[state.deck_pos :]
    queen_left = sum(1 for n in future if n <= QUEENDOMINO_BOX)
    return {
        "game": "queendomino",
        "options": dict(cfg.options),
        "players": cfg.players,
        "seat": seat,
        "ply": state.ply,
        "phase": PHASE_NAMES[state.phase],
        "step": STEP_NAMES[state.step],
        "to_act": sorted(to_act),
        "round": state.round,
        "rounds": cfg.rounds,
        "frame": cfg.frame,
        "acting": state.acting,
        "acting_domino": state.cur[state.acting] if playing else None,
        "draft_order": state.draft_order,
        "draft_pos": state.draft_pos,
        "current_line": [
            {**domino_json(n), "king": owner if owner >= 0 else None}
            for n, owner in zip(state.cur, state.cur_owner, strict=True)
        ],
        "next_line": [
            {**domino_json(n), "king": owner if owner >= 0 else None}
            for n, owner in zip(state.nxt, state.nxt_owner, strict=True)
        ],
        "lines_drawn": state.lines_drawn,
        "deck_remaining": len(future),
        "deck_remaining_by_box": {
            "queendomino": queen_left,
            "kingdomino": len(future) - queen_left,
        },
        "discarded": list(state.discarded),
        "turn": {
            "domino_squares": _xy_list(state.last_cells),
            "knights": _xy_list(state.taxed),
        },
        "board": [
            {
                "space": space,
                "price": space,
                "building": cfg.tiles[tile - 1].to_json() if tile else None,
                "dragon": state.dragon == space,
            }
            for space, tile in enumerate(state.board)
        ],
        "building_pile": len(state.pile) - state.pile_pos,
        "burnt": [cfg.tiles[t - 1].to_json() for t in state.burnt],
        "queen": state.queen if state.queen >= 0 else None,
        "dragon": state.dragon if state.dragon >= 0 else None,
        "kingdoms": [kingdom_json(state, s) for s in range(cfg.players)],
    }


def _cells(pairs: list[list[int]]) -> int:
    mask = 0
    for x, y in pairs:
        mask |= 1 << cell_of(int(x), int(y))
    return mask


def determinize(game: Queendomino, v: JSON, rng: Rng) -> QueendominoState:
    """A state matching the view; both hidden piles are random orders of what is unseen."""
    try:
        players = int(v["players"])
        opts = game.validate(v["options"], players)
        cfg = Config.from_options(opts, players, game.tiles)
        s = QueendominoState.__new__(QueendominoState)
        s.cfg = cfg
        s.ply = int(v["ply"])
        s.phase = PHASE_NAMES.index(v["phase"])
        s.step = STEP_NAMES.index(v["step"])
        s.round = int(v["round"])
        s.acting = int(v["acting"])
        s.draft_order = [int(x) for x in v["draft_order"]]
        s.draft_pos = int(v["draft_pos"])
        s.cur = [int(d["id"]) for d in v["current_line"]]
        s.cur_owner = [-1 if d["king"] is None else int(d["king"]) for d in v["current_line"]]
        s.nxt = [int(d["id"]) for d in v["next_line"]]
        s.nxt_owner = [-1 if d["king"] is None else int(d["king"]) for d in v["next_line"]]
        s.lines_drawn = int(v["lines_drawn"])
        s.discarded = [int(n) for n in v["discarded"]]
        s.last_cells = _cells(v["turn"]["domino_squares"])
        s.taxed = _cells(v["turn"]["knights"])
        s.board = [int(b["building"]["id"]) if b["building"] else 0 for b in v["board"]]
        if len(s.board) != BOARD_SPACES:
            raise ValueError("the builders' board has 6 spaces")
        s.burnt = [int(b["id"]) for b in v["burnt"]]
        s.queen = -1 if v["queen"] is None else int(v["queen"])
        s.dragon = -1 if v["dragon"] is None else int(v["dragon"])
        s.kingdoms, s.placed, s.coins, s.knights, s.knight_cells = [], [], [], [], []
        s.towers, s.built, s.built_cells = [], [], []
        for kj in v["kingdoms"]:
            k = new_kingdom(len(TERRAINS))
            placed = []
            for p in kj["placements"]:
                n = int(p["domino"])
                a = cell_of(int(p["x"]), int(p["y"]))
                d = DIRECTIONS.index(p["dir"])
                place(k, a, d, T1[n], C1[n], T2[n], C2[n])
                placed.append((n, a, d))
            built = []
            built_cells = 0
            for b in kj["buildings"]:
                tile_id, cell = int(b["id"]), cell_of(int(b["x"]), int(b["y"]))
                built.append((tile_id, cell))
                built_cells |= 1 << cell
                crowns = cfg.tiles[tile_id - 1].crowns
                if crowns:
                    k[CR1 + crowns - 1] |= 1 << cell
            s.kingdoms.append(k)
            s.placed.append(placed)
            s.built.append(built)
            s.built_cells.append(built_cells)
            s.coins.append(int(kj["coins"]))
            s.knights.append(int(kj["knights"]))
            s.knight_cells.append(_cells(kj["knight_squares"]))
            s.towers.append(int(kj["towers"]))
        seen = set(s.cur) | set(s.nxt) | set(s.discarded)
        for placed in s.placed:
            seen.update(n for n, _, _ in placed)
        last = MAX_ID if cfg.royal_wedding else QUEENDOMINO_BOX
        unseen = [n for n in range(1, last + 1) if n not in seen]
        remaining = int(v["deck_remaining"])
        tiles_seen = set(s.board) | set(s.burnt)
        for built in s.built:
            tiles_seen.update(t for t, _ in built)
        unseen_tiles = [t for t in range(1, len(cfg.tiles) + 1) if t not in tiles_seen]
        if len(unseen) != remaining or len(unseen_tiles) != int(v["building_pile"]):
            raise ValueError("the view's pile counts do not match what it shows")
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise RecordError(f"not a Queendomino view: {exc}") from None
    s.deck = _future_lines(unseen, s.lines_drawn, cfg, rng)
    s.deck_pos = 0
    rng.shuffle(unseen_tiles)
    s.pile = unseen_tiles
    s.pile_pos = 0
    s.rng = Rng(rng.next64())
    return s


def _future_lines(unseen: list[int], lines_drawn: int, cfg: Config, rng: Rng) -> list[int]:
    """The undrawn dominoes in a random order that keeps Royal Wedding's box alternation."""
    if not cfg.royal_wedding:
        rng.shuffle(unseen)
        return unseen
    boxes = {
        "queendomino": [n for n in unseen if n <= QUEENDOMINO_BOX],
        "kingdomino": [n for n in unseen if n > KINGDOMINO_OFFSET],
    }
    for pile in boxes.values():
        rng.shuffle(pile)
    out: list[int] = []
    line = lines_drawn
    while len(out) < len(unseen):
        pile = boxes[box_of(1 if line % 2 == 0 else KINGDOMINO_OFFSET + 1)]
        take, pile[:] = pile[: cfg.line_size], pile[cfg.line_size :]
        if not take:
            raise ValueError("the view's pile counts do not match Royal Wedding's lines")
        out += take
        line += 1
    return out

