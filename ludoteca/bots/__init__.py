"""Bots: seat controllers that pick actions from a seat's view (see ``base.py``)."""

from __future__ import annotations

from typing import Any

from ludoteca.engine.errors import OptionError

LEVELS = ("random", "greedy")


def make_bot(level: str, seed: int = 0) -> Any:
    """A bot by level name (``random``, ``greedy``; ``easy`` is an alias of greedy)."""
    if level == "random":
        from ludoteca.bots.random_bot import RandomBot

        return RandomBot(seed)
    if level in ("greedy", "easy"):
        from ludoteca.bots.greedy import GreedyBot

        return GreedyBot(seed)
    raise OptionError(f"unknown bot {level!r}; known bots: {', '.join(LEVELS)}")
