"""A small learned policy: a linear softmax policy for 2-player Buttons, trained through the
PettingZoo environment and measured against our ``random`` and ``easy`` bots (docs/rl.md).

    python examples/buttons_linear_policy.py [--episodes 4000] [--games 200] [--seed 1]

The policy is a softmax over the legal actions of ``W @ x + b``, ``x`` the seat's observation
vector (1,314 values), trained by REINFORCE with a running-mean baseline against the uniformly
random policy, seats alternating; the final reward (+1 win, −1 loss, 0 tie) is the return of
every decision of the game. It is then measured, choosing its most likely legal action, against
our bots through the same environment, with the untrained policy (uniform over the legal
actions) as the reference. Needs the ``rl`` extra.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from ludoteca.bots import make_bot
from ludoteca.rl.pettingzoo import env
from ludoteca.tournament.stats import wilson_interval

Policy = Callable[[Any, np.ndarray, np.ndarray, int], int]
"""(environment, observation vector, action mask, seat) -> action index."""


class Linear:
    """Logits ``W @ x + b`` over every action; illegal ones masked out."""

    def __init__(self, actions: int, size: int, rng: np.random.Generator) -> None:
        self.w = np.zeros((actions, size), np.float64)
        self.b = np.zeros(actions, np.float64)
        self.rng = rng

    def probabilities(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = self.w @ x + self.b
        logits = np.where(mask == 1, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def sample(self, x: np.ndarray, mask: np.ndarray) -> int:
        return int(self.rng.choice(len(mask), p=self.probabilities(x, mask)))

    def best(self, x: np.ndarray, mask: np.ndarray) -> int:
        return int(np.argmax(np.where(mask == 1, self.w @ x + self.b, -np.inf)))


def uniform(rng: np.random.Generator) -> Policy:
    def pick(_aec: Any, _x: np.ndarray, mask: np.ndarray, _seat: int) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    return pick


def bot(level: str, seed: int) -> Policy:
    """One of our bots, reading its seat's view from the environment's match."""
    player = make_bot(level, "buttons", seed)

    def pick(aec: Any, _x: np.ndarray, _mask: np.ndarray, seat: int) -> int:
        match = aec.table.match
        return int(player.choose(match.game, match.view(seat), seat, None).index)

    return pick


def episode(aec: Any, policies: list[Policy], seed: int,
            record: int | None = None) -> tuple[list[float], list[tuple[np.ndarray, ...]]]:
    """One game; returns each seat's final reward and, for seat ``record``, its decisions
    ``(x, mask, action)``."""
    aec.reset(seed=seed)
    steps: list[tuple[np.ndarray, ...]] = []
    final = [0.0, 0.0]
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, _ = aec.last()
        seat = int(agent.rsplit("_", 1)[1])
        if terminated or truncated:
            final[seat] = float(reward)
            aec.step(None)
            continue
        x = obs["observation"].astype(np.float64)
        mask = obs["action_mask"]
        action = policies[seat](aec, x, mask, seat)
        if seat == record:
            steps.append((x, mask, np.int64(action)))
        aec.step(action)
    return final, steps


def train(policy: Linear, episodes: int, lr: float, seed: int) -> None:
    aec = env("buttons", players=2)
    opponent = uniform(np.random.default_rng(seed + 1))
    baseline = 0.0
    start = time.perf_counter()
    for n in range(episodes):
        me = n % 2
        learner: Policy = lambda _a, x, mask, _s: policy.sample(x, mask)  # noqa: E731
        policies = [learner, opponent] if me == 0 else [opponent, learner]
        final, steps = episode(aec, policies, seed * 100_000 + n, record=me)
        advantage = final[me] - baseline
        baseline += 0.01 * (final[me] - baseline)
        for x, mask, action in steps:
            grad = -policy.probabilities(x, mask)
            grad[int(action)] += 1.0
            policy.w += (lr * advantage / len(steps)) * np.outer(grad, x)
            policy.b += (lr * advantage / len(steps)) * grad
        if (n + 1) % max(1, episodes // 4) == 0:
            print(f"  trained {n + 1} games, running mean reward {baseline:+.2f} "
                  f"({time.perf_counter() - start:.0f} s)")


def measure(mine: Policy, level: str, games: int, seed: int) -> tuple[float, float]:
    """Score share (wins + half the ties) of ``mine`` against our bot, with half the width of
    Wilson's 95% interval."""
    aec = env("buttons", players=2)
    points = 0.0
    for g in range(games):
        me = g % 2
        theirs = bot(level, seed + g) if level != "random" else uniform(
            np.random.default_rng(seed + g))
        policies = [mine, theirs] if me == 0 else [theirs, mine]
        final, _ = episode(aec, policies, 10_000_000 + seed * 1000 + g)
        points += (final[me] + 1) / 2
    low, high = wilson_interval(points, games)
    return points / games, (high - low) / 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=4000, help="training games")
    parser.add_argument("--games", type=int, default=200, help="games per measurement")
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    aec = env("buttons", players=2)
    size = aec.observation_space("player_0")["observation"].shape[0]
    policy = Linear(aec.action_space("player_0").n, size, rng)
    print(f"Buttons, 2 players: a linear softmax policy ({policy.w.size + policy.b.size:,} "
          f"weights) trained by REINFORCE against random play for {args.episodes} games")
    train(policy, args.episodes, args.lr, args.seed)
    learned: Policy = lambda _a, x, mask, _s: policy.best(x, mask)  # noqa: E731
    untrained = uniform(np.random.default_rng(args.seed + 7))
    print(f"Score share (wins + half the ties) over {args.games} games, seats alternating, "
          f"with a 95% interval:")
    print(f"  {'':<22} {'vs random':>16} {'vs easy':>16}")
    for name, mine in [("untrained (uniform)", untrained), ("learned (linear)", learned)]:
        cells = []
        for level in ("random", "easy"):
            share, half = measure(mine, level, args.games, args.seed)
            cells.append(f"{share:6.1%} ± {half:4.1%}")
        print(f"  {name:<22} {cells[0]:>16} {cells[1]:>16}")


if __name__ == "__main__":
    main()
