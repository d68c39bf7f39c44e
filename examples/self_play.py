"""Self-play on the vector environment: one policy plays both seats of 2-player Buttons in a
batch of matches, trained by a small PPO written here, and is measured against our ``random``
and ``greedy`` bots as it trains (docs/rl.md, "Training examples").

    python examples/self_play.py [--steps 150000] [--envs 32] [--checkpoints 3] [--games 200]
                                 [--seeds 1 2 3] [--jobs 3] [--reward shaped]
                                 [--plot docs/img/x.png]

``ludoteca.rl.vector.self_play("buttons", num_envs)`` hands out, in every slot, a decision some
seat must take now (``infos["seat"]``); each seat's decisions in a slot form its own
trajectory, and the rewards every seat earns at a step (``infos["rewards"]``) go to that seat's
last decision. Finished trajectories feed a clipped PPO update of an MLP policy and value over
the masked legal actions. At step 0 (the untrained policy) and at each checkpoint the policy,
choosing its most likely legal action, plays ``--games`` games against ``random`` and
``greedy`` through ``ludoteca.rl.gym`` and its win rate (wins + half the ties) is printed.
Needs the ``rl-train`` extra (torch).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np
import torch
from torch import nn

from ludoteca.rl.gym import make
from ludoteca.rl.rewards import Reward
from ludoteca.rl.vector import self_play
from ludoteca.tournament.stats import wilson_interval

LEVELS = ("random", "greedy")
GAME = "buttons"


class Net(nn.Module):
    """Policy logits over every action and a value, from one observation."""

    def __init__(self, size: int, actions: int, hidden: int = 128) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(size, hidden), nn.Tanh(),
                                  nn.Linear(hidden, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(x)
        logits = self.pi(h).masked_fill(~mask, -1e9)
        return logits, self.v(h).squeeze(-1)


def best(net: Net, obs: np.ndarray, mask: np.ndarray) -> int:
    with torch.no_grad():
        logits, _ = net(torch.as_tensor(obs[None]), torch.as_tensor(mask[None]))
    return int(logits.argmax())


def win_rate(net: Net, level: str, games: int, seed: int) -> float:
    env = make(GAME, players=2, opponents=level)
    points = 0.0
    for g in range(games):
        obs, info = env.reset(seed=20_000_000 + seed * 10_000 + g)
        while True:
            obs, _, over, _, info = env.step(best(net, obs, env.action_masks()))
            if over:
                break
        mine, theirs = info["scores"][info["seat"]], info["scores"][1 - info["seat"]]
        points += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    return points / games


class Trajectories:
    """Each (slot, seat)'s open trajectory; finished ones wait for the next update."""

    def __init__(self, envs: int, players: int, gamma: float, lam: float) -> None:
        self.open: dict[tuple[int, int], list[list[object]]] = {
            (i, s): [] for i in range(envs) for s in range(players)}
        self.done: list[list[list[object]]] = []
        self.players = players
        self.gamma, self.lam = gamma, lam
        self.steps = 0

    def add(self, slot: int, seat: int, step: list[object]) -> None:
        self.open[slot, seat].append(step)  # obs, mask, action, logp, value, reward

    def reward(self, slot: int, seat: int, r: float) -> None:
        steps = self.open[slot, seat]
        if steps:
            steps[-1][5] = float(steps[-1][5]) + r  # type: ignore[arg-type]

    def finish(self, slot: int) -> None:
        for s in range(self.players):
            steps = self.open[slot, s]
            if steps:
                self.done.append(steps)
                self.steps += len(steps)
            self.open[slot, s] = []

    def batch(self) -> dict[str, torch.Tensor]:
        """Finished trajectories with GAE(lambda) advantages and returns."""
        obs, masks, actions, logps, advs, rets = [], [], [], [], [], []
        for steps in self.done:
            values = [float(st[4]) for st in steps] + [0.0]  # type: ignore[arg-type]
            gae = 0.0
            out = [0.0] * len(steps)
            for t in reversed(range(len(steps))):
                delta = float(steps[t][5]) + self.gamma * values[t + 1] - values[t]  # type: ignore[arg-type]
                gae = delta + self.gamma * self.lam * gae
                out[t] = gae
            for t, st in enumerate(steps):
                obs.append(st[0])
                masks.append(st[1])
                actions.append(st[2])
                logps.append(st[3])
                advs.append(out[t])
                rets.append(out[t] + values[t])
        self.done, self.steps = [], 0
        return {"obs": torch.as_tensor(np.array(obs)), "mask": torch.as_tensor(np.array(masks)),
                "action": torch.as_tensor(np.array(actions)),
                "logp": torch.as_tensor(np.array(logps, np.float32)),
                "adv": torch.as_tensor(np.array(advs, np.float32)),
                "ret": torch.as_tensor(np.array(rets, np.float32))}


def update(net: Net, opt: torch.optim.Optimizer, data: dict[str, torch.Tensor],
           rng: np.random.Generator, epochs: int = 4, minibatch: int = 512) -> None:
    adv = data["adv"]
    data["adv"] = (adv - adv.mean()) / (adv.std() + 1e-8)
    n = len(adv)
    for _ in range(epochs):
        order = rng.permutation(n)
        for lo in range(0, n, minibatch):
            idx = torch.as_tensor(order[lo:lo + minibatch])
            logits, value = net(data["obs"][idx], data["mask"][idx])
            dist = torch.distributions.Categorical(logits=logits)
            logp = dist.log_prob(data["action"][idx])
            ratio = torch.exp(logp - data["logp"][idx])
            a = data["adv"][idx]
            pg = -torch.min(ratio * a, ratio.clamp(0.8, 1.2) * a).mean()
            vf = ((value - data["ret"][idx]) ** 2).mean()
            loss = pg + 0.5 * vf - 0.01 * dist.entropy().mean()
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            opt.step()


def run(seed: int, args: argparse.Namespace) -> list[tuple[int, dict[str, float]]]:
    torch.set_num_threads(1)  # a small MLP: threads cost more than they give
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    gamma = 0.99
    envs = self_play(GAME, args.envs, players=2, reward=Reward(args.reward, gamma))
    size = envs.single_observation_space.shape[0]  # type: ignore[index]
    net = Net(size, int(envs.single_action_space.n))  # type: ignore[attr-defined]
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    obs, info = envs.reset(seed=seed * 1000)
    traj = Trajectories(args.envs, envs.players, gamma, 0.95)
    curve: list[tuple[int, dict[str, float]]] = []
    every = args.steps // args.checkpoints
    done_steps = 0
    start = time.perf_counter()
    for k in range(args.checkpoints + 1):
        target = k * every
        while done_steps < target:
            masks = envs.action_masks()
            with torch.no_grad():
                logits, values = net(torch.as_tensor(obs), torch.as_tensor(masks))
                dist = torch.distributions.Categorical(logits=logits)
                actions = dist.sample()
                logps = dist.log_prob(actions)
            acts = actions.numpy()
            seats = info["seat"]
            for i in range(args.envs):
                traj.add(i, int(seats[i]), [obs[i], masks[i], int(acts[i]), float(logps[i]),
                                            float(values[i]), 0.0])
            obs, _, terminated, _, info = envs.step(acts)
            done_steps += args.envs
            for i in range(args.envs):
                for s in range(envs.players):
                    if info["rewards"][i, s]:
                        traj.reward(i, s, float(info["rewards"][i, s]))
                if terminated[i]:
                    traj.finish(i)
            if traj.steps >= args.batch:
                update(net, opt, traj.batch(), rng)
        rates = {level: win_rate(net, level, args.games, seed) for level in LEVELS}
        curve.append((done_steps, rates))
        cells = "  ".join(f"vs {level} {rates[level]:6.1%}" for level in LEVELS)
        print(f"  seed {seed}: {done_steps:>7,} steps  {cells}  "
              f"({time.perf_counter() - start:.0f} s)", flush=True)
    return curve


def plot(curves: dict[int, list[tuple[int, dict[str, float]]]], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    colours = {"random": "tab:blue", "greedy": "tab:red"}
    for level in LEVELS:
        for n, (_, curve) in enumerate(sorted(curves.items())):
            ax.plot([s for s, _ in curve], [100 * r[level] for _, r in curve], marker="o",
                    color=colours[level], alpha=0.75, label=f"vs {level}" if n == 0 else None)
    ax.axhline(50, color="grey", lw=0.8, ls=":")
    ax.set_xlabel("training steps (decisions of both seats)")
    ax.set_ylabel("win rate % (ties count half)")
    ax.set_ylim(0, 100)
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=150_000, help="decisions per seed")
    parser.add_argument("--envs", type=int, default=32, help="matches in the batch")
    parser.add_argument("--checkpoints", type=int, default=3)
    parser.add_argument("--games", type=int, default=200, help="games per measurement")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--jobs", type=int, default=1, help="seeds trained at once")
    parser.add_argument("--reward", default="shaped", help="win, margin or shaped")
    parser.add_argument("--batch", type=int, default=4096, help="decisions per PPO update")
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--plot", type=Path, help="draw the curves into this PNG")
    args = parser.parse_args(argv)
    print(f"Buttons, 2 players: self-play PPO on {args.envs} matches at once, "
          f"reward={args.reward!r}, {args.steps:,} steps per seed; "
          f"win rate over {args.games} games per point")
    with ProcessPoolExecutor(args.jobs) as pool:
        done = pool.map(run, args.seeds, [args] * len(args.seeds))
        curves = dict(zip(args.seeds, done, strict=True))
    print("Final win rates (mean over seeds, 95% interval of the pooled games):")
    for level in LEVELS:
        for label, at in (("untrained", 0), ("trained", -1)):
            rates = [curves[s][at][1][level] for s in args.seeds]
            low, high = wilson_interval(sum(rates) * args.games, args.games * len(rates))
            print(f"  {label:<9} vs {level:<6} {np.mean(rates):6.1%}  "
                  f"({low:.0%}-{high:.0%}; per seed {', '.join(f'{r:.0%}' for r in rates)})")
    if args.plot:
        plot(curves, args.plot, f"Self-play PPO on Buttons 2p (reward={args.reward}, "
                                f"{len(args.seeds)} seeds)")
        print(f"curves drawn in {args.plot}")


if __name__ == "__main__":
    main()
