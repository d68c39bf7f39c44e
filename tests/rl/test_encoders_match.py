"""The fast observation paths are bit-identical to the encoders as they were before issue 26's
speed work (``tests/rl/reference/``, a snapshot), over random games of every case; and arrays
handed out are the caller's to keep: a later step never changes them."""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ludoteca.games import get_game
from ludoteca.rl.encode import encode_into, encoder
from ludoteca.rl.pettingzoo import env

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent / "reference"))
from cases import CASES, case_id

MODULES = {"goita": "kami"}
EXTRA = {"buttons": "buttons_plan"}
"""Slices appended after the snapshot, each with its own plain reference (``extra``)."""


class Reference:
    """The snapshot's encoder, followed by the slices appended since (``EXTRA``)."""

    def __init__(self, name: str, players: int, options: dict[str, Any]) -> None:
        game = get_game(name)
        module = importlib.import_module(f"{MODULES.get(name, name)}_observation")
        self.old = module.Encoder(game, game.validate(options, players), players)
        self.extra = (importlib.import_module(EXTRA[name]).extra if name in EXTRA
                      else None)

    def encode(self, state: Any, seat: int) -> Any:
        vec = self.old.encode(state, seat)
        return vec if self.extra is None else np.concatenate([vec, self.extra(state, seat)])


def reference(name: str, players: int, options: dict[str, Any]) -> Reference:
    return Reference(name, players, options)


SNAPSHOT = Path(__file__).parent / "reference"
SNAPSHOTTED = [c for c in CASES
               if (SNAPSHOT / f"{MODULES.get(c[0], c[0])}_observation.py").exists()]
"""The cases of games that had an encoder before the speed work (a newer game, such as the test
game, has no old encoder to match)."""
HANDED_OUT = sorted({(name, max(p for n, p, o in CASES if n == name and not o))
                     for name, _, _ in CASES})
"""Every game with an encoder, at the most players of its cases with default options."""


@pytest.mark.parametrize("case", SNAPSHOTTED, ids=[case_id(c) for c in SNAPSHOTTED])
def test_fast_encoders_match_the_old_ones(case: tuple[str, int, dict[str, Any]]) -> None:
    name, players, options = case
    game = get_game(name)
    new, old = encoder(game, options, players), reference(name, players, options)
    out = np.full(new.shape, 7.0, dtype=np.float32)
    pick = random.Random(5)
    compared = 0
    for seed in range(3):
        state = game.setup(options, players, seed)
        while seats := sorted(game.to_act(state)):
            # the acting seat every step, another one now and then (their canvases lag behind)
            viewers = [seats[0]] + ([pick.randrange(players)] if pick.random() < 0.3 else [])
            for seat in viewers:
                want = old.encode(state, seat)
                got = new.encode(state, seat)
                assert got.dtype == np.float32 and np.array_equal(got, want), (seed, state.ply)
                encode_into(new, state, seat, out)
                assert np.array_equal(out, want)
                compared += 1
            seat = seats[pick.randrange(len(seats))]
            actions = game.legal_actions(state, seat)
            game.apply_legal(state, seat, actions[pick.randrange(len(actions))])
    assert compared > 100


@pytest.mark.parametrize("name,players", HANDED_OUT)
def test_observations_handed_out_never_change(name: str, players: int) -> None:
    """PettingZoo users keep observations across steps (replay buffers): each is a new array,
    never written again by the environment; within one decision ``observe`` returns the same
    one."""
    aec = env(name, players=players)
    rng = random.Random(2)
    kept: list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any],
                     np.ndarray[Any, Any]]] = []
    for seed in range(2, 12):  # episodes until 40 are kept (a Nim episode is short)
        aec.reset(seed=seed)
        for agent in aec.agent_iter(200):
            obs, _, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                aec.step(None)
                continue
            assert aec.observe(agent)["observation"] is obs["observation"]
            kept.append((obs["observation"], obs["observation"].copy(),
                         obs["action_mask"], obs["action_mask"].copy()))
            aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if len(kept) > 40:
            break
    assert len(kept) > 40
    for vec, vec_then, mask, mask_then in kept:
        assert np.array_equal(vec, vec_then) and np.array_equal(mask, mask_then)
    assert len({id(v) for v, *_ in kept}) == len(kept)  # a new array at every decision
