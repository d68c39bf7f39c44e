"""Fit the Buttons win-chance model of ``ludoteca/games/buttons/value.py`` on self-play.

    python benchmarks/fit_buttons_value.py [--games 30000] [--seed 100000] [--jobs 2]

Plays 2-player games between the search's rollout policy (``games/buttons/plan.py``) and the
greedy bot (each seat is one or the other, and moves at random now and then, so the boards
vary), records both boards' stars at every round boundary with the game's result, and fits a
logistic regression of seat 0 winning on the difference of the two boards' features (ties count
half). Prints the tables to paste into ``buttons_value.py`` and the held-out log loss against a
star-count-only model. Needs numpy (the ``charts`` extra brings it).
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from rich.progress import Progress

Record = tuple[tuple[int, ...], int, float]  # both boards' stars, next starter, seat 0's result
CHUNK = 500


def play_one(seed: int, rng: Any) -> list[Record]:
    """One self-play game through the match driver's trusted loop; its round boundaries."""
    from ludoteca.engine.match import Match
    from ludoteca.games import get_game
    from ludoteca.games.buttons import plan as buttons_plan
    from ludoteca.games.buttons.bot import choose_state as greedy
    from ludoteca.games.buttons.rules import red_holder

    match = Match.new(get_game("buttons"), {}, 2, seed, narrate=False)
    policies = [buttons_plan.choose_state if rng.below(4) else greedy for _ in range(2)]
    epsilon = 1 + rng.below(40)
    boundaries: list[tuple[tuple[int, ...], int]] = []
    seen_round = 0

    def pick(state: Any, seat: int, legal: list[Any]) -> Any:
        nonlocal seen_round
        if state.round != seen_round:
            seen_round = state.round
            boundaries.append((tuple(state.stars), red_holder(state)))
        if rng.below(epsilon) == 0:
            return legal[rng.below(len(legal))]
        return policies[seat](state, seat, legal)

    match.play_out(pick)
    outcome = match.outcome
    assert outcome is not None
    r0, r1 = outcome.ranks
    result = 1.0 if r0 < r1 else 0.5 if r0 == r1 else 0.0
    return [(stars, red, result) for stars, red in boundaries]


def play_chunk(seed: int, games: int) -> list[Record]:
    from ludoteca.engine.rng import Rng

    rng = Rng(seed)
    records: list[Record] = []
    for i in range(games):
        records.extend(play_one(seed + i, rng))
    return records


def features(stars: int) -> list[float]:
    """One-hot star count (0-11), one-hot best window (0-4), windows holding 2, 3 and 4."""
    from ludoteca.games.buttons.grid import LINES5

    ks = [(stars & line).bit_count() for line in LINES5]
    f = [0.0] * 17
    f[min(stars.bit_count(), 11)] = 1.0
    f[12 + min(max(ks), 4)] = 1.0
    return [*f, float(ks.count(2)), float(ks.count(3)), float(ks.count(4))]


def fit(records: list[Record], columns: slice | None = None) -> tuple[Any, float]:
    """Newton's method with a little L2; returns weights and the held-out (last 20%) log loss."""
    import numpy as np

    rows = [
        [a - b for a, b in zip(features(s[0]), features(s[1]), strict=True)]
        + [1.0 if red == 0 else -1.0]
        for s, red, _ in records
    ]
    x = np.array(rows)
    if columns is not None:
        x = x[:, columns]
    y = np.array([r for _, _, r in records])
    order = np.random.default_rng(0).permutation(len(x))
    cut = int(len(x) * 0.8)
    train, test = order[:cut], order[cut:]
    w = np.zeros(x.shape[1])
    for _ in range(30):
        p = 1 / (1 + np.exp(-x[train] @ w))
        grad = x[train].T @ (p - y[train]) + 1e-3 * w
        hess = (x[train] * (p * (1 - p))[:, None]).T @ x[train] + 1e-3 * np.eye(len(w))
        w -= np.linalg.solve(hess, grad)
    p = np.clip(1 / (1 + np.exp(-x[test] @ w)), 1e-9, 1 - 1e-9)
    loss = float(-np.mean(y[test] * np.log(p) + (1 - y[test]) * np.log(1 - p)))
    return w, loss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30000)
    parser.add_argument("--seed", type=int, default=100000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    records: list[Record] = []
    seeds = range(args.seed, args.seed + args.games, CHUNK)
    with Progress() as progress, ProcessPoolExecutor(args.jobs) as pool:
        task = progress.add_task("self-play", total=args.games)
        sizes = [min(CHUNK, args.seed + args.games - s) for s in seeds]
        for chunk in pool.map(play_chunk, seeds, sizes):
            records.extend(chunk)
            progress.advance(task, CHUNK)
    w, loss = fit(records)
    _, count_loss = fit(records, slice(0, 12))
    r = [round(float(v), 3) for v in w]
    print(f"{len(records)} round boundaries from {args.games} games")
    print(f"held-out log loss {loss:.4f} (star count alone {count_loss:.4f}); next starter {r[20]}")
    print(f"STARS = {tuple(r[0:12])}")
    print(f"BEST = {tuple(r[12:17])}")
    print(f"WINDOWS = (0.0, 0.0, {r[17]}, {r[18]}, {r[19]}, {r[19]})")


if __name__ == "__main__":
    main()
