"""Buttons' playouts on the native core (docs/engine.md, "Playouts on the native core").

When ``ludoteca.engine.native`` chooses the native core, ``Game.playout`` in the lowest order to
the end of the match or of the round (``Until.ROUND``, where the search's rollouts stop) with the
uniformly random, the line-minded (``GREEDY``: ``plan.choose_state``) or the game's own policy
(epsilon-greedy(32)) hands the match to C++, as Kami's does: the Python state is read into a
native ``State`` (``State.load``, which refuses a state out of range or inconsistent), played out
drawing from the same generator state, and written back. The native state keeps each seat's star
sums (``scoring.star_parts``' stop, colours and bonus) instead of the round history; its playout
reports the history entries the Python one appends, so every field ends as the Python playout
leaves it, and the generator too. The analysis and the search bots play Buttons' rollouts
(about 30 ms each in Python at 4 players) this way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ludoteca.engine.game import Game, Seat
from ludoteca.engine.native import native_game, played_after, playout_kind
from ludoteca.engine.playout import GREEDY, RANDOM, Policy, Until
from ludoteca.engine.registry import Result
from ludoteca.engine.rng import Rng
from ludoteca.games.buttons import layouts
from ludoteca.games.buttons.grid import board_masks
from ludoteca.games.buttons.scoring import star_sums
from ludoteca.games.buttons.state import OVER, ButtonsState, Config

KINDS = {RANDOM: 0, GREEDY: 1, Policy.epsilon_greedy(32): 2}
"""The playouts the native core plays as the Python one does, and its names for them (random,
the line-minded policy, the game's: ``buttons.hpp``'s ``Policy``)."""

ENTRY = 5
"""A history entry's numbers per seat: status, markers, colours, bonus, stars."""

_configs: dict[Config, Any] = {}


def native_policy(policy: Policy, until: Until, trace: object, state: ButtonsState) -> int | None:
    """The native policy that plays this playout, or None when it stays in Python (the Python
    core chosen, a trace wanted, a match over, another policy)."""
    if state.phase == OVER:
        return None
    return playout_kind(policy, until, trace, KINDS, (Until.END, Until.ROUND))


def config_of(cfg: Config) -> Any:
    """The native ``Config`` of a Python one, with the layout set its options name (cached: a
    match keeps its config)."""
    found = _configs.get(cfg)
    if found is None:
        table = layouts.get(str(dict(cfg.options)["layouts"]))
        found = _configs[cfg] = native_game("buttons").Config(
            cfg.players, cfg.bga_winner, cfg.fixed_boards, [board_masks(lay) for lay in table])
    return found


def load(state: ButtonsState) -> Any:
    """The native ``State`` of a Python one (not over); ValueError where it refuses it."""
    n = state.cfg.players
    stop, colours, bonus = zip(*(star_sums([r[seat] for r in state.history])
                                 for seat in range(n)), strict=True)
    return native_game("buttons").State.load(
        config=config_of(state.cfg), rng=state.rng.state, ply=state.ply, round=state.round,
        phase=state.phase, active=state.active, deciders=state.deciders, waiting=state.waiting,
        in_round=state.in_round, free=state.free, removed_card=state.removed_card,
        options_mask=state.options_mask, dice=list(state.dice), layout_ids=list(state.layout_ids),
        cards=state.cards, status=state.status, earned=state.earned,
        last_placed=state.last_placed, pending=state.pending, markers=state.markers,
        stars=state.stars, picks=state.picks, stop_stars=list(stop),
        colour_stars=list(colours), bonus_stars=list(bonus))


def write_back(native: Any, state: ButtonsState) -> None:
    """Copy a native state's fields into the Python one (new lists: clones may share the old;
    the boards and layouts never change)."""
    state.rng.state = native.rng_state
    state.ply, state.round, state.phase = native.ply, native.round, native.phase
    state.active, state.deciders, state.waiting = native.active, native.deciders, native.waiting
    state.in_round, state.free = native.in_round, native.free
    state.removed_card, state.options_mask = native.removed_card, native.options_mask
    state.dice = tuple(native.dice)
    state.cards, state.status, state.earned = native.cards, native.status, native.earned
    state.last_placed, state.pending = native.last_placed, native.pending
    state.markers, state.stars, state.picks = native.markers, native.stars, native.picks


def playout(state: ButtonsState, native_kind: int, rng: Rng, until: Until = Until.END) -> bool:
    """Play ``state`` to ``until`` natively with ``native_kind``, drawing from ``rng``; False,
    with ``state`` and ``rng`` untouched, when the native core refuses the state (then the
    Python playout plays it, and says what is wrong with it if anything is)."""
    try:
        native = load(state)
        after, entries = native.playout_logged(native_kind, rng.state, int(until))
    except ValueError:
        return False
    rng.state = after
    write_back(native, state)
    if entries:
        n, history = state.cfg.players, state.history[:]
        row = n * ENTRY
        for i in range(0, len(entries), row):
            history.append(tuple(tuple(entries[j:j + ENTRY])
                                 for j in range(i, i + row, ENTRY)))
        state.history = history
    return True


def playouts_after(game: Game[Any, Any], state: ButtonsState, seat: Seat | None,
                   actions: Sequence[Any], rng: Rng) -> list[Result] | None:
    """The search profile's ``playouts_after``: for each action (None: none), what
    ``game.playout(state, GAME, rng)`` gives after it from a copy of ``state`` and of ``rng``,
    as each seat's rank, score and side, every playout in one native call (the state read in
    once; no Python state, ``Outcome`` or breakdown per playout). None where it stays in
    Python: the Python core chosen, a match over, a state the native core refuses."""
    if state.phase == OVER:
        return None
    return played_after(lambda: load(state), seat, actions, KINDS.get(game.playout_policy), rng,
                        tuple(range(state.cfg.players)))
