"""Kami's and Goita's playouts on the native core (docs/engine.md, "Playouts on the native
core").

When ``ludoteca.engine.native`` chooses the native core, ``Game.playout`` to the end of the
match or of the deal (``Until.ROUND``, as the search's rollouts play) with the uniformly random,
the greedy or the game's own (epsilon-greedy(8)) policy hands the match to C++,
as Kingdomino's does: the Python state is read into a native ``State`` (``State.load``, which
refuses a state out of range or inconsistent), played out drawing from the same generator state,
and written back. The native state keeps no history; its playout reports what the Python one
appends to ``history`` (each scored, won or redealt deal) and the last scored deal's table
(``ended``), so every field ends as the Python playout leaves it, and the generator too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ludoteca.engine.game import Game, Seat
from ludoteca.engine.native import native_core, played_after, playout_kind
from ludoteca.engine.playout import GREEDY, Policy, Until
from ludoteca.engine.playout import RANDOM as RANDOM_POLICY
from ludoteca.engine.registry import Result
from ludoteca.engine.rng import Rng
from ludoteca.games.kami.state import END_MODES, OVER, Config, KamiState

RANDOM, GREEDY_KIND, SEARCH = 0, 1, 2
"""The native core's policies: uniformly random, greedy, and the game's epsilon-greedy(8)."""

KINDS = {RANDOM_POLICY: RANDOM, GREEDY: GREEDY_KIND, Policy.epsilon_greedy(8): SEARCH}
"""The playouts the native core plays as the Python one does, and its names for them."""

HISTORY_KINDS = ("out", "shi6", "shi7", "shi8", "shi5x2", "redeal")
"""The history entries' kinds, by the native core's numbers (kami.hpp's ``Kind``)."""

_configs: dict[Config, Any] = {}


def native_policy(policy: Policy, until: Until, trace: object, state: KamiState) -> int | None:
    """The native policy that plays this playout, or None when it stays in Python (the Python
    core chosen, a trace wanted, a match over, another policy)."""
    if state.phase == OVER:
        return None
    return playout_kind(policy, until, trace, KINDS, (Until.END, Until.ROUND))


def config_of(cfg: Config) -> Any:
    """The native ``Config`` of a Python one (cached: a match keeps its config)."""
    found = _configs.get(cfg)
    if found is None:
        found = _configs[cfg] = native_core().kami.Config(
            cfg.goita, cfg.players, end_mode=END_MODES.index(cfg.end_mode), target=cfg.target,
            demoralized=cfg.demoralized)
    return found


def load_args(state: KamiState) -> dict[str, Any]:
    """``State.load``'s arguments for a Python state."""
    return dict(
        config=config_of(state.cfg), rng=state.rng.state, ply=state.ply, round=state.round,
        phase=state.phase, asked=state.asked, nasked=state.nasked, attack=state.attack,
        attacker=state.attacker, turn=state.turn, first=state.first, winner=state.winner,
        unlocked=state.unlocked, scores=state.scores, hands=state.hands, sizes=state.sizes,
        revealed=state.revealed, looked=state.looked, unused=state.unused,
        merc_down=state.merc_down, merc_up=state.merc_up, defense=state.defense,
        attacks=state.attacks)


def load(state: KamiState) -> Any:
    """The native ``State`` of a Python one (not over)."""
    return native_core().kami.State.load(**load_args(state))


def write_back(native: Any, state: KamiState) -> None:
    """Copy a native state's fields into the Python one (new lists: clones may share the old)."""
    state.rng.state = native.rng_state
    state.ply, state.round, state.phase = native.ply, native.round, native.phase
    state.asked, state.nasked = native.asked, native.nasked
    state.attack, state.attacker, state.turn = native.attack, native.attacker, native.turn
    state.first, state.winner, state.unlocked = native.first, native.winner, native.unlocked
    state.scores, state.hands, state.sizes = native.scores, native.hands, native.sizes
    state.revealed, state.looked, state.unused = native.revealed, native.looked, native.unused
    state.merc_down, state.merc_up = native.merc_down, native.merc_up
    state.defense, state.attacks = native.defense, native.attacks


def playout(state: KamiState, native_kind: int, rng: Rng, until: Until = Until.END) -> bool:
    """Play ``state`` to ``until`` natively with ``native_kind``, drawing from ``rng``; False,
    with ``state`` and ``rng`` untouched, when the native core refuses the state (then the
    Python playout plays it, and says what is wrong with it if anything is)."""
    try:
        native = load(state)
        after, entries, ended = native.playout_from(native_kind, rng.state,
                                                    deal_only=until == Until.ROUND)
    except ValueError:
        return False
    rng.state = after
    write_back(native, state)
    if entries:
        history = state.history[:]
        for i in range(0, len(entries), 8):
            rnd, seat, kind, card, master, gain, before, total = entries[i:i + 8]
            history.append((rnd, seat, HISTORY_KINDS[kind], card, bool(master), gain, before,
                            total))
        state.history = history
    if ended is not None:
        state.ended = ended
    return True


def playouts_after(game: Game[Any, Any], state: KamiState, seat: Seat | None,
                   actions: Sequence[Any], rng: Rng) -> list[Result] | None:
    """The search profile's ``playouts_after``: for each action (None: none), what
    ``game.playout(state, GAME, rng)`` gives after it from a copy of ``state`` and of ``rng``,
    as each seat's rank, score and side, every playout in one native call (the state read in
    once, no Python state per playout: the analysis's samples of one drawn world). None where it
    stays in Python: the Python core chosen, a match over, a native core built before this call,
    a state it refuses."""
    if state.phase == OVER:
        return None
    return played_after(lambda: load(state), seat, actions, KINDS.get(game.playout_policy), rng,
                        state.cfg.side_of)
