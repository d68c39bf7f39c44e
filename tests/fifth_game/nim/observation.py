"""Nim's RL observation (``ludoteca.rl.encode``): the pile, whose turn it is and, at the end, who
won, relative to the observer. Imported only through the registry entry, with the ``rl`` extra
(it needs numpy)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ludoteca.engine.game import Game, Seat
from ludoteca.rl.encode import Layout, Vector, unit


class Encoder:
    def __init__(self, game: Game[Any, Any], options: dict[str, Any], players: int) -> None:
        self.stones, self.players = int(options["stones"]), players
        self.layout = Layout()
        self.layout.add("pile", 1, "stones left / stones at the start")
        self.layout.add("turn", players, "one-hot: whose turn, slot 0 = the observer")
        self.layout.add("winner", players, "one-hot: who took the last stone, slot 0 = the "
                        "observer")
        self.shape = (self.layout.size,)

    def encode(self, state: Any, seat: Seat) -> Vector:
        vec = np.zeros(self.shape, np.float32)
        vec[0] = unit(state.pile, self.stones)
        if state.winner < 0:
            vec[1 + (state.turn - seat) % self.players] = 1.0
        else:
            vec[1 + self.players + (state.winner - seat) % self.players] = 1.0
        return vec
