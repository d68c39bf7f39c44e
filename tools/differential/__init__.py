"""Differential checks of the native core against the Python engines, the reference.

One match-stepping comparison per game family (``kingdomino``, ``queendomino``, ``kami`` for
Kami and Goita, ``buttons``), each with its configurations (``CASES``: every player count and
option set); ``families`` gathers them and says what they forget (``gaps``). tests/native
calls them on a few hundred matches; ``python -m tools.differential`` (run.py) on as many as
asked, in worker processes. docs/engine.md, "The native core"."""
