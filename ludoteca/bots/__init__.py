"""Bots: seat controllers that pick actions from a seat's view (see ``base.py``)."""

from __future__ import annotations

from importlib.util import find_spec
from typing import Any

from ludoteca.engine.errors import OptionError

LEVELS = ("random", "greedy")
ALIASES = {"easy": "greedy"}


def _level(level: str) -> str:
    name = ALIASES.get(level.strip().lower(), level.strip().lower())
    if name not in LEVELS:
        raise OptionError(f"unknown bot {level!r}; known bots: {', '.join(LEVELS)}")
    return name


def make_bot(level: str, seed: int = 0) -> Any:
    """A bot by level name (``random``, ``greedy``; ``easy`` is an alias of greedy)."""
    name = _level(level)
    if name == "random":
        from ludoteca.bots.random_bot import RandomBot

        return RandomBot(seed)
    from ludoteca.bots.greedy import GreedyBot

    return GreedyBot(seed)


def check_bot(level: str, game: str) -> None:
    """OptionError unless bot ``level`` can play ``game`` (greedy needs a per-game evaluator)."""
    if _level(level) == "greedy" and find_spec(f"ludoteca.bots.greedy.{game}") is None:
        raise OptionError(f"the greedy bot cannot play {game} yet; use the random bot")


def parse_bot_list(text: str) -> list[str]:
    """``"greedy, random"`` -> ``["greedy", "random"]``, each name checked."""
    names = [part.strip() for part in text.split(",") if part.strip()]
    if not names:
        raise OptionError("name at least one bot, e.g. greedy,random")
    return [_level(n) for n in names]
