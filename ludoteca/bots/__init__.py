"""Bots: seat controllers that pick actions from a seat's view (see ``base.py``)."""

from __future__ import annotations

from ludoteca.bots.base import Bot
from ludoteca.bots.pool import SearchPool
from ludoteca.engine.errors import OptionError

LEVELS = ("random", "greedy", "medium", "hard")
ALIASES = {"easy": "greedy"}

BOT_VERSION = "1"
"""The bots' playing strength as one string: raise it whenever a level's play changes (its
search budget, its evaluator), since ratings name a bot by level and version
(``bot:hard@1``): a calibration of older bots anchors nothing for newer ones."""


def identity(level: str) -> str:
    """The participant name results and rating pools give a bot level: ``bot:<level>@<version>``."""
    return f"bot:{level_name(level)}@{BOT_VERSION}"

SEARCH_SECONDS = {"medium": 0.25, "hard": 1.5}
"""Time budget per move of the search levels. ``hard`` stays under 2 s per move on a 2-core
machine once determinizing and choosing are counted (measured in docs/bots.md)."""


def level_name(level: str) -> str:
    """The canonical level for ``level`` (case-insensitive, aliases resolved), or OptionError."""
    name = ALIASES.get(level.strip().lower(), level.strip().lower())
    if name not in LEVELS:
        raise OptionError(f"unknown bot {level!r}; known bots: {', '.join(LEVELS)}, easy")
    return name


def make_bot(
    level: str,
    game: str,
    seed: int = 0,
    *,
    workers: int = 1,
    pool: SearchPool | None = None,
) -> Bot:
    """A bot of ``level`` for ``game``: ``random``; ``greedy`` (alias ``easy``): one ply with
    the game's evaluator; ``medium`` and ``hard``: IS-MCTS with the game's search profile and
    the budgets of ``SEARCH_SECONDS``. With a ``pool``, search bots use ``workers`` processes
    (this one and ``workers - 1`` of the pool)."""
    from ludoteca.games import entry

    name = level_name(level)
    found = entry(game)
    if name == "random":
        from ludoteca.bots.random_bot import RandomBot

        return RandomBot(seed)
    if name in SEARCH_SECONDS:
        from ludoteca.bots.search import SearchBot

        return SearchBot(
            seconds=SEARCH_SECONDS[name],
            seed=seed,
            workers=workers,
            name=name,
            profile=found.search_profile(),
            pool=pool,
        )
    evaluator = found.greedy_choose()
    if evaluator is None:
        raise OptionError(f"the greedy bot cannot play {found.name} yet; use the random bot")
    from ludoteca.bots.greedy import GreedyBot

    return GreedyBot(evaluator, seed)


def check_bot(level: str, game: str) -> None:
    """OptionError unless bot ``level`` can play ``game``."""
    from ludoteca.games import entry

    if level_name(level) == "greedy" and entry(game).greedy is None:
        raise OptionError(f"the greedy bot cannot play {game} yet; use the random bot")


def parse_bot_list(text: str) -> list[str]:
    """``"greedy, random"`` -> ``["greedy", "random"]``, each name checked."""
    names = [part.strip() for part in text.split(",") if part.strip()]
    if not names:
        raise OptionError("name at least one bot, e.g. greedy,random")
    return [level_name(n) for n in names]


__all__ = ["BOT_VERSION", "LEVELS", "Bot", "SearchPool", "check_bot", "identity", "level_name",
           "make_bot", "parse_bot_list"]
