"""Exact values of 2-player Kingdomino's perfect-information tail, for the post-game analysis.

Once the last line is turned up (2 players, one game: every domino of the deck is on the table)
nothing is hidden and nothing is left to chance: the match is a finite game of perfect
information, solved here by minimax over the remaining placements and claims. Moves are the
engine's own (``legal_actions``, ``apply_legal``) and kingdoms are scored by its own
``scoring.breakdown``, so the value is exact by the rules, tie-breaks included.

With 3 and 4 players only the last round is solved (``exact_alone``): there each seat places
alone, so each seat's best kingdom is best for it whatever the others do, and the value is well
defined; a round with claims between several players choosing for themselves has no one exact
value.

Two observations keep it to milliseconds or a few seconds:

- In the last round nobody claims: each seat's placements touch only its own kingdom, so each
  seat makes the best kingdom it can from its dominoes in line order (the highest score, then
  the tie-break keys), whatever the other does. That is solved per seat and remembered.
- Alpha-beta on (the share of the win, the margin, the score): a line that cannot change the
  value at the root is cut, and positions are remembered with their bounds.
"""

from __future__ import annotations

import json
from typing import Any

from ludoteca.engine.game import Game
from ludoteca.games.kingdomino import scoring
from ludoteca.games.kingdomino.components import DOMINOES, TERRAINS
from ludoteca.games.kingdomino.grid import place as grid_place
from ludoteca.games.kingdomino.grid import placement_masks
from ludoteca.games.kingdomino.state import OVER, PLACE_STEP, PLAY, KingdominoState

Value = tuple[float, int, int]
"""(seat 0's share of the win: 1, 0.5 or 0; seat 0's final score; seat 1's)."""
Order = tuple[float, int, int]
"""What the search orders by: (seat 0's share of the win, seat 0's margin, seat 0's score).
The last breaks ties between lines of the same result and margin the same way whatever the
search met first, so the scores reported are the same in every process."""
Found = tuple[float, int, tuple[int, int]]
"""(seat 0's share, seat 0's margin, (the two final scores on the line found))."""
LOWEST: Order = (-1.0, -1000, -1000)
HIGHEST: Order = (2.0, 1000, 1000)
Key = tuple[int, ...]
"""A kingdom's final ranking key: its score, then the tie-break values."""

_T1 = [0] * 49
_T2 = [0] * 49
_C1 = [0] * 49
_C2 = [0] * 49
for _n, _d in DOMINOES.items():
    _T1[_n], _T2[_n] = _d.terrains
    _C1[_n], _C2[_n] = _d.crowns


def solvable(state: KingdominoState) -> bool:
    """Whether nothing is hidden or left to chance: two players, one game, every domino of the
    deck turned up (or the match over)."""
    cfg = state.cfg
    if cfg.players != 2 or cfg.games != 1:
        return False
    return state.phase == OVER or (state.phase == PLAY and state.deck_pos >= len(state.deck))


def alone(state: KingdominoState) -> bool:
    """Whether every seat only places alone from here, any player count, one game: the last
    round, whose line nobody claims from (or the match over). What is still hidden (3 players:
    the dominoes never dealt) can no longer matter, and each seat's placements touch only its
    own kingdom."""
    if state.cfg.games != 1:
        return False
    return state.phase == OVER or (state.phase == PLAY and not state.nxt
                                   and state.step == PLACE_STEP)


class Endgame:
    """Solves the tails of one deal, remembering every position and last-round kingdom."""

    def __init__(self, game: Game[Any, Any], deck: list[int]) -> None:
        self.game = game
        self.deck = deck
        self.positions: dict[tuple[Any, ...], tuple[Order, Order, Found]] = {}
        """Per position: the bounds known of its value (equal when exact), and a line's value."""
        self.kingdoms: dict[tuple[tuple[int, ...], tuple[int, ...]], Key] = {}
        self.nodes = 0

    # ---- the last round: each seat alone ---------------------------------------------------
    def _key(self, state: KingdominoState, k: list[int]) -> Key:
        cfg = state.cfg
        b = scoring.breakdown(k, cfg.frame, cfg.harmony, cfg.middle_kingdom, TERRAINS,
                              cells=False)
        if cfg.crowns_tiebreak:
            return (b["total"], b["largest_territory"], b["crowns"])
        return (b["total"], b["largest_territory"])

    def best_kingdom(self, state: KingdominoState, k: list[int], dominoes: tuple[int, ...]) -> Key:
        """The best final key a seat can reach placing ``dominoes`` in this order (a domino
        that fits nowhere is discarded, rule 4.3)."""
        memo_key = (tuple(k), dominoes)
        found = self.kingdoms.get(memo_key)
        if found is not None:
            return found
        if not dominoes:
            best = self._key(state, k)
        else:
            n, rest = dominoes[0], dominoes[1:]
            masks = placement_masks(k, _T1[n], _T2[n], state.cfg.frame)
            best = ()
            for d in range(4):
                m = masks[d]
                while m:
                    low = m & -m
                    a = low.bit_length() - 1
                    m ^= low
                    grown = k[:]
                    grid_place(grown, a, d, _T1[n], _C1[n], _T2[n], _C2[n])
                    got = self.best_kingdom(state, grown, rest)
                    if got > best:
                        best = got
            if best == ():  # nowhere to place it: discarded
                best = self.best_kingdom(state, k, rest)
        self.kingdoms[memo_key] = best
        return best

    def last_keys(self, state: KingdominoState) -> list[Key]:
        """Every seat's best final key in the last round, each placing its dominoes alone."""
        keys = []
        for seat in range(state.cfg.players):
            dominoes = tuple(n for i, n in enumerate(state.cur)
                             if i >= state.acting and state.cur_owner[i] == seat)
            keys.append(self.best_kingdom(state, state.kingdoms[seat], dominoes))
        return keys

    def _last_round(self, state: KingdominoState) -> Value:
        keys = self.last_keys(state)
        share = 1.0 if keys[0] > keys[1] else 0.5 if keys[0] == keys[1] else 0.0
        return share, keys[0][0], keys[1][0]

    # ---- the whole tail --------------------------------------------------------------------
    def value(self, state: KingdominoState) -> Value:
        """The exact value with both seats playing their best from here."""
        share, _, scores = self._search(state, LOWEST, HIGHEST)
        return share, scores[0], scores[1]

    def _search(self, state: KingdominoState, alpha: Order, beta: Order) -> Found:
        """Alpha-beta on ``Order``: seat 0 raises it, seat 1 lowers it (each wants its own
        share, then its own margin). Exact when it falls strictly between
        ``alpha`` and ``beta``, else a bound on that side; positions are remembered with their
        exact value or bound."""
        if state.phase == OVER:
            outcome = self.game.outcome(state)
            assert outcome is not None
            r, sc = outcome.ranks, outcome.scores
            share = 1.0 if r[0] < r[1] else 0.5 if r[0] == r[1] else 0.0
            return share, sc[0] - sc[1], (sc[0], sc[1])
        if not state.nxt and state.step == PLACE_STEP:
            share, mine, theirs = self._last_round(state)
            return share, mine - theirs, (mine, theirs)
        key = (tuple(state.kingdoms[0]), tuple(state.kingdoms[1]), state.round, state.acting,
               state.step, tuple(state.nxt_owner))
        known = self.positions.get(key)
        if known is not None:
            low, high, found = known
            if low == high or (low >= beta) or (high <= alpha):
                return found
            alpha, beta = max(alpha, low), min(beta, high)
        self.nodes += 1
        game = self.game
        seat = state.cur_owner[state.acting]
        start_alpha, start_beta = alpha, beta
        best: Found | None = None
        for action in game.legal_actions(state, seat):
            child = state.clone()
            game.apply_legal(child, seat, action)
            got = self._search(child, alpha, beta)
            order = _order(got)
            if seat == 0:
                if best is None or order > _order(best):
                    best = got
                alpha = max(alpha, order)
            else:
                if best is None or order < _order(best):
                    best = got
                beta = min(beta, order)
            if alpha >= beta:
                break
        assert best is not None
        value = _order(best)
        low, high = (LOWEST, HIGHEST) if known is None else known[:2]
        if value <= start_alpha:  # every move fell short: an upper bound
            high = min(high, value)
        elif value >= start_beta:  # a cut: a lower bound
            low = max(low, value)
        else:
            low = high = value
        self.positions[key] = (low, high, best)
        return best


def _order(found: Found) -> Order:
    return found[0], found[1], found[2][0]


_solver: Endgame | None = None
"""This process's solver, kept while the analysis stays on one deal."""
_alone: dict[tuple[int, Any], Endgame] = {}
"""This process's last-round solvers (``exact_alone``), per game and options."""


def exact(game: Game[Any, Any], state: KingdominoState) -> tuple[list[float], list[float]] | None:
    """Each seat's share of the win and final score with every seat playing its best, or None
    when something is still hidden or left to chance (``SearchProfile.exact``): 2 players from
    the last line turned up, 3 and 4 players in the last round (``exact_alone``)."""
    global _solver
    if state.cfg.players != 2:
        return exact_alone(game, state)
    if not solvable(state):
        return None
    if _solver is None or _solver.deck != state.deck or _solver.game is not game:
        _solver = Endgame(game, state.deck)
    share, mine, theirs = _solver.value(state)
    return [share, 1.0 - share], [float(mine), float(theirs)]


def exact_alone(game: Game[Any, Any],
                state: KingdominoState) -> tuple[list[float], list[float]] | None:
    """Any player count, the last round (``alone``): each seat makes the best kingdom it can
    from its own dominoes, which is best for it whatever the others do (its placements touch
    nothing of theirs, and a higher key never ranks it lower), so the value is well defined
    with 3 and 4 players too, where a search of a whole round with claims would not be.
    Shares and ranks as the engine's (``final_outcome``): the highest keys share the win."""
    if not alone(state):
        return None
    if state.phase == OVER:
        outcome = game.outcome(state)
        assert outcome is not None
        winners = [s for s in range(state.cfg.players) if outcome.ranks[s] == 1]
        return ([1.0 / len(winners) if s in winners else 0.0 for s in range(state.cfg.players)],
                [float(x) for x in outcome.scores])
    solver = _alone.get((id(game), state.cfg))
    if solver is None:  # the deck plays no part: one per game and options, kept
        solver = _alone[(id(game), state.cfg)] = Endgame(game, [])
    keys = solver.last_keys(state)
    top = max(keys)
    winners = [s for s, k in enumerate(keys) if k == top]
    return ([1.0 / len(winners) if s in winners else 0.0 for s in range(len(keys))],
            [float(k[0]) for k in keys])


def exact_shares(game: Game[Any, Any], state: KingdominoState, seat: int) -> dict[str, float]:
    """Each legal action of ``seat`` (keyed by its sorted JSON) and the share of the win it
    keeps for the seat with best play after it: what checks of the analysis's best move in the
    solvable tail compare with (``tests/analysis``, ``benchmarks/analysis_calibration.py``)."""
    shares: dict[str, float] = {}
    for action in game.legal_actions(state, seat):
        child = game.clone(state)
        game.apply_legal(child, seat, action)
        found = exact(game, child)
        assert found is not None, "a solvable position's children are solvable"
        shares[json.dumps(action.to_json(), sort_keys=True)] = found[0][seat]
    return shares
