"""Exact values of Kami's and Goita's perfect-information tail, for the post-game analysis.

The tail is well defined only where the match is a game of perfect information between two
sides (2-player Kami; 4-player Kami and Goita, partners as one side): every seat's view must
determine every hand, and every way the deal can end must end the match (a new deal is
chance). A seat knows the other hands by elimination only when every card it has not seen is
of one type or lies in one place: face-down defenses stay hidden to the other seats for the
rest of the deal, and a hand cannot be told apart from them otherwise. Only the first stays
true whatever is played, so only it opens the tail. Where one seat knows and another does not,
the minimax value would credit the other with knowledge it lacks, so it is not used there.
Both conditions hold only rarely (measured: docs/analysis.md), so the analysis of these games
stays almost wholly on its playouts; where they hold, ``bots/exact.py`` solves the rest of the
deal over the engine's own moves and scoring.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ludoteca.bots.exact import Solved, TwoSides
from ludoteca.engine.game import Game
from ludoteca.games.kami.components import TYPES
from ludoteca.games.kami.scoring import add_points
from ludoteca.games.kami.state import FACE_DOWN, FROM_MERC, OVER, PLAY, KamiState

CARDS = 12
"""The most cards left in hands and mercenary stacks for the tail to be searched (a bound on
the search's size; the tails that meet the other conditions are far smaller)."""


def unseen(state: KamiState, seat: int) -> list[int]:
    """Per type, the cards ``seat`` has not seen (``bot.state_unseen``)."""
    from ludoteca.games.kami.bot import state_unseen

    return state_unseen(state, seat)


def hidden_places(state: KamiState, seat: int) -> int:
    """How many places hold cards ``seat`` has not seen: each other hand, each other seat's
    face-down defenses, each face-down mercenary, the unused cards it did not look at."""
    places = 0
    for p in range(state.cfg.players):
        if p != seat:
            places += state.sizes[p] > 0
            places += any(e & FACE_DOWN and not e & FROM_MERC for e in state.defense[p])
    places += sum(1 for c in state.merc_down if c >= 0)
    if state.looked:
        places += sum(1 for i in range(len(state.unused)) if i != state.looked[seat])
    return places


def knows_every_hand(state: KamiState, seat: int) -> bool:
    """Whether ``seat``'s view determines every hand (and every hidden card): what it has not
    seen is of one type, or lies in one place."""
    return sum(1 for n in unseen(state, seat) if n) <= 1 or hidden_places(state, seat) <= 1


def every_hand_known(state: KamiState) -> bool:
    """Whether every seat's view determines every hand, whatever is played from here: what
    each has not seen is of one type. (What lies in one place of several types stops being
    known as soon as its holder leads: a card goes face down, and which one is hidden.)"""
    return all(sum(1 for n in unseen(state, seat) if n) <= 1
               for seat in range(state.cfg.players))


def every_ending_ends_the_match(state: KamiState) -> bool:
    """Whether going out with any card any seat holds, doubled or not, ends the match."""
    cfg = state.cfg
    for seat in range(cfg.players):
        before = state.scores[cfg.side_of[seat]]
        for t in TYPES:
            if (state.hands[seat] >> (4 * t)) & 15:
                for gain in (cfg.values[t], 2 * cfg.values[t]):
                    if not add_points(cfg.end_mode, cfg.target, before, gain)[1]:
                        return False
    return True


def solvable(state: KamiState) -> bool:
    """Whether the state is in the tail solved here (the match over, or the conditions
    above, with at most ``CARDS`` cards left to play)."""
    if state.cfg.sides != 2:
        return False
    if state.phase == OVER:
        return True
    if state.phase != PLAY:
        return False
    left = sum(state.sizes) + sum(1 for c in (*state.merc_up, *state.merc_down) if c >= 0)
    return left <= CARDS and every_ending_ends_the_match(state) and every_hand_known(state)


def key(s: KamiState) -> Hashable:
    """What the rest of the deal depends on: the hands, the mercenaries, whose turn and which
    attack, whether an Empress may attack; the scores (fixed until the deal ends)."""
    return (tuple(s.hands), tuple(s.sizes), tuple(s.merc_up), tuple(s.merc_down), s.turn,
            s.attacker, s.attack, s.unlocked, tuple(s.scores), s.phase)


_solvers: dict[tuple[int, Any], TwoSides] = {}
"""This process's solvers, per game and options, kept while the analysis runs."""


def solve(game: Game[Any, Any], state: KamiState) -> Solved:
    """The rest of the deal solved, whatever the information: only for a deal whose every
    ending ends the match (``exact`` also asks that every hand be known)."""
    cfg = state.cfg
    solver = _solvers.get((id(game), cfg))
    if solver is None:
        _solvers.clear()  # one match's options at a time
        solver = _solvers[(id(game), cfg)] = TwoSides(game, cfg.side_of, key)
    return solver.solve(state)


def exact(game: Game[Any, Any], state: KamiState) -> Solved | None:
    """Each seat's share of the win and final score with both sides playing their best, or
    None outside the solved tail (``SearchProfile.exact``)."""
    if not solvable(state):
        return None
    return solve(game, state)
