"""Greedy Queendomino: one ply of lookahead with a hand-tuned position value.

Each legal action is tried on a determinized copy and the resulting position is valued for the
bot's seat: its end-game score as it stands (territories, the Queen, buildings), plus what its
resources are worth later — coins (which buy buildings; 3 make a point at the end), unplaced
knights (future tax), towers (the Queen race) and free town squares (room to build). A claim
is valued by the best placement of that domino in the current kingdom, lower numbers winning
ties because they play earlier. Kingdomino's greedy bot cannot be reused as is: it reads the
Kingdomino domino table, and Queendomino has its own dominoes and a seventh terrain.

In team play (rules §7.6) the bot values its side: the kingdom, treasury, knights and towers it
shares with its partner; the Dragon is aimed only at other teams.
"""

from __future__ import annotations

from typing import Any

from ludoteca.engine.game import JSON, Game, Seat
from ludoteca.engine.rng import Rng
from ludoteca.games.kingdomino.grid import (
    OCC,
    TERR,
    frame_mask,
    neighbours,
    place,
    placement_masks,
)
from ludoteca.games.kingdomino.scoring import largest_territory, territory_points
from ludoteca.games.queendomino.actions import Claim, Dragon, Knight, Place
from ludoteca.games.queendomino.components import C1, C2, T1, T2, TOWN
from ludoteca.games.queendomino.scoring import building_points

COIN = 0.45  # a coin buys part of a building; at the end it is worth only 1/3 point
KNIGHT = 1.5  # an unplaced knight collects a few coins later
TOWER = 0.8  # towers bring the Queen (cheaper buildings, crowns at the end)
FREE_TOWN = 0.8  # an empty town square is a place to build
DEAD = 0.4  # an empty square nothing can ever fill
DRAGON_THRESHOLD = 4.0  # burn a tile only when it is worth this much to an opponent


def position_value(state: Any, seat: Seat) -> float:
    """The seat's score now plus the later worth of its coins, knights, towers and town (its
    team's, in team play)."""
    side = state.cfg.side_of[seat]
    k = state.kingdoms[side]
    tiles = state.cfg.tiles
    knights = state.knights[side] + state.knight_cells[side].bit_count()
    towers = state.towers[side]
    value = float(territory_points(k))
    if state.queen == side:
        value += largest_territory(k) + 1.0
    for tile_id, _ in state.built[side]:
        value += building_points(k, tiles[tile_id - 1], towers, knights)
    value += COIN * state.coins[side] + KNIGHT * state.knights[side] + TOWER * towers
    free_town = (k[TERR + TOWN] & ~state.built_cells[side]).bit_count()
    value += FREE_TOWN * min(free_town, 3)
    empty = frame_mask(k, state.cfg.frame) & ~k[OCC]
    value -= DEAD * (empty & ~neighbours(empty)).bit_count()
    return float(value)


def placement_value(k: list[int], n: int, frame: int) -> float:
    """Territory points after placing domino ``n`` at its best spot (-1 if it fits nowhere)."""
    masks = placement_masks(k, T1[n], T2[n], frame)
    best = -1.0
    for d in range(4):
        m = masks[d]
        while m:
            low = m & -m
            cell = low.bit_length() - 1
            m ^= low
            after = k[:]
            place(after, cell, d, T1[n], C1[n], T2[n], C2[n])
            empty = frame_mask(after, frame) & ~after[OCC]
            v = territory_points(after) - DEAD * (empty & ~neighbours(empty)).bit_count()
            if T1[n] == TOWN or T2[n] == TOWN:
                v += FREE_TOWN * 0.5
            if v > best:
                best = v
    return best


def choose_claim(state: Any, seat: Seat, claims: list[Claim]) -> Claim:
    k = state.kingdoms[state.cfg.side_of[seat]]
    frame = state.cfg.frame
    return max(claims, key=lambda c: (placement_value(k, c.domino, frame), -c.domino))


def dragon_value(state: Any, seat: Seat, action: Dragon) -> float:
    """How much burning this tile denies the richest opponent (its building points now); in
    team play opponents are the other teams."""
    tile_id = state.board[action.space]
    tile = state.cfg.tiles[tile_id - 1]
    mine = state.cfg.side_of[seat]
    best = 0.0
    for other in range(state.cfg.sides):
        if other == mine or state.coins[other] < action.space - (state.queen == other):
            continue
        k = state.kingdoms[other]
        if not k[TERR + TOWN] & ~state.built_cells[other]:
            continue
        knights = state.knights[other] + state.knight_cells[other].bit_count()
        gain = building_points(k, tile, state.towers[other], knights) + tile.crowns * 2
        gain += KNIGHT * tile.knights + TOWER * tile.towers
        best = max(best, gain)
    return best


def choose(game: Game[Any, Any], view: JSON, seat: Seat, rng: Rng) -> Any:
    state = game.determinize(view, seat, rng)
    legal = game.legal_actions(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has nothing to do now")
    if all(isinstance(a, Claim) for a in legal):
        return choose_claim(state, seat, legal)
    knights = [a for a in legal if isinstance(a, Knight)]
    if knights:  # step B comes first: collect tax when it beats keeping the knight
        now = position_value(state, seat)
        scored = []
        for action in knights:
            after = game.clone(state)
            game.apply_legal(after, seat, action)
            scored.append((position_value(after, seat), action.index, action))
        value, _, action = max(scored)
        if value > now:
            return action
    base_claim = None
    best_value = float("-inf")
    best: list[Any] = []
    for action in legal:
        if isinstance(action, Knight):
            continue
        if isinstance(action, Claim):
            if base_claim is None:
                base_claim = choose_claim(
                    state, seat, [a for a in legal if isinstance(a, Claim)]
                )
            if action is not base_claim:
                continue
        after = game.clone(state)
        game.apply_legal(after, seat, action)
        value = position_value(after, seat)
        if isinstance(action, Dragon):
            value += dragon_value(state, seat, action) - DRAGON_THRESHOLD
        elif isinstance(action, Place):
            value += 0.01 * _touching(after.kingdoms[state.cfg.side_of[seat]], action.cell)
        if value > best_value + 1e-9:
            best_value, best = value, [action]
        elif abs(value - best_value) <= 1e-9:
            best.append(action)
    return best[rng.below(len(best))]


def _touching(k: list[int], cell: int) -> int:
    """Occupied squares next to ``cell``: compact kingdoms leave fewer holes."""
    return (neighbours(1 << cell) & k[OCC]).bit_count()
