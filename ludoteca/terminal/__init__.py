"""The terminal client: ``session.py`` plays and replays (``ludoteca play``, ``ludoteca replay``)
with each game's renderer, which lives in the game's folder (``games/<game>/terminal.py``).

A game's registry entry names its renderer (``GameEntry.terminal``); the session loads it with
``terminal.session.load_renderer``. A renderer module provides:

- ``render(view: dict, seat: int | None) -> rich.console.RenderableType`` — the whole table as
  that seat sees it (never more than the view holds). For a seat, the seat's own board comes
  last, so that it, the hint and the prompt fit on an 80×24 screen.
- ``YOURS: str`` — the words that start the seat's own block in ``render`` ("Your kingdom"),
  which the screen test (tests/cli/test_screen.py) looks for.
- ``hint(view: dict, legal: list) -> str`` — what a person may type now, with the legal moves;
  plain text, which the session wraps at word boundaries in 80 columns.
- ``parse(text: str, view: dict, legal: list) -> Action`` — the action a person typed; raises
  ``ValueError`` with a message to show when it cannot be read.

Optional, used when present:

- ``help_text(view: dict) -> str`` — what the letters and marks of the board mean (``help``).
- ``typed(action, view) -> str`` — what a person types for ``action`` (``parse`` reads it back).

What happened is told by the game's events (``Game.render_event``), not by the renderer, and
the end of a match by the outcome's score parts and tie-break reasons, which the session draws
the same way for every game (``session.final_renderable``): no renderer re-adds a score.
"""
