"""How the search plays Queendomino: UCT with random playouts to the end.

Queendomino has no playout policy of its own yet, and flat Monte Carlo was not measured for it,
so it keeps the search's general default (UCT); stated here so that it is a choice, not an
accident of a missing table entry. The post-game analysis values the last turns of 2-player
matches exactly (``endgame.py``).
"""

from __future__ import annotations

from ludoteca.engine.registry import SearchProfile
from ludoteca.games.queendomino.endgame import exact
from ludoteca.games.queendomino.native_playout import playouts_after

PROFILE = SearchProfile(mode="uct", analysis_budget=64, exact=exact,
                        playouts_after=playouts_after)
