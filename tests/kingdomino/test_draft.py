"""The draft module both games share (kingdomino/draft.py; rules/kingdomino.md §2-3,
rules/queendomino.md Setup and step E): states compare and copy the draft's fields."""

from __future__ import annotations

import pytest

from ludoteca.engine.rng import Rng
from ludoteca.games.kingdomino.draft import DRAFT_SLOTS, DraftState, first_draft_order
from ludoteca.games.kingdomino.rules import GAME as KINGDOMINO
from ludoteca.games.queendomino.rules import GAME as QUEENDOMINO


@pytest.mark.parametrize("game", [KINGDOMINO, QUEENDOMINO])
def test_states_compare_and_copy_every_draft_field(game) -> None:
    """Equality (replay tests rely on it) covers the draft's fields, and a clone's mutable
    draft lists are its own."""
    s = game.setup({}, 3, 5)
    assert isinstance(s, DraftState)
    for name in DRAFT_SLOTS:
        other = s.clone()
        assert other == s
        value = getattr(s, name)
        setattr(other, name, [*value, 99] if isinstance(value, list) else value + 1)
        assert other != s, name
    twin = s.clone()
    twin.nxt_owner[0] = 2
    twin.discarded.append(7)
    assert s.nxt_owner[0] == -1 and s.discarded == []


def test_first_draft_order() -> None:
    """rules/kingdomino.md §2 and §9.3: every king once, in random order; A, B, B, A for two
    players when asked."""
    order = first_draft_order(Rng(3), 4, 1, abba=False)
    assert sorted(order) == [0, 1, 2, 3]
    assert sorted(first_draft_order(Rng(3), 2, 2, abba=False)) == [0, 0, 1, 1]
    a, b, c, d = first_draft_order(Rng(4), 2, 2, abba=True)
    assert a == d != b == c
