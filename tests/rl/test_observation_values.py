"""Values an observation computes rather than copies: the kingdoms' scores now, which the
Kingdomino and Queendomino encoders add up themselves (cached by territory, for speed) and
which must stay the engine's own score (the view's ``kingdoms[i].score``) as rules change."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ludoteca.games import get_game
from ludoteca.rl.encode import encoder


@pytest.mark.parametrize(("name", "players", "options"), [
    ("kingdomino", 2, {}), ("kingdomino", 4, {"harmony": True, "middle_kingdom": True}),
    ("queendomino", 2, {}), ("queendomino", 3, {}),
])
def test_the_observed_scores_are_the_engines(name: str, players: int,
                                             options: dict[str, object]) -> None:
    game = get_game(name)
    enc = encoder(game, options, players)
    rng = random.Random(4)
    checked = 0
    for seed in range(6):
        state = game.setup(options, players, seed)
        while seats := game.to_act(state):
            seat = min(seats)
            for viewer in range(players):
                obs = enc.encode(state, viewer)
                view = game.view(state, viewer)
                kingdoms = view["kingdoms"]
                n = len(kingdoms)
                mine = view["sides"][viewer] if view.get("sides") else viewer
                if name == "kingdomino":
                    f = enc.layout["scores"]
                    shown = obs[f.start:f.stop]
                else:
                    f = enc.layout["sides"]
                    shown = obs[f.start:f.stop].reshape(n, -1)[:, -1]
                want = [min(1.0, max(0.0, kingdoms[(mine + r) % n]["score"] / 100))
                        for r in range(n)]
                assert np.allclose(shown, np.float32(want)), (seed, state.ply, viewer)
                checked += 1
            game.apply_legal(state, seat, rng.choice(game.legal_actions(state, seat)))
    assert checked > 500
