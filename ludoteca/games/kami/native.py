"""Kami and Goita on the native core (``ludoteca_native._core.kami``): a match's settings from
the validated options, so a seed deals the same match as ``GAME.setup`` does (the opening draw
and every deal, shuffled with the same 192-bit draws)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ludoteca.engine.game import Game
from ludoteca.engine.native import native_core, random_batch_steps
from ludoteca.games.kami.goita import GAME as GOITA
from ludoteca.games.kami.rules import GAME as KAMI
from ludoteca.games.kami.state import END_MODES


def game_of(goita: bool) -> Game[Any, Any]:
    return GOITA if goita else KAMI


def config(options: Mapping[str, object] | None, players: int, goita: bool = False) -> Any:
    """The native ``Config`` of a match (options checked, defaults filled, as the engine does)."""
    opts = game_of(goita).validate(options, players)
    return native_core().kami.Config(
        goita,
        players,
        end_mode=0 if goita else END_MODES.index(str(opts["end_mode"])),
        target=int(str(opts["target"])),
        demoralized=bool(opts.get("demoralized", False)),
    )


def setup(options: Mapping[str, object] | None, players: int, seed: int,
          goita: bool = False) -> Any:
    """A native match: ``GAME.setup(options, players, seed)``'s deal, as a native ``State``."""
    return native_core().kami.State(config(options, players, goita), seed & ((1 << 64) - 1))


def batch(options: Mapping[str, object] | None, players: int, size: int, seed: int = 0,
          goita: bool = False) -> Any:
    """A native ``Batch`` of ``size`` matches with these options, its generator (``sample``'s
    draws) seeded by ``seed``: what the native vector environments step
    (``rl/native_vector.py``)."""
    return native_core().kami.Batch(config(options, players, goita), size,
                                    seed & ((1 << 64) - 1))


def batch_policies() -> dict[str, int]:
    """The bot levels the ``Batch``'s ``sample`` plays natively, as its policy numbers (the
    native vector environments' opponents): ``greedy`` is the greedy bot's evaluator
    (``bot.playout_choice``, which reads only what the seat may see)."""
    kami = native_core().kami
    return {"random": kami.RANDOM, "greedy": kami.GREEDY}


def _play(players: int, first_seed: int, count: int, chooser_seed: int, policy: str,
          goita: bool) -> int:
    kami = native_core().kami
    return int(kami.play(config(None, players, goita), first_seed, count, getattr(kami, policy),
                         chooser_seed))


def random_games(players: int, first_seed: int, count: int, chooser_seed: int = 0,
                 goita: bool = False) -> int:
    """Play ``count`` default matches (seeds ``first_seed`` on) natively, every seat choosing
    uniformly among the legal indices with one ``Rng(chooser_seed)``; the plies played."""
    return _play(players, first_seed, count, chooser_seed, "RANDOM", goita)


def search_playouts(players: int, first_seed: int, count: int, chooser_seed: int = 0,
                    goita: bool = False) -> int:
    """``random_games`` with the game's playout (``Kind.GAME``: epsilon-greedy with the greedy
    evaluator) for every seat; the plies played."""
    return _play(players, first_seed, count, chooser_seed, "SEARCH", goita)


def batched_steps(players: int, size: int, steps: int, goita: bool = False) -> int:
    """``random_batch_steps`` on default matches (the benchmark's batched row)."""
    return random_batch_steps(native_core().kami, config(None, players, goita), players, size,
                              steps)


@dataclass(frozen=True)
class Core:
    """This module's functions for one of the two games: the registry names ``GOITA_CORE`` for
    Goita (Kami's entry names the module itself, whose functions default to Kami)."""

    goita: bool

    def config(self, options: Mapping[str, object] | None, players: int) -> Any:
        return config(options, players, self.goita)

    def setup(self, options: Mapping[str, object] | None, players: int, seed: int) -> Any:
        return setup(options, players, seed, self.goita)

    def random_games(self, players: int, first_seed: int, count: int,
                     chooser_seed: int = 0) -> int:
        return random_games(players, first_seed, count, chooser_seed, self.goita)

    def search_playouts(self, players: int, first_seed: int, count: int,
                        chooser_seed: int = 0) -> int:
        return search_playouts(players, first_seed, count, chooser_seed, self.goita)

    def batched_steps(self, players: int, size: int, steps: int) -> int:
        return batched_steps(players, size, steps, self.goita)

    def batch(self, options: Mapping[str, object] | None, players: int, size: int,
              seed: int = 0) -> Any:
        return batch(options, players, size, seed, self.goita)

    def batch_policies(self) -> dict[str, int]:
        return batch_policies()


GOITA_CORE = Core(goita=True)
