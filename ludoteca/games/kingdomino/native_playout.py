"""Kingdomino's playouts on the native core (docs/engine.md, "Playouts on the native core").

When ``ludoteca.engine.native`` chooses the native core, ``Game.playout`` to the end with the
uniformly random policy or the game's own (epsilon-greedy) one hands the match to C++: the Python
state is read into a native ``State`` (``State.load``, which refuses a state the rules cannot
reach in shape), played out drawing from the same generator state, and written back: every field
(the placement history from the placements the native playout reports) ends as the Python
playout leaves it, and the generator ends in the same state, so outcomes, scores and every later
draw are the same on both cores. A Dynasty (whose finished games the native core keeps only as
totals) plays in Python.
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
from ludoteca.games.kingdomino.draft import OVER
from ludoteca.games.kingdomino.grid import CR1, MAXC, MAXR, MINC, MINR, OCC, TERR
from ludoteca.games.kingdomino.playout import EPSILON
from ludoteca.games.kingdomino.state import Config, KingdominoState

RANDOM, SEARCH = 0, 2
"""The native core's policies: uniformly random, and the game's epsilon-greedy playout."""

MASK_BYTES = 24
"""A grid.py mask crosses as this many little-endian bytes (13 rows of 14 cells fit in 23)."""

KINDS = {RANDOM_POLICY: RANDOM, Policy.epsilon_greedy(EPSILON): SEARCH}
"""The playouts the native core plays as the Python one does, and its names for them."""

_configs: dict[Config, Any] = {}


def native_policy(policy: Policy, until: Until, trace: object,
                  state: KingdominoState) -> int | None:
    """The native policy that plays this playout, or None when it stays in Python (the Python
    core chosen, a trace wanted, a stop before the end, a Dynasty, a match over, another
    policy: only the game's own epsilon-greedy one, ``EPSILON``, is native)."""
    if state.cfg.games != 1 or state.phase == OVER:
        return None
    return playout_kind(policy, until, trace, KINDS)


def config_of(cfg: Config) -> Any:
    """The native ``Config`` of a Python one (cached: a match keeps its config)."""
    found = _configs.get(cfg)
    if found is None:
        found = _configs[cfg] = native_core().kingdomino.Config(
            cfg.players, mighty_duel=cfg.frame == 7, harmony=cfg.harmony,
            middle_kingdom=cfg.middle_kingdom, dynasty=cfg.games == 3,
            bga_three_player=cfg.bga_three_player, crowns_tiebreak=cfg.crowns_tiebreak,
            abba=cfg.abba_first_draft)
    return found


def native_deck(state: KingdominoState) -> tuple[list[int], int]:
    """The deck as the native core holds it: always ``deck_size`` long, the undrawn dominoes
    last (a determinized state's deck holds only those), and the position of the first of
    them. The dominoes before it are never read; any others fill them."""
    rest = state.deck[state.deck_pos:]
    taken = set(rest)
    filler = [n for n in range(1, 49) if n not in taken][:state.cfg.deck_size - len(rest)]
    return filler + rest, len(filler)


def mask_bytes(mask: int) -> bytes:
    """A grid.py mask as the native core reads it."""
    return mask.to_bytes(MASK_BYTES, "little")


def mask_of(data: bytes) -> int:
    return int.from_bytes(data, "little")


def kingdom_bytes(k: list[int]) -> tuple[bytes, tuple[int, int, int, int]]:
    """A grid.py kingdom (Kingdomino's or Queendomino's) as the native core reads it: its masks
    (occupied, 1-3 crowns, each terrain) and its bounding box."""
    masks = (k[OCC], *k[CR1:CR1 + 3], *k[TERR:])
    return b"".join(m.to_bytes(MASK_BYTES, "little") for m in masks), (
        k[MINR], k[MAXR], k[MINC], k[MAXC])


def kingdom_of(data: bytes, box: tuple[int, int, int, int]) -> list[int]:
    """``kingdom_bytes``'s inverse: the grid.py list of a native kingdom."""
    masks = [int.from_bytes(data[i:i + MASK_BYTES], "little")
             for i in range(0, len(data), MASK_BYTES)]
    return [masks[0], *box, *masks[1:]]


def add_placements(placed: list[list[tuple[int, int, int]]],
                   flat: list[int]) -> list[list[tuple[int, int, int]]]:
    """The placement history with a native playout's placements (flat: owner, domino, cell,
    direction) added, as new lists (clones may share the old ones)."""
    out = [p[:] for p in placed]
    for i in range(0, len(flat), 4):
        owner, domino, cell, d = flat[i:i + 4]
        out[owner].append((domino, cell, d))
    return out


def load(state: KingdominoState) -> Any:
    """The native ``State`` of a Python one (a single game, not over)."""
    deck, deck_pos = native_deck(state)
    kingdoms, boxes = [], []
    for k in state.kingdoms:
        data, box = kingdom_bytes(k)
        kingdoms.append(data)
        boxes.append(box)
    return native_core().kingdomino.State.load(
        config_of(state.cfg), state.rng.state, state.ply, state.phase, state.step, state.round,
        state.acting, state.draft_pos, deck_pos, deck, state.draft_order, state.cur,
        state.cur_owner, state.nxt, state.nxt_owner, state.discarded, kingdoms, boxes)


def write_back(native: Any, state: KingdominoState) -> None:
    """Copy a native state's fields (all but the placement history, which ``playout`` adds)
    into the Python one."""
    state.rng.state = native.rng_state
    state.ply, state.phase, state.step = native.ply, native.phase, native.step
    state.round, state.acting = native.round, native.acting
    state.draft_pos = native.draft_pos
    state.deck_pos = native.deck_pos - (state.cfg.deck_size - len(state.deck))
    state.cur, state.cur_owner = native.cur, native.cur_owner
    state.nxt, state.nxt_owner = native.nxt, native.nxt_owner
    state.discarded = native.discarded
    state.kingdoms = [kingdom_of(*native.kingdom_bytes(seat))
                      for seat in range(len(state.kingdoms))]


def playout(state: KingdominoState, native_kind: int, rng: Rng) -> bool:
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


def playouts_after(game: Game[Any, Any], state: KingdominoState, seat: Seat | None,
                   actions: Sequence[Any], rng: Rng) -> list[Result] | None:
    """The search profile's ``playouts_after``: for each action (None: none), what
    ``game.playout(state, GAME, rng)`` gives after it from a copy of ``state`` and of ``rng``,
    as each seat's rank, score and side, every playout in one native call: the state read in
    once, and no Python state, ``Outcome`` or score breakdown per playout (which were most of an
    analysis's time). None where it stays in Python: the Python core chosen, a Dynasty, a match
    over, a native core built before this call, a state it refuses."""
    if state.cfg.games != 1 or state.phase == OVER:
        return None
    return played_after(lambda: load(state), seat, actions, KINDS.get(game.playout_policy), rng,
                        tuple(range(state.cfg.players)))
