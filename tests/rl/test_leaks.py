"""An observation says no more than the seat may know (issue 15 "Must show").

The re-deal idea of tests/engine/test_leaks.py: at steps of random games of every case, for
every seat, everything hidden from that seat is re-dealt (``determinize`` of its view, after a
JSON round trip: other hands, face-down cards, pile orders, others' pending answers, the dice
to come, the RNG) and the seat's observation vector and action mask must not change. Encoders
read the state directly (views cost far more), so this is what proves they read only the view.

The check must be able to fail: ``test_the_check_catches_a_leak`` hands it encoders that each
read one hidden part (the next seat's hand, the draw pile, the next roll, the building pile)
and requires it to notice.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from ludoteca.engine.game import Game  # noqa: E402
from ludoteca.engine.rng import Rng  # noqa: E402
from ludoteca.games import get_game  # noqa: E402
from ludoteca.rl.encode import Encoder, Vector, encoder  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from cases import CASES, case_id  # noqa: E402

REDEALS = 2
"""Re-dealt worlds per seat and checked step."""
EVERY = 3
"""Check one step in this many."""


def mask(game: Game[Any, Any], state: Any, seat: int) -> list[int]:
    if seat not in game.to_act(state):
        return []
    return sorted(a.index for a in game.legal_actions(state, seat))


def find_leak(game: Game[Any, Any], enc: Encoder, players: int, options: dict[str, Any],
              seed: int, max_steps: int = 400) -> str | None:
    """Play one random game; the first step and seat whose observation or mask changes when
    its hidden parts are re-dealt, or None."""
    rng = Rng(seed)
    pick = random.Random(seed)
    state = game.setup(options, players, seed)
    steps = 0
    while (seats := sorted(game.to_act(state))) and steps < max_steps:
        if steps % EVERY == 0:
            for seat in range(players):
                seen = enc.encode(state, seat)
                if seen.shape != enc.shape or not 0.0 <= seen.min() <= seen.max() <= 1.0:
                    return f"step {steps}, seat {seat}: a value outside [0, 1] or a bad shape"
                legal = mask(game, state, seat)
                view = json.loads(json.dumps(game.view(state, seat)))
                for _ in range(REDEALS):
                    world = game.determinize(view, seat, rng)
                    other = enc.encode(world, seat)
                    if not np.array_equal(seen, other):
                        where = [f.name for f in enc.layout.fields
                                 if not np.array_equal(seen[f.start:f.stop],
                                                       other[f.start:f.stop])]
                        return f"step {steps}, seat {seat}: {where} differ"
                    if mask(game, world, seat) != legal:
                        return f"step {steps}, seat {seat}: the action mask differs"
        seat = seats[pick.randrange(len(seats))]
        legal_actions = game.legal_actions(state, seat)
        game.apply(state, seat, legal_actions[pick.randrange(len(legal_actions))])
        steps += 1
    return None


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
@pytest.mark.parametrize("seed", [1, 2])
def test_observation_is_the_same_when_hidden_parts_are_redealt(
    case: tuple[str, int, dict[str, Any]], seed: int
) -> None:
    name, players, options = case
    game = get_game(name)
    enc = encoder(game, options, players)
    assert find_leak(game, enc, players, options, seed) is None


# ---- the check can fail: encoders that each read one hidden part --------------------------

def leaky(base: Encoder, read: Any) -> Encoder:
    """``base`` with its first value replaced by something it may not know."""

    class Leaky:
        layout = base.layout
        shape = base.shape

        def encode(self, state: Any, seat: int) -> Vector:
            obs = base.encode(state, seat).copy()
            obs[0] = float(read(state, seat)) % 97 / 97
            return obs

    return Leaky()


LEAKS = {
    "kami": lambda s, seat: s.hands[(seat + 1) % s.cfg.players],  # the next seat's hand
    "kingdomino": lambda s, seat: s.deck[s.deck_pos] if s.deck_pos < len(s.deck) else 0,
    "queendomino": lambda s, seat: s.pile[s.pile_pos] if s.pile_pos < len(s.pile) else 0,
    "buttons": lambda s, seat: s.rng.clone().below(6),  # the next roll
}


@pytest.mark.parametrize("name", sorted(LEAKS))
def test_the_check_catches_a_leak(name: str) -> None:
    game = get_game(name)
    players = 4 if name == "kami" else 2
    enc = leaky(encoder(game, {}, players), LEAKS[name])
    found = [find_leak(game, enc, players, {}, seed, max_steps=60) for seed in range(3)]
    assert any(found), f"a {name} encoder reading a hidden part went unnoticed"
