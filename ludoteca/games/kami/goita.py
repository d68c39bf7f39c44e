"""Goita (``rules/kami.md`` part B): Kami's source game, played on the same engine.

Differences handled by ``Config`` flags in the shared code: 4 players only, counter-clockwise,
values x10, target 150 (reach or pass it), kings unlocked also by holding both or by a king
shown face up as an attack (B3), and the special Shi hands checked after every deal (B5).
"""

from __future__ import annotations

from ludoteca.engine.game import GameSpec
from ludoteca.engine.options import Option
from ludoteca.games.kami import actions as act
from ludoteca.games.kami.components import GOITA_TITLES
from ludoteca.games.kami.rules import Kami

OPTIONS = (
    Option("target", int, 150, "points a team needs to win (B1; local variants use 100 or 110)",
           min=50, max=500),
)


class Goita(Kami):
    spec = GameSpec(
        name="goita",
        title="Goita",
        min_players=4,
        max_players=4,
        options=OPTIONS,
        num_actions=act.NUM_ACTIONS,
        max_length=200_000,
        hidden_information=True,
        chance=True,
        teams=True,
        rules="kami.md",
    )
    titles = GOITA_TITLES


GAME = Goita()
