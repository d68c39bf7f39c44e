"""Queendomino, both cores step by step: every player count (2-8), Royal Wedding, team play,
both tax-bonus rules and both building tables (``CASES``), driven by the same index choices
(random, the greedy bot's, spending first, a mix)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ludoteca.engine.bits import bit_list
from ludoteca.engine.rng import Rng
from ludoteca.games.queendomino import bot, scoring
from ludoteca.games.queendomino import native as qd_native
from ludoteca.games.queendomino.actions import KNIGHT_BASE
from ludoteca.games.queendomino.observation import Encoder
from ludoteca.games.queendomino.rules import GAME
from ludoteca.games.queendomino.state import QueendominoState
from tools.differential.core import (
    Case,
    Draws,
    Family,
    outcome_triple,
    same,
)
from tools.differential.core import play as compare
from tools.differential.kingdomino import python_kingdom

# every player count's defaults, then every option (matches: the test suite's budget)
CASES = [
    Case("queendomino", 2, {}, 40),
    Case("queendomino", 3, {}, 40),
    Case("queendomino", 4, {}, 40),
    Case("queendomino", 5, {}, 10),
    Case("queendomino", 6, {}, 8),
    Case("queendomino", 7, {}, 6),
    Case("queendomino", 8, {}, 6),
    Case("queendomino", 3, {"royal_wedding": True}, 15),
    Case("queendomino", 4, {"royal_wedding": True, "tax_bonus": "per_turn"}, 15),
    Case("queendomino", 2, {"tax_bonus": "per_turn", "buildings": "verified"}, 20),
    Case("queendomino", 4, {"buildings": "verified"}, 15),
    Case("queendomino", 6, {"teams": True}, 8),
    Case("queendomino", 8, {"teams": True, "tax_bonus": "per_turn"}, 6),
]
POLICIES = ("random", "greedy", "spend", "mixed")


def assert_same(py: QueendominoState, nat: Any) -> None:
    """The seat to act, the generator and the whole state: draft, builders' board, pile,
    Dragon, Queen, every side's kingdom, treasury, knights, towers and buildings; the scores."""
    at = f"ply {py.ply}: "
    same(at + "seat to act", py.seat_acting(), nat.to_act())
    same(at + "generator state", py.rng.state, nat.rng_state)
    same(at + "phase, step, round, ply", (py.phase, py.step, py.round, py.ply),
         (nat.phase, nat.step, nat.round, nat.ply))
    same(at + "deck and draft order", (py.deck, py.deck_pos, py.draft_order),
         (nat.deck, nat.deck_pos, nat.draft_order))
    same(at + "lines", (py.cur, py.cur_owner, py.nxt, py.nxt_owner),
         (nat.cur, nat.cur_owner, nat.nxt, nat.nxt_owner))
    same(at + "discards", py.discarded, nat.discarded)
    if py.phase == 1:
        same(at + "acting", py.acting, nat.acting)
    else:
        same(at + "draft position", py.draft_pos, nat.draft_pos)
    same(at + "board, pile, burnt", (py.board, py.pile, py.pile_pos, py.burnt),
         (nat.board, nat.pile, nat.pile_pos, nat.burnt))
    same(at + "Dragon, Queen, lines drawn", (py.dragon, py.queen, py.lines_drawn),
         (nat.dragon, nat.queen, nat.lines_drawn))
    same(at + "last cells, taxed", (bit_list(py.last_cells), bit_list(py.taxed)),
         (nat.last_cells, nat.taxed))
    for side in range(py.cfg.sides):
        same(at + f"side {side}'s kingdom", py.kingdoms[side], python_kingdom(nat, side))
        same(at + f"side {side}'s treasury, knights, towers, buildings", (
            py.coins[side], py.knights[side], py.towers[side], bit_list(py.knight_cells[side]),
            py.built[side], bit_list(py.built_cells[side])), nat.side(side))
    same(at + "scores now", scoring.scores_now(py)[0], tuple(nat.scores_now()))


def assert_same_outcome(py: QueendominoState, nat: Any) -> None:
    same("outcome", outcome_triple(GAME.outcome(py)), nat.outcome())


def choose(py: QueendominoState, seat: int, legal: list[int], policy: str, draws: Draws,
           rng: Rng) -> int:
    """``spend``: a knight, build or Dragon when the seat has one, three times in four (random
    play rarely builds twice, and the Queen, tower ties and tax bonuses need buildings);
    ``greedy``: bot.py's choice from the seat's view; ``mixed``: one of the three each move."""
    if policy not in POLICIES:
        raise ValueError(f"Queendomino has no policy {policy!r}: {', '.join(POLICIES)}")
    if policy == "mixed":
        policy = ("random", "greedy", "spend")[draws.below(3)]
    if policy == "greedy":
        index = int(bot.choose(GAME, GAME.view(py, seat), seat, rng).index)
        if index in legal:  # its determinized world has the seat's legal moves
            return index
        policy = "random"
    if policy == "spend":
        spending = [i for i in legal if i >= KNIGHT_BASE]
        pool = spending if spending and draws.below(4) else legal
        return pool[draws.below(len(pool))]
    return legal[draws.below(len(legal))]


FAMILY = Family(GAME, qd_native, lambda options, players: Encoder(GAME, options, players),
                assert_same, assert_same_outcome, choose)


def play(case: Case, seed: int, policy: str = "random", *, draws: Draws | None = None,
         observe: bool = False, fault_at: int | None = None,
         at_end: Callable[[QueendominoState], None] | None = None) -> int:
    """One match on both cores (``core.play``); the states compared. ``at_end`` sees the
    finished Python match (what a test wants it to have reached)."""
    states, py = compare(FAMILY, case, seed, policy, draws, observe, fault_at)
    if at_end is not None:
        at_end(py)
    return states
