"""What a bot is: a seat controller that picks an action from what its seat may know.

Bots use only the game contract (DESIGN.md §2). They receive the seat's ``view`` — never the
state — so they cannot peek at hidden cards or the deck order; a bot that needs a full state to
search on calls ``game.determinize(view, seat, rng)``. The match driver
(``engine/match.py``) calls ``choose`` with a deadline, ``end`` with the outcome and ``close``
when the match is over; this base class gives ``end`` and ``close`` as no-ops so every bot has
the whole protocol.
"""

from __future__ import annotations

from typing import Any

from ludoteca.engine.game import JSON, Game, Outcome, Seat


class Bot:
    name: str = "bot"

    def choose(
        self, game: Game[Any, Any], view: JSON, seat: Seat, deadline: float | None = None
    ) -> Any:
        """A legal action for ``seat``, chosen before ``deadline`` (``time.monotonic()``)."""
        raise NotImplementedError

    def end(self, outcome: Outcome | None) -> None:
        """The match is over (``outcome`` None if it was abandoned)."""

    def close(self) -> None:
        """Free what the bot holds (processes, files). Safe to call twice."""
