"""How the search plays Kingdomino: flat Monte Carlo with epsilon-greedy playouts, rewarding
points as well as winning. The playout policy is the game's own (``Game.playout`` with the
policy ``game``: ``games/kingdomino/playout.py``).

Every king places greedily (the placement that adds the most territory points, computed
incrementally from the components the new squares join) and claims the domino whose best
placement would gain the most, each with a small chance of a random move instead. Gedda et al.
(2018) found greedy playouts far more informative than random ones in this game; the incremental
gain keeps a greedy move at tens of microseconds.

Each constant was chosen on the same deals against the greedy bot (docs/bots.md):

- Mode: 4 players with Harmony and Middle Kingdom, 1.5 s per move against three greedy bots,
  same deals: flat Monte Carlo won 11 of 12 games (mean 63.9) where UCT won 8 of 12 (mean
  59.6), as Gedda et al. (2018) found.
- Score weight 0.4 over a scale of 100: same setup at 0.5 s on the same 24 deals, weight 0 won
  13 (mean 58.4), 0.3 won 17 (61.2), 0.4 won 16 (64.8). Winning alone saturates once the bot is
  clearly ahead; points keep it building. A strong 4-player kingdom with both bonuses scores
  60-80, so the share keeps growing with every point.

The levels search a fixed number of playouts per move (``PLAYOUTS``), seeded, so a level plays
the same moves on any machine, under any load and on either core (the native core only makes
them faster): the ladder's ratings (ludoteca/ladder/data/kingdomino.json) measure a player, not
a machine. ``hard``'s 4000 cost about 0.05 s of CPU a move on the native core, where the whole
search runs in C++ (``native_search.py``; 0.6 s with only the playouts native, 1.7 s on the
Python core), within the 1.5 s it had before; ``medium``'s 60 about 0.01 s. Chosen 2-player on
seeded deals so that neighbouring levels stand well apart (the ladder needs fewer games to part
them): against ``greedy``, ``medium`` at 60 playouts won 23 of 30 and at 150 won 20 of 24; at 150
it won 1 of 4 against ``hard`` at 4000. In the shipped ladder's games ``medium`` won 68 of 98
against ``greedy`` and ``hard`` 33 of 42 against ``medium`` (docs/ratings.md).
"""

from __future__ import annotations

from ludoteca.bots.search import game_playout
from ludoteca.engine.registry import SearchProfile
from ludoteca.games.kingdomino.endgame import exact
from ludoteca.games.kingdomino.native_playout import playouts_after
from ludoteca.games.kingdomino.native_search import whole_search

PLAYOUTS = {"medium": 60, "hard": 4000}
"""Playouts per move of each search level (``SearchProfile.playouts``)."""

PROFILE = SearchProfile(
    mode="flat", playout=game_playout, score_weight=0.4, score_scale=100.0, exact=exact,
    playouts=PLAYOUTS, root_search=whole_search, playouts_after=playouts_after,
    analysis_budgets=((2, 2048),),
)
"""The analysis: 256 playouts a candidate (the default), 2048 at 2 players, where the native
core affords them (about 13 s of CPU a match) and they bring the noise floor from 3.3 to 1.5
points at the p90 (docs/analysis.md, "Cost and noise"); calibrated at both."""
