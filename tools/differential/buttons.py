"""Buttons, both cores step by step: every player count and option (``CASES``), driven by the
same index choices (random, the game's greedy plan, the easy bot's, a mix), the simultaneous
steps' answers in either order."""

from __future__ import annotations

from typing import Any

import numpy as np

from ludoteca.engine.rng import Rng
from ludoteca.games.buttons import bot, plan, scoring
from ludoteca.games.buttons import native as buttons_native
from ludoteca.games.buttons.observation import Encoder
from ludoteca.games.buttons.rules import GAME
from ludoteca.games.buttons.state import ButtonsState
from tools.differential.core import (
    Case,
    Disagreement,
    Draws,
    fault,
    observe_all,
    outcome_triple,
    same,
)

# the defaults at 2, 3 and 4 players, then every option (matches: the test suite's budget)
CASES = [
    Case("buttons", 2, {}, 200),
    Case("buttons", 3, {}, 150),
    Case("buttons", 4, {}, 150),
    Case("buttons", 2, {"winner": "stars"}, 100),
    Case("buttons", 3, {"winner": "stars", "boards": "fixed"}, 60),
    Case("buttons", 4, {"boards": "fixed"}, 60),
    Case("buttons", 4, {"winner": "stars"}, 60),
    Case("buttons", 2, {"layouts": "alternate", "boards": "fixed"}, 40),
    Case("buttons", 3, {"layouts": "alternate"}, 40),
]
POLICIES = ("random", "greedy", "easy", "mixed")


def assert_same(py: ButtonsState, nat: Any) -> None:
    """The seats to act, the generator, the whole state and the scores so far."""
    at = f"ply {py.ply}: "
    seats = GAME.to_act(py)
    same(at + "seat to act", min(seats) if seats else -1, nat.to_act())
    same(at + "seats to act", sum(1 << s for s in seats), nat.to_act_mask())
    same(at + "generator state", py.rng.state, nat.rng_state)
    same(at + "phase, round, ply, active", (py.phase, py.round, py.ply, py.active),
         (nat.phase, nat.round, nat.ply, nat.active))
    same(at + "deciders, waiting, free, options",
         (py.deciders, py.waiting, py.in_round, py.free, py.options_mask),
         (nat.deciders, nat.waiting, nat.in_round, nat.free, nat.options_mask))
    same(at + "dice, removed card, layouts", (py.dice, py.removed_card, py.layout_ids),
         (tuple(nat.dice), nat.removed_card, tuple(nat.layout_ids)))
    same(at + "boards", list(py.boards), nat.boards)
    same(at + "cards, status, earned", (py.cards, py.status, py.earned),
         (nat.cards, nat.status, nat.earned))
    same(at + "last placed, pending", (py.last_placed, py.pending),
         (nat.last_placed, nat.pending))
    same(at + "markers, stars, picks", (py.markers, py.stars, py.picks),
         (nat.markers, nat.stars, nat.picks))
    same(at + "scores now", scoring.scores_now(py)[0], tuple(nat.scores_now()))


def assert_same_outcome(py: ButtonsState, nat: Any) -> None:
    """The outcome and every seat's score parts."""
    outcome = GAME.outcome(py)
    same("outcome", outcome_triple(outcome), nat.outcome())
    assert outcome is not None  # outcome_triple refused None
    for seat in range(py.cfg.players):
        same(f"seat {seat}'s score parts", [(p.id, p.points) for p in outcome.parts[seat]],
             nat.score_parts(seat))


def choose(py: ButtonsState, seat: int, legal: list[int], policy: str, draws: Draws) -> int:
    """An index for ``seat``: uniform, the game's greedy choice, the easy bot's, or a mix."""
    if policy not in POLICIES:
        raise ValueError(f"Buttons has no policy {policy!r}: {', '.join(POLICIES)}")
    if policy == "mixed":
        policy = ("random", "greedy", "easy")[draws.below(3)]
    if policy == "greedy":
        return int(plan.choose_state(py, seat, GAME.legal_actions(py, seat)).index)
    if policy == "easy":
        return int(bot.choose_state(py, seat, GAME.legal_actions(py, seat)).index)
    return legal[draws.below(len(legal))]


def play(case: Case, seed: int, policy: str = "random", *, draws: Draws | None = None,
         observe: bool = False, fault_at: int | None = None, drawn_seats: bool = False,
         max_ply: int | None = None) -> int:
    """One match on both cores, compared at every state (every seat's legal indices, the state
    each applied index gives, the generator's draws, that its snapshot restores, every seat's
    observation when ``observe``) and at the end (the outcome, score parts); the states
    compared. A simultaneous step's answers come the highest seat first on odd plies, or in the
    order ``draws`` picks (``drawn_seats``); ``max_ply`` stops a match early."""
    players = case.players
    py = GAME.setup(case.options, players, seed)
    nat = buttons_native.setup(case.options, players, seed)
    draws = draws or Rng(seed ^ 0xC0FFEE)
    encoder = Encoder(GAME, GAME.validate(case.options, players), players)
    out = np.zeros(buttons_native.config(case.options, players).observation_size,
                   dtype=np.float32)
    same("observation shape", encoder.shape, out.shape)
    assert_same(py, nat)
    states = 1
    while True:
        if observe:
            observe_all(players, nat, encoder.encode, py, out, py.ply)
        if GAME.is_over(py) or (max_ply is not None and py.ply >= max_ply):
            break
        seats = sorted(GAME.to_act(py))
        for other in range(players):
            same(f"ply {py.ply}: seat {other}'s legal indices", GAME.legal_indices(py, other),
                 nat.legal_indices(other))
        if drawn_seats:
            seat = seats[draws.below(len(seats))]
        else:
            seat = max(seats) if py.ply % 2 else min(seats)
        legal = GAME.legal_indices(py, seat)
        index = choose(py, seat, legal, policy, draws)
        nat.apply(seat, fault(legal, index, py.ply, fault_at))
        GAME.apply_legal(py, seat, GAME.action_from_index(index))
        assert_same(py, nat)
        data = nat.snapshot()  # every state the rules reach restores
        same(f"ply {py.ply}: snapshot restored", data, nat.restore(data).snapshot())
        states += 1
    if GAME.is_over(py):
        if not nat.is_over():
            raise Disagreement("the Python match is over, the native one is not")
        assert_same_outcome(py, nat)
    return states
