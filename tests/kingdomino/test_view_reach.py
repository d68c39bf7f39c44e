"""A kingdom's ``reach`` in the view (the frame rule, rules §4.1): the box of squares it may
still grow into, so the browser draws that much without knowing the rule. Every legal
placement lies inside it, and a kingdom that fills its frame has nowhere else to go."""

from __future__ import annotations

from ludoteca.engine.match import Match
from ludoteca.engine.rng import Rng
from ludoteca.games import get_game

DELTA = {"E": (1, 0), "S": (0, 1), "W": (-1, 0), "N": (0, -1)}


def _inside(box: dict[str, int], x: int, y: int) -> bool:
    return box["x0"] <= x <= box["x1"] and box["y0"] <= y <= box["y1"]


def test_every_legal_placement_lies_within_the_kingdoms_reach() -> None:
    for name in ("kingdomino", "queendomino"):
        match = Match.new(get_game(name), {}, 2, 17, names=["A", "B"])
        rng = Rng(17)
        placements = 0
        while seats := sorted(match.to_act()):
            seat = seats[rng.below(len(seats))]
            legal = match.legal(seat)
            view = match.view(seat)
            frame = view["frame"]
            side = view.get("sides", list(range(2)))[seat]
            box = view["kingdoms"][side]["reach"]
            assert box["x1"] - box["x0"] + 1 <= 2 * frame - 1
            for a in (a.to_json() for a in legal):
                if a["type"] == "place":
                    dx, dy = DELTA[a["dir"]]
                    assert _inside(box, a["x"], a["y"]) and _inside(box, a["x"] + dx, a["y"] + dy)
                    placements += 1
            match.step(seat, legal[rng.below(len(legal))], match.decision(seat))
        assert placements > 0
        for kingdom in match.view(None)["kingdoms"]:
            xs = [q["x"] for q in kingdom["squares"]] + [0]
            box = kingdom["reach"]
            # never smaller than what is built, never wider than the frame from it
            assert box["x0"] <= min(xs) and max(xs) <= box["x1"]
            assert box["x1"] - box["x0"] + 1 == 2 * frame - (max(xs) - min(xs) + 1)


def test_a_queens_host_price_is_one_less_never_below_nothing() -> None:
    match = Match.new(get_game("queendomino"), {}, 2, 3, names=["A", "B"])
    board = match.view(None)["board"]
    assert [(s["price"], s["queen_price"]) for s in board] == [
        (0, 0), (1, 0), (2, 1), (3, 2), (4, 3), (5, 4)]
