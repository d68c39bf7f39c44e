"""Exact values of a two-sided game's perfect-information tail, for the post-game analysis.

Where nothing is hidden from anyone and nothing is left to chance, a match between two sides
(two seats, or two teams whose partners play as one) is a finite game of perfect information:
its value with both sides playing their best is well defined and found here by alpha-beta over
the engine's own moves (``legal_actions``, ``apply_legal``) down to its own ``outcome``, so it
is exact by the rules, tie-breaks included. Each game says where its tail starts and what of a
state its future depends on (the memory's key); ``kingdomino/endgame.py`` has a faster
solver of its own.

The search orders lines by (side 0's share of the win, its margin, its score): side 0 raises
it, side 1 lowers it. The last term breaks ties between lines of the same result and margin the
same way whatever the search met first, so the scores reported are the same in every process
and whatever was solved before.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from ludoteca.engine.game import Game, Outcome

Order = tuple[float, int, int]
"""(side 0's share of the win: 1, ½ or 0; side 0's final score minus side 1's; side 0's)."""
LOWEST: Order = (-1.0, -(10**9), -(10**9))
HIGHEST: Order = (2.0, 10**9, 10**9)
Solved = tuple[list[float], list[float]]
"""Each seat's share of the win and final score (``SearchProfile.exact``'s answer)."""


class TwoSides:
    """Solves positions of one game and player count, remembering every position's value or
    the bounds known of it."""

    def __init__(self, game: Game[Any, Any], side_of: tuple[int, ...],
                 key: Callable[[Any], Hashable]) -> None:
        assert sorted(set(side_of)) == [0, 1], "two sides"
        self.game = game
        self.side_of = side_of
        self.key = key
        self.first = (side_of.index(0), side_of.index(1))
        """A seat of each side: partners share their side's result and score."""
        self.positions: dict[Hashable, tuple[Order, Order]] = {}
        self.nodes = 0

    def solve(self, state: Any) -> Solved:
        """Every seat's share of the win and final score with both sides playing their best."""
        share, margin, mine = self.search(state, LOWEST, HIGHEST)
        shares = (share, 1.0 - share)
        scores = (float(mine), float(mine - margin))
        return ([shares[s] for s in self.side_of], [scores[s] for s in self.side_of])

    def ended(self, outcome: Outcome) -> Order:
        a, b = self.first
        ra, rb = outcome.ranks[a], outcome.ranks[b]
        share = 0.5 if ra == rb else 1.0 if ra < rb else 0.0
        sa, sb = outcome.scores[a], outcome.scores[b]
        return share, sa - sb, sa

    def search(self, state: Any, alpha: Order, beta: Order) -> Order:
        """Alpha-beta, fail-soft: exact when it falls strictly between ``alpha`` and ``beta``,
        else a bound on that side; positions are remembered with their value or bound."""
        game = self.game
        outcome = game.outcome(state)
        if outcome is not None:
            return self.ended(outcome)
        key = self.key(state)
        low, high = self.positions.get(key, (LOWEST, HIGHEST))
        if low == high or low >= beta:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
        self.nodes += 1
        (seat,) = game.to_act(state)
        raising = self.side_of[seat] == 0
        start_alpha, start_beta = alpha, beta
        best: Order | None = None
        for action in game.legal_actions(state, seat):
            child = game.clone(state)
            game.apply_legal(child, seat, action)
            got = self.search(child, alpha, beta)
            if raising:
                if best is None or got > best:
                    best = got
                alpha = max(alpha, got)
            else:
                if best is None or got < best:
                    best = got
                beta = min(beta, got)
            if alpha >= beta:
                break
        assert best is not None, "a position not over has a move"
        if best <= start_alpha:  # every move fell short: an upper bound
            high = min(high, best)
        elif best >= start_beta:  # a cut: a lower bound
            low = max(low, best)
        else:
            low = high = best
        self.positions[key] = (low, high)
        return best
