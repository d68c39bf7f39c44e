"""Queendomino on the native core (``ludoteca_native._core.queendomino``): a match's settings
from the validated options, with the domino and building tables the Python engine plays with, so
a seed deals the same match as ``rules.GAME.setup`` does."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ludoteca.engine.native import native_core
from ludoteca.games.queendomino.components import C1, C2, MAX_ID, T1, T2
from ludoteca.games.queendomino.rules import GAME
from ludoteca.games.queendomino.state import Config

DOMINOES = [(T1[n], C1[n], T2[n], C2[n]) for n in range(1, MAX_ID + 1)]
"""Per domino id 1-96: (terrain, crowns) of each half, as ``components`` reads them."""


def config(options: Mapping[str, object] | None, players: int) -> Any:
    """The native ``Config`` of a match (options checked, defaults filled, as the engine does),
    carrying the building table the options name."""
    opts = GAME.validate(options, players)
    cfg = Config.from_options(opts, players)
    tiles = [
        (t.knights, t.towers, t.coin_per_knight, t.coin_per_tower, t.crowns, t.points,
         t.per_territory, t.terrain, t.per_tower, t.per_knight)
        for t in cfg.tiles
    ]
    return native_core().queendomino.Config(
        players,
        royal_wedding=cfg.royal_wedding,
        teams=cfg.teams,
        tax_per_turn=cfg.tax_bonus_per_turn,
        dominoes=DOMINOES,
        tiles=tiles,
    )


def setup(options: Mapping[str, object] | None, players: int, seed: int) -> Any:
    """A native match: ``GAME.setup(options, players, seed)``'s deal, as a native ``State``."""
    return native_core().queendomino.State(config(options, players), seed & ((1 << 64) - 1))


def batch(options: Mapping[str, object] | None, players: int, size: int, seed: int = 0) -> Any:
    """A native ``Batch`` of ``size`` matches with these options, its generator (``sample``'s
    draws) seeded by ``seed``: what the native vector environments step
    (``rl/native_vector.py``)."""
    return native_core().queendomino.Batch(config(options, players), size, seed & ((1 << 64) - 1))


def batch_policies() -> dict[str, int]:
    """The bot levels the ``Batch``'s ``sample`` plays natively, as its policy numbers (the
    native vector environments' opponents)."""
    queendomino = native_core().queendomino
    return {"random": queendomino.RANDOM}  # no native greedy policy


def random_games(players: int, first_seed: int, count: int, chooser_seed: int = 0) -> int:
    """Play ``count`` default matches (seeds ``first_seed`` on) natively, every seat choosing
    uniformly among the legal indices with one ``Rng(chooser_seed)``; the plies played."""
    return int(native_core().queendomino.play(config(None, players), first_seed, count, 0,
                                              chooser_seed))


def batched_steps(players: int, size: int, steps: int) -> int:
    """Step a batch of ``size`` default matches ``steps`` times as an RL loop does: the acting
    seats' observations, random choices drawn natively, then the step writing masks, rewards and
    dones, all into numpy arrays (a finished match is dealt again at once); the match-steps."""
    import numpy as np  # the native core's dependency, not the main package's

    queendomino = native_core().queendomino
    cfg = config(None, players)
    batch = queendomino.Batch(cfg, size, seed=1)
    batch.reset(np.arange(size, dtype=np.uint64))
    dealt = size
    actions = np.zeros(size, dtype=np.int64)
    masks = np.zeros((size, queendomino.NUM_ACTIONS), dtype=np.uint8)
    rewards = np.zeros((size, players), dtype=np.float32)
    dones = np.zeros(size, dtype=np.uint8)
    seats = np.zeros(size, dtype=np.int32)
    observations = np.zeros((size, cfg.observation_size), dtype=np.float32)
    for _ in range(steps):
        batch.to_act(seats)
        batch.observe(seats, observations)
        batch.sample(queendomino.RANDOM, actions)
        batch.step(actions, masks, rewards, dones)
        for i in np.flatnonzero(dones):
            batch.reset_one(int(i), dealt)
            dealt += 1
    return size * steps
