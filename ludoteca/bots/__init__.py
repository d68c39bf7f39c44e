"""Bots: seat controllers that pick actions from a seat's view (see ``base.py``)."""

from __future__ import annotations

from importlib.util import find_spec
from typing import Any

from ludoteca.engine.errors import OptionError

LEVELS = ("random", "greedy", "medium", "hard")
ALIASES = {"easy": "greedy"}

SEARCH_SECONDS = {"medium": 0.25, "hard": 1.5}
"""Time budget per move of the search levels. ``hard`` stays under 2 s per move on a 2-core
machine once determinizing and choosing are counted (measured in docs/bots.md)."""


def _level(level: str) -> str:
    name = ALIASES.get(level.strip().lower(), level.strip().lower())
    if name not in LEVELS:
        raise OptionError(f"unknown bot {level!r}; known bots: {', '.join(LEVELS)}")
    return name


def make_bot(level: str, seed: int = 0, workers: int = 1) -> Any:
    """A bot by level: ``random``; ``greedy`` (alias ``easy``): one ply with a per-game
    evaluator; ``medium`` and ``hard``: IS-MCTS with the budgets of ``SEARCH_SECONDS``.
    ``workers`` > 1 gives the search levels root parallelism over that many processes."""
    name = _level(level)
    if name == "random":
        from ludoteca.bots.random_bot import RandomBot

        return RandomBot(seed)
    if name in SEARCH_SECONDS:
        from ludoteca.bots.search import SearchBot

        return SearchBot(seconds=SEARCH_SECONDS[name], seed=seed, workers=workers, name=name)
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
