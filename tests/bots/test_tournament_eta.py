"""The tournament's time left (ludoteca/tournament/eta.py) weights the games still to play by
who sits at them: cheap pairings played first must not make the search levels' games look
cheap."""

from __future__ import annotations

import pytest

from ludoteca.tournament import GameRecord, GameTask
from ludoteca.tournament.eta import TimeLeft

PAIRS = [("random", "easy"), ("random", "hard"), ("easy", "hard")]
GAMES = 10
MOVES = 20  # each seat's moves a game
OUTSIDE = 0.01  # seconds a game spends outside the bots
COST = {"random": 0.0001, "easy": 0.001, "hard": 1.5}  # seconds a move


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def tasks() -> list[GameTask]:
    return [
        GameTask(p * GAMES + g, "kami", {}, g, pair if g % 2 == 0 else pair[::-1],
                 tag=p)
        for p, pair in enumerate(PAIRS) for g in range(GAMES)
    ]


def played(task: GameTask, cost: dict[str, float] = COST) -> GameRecord:
    return GameRecord(task.index, task.tag, task.seed, task.seating, (0, 0), (0,),
                      (MOVES, MOVES), tuple(MOVES * cost[n] for n in task.seating), (None, None))


def true_seconds(task: GameTask, cost: dict[str, float] = COST) -> float:
    return OUTSIDE + sum(MOVES * cost[n] for n in task.seating)


def test_unknown_before_the_first_game_and_zero_at_the_end() -> None:
    clock = Clock()
    all_tasks = tasks()
    left = TimeLeft(all_tasks, jobs=1, clock=clock)
    assert left.seconds() is None
    for task in all_tasks:
        clock.now += true_seconds(task)
        left.add(played(task))
    assert left.seconds() == 0.0


@pytest.mark.parametrize("jobs", [1, 2])
def test_cheap_games_first_do_not_hide_the_search_levels_cost(jobs: int) -> None:
    """After the whole random-easy pairing (a few seconds), the estimate is the hard games'
    minutes, within 10%, though no hard game has been played yet (the budget stands in); a
    pace-based estimate would say well under a second."""
    clock = Clock()
    all_tasks = tasks()
    left = TimeLeft(all_tasks, jobs=jobs, clock=clock)
    first = all_tasks[:GAMES]
    clock.now += sum(true_seconds(t) for t in first) / jobs
    for task in first:
        left.add(played(task))
    truth = sum(true_seconds(t) for t in all_tasks[GAMES:]) / jobs
    assert truth > 250  # 20 games with 20 hard moves of 1.5 s each, shared by the jobs
    estimate = left.seconds()
    assert estimate is not None and estimate == pytest.approx(truth, rel=0.1)
    pace = (clock.now - 100.0) / len(first) * len(all_tasks[GAMES:])
    assert pace < truth / 100  # what the plain bar said


def test_measured_costs_replace_the_budget_and_the_estimate_follows_the_work_left() -> None:
    """Once hard has played, its measured cost (here 3 s a move, a loaded machine) replaces its
    budget; the estimate then falls with each game as the true time left does."""
    cost = {**COST, "hard": 3.0}
    clock = Clock()
    all_tasks = tasks()
    left = TimeLeft(all_tasks, jobs=1, clock=clock)
    for i, task in enumerate(all_tasks):
        clock.now += true_seconds(task, cost)
        left.add(played(task, cost))
        truth = sum(true_seconds(t, cost) for t in all_tasks[i + 1:])
        estimate = left.seconds()
        assert estimate is not None
        if i >= GAMES:  # hard has moved
            assert estimate == pytest.approx(truth, rel=0.05)
        assert left.per_move("hard") == (3.0 if i >= GAMES else 1.5)


def test_an_external_bot_not_seen_yet_costs_as_the_cheapest_measured() -> None:
    left = TimeLeft([GameTask(0, "kami", {}, 0, ("random", "cmd:./bot"))], jobs=1)
    assert left.per_move("cmd:./bot") == 0.0
    left.add(played(GameTask(1, "kami", {}, 0, ("random", "easy"))))
    assert left.per_move("cmd:./bot") == pytest.approx(COST["random"])
    assert left.per_move("medium") == 0.25
