"""Kingdomino on the native core (``ludoteca_native._core.kingdomino``): a match's settings
from the validated options, so a seed deals the same match as ``rules.GAME.setup`` does."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ludoteca.engine.native import native_core, random_batch_steps
from ludoteca.games.kingdomino.rules import GAME


def config(options: Mapping[str, object] | None, players: int) -> Any:
    """The native ``Config`` of a match (options checked, defaults filled, as the engine does)."""
    opts = GAME.validate(options, players)
    return native_core().kingdomino.Config(
        players,
        mighty_duel=bool(opts["mighty_duel"]),
        harmony=bool(opts["harmony"]),
        middle_kingdom=bool(opts["middle_kingdom"]),
        dynasty=bool(opts["dynasty"]),
        bga_three_player=opts["three_player_draft"] == "bga",
        crowns_tiebreak=opts["tiebreak"] == "rulebook",
        abba=opts["first_draft"] == "abba",
    )


def setup(options: Mapping[str, object] | None, players: int, seed: int) -> Any:
    """A native match: ``GAME.setup(options, players, seed)``'s deal, as a native ``State``."""
    return native_core().kingdomino.State(config(options, players), seed & ((1 << 64) - 1))


def batch(options: Mapping[str, object] | None, players: int, size: int, seed: int = 0) -> Any:
    """A native ``Batch`` of ``size`` matches with these options, its generator (``sample``'s
    draws) seeded by ``seed``: what the native vector environments step
    (``rl/native_vector.py``)."""
    return native_core().kingdomino.Batch(config(options, players), size, seed & ((1 << 64) - 1))


def batch_policies() -> dict[str, int]:
    """The bot levels the ``Batch``'s ``sample`` plays natively, as its policy numbers (the
    native vector environments' opponents)."""
    kingdomino = native_core().kingdomino
    return {"random": kingdomino.RANDOM, "greedy": kingdomino.GREEDY}


def random_games(players: int, first_seed: int, count: int, chooser_seed: int = 0) -> int:
    """Play ``count`` default matches (seeds ``first_seed`` on) natively, every seat choosing
    uniformly among the legal indices with one ``Rng(chooser_seed)``; the plies played."""
    return int(native_core().kingdomino.play(config(None, players), first_seed, count, 0,
                                             chooser_seed))


def search_playouts(players: int, first_seed: int, count: int, chooser_seed: int = 0) -> int:
    """``random_games`` with the game's own epsilon-greedy playout (``game.playout(state, GAME,
    rng)``) for every seat; the plies played."""
    kingdomino = native_core().kingdomino
    return int(kingdomino.play(config(None, players), first_seed, count, kingdomino.SEARCH,
                               chooser_seed))


def batched_steps(players: int, size: int, steps: int) -> int:
    """``random_batch_steps`` on default matches (the benchmark's batched row)."""
    return random_batch_steps(native_core().kingdomino, config(None, players), players,
                              size, steps)
