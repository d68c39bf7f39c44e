"""Buttons on the native core (``ludoteca_native._core.buttons``): a match's settings from the
validated options, with the layout set the ``layouts`` option names (as colour masks), so a seed
deals the same match as ``rules.GAME.setup`` does (the layout shuffle, the cards, every roll)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ludoteca.engine.native import native_game, random_batch_steps
from ludoteca.games.buttons import layouts
from ludoteca.games.buttons.grid import board_masks
from ludoteca.games.buttons.rules import GAME
from ludoteca.games.buttons.state import Config


def config(options: Mapping[str, object] | None, players: int) -> Any:
    """The native ``Config`` of a match (options checked, defaults filled, as the engine does),
    carrying the layout set the options name."""
    opts = GAME.validate(options, players)
    cfg = Config.from_options(opts, players)
    table = layouts.get(str(opts["layouts"]))
    return native_game("buttons").Config(
        players, cfg.bga_winner, cfg.fixed_boards, [board_masks(lay) for lay in table]
    )


def setup(options: Mapping[str, object] | None, players: int, seed: int) -> Any:
    """A native match: ``GAME.setup(options, players, seed)``'s deal, as a native ``State``."""
    return native_game("buttons").State(config(options, players), seed & ((1 << 64) - 1))


def _play(players: int, first_seed: int, count: int, chooser_seed: int, policy: str) -> int:
    buttons = native_game("buttons")
    return int(buttons.play(config(None, players), first_seed, count, getattr(buttons, policy),
                            chooser_seed))


def random_games(players: int, first_seed: int, count: int, chooser_seed: int = 0) -> int:
    """Play ``count`` default matches (seeds ``first_seed`` on) natively, the lowest seat to act
    choosing uniformly among its legal indices with one ``Rng(chooser_seed)``; the plies."""
    return _play(players, first_seed, count, chooser_seed, "RANDOM")


def search_playouts(players: int, first_seed: int, count: int, chooser_seed: int = 0) -> int:
    """``random_games`` with the game's playout (``Kind.GAME``: epsilon-greedy, one move in 32
    random, with the line-minded ``plan.choose_state``) for every seat; the plies played."""
    return _play(players, first_seed, count, chooser_seed, "SEARCH")


def batched_steps(players: int, size: int, steps: int) -> int:
    """``random_batch_steps`` on default matches (the benchmark's batched row)."""
    return random_batch_steps(native_game("buttons"), config(None, players), players,
                              size, steps)


def batch(options: Mapping[str, object] | None, players: int, size: int, seed: int = 0) -> Any:
    """A native ``Batch`` of ``size`` matches with these options, its generator (``sample``'s
    draws) seeded by ``seed``: what the native vector environments step
    (``rl/native_vector.py``)."""
    return native_game("buttons").Batch(config(options, players), size, seed & ((1 << 64) - 1))


def batch_policies() -> dict[str, int]:
    """The bot levels the ``Batch``'s ``sample`` plays natively, as its policy numbers (the
    native vector environments' opponents): ``random`` only, the native ``GREEDY`` being the
    line-minded playout policy (``plan.py``), not the greedy bot (``bot.py``)."""
    return {"random": native_game("buttons").RANDOM}
