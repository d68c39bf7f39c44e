"""Kingdomino, both cores step by step: every player count and option (``CASES``), driven by
the same index choices (random, the greedy bot's, a mix)."""

from __future__ import annotations

from typing import Any

from ludoteca.engine.rng import Rng
from ludoteca.games.kingdomino import bot, scoring
from ludoteca.games.kingdomino import native as kd_native
from ludoteca.games.kingdomino.actions import Claim
from ludoteca.games.kingdomino.observation import Encoder
from ludoteca.games.kingdomino.rules import GAME
from ludoteca.games.kingdomino.state import KingdominoState
from tools.differential.core import (
    Case,
    Draws,
    Family,
    outcome_triple,
    same,
)
from tools.differential.core import play as compare

# the defaults at 2, 3 and 4 players, then every option (matches: the test suite's budget)
CASES = [
    Case("kingdomino", 2, {}, 300),
    Case("kingdomino", 3, {}, 300),
    Case("kingdomino", 4, {}, 300),
    Case("kingdomino", 2, {"mighty_duel": True}, 60),
    Case("kingdomino", 2, {"first_draft": "abba"}, 60),
    Case("kingdomino", 3, {"three_player_draft": "bga"}, 60),
    Case("kingdomino", 4, {"harmony": True, "middle_kingdom": True}, 60),
    Case("kingdomino", 2, {"harmony": True, "middle_kingdom": True, "mighty_duel": True}, 30),
    Case("kingdomino", 3, {"dynasty": True, "tiebreak": "bga"}, 20),
    Case("kingdomino", 4, {"dynasty": True}, 20),
]
POLICIES = ("random", "greedy", "mixed")


def python_kingdom(state: Any, seat: int) -> list[int]:
    """The native kingdom in grid.py's layout (a list of ints), to compare with the Python one."""
    boards, (minr, maxr, minc, maxc) = state.kingdom(seat)
    masks = [sum(1 << cell for cell in cells) for cells in boards]
    return [masks[0], minr, maxr, minc, maxc, *masks[1:4], *masks[4:]]


def assert_same(py: KingdominoState, nat: Any) -> None:
    """The seat to act, the generator, the whole state and the scores so far."""
    at = f"ply {py.ply}: "
    same(at + "seat to act", py.seat_acting(), nat.to_act())
    same(at + "generator state", py.rng.state, nat.rng_state)
    same(at + "phase, round, game, ply", (py.phase, py.round, py.game_no, py.ply),
         (nat.phase, nat.round, nat.game_no, nat.ply))
    same(at + "deck and draft order", (py.deck, py.deck_pos, py.draft_order),
         (nat.deck, nat.deck_pos, nat.draft_order))
    same(at + "lines", (py.cur, py.cur_owner, py.nxt, py.nxt_owner),
         (nat.cur, nat.cur_owner, nat.nxt, nat.nxt_owner))
    same(at + "discards", py.discarded, nat.discarded)
    if py.phase == 1:
        same(at + "acting, step", (py.acting, py.step), (nat.acting, nat.step))
    else:
        same(at + "draft position", py.draft_pos, nat.draft_pos)
    for s in range(py.cfg.players):
        same(at + f"seat {s}'s kingdom", py.kingdoms[s], python_kingdom(nat, s))
    same(at + "scores now", scoring.scores_now(py)[0], tuple(nat.scores_now()))


def assert_same_outcome(py: KingdominoState, nat: Any) -> None:
    same("outcome", outcome_triple(GAME.outcome(py)), nat.outcome())


def greedy_index(py: KingdominoState, seat: int, legal: list[int], rng: Rng) -> int:
    """bot.py's choice on the full state (what the native greedy policy plays)."""
    rules = bot.Rules.__new__(bot.Rules)
    rules.frame, rules.harmony, rules.middle = (
        py.cfg.frame, py.cfg.harmony, py.cfg.middle_kingdom)
    actions = [GAME.action_from_index(i) for i in legal]
    k = py.kingdoms[seat]
    claims = [a for a in actions if isinstance(a, Claim)]
    if claims:
        return int(bot.choose_claim(k, claims, rules).index)
    return int(bot.choose_placement(k, py.cur[py.acting], actions, rules, rng).index)


def choose(py: KingdominoState, seat: int, legal: list[int], policy: str, draws: Draws,
           rng: Rng) -> int:
    if policy not in POLICIES:
        raise ValueError(f"Kingdomino has no policy {policy!r}: {', '.join(POLICIES)}")
    if policy == "greedy" or (policy == "mixed" and draws.below(2) == 0):
        return greedy_index(py, seat, legal, rng)
    return legal[draws.below(len(legal))]


FAMILY = Family(GAME, kd_native, lambda options, players: Encoder(GAME, options, players),
                assert_same, assert_same_outcome, choose)


def play(case: Case, seed: int, policy: str = "random", *, draws: Draws | None = None,
         observe: bool = False, fault_at: int | None = None) -> int:
    """One match on both cores (``core.play``); the states compared."""
    return compare(FAMILY, case, seed, policy, draws, observe, fault_at)[0]
