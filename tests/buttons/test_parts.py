"""Buttons score parts (docs/rules/buttons.md §4 and §6): stars for stopping, for colours with 3
markers and for bonus colours, or BGA's 100 for a line of 5 stars."""

from __future__ import annotations

from random_play import finished

from ludoteca.engine.parts import render_parts
from ludoteca.games.buttons.grid import five_line
from ludoteca.games.buttons.rules import GAME
from ludoteca.games.buttons.state import STOPPED


def test_a_line_of_five_scores_100_as_one_part_else_star_parts() -> None:
    """§6 BGA scoring: a line of 5 stars scores 100, one part; without one the score is the star
    count, split as §4 gives the stars (1 for stopping, 1 per colour with 3 markers, 1 per bonus
    colour among them)."""
    seen_line = seen_stars = False
    for seed in range(40):
        s = finished(GAME, 2, seed)
        out = GAME.outcome(s)
        assert out is not None
        for seat in range(2):
            parts = out.parts[seat]
            if five_line(s.stars[seat]):
                assert [(p.id, p.points) for p in parts] == [("five_line", 100)]
                seen_line = True
            else:
                assert {p.id for p in parts} <= {"stop", "colours", "bonus"}
                assert sum(p.points for p in parts) == s.stars[seat].bit_count()
                stopped = sum(1 for r in s.history if r[seat][0] == STOPPED and r[seat][4])
                assert parts[0].points == stopped or parts[0].id != "stop"
                seen_stars = True
        said = render_parts(out.to_json(), GAME.voice("es"))
        assert all(p["text"] for seat in said["parts"] for p in seat)
    assert seen_line and seen_stars
