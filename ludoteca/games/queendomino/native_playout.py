"""Queendomino's playouts on the native core (docs/engine.md, "Playouts on the native core").

When ``ludoteca.engine.native`` chooses the native core, ``Game.playout`` to the end with the
uniformly random policy (the game's own: Queendomino has no other) hands the match to C++, as
Kingdomino's does (``kingdomino/native_playout.py``, whose kingdom and placement glue this
reuses): the Python state is read into a native ``State`` (``State.load``, which refuses a state
out of range or inconsistent), played out drawing from the same generator state, and written
back field by field (the placement history from the placements the native playout reports), so
outcomes, scores and every later draw are the same on both cores.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ludoteca.engine.game import Game, Seat
from ludoteca.engine.native import native_core, played_after, playout_kind
from ludoteca.engine.playout import RANDOM as RANDOM_POLICY
from ludoteca.engine.playout import Policy, Until
from ludoteca.engine.registry import Result
from ludoteca.engine.rng import Rng
from ludoteca.games.kingdomino.native_playout import (
    add_placements,
    kingdom_bytes,
    kingdom_of,
    mask_bytes,
    mask_of,
)
from ludoteca.games.queendomino.components import C1, C2, MAX_ID, T1, T2
from ludoteca.games.queendomino.state import OVER, Config, QueendominoState

RANDOM = 0
"""The native core's policy: uniformly random."""

KINDS = {RANDOM_POLICY: RANDOM}
"""The playouts the native core plays as the Python one does, and its names for them."""

DOMINOES = [(T1[n], C1[n], T2[n], C2[n]) for n in range(1, MAX_ID + 1)]
"""Per domino id 1-96: (terrain, crowns) of each half, as ``components`` reads them."""

_configs: dict[Config, Any] = {}


def native_policy(policy: Policy, until: Until, trace: object,
                  state: QueendominoState) -> int | None:
    """The native policy that plays this playout, or None when it stays in Python (the Python
    core chosen, a trace wanted, a stop before the end, a match over, another policy)."""
    if state.phase == OVER:
        return None
    return playout_kind(policy, until, trace, KINDS)


def config_of(cfg: Config) -> Any:
    """The native ``Config`` of a Python one, with its building table (cached per config)."""
    found = _configs.get(cfg)
    if found is None:
        tiles = [
            (t.knights, t.towers, t.coin_per_knight, t.coin_per_tower, t.crowns, t.points,
             t.per_territory, t.terrain, t.per_tower, t.per_knight)
            for t in cfg.tiles
        ]
        found = _configs[cfg] = native_core().queendomino.Config(
            cfg.players, royal_wedding=cfg.royal_wedding, teams=cfg.teams,
            tax_per_turn=cfg.tax_bonus_per_turn, dominoes=DOMINOES, tiles=tiles)
    return found


def load_args(state: QueendominoState) -> dict[str, Any]:
    """``State.load``'s arguments for a Python state."""
    sides = []
    for side, k in enumerate(state.kingdoms):
        data, box = kingdom_bytes(k)
        sides.append((data, box, state.coins[side], state.knights[side], state.towers[side],
                      mask_bytes(state.knight_cells[side]), mask_bytes(state.built_cells[side]),
                      state.built[side]))
    return dict(
        config=config_of(state.cfg), rng=state.rng.state, ply=state.ply, phase=state.phase,
        step=state.step, round=state.round, acting=state.acting, draft_pos=state.draft_pos,
        deck_pos=state.deck_pos, lines_drawn=state.lines_drawn, deck=state.deck,
        draft_order=state.draft_order, cur=state.cur, cur_owner=state.cur_owner, nxt=state.nxt,
        nxt_owner=state.nxt_owner, discarded=state.discarded, board=state.board,
        pile=state.pile, pile_pos=state.pile_pos, burnt=state.burnt, dragon=state.dragon,
        queen=state.queen, last_cells=mask_bytes(state.last_cells),
        taxed=mask_bytes(state.taxed), sides=sides)


def load(state: QueendominoState) -> Any:
    """The native ``State`` of a Python one (not over)."""
    return native_core().queendomino.State.load(**load_args(state))


def write_back(native: Any, state: QueendominoState) -> None:
    """Copy a native state's fields (all but the placement history, which ``playout`` adds)
    into the Python one; the lists are new (clones may share the old ones)."""
    state.rng.state = native.rng_state
    state.ply, state.phase, state.step = native.ply, native.phase, native.step
    state.round, state.acting = native.round, native.acting
    state.draft_pos, state.deck_pos = native.draft_pos, native.deck_pos
    state.lines_drawn = native.lines_drawn
    state.cur, state.cur_owner = native.cur, native.cur_owner
    state.nxt, state.nxt_owner = native.nxt, native.nxt_owner
    state.discarded = native.discarded
    state.board, state.pile_pos, state.burnt = native.board, native.pile_pos, native.burnt
    state.dragon, state.queen = native.dragon, native.queen
    state.last_cells = mask_of(native.last_cells_bytes)
    state.taxed = mask_of(native.taxed_bytes)
    kingdoms, coins, knights, towers, knight_cells, built_cells, built = ([] for _ in range(7))
    for side in range(len(state.kingdoms)):
        data, box, c, kn, tw, kc, bc, b = native.side_state(side)
        kingdoms.append(kingdom_of(data, box))
        coins.append(c)
        knights.append(kn)
        towers.append(tw)
        knight_cells.append(mask_of(kc))
        built_cells.append(mask_of(bc))
        built.append(b)
    state.kingdoms, state.coins, state.knights, state.towers = kingdoms, coins, knights, towers
    state.knight_cells, state.built_cells, state.built = knight_cells, built_cells, built


def playout(state: QueendominoState, native_kind: int, rng: Rng) -> bool:
    """Play ``state`` to the end natively with ``native_kind``, drawing from ``rng``; False,
    with ``state`` and ``rng`` untouched, when the native core refuses the state (then the
    Python playout plays it, and says what is wrong with it if anything is)."""
    try:
        native = load(state)
        after, placements = native.playout_from(native_kind, rng.state)
    except ValueError:
        return False
    rng.state = after
    write_back(native, state)
    state.placed = add_placements(state.placed, placements)
    return True


def playouts_after(game: Game[Any, Any], state: QueendominoState, seat: Seat | None,
                   actions: Sequence[Any], rng: Rng) -> list[Result] | None:
    """The search profile's ``playouts_after``: for each action (None: none), what a random
    playout (the analysis's, ``bots.search.random_playout``) gives after it from a copy of
    ``state`` and of ``rng``, as each seat's rank, score and side, every playout in one native
    call: the state read in once, and no Python state, ``Outcome`` or score breakdown per
    playout (which were two thirds of an analysis's time). None where it stays in Python: the
    Python core chosen, a match over, a native core built before this call, a state it
    refuses."""
    if state.phase == OVER:
        return None
    return played_after(lambda: load(state), seat, actions, RANDOM, rng, state.cfg.side_of)
