"""Terminal renderers, one module per game, used by ``ludoteca play`` and ``ludoteca replay``.

Each module ``ludoteca.terminal.<game>`` provides:

- ``render(view: dict, seat: int | None) -> rich.console.RenderableType`` — the whole table as
  that seat sees it (never more than the view holds).
- ``hint(view: dict, legal: list) -> str`` — one line telling a person what they may type now.
- ``parse(text: str, view: dict, legal: list) -> Action`` — the action a person typed; raises
  ``ValueError`` with a message to show when it cannot be read or is not among ``legal``.

Optional, used by the session when present:

- ``describe(action, view_before) -> str`` — a bot's move in words. Without it, moves of a game
  with hidden information are shown only as "acted", so nothing private leaks.
- ``final(view, outcome, seat) -> RenderableType`` — the end-of-game score breakdown.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

_MODULES: dict[str, str] = {
    "kingdomino": "ludoteca.terminal.kingdomino",
    "queendomino": "ludoteca.terminal.queendomino",
    "kami": "ludoteca.terminal.kami",
    "goita": "ludoteca.terminal.kami",
    "buttons": "ludoteca.terminal.buttons",
}


def renderer(game: str) -> ModuleType:
    if game not in _MODULES:
        raise KeyError(f"no terminal renderer for {game!r}")
    return import_module(_MODULES[game])
