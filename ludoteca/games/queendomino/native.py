"""Queendomino on the native core (``ludoteca_native._core.queendomino``): a match's settings
from the validated options, with the domino and building tables the Python engine plays with, so
a seed deals the same match as ``rules.GAME.setup`` does."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ludoteca.engine.native import native_core, random_batch_steps
from ludoteca.games.queendomino.native_playout import DOMINOES, config_of
from ludoteca.games.queendomino.rules import GAME
from ludoteca.games.queendomino.state import Config

__all__ = ["DOMINOES", "batched_steps", "config", "random_games", "setup"]


def config(options: Mapping[str, object] | None, players: int) -> Any:
    """The native ``Config`` of a match (options checked, defaults filled, as the engine does),
    carrying the building table the options name."""
    return config_of(Config.from_options(GAME.validate(options, players), players))


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
    """``random_batch_steps`` on default matches (the benchmark's batched row)."""
    return random_batch_steps(native_core().queendomino, config(None, players), players,
                              size, steps)
