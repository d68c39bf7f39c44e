"""Kingdomino on the native core (``ludoteca_native._core.kingdomino``): a match's settings
from the validated options, so a seed deals the same match as ``rules.GAME.setup`` does."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ludoteca.engine.native import native_core
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
