"""Can a policy network read greedy's choices off the Buttons observation? A diagnostic for
docs/rl.md ("What held the learners back"): ``python benchmarks/rl_imitation.py [--games 500]
[--epochs 12] [--prefix N]``.

Our one-ply ``greedy`` bot plays one seat of 2-player Buttons against ``random`` through
``ludoteca.rl.gym``; each of its decisions, with the learner's observation and mask, is a
training example. An MLP (two 256-unit tanh layers, masked softmax) is fitted to them by
cross-entropy, then its accuracy on 100 new games' decisions (those with more than one legal
action, per phase) and its win rate choosing its most likely action against ``random`` over 200
games are printed. ``--prefix N`` keeps only the first N values of each observation (628: the
Buttons observation before its ``progress`` and ``plan`` slices). Needs torch (``rl-train``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np
import torch

from ludoteca.bots import make_bot
from ludoteca.games.buttons.state import PHASE_NAMES
from ludoteca.rl.gym import make

Samples = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def collect(games: int, first_seed: int, width: int) -> Samples:
    """(observations, masks, greedy's actions, phases) of greedy's decisions."""
    env = make("buttons", players=2, opponents="random")
    bot = make_bot("greedy", "buttons", 1)
    obs_, masks, actions, phases = [], [], [], []
    for g in range(games):
        obs, _ = env.reset(seed=first_seed + g)
        while True:
            match = env.table.match
            assert match is not None
            action = bot.choose(env.table.game, match.view(env.seat), env.seat, None).index
            obs_.append(obs[:width])
            masks.append(env.action_masks())
            actions.append(action)
            phases.append(match.state.phase)
            obs, _, over, _, _ = env.step(action)
            if over:
                break
    return np.array(obs_), np.array(masks), np.array(actions), np.array(phases)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500, help="greedy's games to learn from")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--prefix", type=int, default=0, help="observation values kept (0: all)")
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(1)
    width = args.prefix or make("buttons", players=2).observation_space.shape[0]
    start = time.process_time()
    x, m, a, _ = collect(args.games, 0, width)
    xv, mv, av, pv = collect(100, 10**6, width)
    print(f"{len(x):,} decisions of greedy, {width} observation values")
    net = torch.nn.Sequential(torch.nn.Linear(width, 256), torch.nn.Tanh(),
                              torch.nn.Linear(256, 256), torch.nn.Tanh(),
                              torch.nn.Linear(256, m.shape[1]))
    opt = torch.optim.Adam(net.parameters(), 1e-3)
    xt, mt, at = torch.tensor(x), torch.tensor(m), torch.tensor(a)

    def logits(obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return net(obs).masked_fill(~mask, -1e9)

    for _ in range(args.epochs):
        order = torch.randperm(len(x))
        for i in range(0, len(x), 256):
            batch = order[i:i + 256]
            loss = torch.nn.functional.cross_entropy(logits(xt[batch], mt[batch]), at[batch])
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        guess = logits(torch.tensor(xv), torch.tensor(mv)).argmax(1).numpy()
    choice = mv.sum(1) > 1
    cells = [f"{PHASE_NAMES[p]} {np.mean((guess == av)[choice & (pv == p)]):.0%}"
             for p in range(3)]
    print(f"agrees with greedy on {np.mean((guess == av)[choice]):.1%} of new decisions with a "
          f"choice ({', '.join(cells)})")
    env = make("buttons", players=2, opponents="random")
    points = 0.0
    for g in range(200):
        obs, info = env.reset(seed=5 * 10**6 + g)
        while True:
            with torch.no_grad():
                pick = logits(torch.tensor(obs[:width])[None],
                              torch.tensor(env.action_masks())[None]).argmax()
            obs, _, over, _, info = env.step(int(pick))
            if over:
                break
        mine, theirs = info["scores"][info["seat"]], info["scores"][1 - info["seat"]]
        points += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    print(f"the imitation wins {points / 200:.1%} of 200 games against random "
          f"({time.process_time() - start:.0f} s CPU)")


if __name__ == "__main__":
    main()
