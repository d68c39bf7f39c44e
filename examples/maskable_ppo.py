"""sb3-contrib's MaskablePPO on the single-agent environment: one seat of 2-player Buttons
against our ``random`` bot, measured against ``random`` and ``greedy`` as it trains
(docs/rl.md, "Training examples").

    python examples/maskable_ppo.py [--steps 1500000] [--envs 32] [--checkpoints 3]
                                    [--games 200] [--final-games 500] [--seeds 1 2 3]
                                    [--jobs 1] [--core auto] [--reward shaped] [--epochs 3]
                                    [--ent 0.005] [--no-anneal] [--plot docs/img/x.png]
                                    [--teacher-games 0]

Each seed trains a fresh MaskablePPO (an MLP policy, ``--net`` units a layer) from nothing on
``--envs`` matches at once: ``make_vec("buttons", envs, players=2, opponents="random",
reward=Reward("shaped", gamma), core="auto")`` (the native core's batch when it is built, the
Python environments otherwise) seen by SB3 through ``ludoteca.rl.sb3.SB3VecEnv``. The native
steps cost little beside PPO's updates, so the example spends its time on fresh games rather
than on reusing old ones: each rollout of ``envs * n_steps`` decisions is passed over only
``--epochs`` times, and the step size falls linearly to 0 over the run (``--no-anneal`` keeps it
fixed). At step 0 (the untrained policy) and at each checkpoint the policy, choosing its most
likely legal action, plays ``--games`` games against ``random`` and against ``greedy`` through
``ludoteca.rl.gym`` (the arena's own bots; seat drawn per game), and its win rate (wins + half
the ties) is printed; at the end it plays ``--final-games`` more against ``random``, with a 95%
interval per seed. With the defaults a seed ends at about 83-85% against ``random`` in about
ten minutes on a 2-core machine (docs/rl.md has the figures). ``--jobs`` trains seeds in
parallel processes; ``--plot`` draws the curves of every seed. ``--teacher-games N`` starts the
policy from our ``greedy`` bot instead of from nothing: before PPO, the network is fitted to
greedy's decisions in N games against ``random`` (cross-entropy on the masked policy, the value
head on the returns those games earned), and the untrained point is that starting policy.
Needs the ``rl-train`` extra.
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
from sb3_contrib import MaskablePPO

from ludoteca.bots import make_bot
from ludoteca.rl.gym import make
from ludoteca.rl.rewards import Reward
from ludoteca.rl.sb3 import SB3VecEnv
from ludoteca.rl.vector import make_vec
from ludoteca.tournament.stats import wilson_interval

LEVELS = ("random", "greedy")


def win_rate(model: MaskablePPO, level: str, games: int, seed: int, first: int = 0) -> float:
    """Wins + half the ties of ``model`` in ``games`` games against bot ``level`` (the deals
    from ``first`` on, fixed per seed)."""
    env = make("buttons", players=2, opponents=level)
    points = 0.0
    for g in range(first, first + games):
        obs, info = env.reset(seed=10_000_000 + seed * 10_000 + g)
        while True:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, _, over, _, info = env.step(int(action))
            if over:
                break
        scores = info["scores"]
        mine, theirs = scores[info["seat"]], scores[1 - info["seat"]]
        points += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    return points / games


class Anneal:
    """The step size falling linearly to 0 over the whole run, read from the model's own step
    count: SB3's "progress remaining" restarts at every ``learn`` call, one per checkpoint."""

    def __init__(self, lr: float, total: int) -> None:
        self.lr, self.total = lr, total
        self.model: MaskablePPO | None = None

    def __call__(self, _left: float) -> float:
        done = self.model.num_timesteps if self.model is not None else 0
        return self.lr * max(0.0, 1.0 - done / self.total)


def teach(model: MaskablePPO, games: int, seed: int, gamma: float, reward: str,
          epochs: int = 12) -> None:
    """Fit ``model``'s policy to our ``greedy`` bot's choices in ``games`` games against
    ``random``, and its value head to the discounted returns of those games (behaviour cloning:
    PPO then starts from a policy that already plays, with a value that already knows it)."""
    env = make("buttons", players=2, opponents="random", reward=Reward(reward, gamma))
    bot = make_bot("greedy", "buttons", seed)
    xs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    picks: list[int] = []
    returns: list[float] = []
    for g in range(games):
        obs, _ = env.reset(seed=20_000_000 + seed * 10_000 + g)
        rewards: list[float] = []
        while True:
            match = env.table.match
            assert match is not None
            action = bot.choose(env.table.game, match.view(env.seat), env.seat, None).index
            xs.append(obs)
            masks.append(env.action_masks())
            picks.append(action)
            obs, r, over, _, _ = env.step(action)
            rewards.append(float(r))
            if over:
                break
        game_returns = [0.0] * len(rewards)
        back = 0.0
        for i in range(len(rewards) - 1, -1, -1):
            back = rewards[i] + gamma * back
            game_returns[i] = back
        returns.extend(game_returns)
    policy = model.policy
    x = torch.tensor(np.array(xs))
    m = torch.tensor(np.array(masks))
    a = torch.tensor(picks)
    v = torch.tensor(returns, dtype=torch.float32)
    optimizer = torch.optim.Adam(policy.parameters(), 1e-3)
    for _ in range(epochs):
        order = torch.randperm(len(a))
        for i in range(0, len(a), 256):
            batch = order[i:i + 256]
            values, log_prob, _ = policy.evaluate_actions(x[batch], a[batch],
                                                          action_masks=m[batch].numpy())
            loss = -log_prob.mean() + 0.5 * torch.nn.functional.mse_loss(values.flatten(),
                                                                         v[batch])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


Curve = list[tuple[int, dict[str, float]]]


def run(seed: int, args: argparse.Namespace) -> tuple[Curve, float, float]:
    """Train one seed: its curve, its final win rate against ``random`` and the seconds."""
    torch.set_num_threads(1)  # a small MLP: threads cost more than they give
    gamma = args.gamma
    envs = SB3VecEnv(make_vec("buttons", args.envs, players=2, opponents="random",
                              reward=Reward(args.reward, gamma), core=args.core))
    envs.seed(seed)
    schedule = Anneal(args.lr, args.steps) if args.anneal else args.lr
    model = MaskablePPO("MlpPolicy", envs, seed=seed, verbose=0, n_steps=args.n_steps,
                        batch_size=args.batch, n_epochs=args.epochs, learning_rate=schedule,
                        gamma=gamma, ent_coef=args.ent, device="cpu",
                        policy_kwargs={"net_arch": [args.net, args.net]})
    if isinstance(schedule, Anneal):
        schedule.model = model
    if args.teacher_games:
        torch.manual_seed(seed)
        teach(model, args.teacher_games, seed, gamma, args.reward)
    curve: Curve = []
    every = args.steps // args.checkpoints
    start = time.perf_counter()
    learning = 0.0
    for k in range(args.checkpoints + 1):
        if k:
            t = time.perf_counter()
            model.learn(every, reset_num_timesteps=False)
            learning += time.perf_counter() - t
        rates = {level: win_rate(model, level, args.games, seed) for level in LEVELS}
        curve.append((model.num_timesteps, rates))
        cells = "  ".join(f"vs {level} {rates[level]:6.1%}" for level in LEVELS)
        print(f"  seed {seed}: {model.num_timesteps:>9,} steps  {cells}  "
              f"({time.perf_counter() - start:.0f} s)", flush=True)
    final = win_rate(model, "random", args.final_games, seed, first=args.games)
    low, high = wilson_interval(final * args.final_games, args.final_games)
    took = time.perf_counter() - start
    speed = model.num_timesteps / learning if learning else 0.0
    print(f"  seed {seed}: vs random over {args.final_games} more games {final:6.1%} "
          f"({low:.1%}-{high:.1%})  ({took:.0f} s; {speed:,.0f} steps/s training)", flush=True)
    return curve, final, took


def plot(curves: dict[int, Curve], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    colours = {"random": "tab:blue", "greedy": "tab:red"}
    for level in LEVELS:
        for n, (_, curve) in enumerate(sorted(curves.items())):
            xs = [steps for steps, _ in curve]
            ys = [100 * rates[level] for _, rates in curve]
            ax.plot(xs, ys, marker="o", color=colours[level], alpha=0.75,
                    label=f"vs {level}" if n == 0 else None)
    ax.axhline(50, color="grey", lw=0.8, ls=":")
    ax.set_xlabel("training steps (learner decisions)")
    ax.set_ylabel("win rate % (ties count half)")
    ax.set_ylim(0, 100)
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=1_500_000, help="training steps per seed")
    parser.add_argument("--envs", type=int, default=32, help="matches played at once")
    parser.add_argument("--core", default="auto", help="auto, native or python")
    parser.add_argument("--checkpoints", type=int, default=3)
    parser.add_argument("--games", type=int, default=200, help="games per measurement")
    parser.add_argument("--final-games", type=int, default=500,
                        help="games against random at the end, for each seed's interval")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--jobs", type=int, default=1, help="seeds trained at once")
    parser.add_argument("--reward", default="shaped", help="win, margin or shaped")
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--net", type=int, default=256, help="units in each of 2 layers")
    parser.add_argument("--n-steps", type=int, default=64,
                        help="PPO rollout length per match (a rollout: envs * n_steps)")
    parser.add_argument("--batch", type=int, default=256, help="PPO minibatch size")
    parser.add_argument("--epochs", type=int, default=3, help="passes over each rollout")
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--anneal", action=argparse.BooleanOptionalAction, default=True,
                        help="the step size falls linearly to 0 (--no-anneal: fixed)")
    parser.add_argument("--ent", type=float, default=0.005, help="entropy coefficient")
    parser.add_argument("--teacher-games", type=int, default=0,
                        help="start from greedy's play in this many games (0: from nothing)")
    parser.add_argument("--plot", type=Path, help="draw the curves into this PNG")
    args = parser.parse_args(argv)
    print(f"Buttons, 2 players: MaskablePPO against random, reward={args.reward!r}, "
          f"{args.steps:,} steps per seed on {args.envs} matches at once; win rate over "
          f"{args.games} games per point")
    with ProcessPoolExecutor(args.jobs) as pool:
        done = dict(zip(args.seeds, pool.map(run, args.seeds, [args] * len(args.seeds)),
                        strict=True))
    curves = {s: curve for s, (curve, _, _) in done.items()}
    print("Final win rates (mean over seeds, 95% interval of the pooled games):")
    for level in LEVELS:
        for label, at in (("untrained", 0), ("trained", -1)):
            rates = [curves[s][at][1][level] for s in args.seeds]
            games = args.games * len(rates)
            low, high = wilson_interval(sum(rates) * args.games, games)
            print(f"  {label:<9} vs {level:<6} {np.mean(rates):6.1%}  "
                  f"({low:.0%}-{high:.0%}; per seed {', '.join(f'{r:.0%}' for r in rates)})")
    finals = [done[s][1] for s in args.seeds]
    games = args.final_games * len(finals)
    low, high = wilson_interval(sum(finals) * args.final_games, games)
    print(f"  trained   vs random over {args.final_games} more games a seed: "
          f"{np.mean(finals):6.1%}  ({low:.1%}-{high:.1%}; per seed "
          f"{', '.join(f'{r:.1%}' for r in finals)}); "
          f"{np.mean([done[s][2] for s in args.seeds]) / 60:.1f} min a seed")
    if args.plot:
        start = ", from greedy's play" if args.teacher_games else ""
        plot(curves, args.plot, f"MaskablePPO on Buttons 2p against random "
                                f"({args.reward}, {len(args.seeds)} seeds{start})")
        print(f"curves drawn in {args.plot}")


if __name__ == "__main__":
    main()
