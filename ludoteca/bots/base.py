"""What a bot is: something that picks an action for a seat from what that seat may know.

Bots use only the game contract (DESIGN.md §2). They receive the seat's ``view`` — never the
state — so they cannot peek at hidden cards or the deck order; a bot that needs a full state to
search on calls ``game.determinize(view, seat, rng)``.
"""

from __future__ import annotations

from typing import Any, Protocol

from ludoteca.engine.game import JSON, Game, Seat


class Bot(Protocol):
    name: str

    def choose(self, game: Game[Any, Any], view: JSON, seat: Seat) -> Any:
        """A legal action for ``seat``."""
        ...
