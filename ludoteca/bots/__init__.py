"""Bots: seat controllers that pick actions from a seat's view (see ``base.py``)."""

from __future__ import annotations

from ludoteca.bots.base import Bot
from ludoteca.bots.pool import SearchPool
from ludoteca.engine.errors import OptionError

LEVELS = ("random", "greedy", "medium", "hard")
ALIASES = {"easy": "greedy"}

BOT_VERSION = "2"
"""The bots' playing strength as one string: raise it whenever a level's play changes (its
search budget, its evaluator), since ratings name a bot by level and version
(``bot:hard@2``): a calibration of older bots anchors nothing for newer ones. Version 2: the
search levels of a game with playout budgets (``SearchProfile.playouts``) search a fixed
number of playouts per move instead of for their seconds."""


def identity(level: str) -> str:
    """The participant name results and rating pools give a bot level: ``bot:<level>@<version>``."""
    return f"bot:{level_name(level)}@{BOT_VERSION}"

SEARCH_SECONDS = {"medium": 0.25, "hard": 1.5}
"""Time budget per move of the search levels in a game without playout budgets. ``hard`` stays
under 2 s per move on a 2-core machine once determinizing and choosing are counted (measured in
docs/bots.md)."""

CEILING_SECONDS = {"medium": 2.0, "hard": 10.0}
"""In a game with playout budgets, the most CPU time a search level's move may take (this
process's, so other work on the machine does not move it): a safety bound far above what the
budget costs, the Python core's included (docs/bots.md), so that only a much slower machine
reaches it, and the level then plays weaker than rated. Where the caller gives a deadline
(the server: this many seconds on the clock) that binds too."""


def move_seconds(level: str, game: str) -> float:
    """The seconds a move of ``level`` in ``game`` may take on the clock (the server's deadline):
    its time budget, or where the game has playout budgets, their ceiling (``CEILING_SECONDS``);
    0.05 for any other bot."""
    from ludoteca.games import entry

    name = ALIASES.get(level.strip().lower(), level.strip().lower())
    if name not in SEARCH_SECONDS:
        return 0.05
    if name in (entry(game).search_profile().playouts or {}):
        return CEILING_SECONDS[name]
    return SEARCH_SECONDS[name]


def level_budget(level: str, game: str) -> dict[str, float]:
    """A search level's budget per move in ``game``, as calibrations record it:
    ``{"playouts": n, "ceiling_cpu_seconds": s}`` or ``{"seconds": s}``; ``{}`` for the
    others."""
    from ludoteca.games import entry

    name = level_name(level)
    if name not in SEARCH_SECONDS:
        return {}
    playouts = (entry(game).search_profile().playouts or {}).get(name)
    if playouts is None:
        return {"seconds": SEARCH_SECONDS[name]}
    return {"playouts": playouts, "ceiling_cpu_seconds": CEILING_SECONDS[name]}


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
    its playout budgets (``SearchProfile.playouts``) under ``CEILING_SECONDS`` of CPU, else the time
    budgets of ``SEARCH_SECONDS``. With a ``pool``, search bots use ``workers`` processes (this
    one and ``workers - 1`` of the pool; a playout budget is shared among them)."""
    from ludoteca.games import entry

    name = level_name(level)
    found = entry(game)
    if name == "random":
        from ludoteca.bots.random_bot import RandomBot

        return RandomBot(seed)
    if name in SEARCH_SECONDS:
        from ludoteca.bots.search import SearchBot

        profile = found.search_profile()
        playouts = (profile.playouts or {}).get(name)
        return SearchBot(
            seconds=SEARCH_SECONDS[name] if playouts is None else None,
            iterations=playouts,
            cpu_seconds=None if playouts is None else CEILING_SECONDS[name],
            seed=seed,
            workers=workers,
            name=name,
            profile=profile,
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


__all__ = ["BOT_VERSION", "CEILING_SECONDS", "LEVELS", "Bot", "SearchPool", "check_bot",
           "identity", "level_budget", "level_name", "make_bot", "move_seconds",
           "parse_bot_list"]
