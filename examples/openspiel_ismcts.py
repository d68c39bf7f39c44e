"""OpenSpiel's IS-MCTS against our bots, on an OpenSpiel game of ours (docs/rl.md).

    python examples/openspiel_ismcts.py [--game kami] [-o target=10] [--games 20]
        [--simulations 100] [--opponents random,greedy]

OpenSpiel's own Python IS-MCTS (``open_spiel.python.algorithms.ismcts``, random rollouts,
nodes keyed by the observation string) plays seat 0 or 1 in turn against each opponent level;
chance nodes are sampled from their outcomes, and IS-MCTS's worlds from the same seeded
random state, so ``--seed`` repeats a run exactly. Prints IS-MCTS's score (wins + half the
ties) with Wilson's 95% interval, per opponent. Needs the ``rl`` extra.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from ludoteca.rl import openspiel as lo
from ludoteca.tournament.stats import wilson_interval


def play(game: lo.LudotecaGame, bots: list[pyspiel.Bot], rng: np.random.RandomState
         ) -> list[float]:
    """One game; returns the returns of each seat."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return list(state.returns())


def seeded_resampler(searcher: ismcts.ISMCTSBot) -> Any:
    """ISMCTS's world sampling, drawing from ``searcher``'s own seeded random state."""
    def resample(state: lo.LudotecaState, player: int) -> lo.LudotecaState:
        return state.resample_from_infostate(player, searcher.random_number)
    return resample


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="kami")
    parser.add_argument("--games", type=int, default=20, help="games per opponent")
    parser.add_argument("--simulations", type=int, default=100, help="IS-MCTS per move")
    parser.add_argument("--opponents", default="random,greedy")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a game option (whole numbers and true/false are converted)")
    args = parser.parse_args()
    params: dict[str, object] = {"players": 2}
    for text in args.option:
        name, _, value = text.partition("=")
        params[name] = (int(value) if value.lstrip("-").isdigit() else
                        value.lower() == "true" if value.lower() in ("true", "false") else value)
    game = pyspiel.load_game(lo.PREFIX + args.game, params)
    rng = np.random.RandomState(args.seed)
    print(f"{game}: OpenSpiel IS-MCTS ({args.simulations} simulations, random "
          f"rollouts) against our bots, {args.games} games each, seats alternating")
    for level in args.opponents.split(","):
        points = 0.0
        start = time.perf_counter()
        for g in range(args.games):
            me = g % 2
            searcher = ismcts.ISMCTSBot(
                game, mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng), uct_c=2.0,
                max_simulations=args.simulations, random_state=rng,
                use_observation_string=True)
            # OpenSpiel's resampler draws from its own unseeded sampler
            # (pyspiel.UniformProbabilitySampler): draw from the seeded rng instead, so a run
            # is repeated exactly by its --seed.
            searcher.set_resampler(seeded_resampler(searcher))
            ours = lo.LudotecaBot(game, 1 - me, level, seed=args.seed * 1000 + g)
            bots = [searcher, ours] if me == 0 else [ours, searcher]
            returns = play(game, bots, rng)
            points += (returns[me] + 1) / 2  # win 1, tie 0.5, loss 0
        low, high = wilson_interval(points, args.games)
        print(f"  against {level:<7} IS-MCTS scores {points:g}/{args.games} = "
              f"{points / args.games:5.1%} (95%: {low:.0%}-{high:.0%})   "
              f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
