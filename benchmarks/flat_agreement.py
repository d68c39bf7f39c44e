"""What more playouts buy Kingdomino's flat search: at every third decision with a choice of a
few seeded 2-player greedy games, the move the search (the game's profile, early stops on)
chooses at each budget against its own move at a large reference budget, and the regret (the
reference's mean reward of its move minus that of the chosen one; a reward is 0.6 for a win
plus 0.4 x points / 100). Iteration budgets only, so the figures do not depend on the load.

    python benchmarks/flat_agreement.py [--deals 3] [--reference 150000] [--out FILE]

Run on the native core (the whole flat search native: ``kingdomino.flat_search``) it takes
minutes; on the Python core the same figures take hours.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ludoteca.bots import make_bot
from ludoteca.bots.search import search
from ludoteca.games import entry
from ludoteca.games.kingdomino.rules import GAME

BUDGETS = (250, 500, 1000, 2000, 4000, 16000, 40000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--reference", type=int, default=150_000)
    parser.add_argument("--out", type=Path, default=None, help="write the figures as JSON")
    args = parser.parse_args()
    profile = entry("kingdomino").search_profile()
    agree = dict.fromkeys(BUDGETS, 0)
    regret = dict.fromkeys(BUDGETS, 0.0)
    total = 0
    for deal in range(args.deals):
        state = GAME.setup({}, 2, 900 + deal)
        bots = {s: make_bot("greedy", "kingdomino", s + 1) for s in (0, 1)}
        k = 0
        while seats := GAME.to_act(state):
            (seat,) = seats
            choice = len(GAME.legal_actions(state, seat)) > 1
            if choice and k % 3 == 0:
                view = GAME.view(state, seat)
                ref, _ = search(GAME, view, seat, iterations=args.reference, early_stop=False,
                                profile=profile, seed=99)
                best = ref.best()
                mean = {a: ref.values[a] / ref.visits[a] for a in ref.visits}
                total += 1
                for n in BUDGETS:
                    stats, _ = search(GAME, view, seat, iterations=n, early_stop=True,
                                      profile=profile, seed=n + total)
                    chosen = stats.best()
                    agree[n] += chosen == best
                    regret[n] += mean[best] - mean.get(chosen, min(mean.values()))
                print(f"deal {deal} ply {state.ply}: same move "
                      + " ".join(f"{n}:{agree[n]}" for n in BUDGETS) + f" of {total}", flush=True)
            k += choice
            GAME.apply_legal(state, seat, bots[seat].choose(GAME, GAME.view(state, seat), seat))
    summary = {"positions": total, "reference": args.reference,
               "agree": {n: agree[n] / total for n in BUDGETS},
               "mean_regret": {n: regret[n] / total for n in BUDGETS}}
    print(json.dumps(summary, indent=1))
    if args.out is not None:
        args.out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
