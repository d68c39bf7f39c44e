"""What a seat may know, and a full state rebuilt from it for bots (DESIGN.md §2).

Everything is public except the order of the two draw piles: the undrawn dominoes and the
building tiles under the board. Every seat therefore gets the same view; the piles appear only
as counts. Each building shown carries ``"inferred": true`` when its effects come from
SOURCES.md §7.4 rather than from the printed tile.

``sides`` gives each seat's side, as Kami's view does: the index of the kingdom (with its
treasury, knights and towers) that the seat plays. Alone a side is the seat itself; in team play
(rules §7.6) partners share one, so ``kingdoms`` has one entry per team and ``queen`` names the
hosting side.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from ludoteca.engine.bits import bit_list
from ludoteca.engine.errors import RecordError
from ludoteca.engine.game import JSON, Game, Seat
from ludoteca.engine.parts import Part, TieBreak, teams_of
from ludoteca.engine.rng import Rng
from ludoteca.games.kingdomino.draft import line_json, read_draft, seen_dominoes
from ludoteca.games.kingdomino.grid import (
    CASTLE,
    CR1,
    DELTA,
    DIRECTIONS,
    cell_of,
    crown_at,
    new_kingdom,
    place,
    reach,
    terrain_at,
    xy_of,
)
from ludoteca.games.queendomino import scoring
from ludoteca.games.queendomino.buildings import Building
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
    queen_price,
)
from ludoteca.games.queendomino.effects import building_json
from ludoteca.games.queendomino.state import (
    PHASE_NAMES,
    PLAY,
    STEP_NAMES,
    Config,
    QueendominoState,
)


def _xy_list(mask: int) -> list[list[int]]:
    return [list(xy_of(c)) for c in bit_list(mask)]


def kingdom_json(state: QueendominoState, side: int) -> JSON:
    """One side's kingdom, treasury, knights, towers and buildings (a player's or a team's)."""
    cfg = state.cfg
    k = state.kingdoms[side]
    placed = state.placed[side]
    squares = []
    for n, a, d in placed:
        for cell in (a, a + DELTA[d]):
            x, y = xy_of(cell)
            t = terrain_at(k, cell)
            squares.append(
                {"x": x, "y": y, "terrain": TERRAINS[t] if t is not None else None,
                 "crowns": crown_at(k, cell), "domino": n}
            )
    return {
        "placements": [
            {"domino": n, "x": xy_of(a)[0], "y": xy_of(a)[1], "dir": DIRECTIONS[d]}
            for n, a, d in placed
        ],
        "squares": squares,
        "castle": list(xy_of(CASTLE)),
        "reach": reach(k, cfg.frame),
        "coins": state.coins[side],
        "knights": state.knights[side],
        "knight_squares": _xy_list(state.knight_cells[side]),
        "towers": state.towers[side],
        "buildings": [
            {**building_json(cfg.tiles[t - 1], cfg.tax_bonus_per_turn, effect=False),
             "x": xy_of(cell)[0], "y": xy_of(cell)[1]}
            for t, cell in state.built[side]
        ],
        "queen": state.queen == side,
        **live_score(state, side),
    }


def live_score(state: QueendominoState, side: int) -> JSON:
    """The score a side sees now, with its parts and its tie-break value (rules §6), so no
    client counts territories, buildings or coins itself."""
    tiles = state.cfg.tiles
    total, parts, largest, tiebreak = _live_score(
        tuple(state.kingdoms[side]), tuple((tiles[t - 1], cell) for t, cell in state.built[side]),
        state.coins[side], state.towers[side],
        state.knights[side] + state.knight_cells[side].bit_count(), state.queen == side,
    )
    return {
        "score": total,
        "parts": [p.to_json() for p in parts],
        "largest_territory": largest,
        "tiebreak": [t.to_json() for t in tiebreak],
    }


@lru_cache(maxsize=4096)
def _live_score(
    k: tuple[int, ...], built: tuple[tuple[Building, int], ...], coins: int, towers: int,
    knights: int, queen: bool,
) -> tuple[int, tuple[Part, ...], int, tuple[TieBreak, ...]]:
    """A kingdom's live score, worked out once per kingdom and treasury: every view of every
    viewer shows the same kingdoms, and most do not change from one action to the next."""
    result = scoring.side_result(list(k), list(built), coins, towers, knights, queen, False)
    largest = result["largest_territory"]
    return result["total"], tuple(scoring.parts(result)), largest, scoring.tiebreak(largest)


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
        "sides": list(cfg.side_of),
        "teams": [list(t) for t in teams_of(cfg.side_of)],
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
        "current_line": line_json(state.cur, state.cur_owner, domino_json),
        "next_line": line_json(state.nxt, state.nxt_owner, domino_json),
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
                "queen_price": queen_price(space),
                "building": building_json(cfg.tiles[tile - 1], cfg.tax_bonus_per_turn)
                if tile else None,
                "dragon": state.dragon == space,
            }
            for space, tile in enumerate(state.board)
        ],
        "building_pile": len(state.pile) - state.pile_pos,
        "burnt": [building_json(cfg.tiles[t - 1], cfg.tax_bonus_per_turn, effect=False)
                  for t in state.burnt],
        "queen": state.queen if state.queen >= 0 else None,
        "dragon": state.dragon if state.dragon >= 0 else None,
        "kingdoms": [kingdom_json(state, side) for side in range(cfg.sides)],
    }


def _cells(pairs: list[list[int]]) -> int:
    mask = 0
    for x, y in pairs:
        mask |= 1 << cell_of(int(x), int(y))
    return mask


Deal = tuple[QueendominoState, list[int], list[int]]
"""A view read once: the state without its piles, the unseen dominoes and the unseen tiles."""


def prepare(game: Game[Any, Any], v: JSON) -> Deal:
    """Everything of a state that the view shows, read once; ``deal`` adds the hidden piles."""
    try:
        players = int(v["players"])
        opts = game.validate(v["options"], players)
        cfg = Config.from_options(opts, players)
        s = QueendominoState.__new__(QueendominoState)
        s.cfg = cfg
        s.ply = int(v["ply"])
        read_draft(s, v, "id")
        s.step = STEP_NAMES.index(v["step"])
        s.lines_drawn = int(v["lines_drawn"])
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
        if len(s.kingdoms) != cfg.sides:
            raise ValueError(f"{cfg.sides} kingdoms expected, not {len(s.kingdoms)}")
        seen = seen_dominoes(s, s.placed)
        last = MAX_ID if cfg.royal_wedding else QUEENDOMINO_BOX
        unseen = [n for n in range(1, last + 1) if n not in seen]
        tiles_seen = set(s.board) | set(s.burnt)
        for built in s.built:
            tiles_seen.update(t for t, _ in built)
        unseen_tiles = [t for t in range(1, len(cfg.tiles) + 1) if t not in tiles_seen]
        if len(unseen) != int(v["deck_remaining"]) or len(unseen_tiles) != int(
            v["building_pile"]
        ):
            raise ValueError("the view's pile counts do not match what it shows")
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise RecordError(f"not a Queendomino view: {exc}") from None
    s.deck = []
    s.deck_pos = 0
    s.pile = []
    s.pile_pos = 0
    s.rng = Rng(0)
    return s, unseen, unseen_tiles


def deal(s: QueendominoState, unseen: list[int], tiles: list[int], rng: Rng) -> QueendominoState:
    """Give ``s`` both piles at random from ``unseen`` and ``tiles`` (both shuffled in place)
    and its own RNG."""
    s.deck = _future_lines(unseen, s.lines_drawn, s.cfg, rng)
    s.deck_pos = 0
    rng.shuffle(tiles)
    s.pile = tiles
    s.pile_pos = 0
    s.rng = Rng(rng.next64())
    return s


def determinize(game: Game[Any, Any], v: JSON, rng: Rng) -> QueendominoState:
    """A state matching the view; both hidden piles are random orders of what is unseen."""
    s, unseen, tiles = prepare(game, v)
    try:
        return deal(s, unseen, tiles, rng)
    except ValueError as exc:
        raise RecordError(f"not a Queendomino view: {exc}") from None


def determinizer(game: Game[Any, Any], v: JSON) -> Callable[[Rng], QueendominoState]:
    """``rng -> determinize(game, v, rng)`` with the view read once: each call copies the
    prepared state and deals new piles, drawing from ``rng`` exactly as ``determinize`` does."""
    template, unseen, tiles = prepare(game, v)
    return lambda rng: deal(template.clone(), unseen[:], tiles[:], rng)


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

