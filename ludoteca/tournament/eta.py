"""The time a tournament has left, from the work left rather than from the pace so far.

A round-robin of ``random,easy,hard`` plays its cheap pairings first: random and easy move in
a fraction of a millisecond, hard thinks 1.5 s a move. A pace measured over the first games
(what a plain progress bar shows) then promises seconds where minutes remain. Here every game
still to play is costed by who sits at it: each seat's moves times its level's seconds per
move, measured over the games played so far, or, for a search level not seen yet, its budget
(``SEARCH_SECONDS``); plus the per-game time spent outside the bots (dealing, rules, records),
also measured. The sum, shared among the processes that play, is the time left.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence

from rich.progress import ProgressColumn, Task
from rich.text import Text

from ludoteca.bots import SEARCH_SECONDS, level_name
from ludoteca.bots.external import is_external
from ludoteca.tournament.runner import GameTask
from ludoteca.tournament.stats import GameRecord


class TimeLeft:
    """Estimates the seconds left of a tournament's ``tasks`` played ``jobs`` at a time; feed it
    each finished game with :meth:`add`. ``clock`` is injectable for tests."""

    def __init__(
        self,
        tasks: Sequence[GameTask],
        jobs: int,
        budgets: Mapping[str, float] = SEARCH_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.remaining = {task.index: task.seating for task in tasks}
        self.jobs = max(1, jobs)
        self.budgets = dict(budgets)
        self.clock = clock
        self.start = clock()
        self.think: dict[str, float] = defaultdict(float)
        self.moves: dict[str, int] = defaultdict(int)
        self.finished = 0
        self.finished_think = 0.0
        self.seat_moves = 0
        self.seats = 0

    def add(self, record: GameRecord) -> None:
        """One game finished: its seats' moves and thinking time teach each level's cost."""
        self.remaining.pop(record.index, None)
        self.finished += 1
        for name, moves, think in zip(record.seating, record.moves, record.think, strict=True):
            self.moves[name] += moves
            self.think[name] += think
            self.finished_think += think
            self.seat_moves += moves
            self.seats += 1

    def per_move(self, name: str) -> float:
        """Seconds a move of entrant ``name``: measured when it has moved; else a search level's
        budget; else (a cheap level or an external bot not seen yet) the cheapest measured."""
        if self.moves[name]:
            return self.think[name] / self.moves[name]
        if not is_external(name) and level_name(name) in self.budgets:
            return self.budgets[level_name(name)]
        measured = [self.think[n] / m for n, m in self.moves.items() if m]
        return min(measured, default=0.0)

    def overhead(self) -> float:
        """Seconds a game spends outside the bots' choices, per process: the busy time so far
        (elapsed times the processes at work) less the bots' thinking, per game played (a game
        still being played counts as half played)."""
        total = self.finished + len(self.remaining)
        busy = (self.clock() - self.start) * min(self.jobs, total)
        in_flight = min(self.jobs, len(self.remaining)) if self.jobs > 1 else 0
        return max(0.0, busy - self.finished_think) / (self.finished + in_flight / 2)

    def game_seconds(self, seating: Sequence[str]) -> float:
        """The expected time of one game with this seating, in one process."""
        per_seat = self.seat_moves / self.seats
        return self.overhead() + sum(per_seat * self.per_move(name) for name in seating)

    def seconds(self) -> float | None:
        """Seconds left, or None before the first game has finished (nothing measured yet)."""
        if not self.remaining:
            return 0.0
        if not self.finished:
            return None
        work = sum(self.game_seconds(seating) for seating in self.remaining.values())
        return work / min(self.jobs, len(self.remaining))


class WorkLeftColumn(ProgressColumn):
    """A progress bar's time left from a :class:`TimeLeft` estimate: the task's fields ``left``
    (seconds, or None while unknown) and ``at`` (its ``time.monotonic()``), counted down
    between games."""

    def render(self, task: Task) -> Text:
        left = task.fields.get("left")
        if left is None:
            return Text("-:--:--", style="progress.remaining")
        seconds = max(0, round(left - (time.monotonic() - task.fields.get("at", 0.0))))
        hours, rest = divmod(seconds, 3600)
        return Text(f"{hours}:{rest // 60:02d}:{rest % 60:02d}", style="progress.remaining")
