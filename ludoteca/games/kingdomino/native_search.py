"""Kingdomino's search whole on the native core, flat or a tree (``SearchProfile.root_search``).

With the search loop in Python, a native playout left most of each iteration to Python
(determinizing, reading the state into C++ and back, the outcome and the reward: about 4,300
iterations a second where the playouts alone run at about 20,000; docs/bots.md, "Playouts a
second"). Here the view is read once, and ``native/cpp/kingdomino_search.hpp`` runs the loop:
the same determinizations, UCB choices, playouts and rewards, drawn from the search's generator
in the same order, so with an iteration budget the root statistics are those of the Python loop
to the last bit (tests/bots/test_native_search.py) and a level plays the same moves on either
core, only faster. Where it cannot (the Python core chosen, a native build without it, a
Dynasty, a view the native core refuses) it answers None and the loop runs in Python.
"""

from __future__ import annotations

from typing import Any

from ludoteca.engine.game import JSON, Game, Seat
from ludoteca.engine.native import chosen_core, native_core
from ludoteca.engine.registry import RootBudget, RootStats
from ludoteca.engine.rng import Rng
from ludoteca.games.kingdomino import native_playout, view


def available() -> bool:
    """Whether the native core plays the search here (chosen, and built with both searches)."""
    kingdomino = native_core().kingdomino if chosen_core() == "native" else None
    return hasattr(kingdomino, "flat_search") and hasattr(kingdomino, "tree_search")


def whole_search(game: Game[Any, Any], view_json: JSON, seat: Seat, rng: Rng,
                 budget: RootBudget) -> RootStats | None:
    """The search's loop for ``seat`` on the native core, flat or (``budget.tree``) a tree,
    drawing from ``rng`` (left as the loop leaves it); None where the loop must run in Python."""
    if not available():
        return None
    template, unseen, remaining = view.prepare(game, view_json)
    if template.cfg.games != 1:
        return None
    # any order will do: each iteration deals the pile anew from ``unseen``
    template.deck = unseen[:remaining]
    template.deck_pos = 0
    try:
        root = native_playout.load(template)
    except ValueError:
        return None
    if root.to_act() != seat:
        return None
    try:
        whole = (native_core().kingdomino.tree_search if budget.tree
                 else native_core().kingdomino.flat_search)
        done, after, children = whole(
            root, unseen, remaining, seat, rng.state, budget.iterations, budget.seconds,
            budget.cpu_seconds, budget.elapsed, budget.by_iterations, budget.by_cpu,
            budget.early_stop, budget.exploration, budget.win_weight, budget.score_weight,
            budget.score_scale or 0.0)
    except ValueError:  # a state the native rules find inconsistent: the loop will say why
        return None
    rng.state = after
    return done, children
