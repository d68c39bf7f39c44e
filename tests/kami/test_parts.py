"""Kami and Goita score parts (docs/rules/kami.md A5.2-A5.3, A8; docs/rules/kami.md B4):
one part per deal a side scored, worth what the side's total gained, shared by partners."""

from __future__ import annotations

from random_play import finished

from ludoteca.engine.parts import render_parts
from ludoteca.games.kami.components import POINTS
from ludoteca.games.kami.goita import GAME as GOITA
from ludoteca.games.kami.rules import GAME


def test_a_master_strike_part_is_worth_twice_the_card() -> None:
    """A5.3: going out with a hidden defense identical to the final attack doubles the card's
    value (A5.2); the part says so and is worth 2 × the card."""
    for seed in range(200):
        s = finished(GAME, 2, seed)
        out = GAME.outcome(s)
        assert out is not None
        masters = [p for seat in out.parts for p in seat
                   if p.args["why"]["msg"] == "{card} doubled by the Master Strike"]
        if masters:
            part = masters[0]
            entry = next(e for e in s.history if e[0] == part.args["round"])
            assert entry[4] and part.points == 2 * POINTS[entry[3]]
            said = render_parts(part.to_json(), GAME.voice("es", ["Ana", "Luis"]))["text"]
            assert said.startswith(f"Mano {part.args['round']}, ")
            return
    raise AssertionError("no master strike in 200 games")


def test_lord_mode_parts_take_the_excess_off() -> None:
    """A8 Lord mode: a deal past the target takes the excess off, so its part is what the total
    gained (negative when it fell) and the parts still add up to the total."""
    for seed in range(200):
        s = finished(GAME, 3, seed, {"end_mode": "lord", "target": 10})
        out = GAME.outcome(s)
        assert out is not None
        past = [p for seat in out.parts for p in seat if "tally" in p.args]
        if past:
            assert all(sum(p.points for p in out.parts[seat]) == out.scores[seat]
                       for seat in range(3))
            return
    raise AssertionError("no deal past the target in 200 games")


def test_goita_partners_share_their_teams_parts() -> None:
    """Goita B1 and B4: partners sit opposite (seats 0 and 2, 1 and 3), each deal's points go
    to the team; the winning team reached 150."""
    s = finished(GOITA, 4, 5)
    out = GOITA.outcome(s)
    assert out is not None and out.teams == ((0, 2), (1, 3))
    assert out.parts[0] == out.parts[2] and out.parts[1] == out.parts[3]
    winner = out.winners[0]
    assert out.tiebreak[winner][0].value == 1 and out.scores[winner] >= 150
