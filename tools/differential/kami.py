"""Kami and Goita (one engine), both cores step by step: Kami at every player count and option
and Goita with its default target and a short one (``CASES``), driven by the same index choices
(random, the greedy bot's playout choice, a mix)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ludoteca.engine.game import Game
from ludoteca.engine.rng import Rng
from ludoteca.games.kami import native as kami_native
from ludoteca.games.kami import scoring
from ludoteca.games.kami.bot import playout_choice
from ludoteca.games.kami.observation import Encoder
from ludoteca.games.kami.state import KamiState
from tools.differential.core import (
    Case,
    Disagreement,
    Draws,
    fault,
    observe_all,
    outcome_triple,
    same,
    tie_rng,
)

# Kami's defaults at 2, 3 and 4 players, then every option; Goita (4 players) with its default
# target and a short one (more special hands per match). matches: the test suite's budget.
CASES = [
    Case("kami", 2, {}, 300),
    Case("kami", 3, {}, 300),
    Case("kami", 4, {}, 300),
    Case("kami", 4, {"demoralized": False}, 100),
    Case("kami", 2, {"end_mode": "lord"}, 100),
    Case("kami", 3, {"end_mode": "kami", "target": 12}, 100),
    Case("kami", 4, {"end_mode": "lord", "target": 20}, 60),
    Case("kami", 2, {"end_mode": "kami", "target": 10}, 60),
    Case("kami", 3, {"target": 30}, 40),
    Case("goita", 4, {}, 150),
    Case("goita", 4, {"target": 50}, 150),
]
POLICIES = ("random", "greedy", "mixed")


def game_of(goita: bool) -> Game[Any, Any]:
    return kami_native.game_of(goita)


def assert_same(py: KamiState, nat: Any) -> None:
    """The seat to act, the generator, the whole state (hands, lines, mercenaries, unused cards,
    questions, scores) and the scores so far."""
    at = f"ply {py.ply}: "
    seats = game_of(py.cfg.goita).to_act(py)
    same(at + "seat to act", min(seats) if seats else -1, nat.to_act())
    same(at + "generator state", py.rng.state, nat.rng_state)
    same(at + "phase, round, ply, winner", (py.phase, py.round, py.ply, py.winner),
         (nat.phase, nat.round, nat.ply, nat.winner))
    same(at + "scores, hands, sizes", (py.scores, py.hands, py.sizes),
         (nat.scores, nat.hands, nat.sizes))
    same(at + "attack, turn", (py.attack, py.attacker, py.turn, py.first, py.unlocked),
         (nat.attack, nat.attacker, nat.turn, nat.first, nat.unlocked))
    same(at + "questions", (py.asked, py.nasked, py.revealed, py.looked),
         (nat.asked, nat.nasked, nat.revealed, nat.looked))
    same(at + "unused and mercenaries", (py.unused, py.merc_down, py.merc_up),
         (nat.unused, nat.merc_down, nat.merc_up))
    same(at + "lines", (py.defense, py.attacks), (nat.defense, nat.attacks))
    same(at + "scores now", scoring.scores_now(py)[0], tuple(nat.scores_now()))


def assert_same_outcome(game: Game[Any, Any], py: KamiState, nat: Any) -> None:
    same("outcome", outcome_triple(game.outcome(py)), nat.outcome())


def choose(game: Game[Any, Any], py: KamiState, seat: int, legal: list[int], policy: str,
           draws: Draws, rng: Rng) -> int:
    if policy not in POLICIES:
        raise ValueError(f"Kami has no policy {policy!r}: {', '.join(POLICIES)}")
    if policy == "greedy" or (policy == "mixed" and draws.below(2) == 0):
        # bot.playout_choice on the full state (what the native greedy policy plays)
        return int(playout_choice(py, seat, game.legal_actions(py, seat), rng).index)
    return legal[draws.below(len(legal))]


def play(case: Case, seed: int, policy: str = "random", *, draws: Draws | None = None,
         observe: bool = False, fault_at: int | None = None) -> int:
    """One match on both cores, compared at every state (the acting seat's legal indices and
    none for the next, the state each applied index gives, the generator's draws, that its
    snapshot restores, every seat's observation when ``observe``) and at the end (the
    outcome, partners sharing their side's); the states compared."""
    goita = case.game == "goita"
    game = game_of(goita)
    players = case.players
    py = game.setup(case.options, players, seed)
    nat = kami_native.setup(case.options, players, seed, goita)
    draws = draws or Rng(seed ^ 0xC0FFEE)
    rng = tie_rng(draws, seed)
    encoder = Encoder(game, game.validate(case.options, players), players)
    out = np.zeros(kami_native.config(case.options, players, goita).observation_size,
                   dtype=np.float32)
    same("observation shape", encoder.shape, out.shape)
    assert_same(py, nat)
    states = 1
    while True:
        if observe:
            observe_all(players, nat, encoder.encode, py, out, py.ply)
        if game.is_over(py):
            break
        seat = min(game.to_act(py))
        legal = game.legal_indices(py, seat)
        same(f"ply {py.ply}: seat {seat}'s legal indices", legal, nat.legal_indices(seat))
        other = (seat + 1) % players
        same(f"ply {py.ply}: seat {other}'s legal indices", [], nat.legal_indices(other))
        index = choose(game, py, seat, legal, policy, draws, rng)
        nat.apply(seat, fault(legal, index, py.ply, fault_at))
        game.apply_legal(py, seat, game.action_from_index(index))
        assert_same(py, nat)
        data = nat.snapshot()  # every state the rules reach restores
        same(f"ply {py.ply}: snapshot restored", data, nat.restore(data).snapshot())
        states += 1
    if not nat.is_over():
        raise Disagreement("the Python match is over, the native one is not")
    assert_same_outcome(game, py, nat)
    return states
