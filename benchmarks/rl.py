"""RL adapter speed against the raw engine: ``python benchmarks/rl.py [--episodes N]``.

For each game and player count, the same seeds are played by a uniformly random policy:
- on the raw engine through the match driver (``legal_actions``, a random choice,
  ``Match.step_trusted``: the engine and the driver's log and ``seq``, which the environments
  keep too): the baseline of the ratios;
- on the bare engine (``legal_actions``, a random choice, ``apply_legal``: the playout loop),
  for reference;
- through the AEC environment (``env.last()`` with the observation vector and action mask, a
  random legal index from the mask's nonzero entries, ``env.step``): "full";
- through the AEC environment reading only the mask (``env.last(observe=False)``,
  ``env.action_mask(agent)``): "mask only", which shows what the observation encoding costs;
- through the self-play vector environment (``ludoteca.rl.vector.self_play``, ``--slots``
  matches at once, observations and masks batched, a random legal index per slot), until as
  many matches as the other runs played have ended: "vector", against the AEC env's "full"
  (issue 26's target: at least 2× the AEC env's steps per second per core);
- through the same vector environment on the native core (``self_play(..., core="native")``,
  ``--native-slots`` matches, where the game has a native ``Batch``): observations and masks
  returned as new arrays at every step, a random legal index per slot drawn from the mask for
  all slots at once (numpy), until as many matches have ended: "native vector", against the
  AEC env's "full" (issue 37's target: at least 10× per core; one process, one thread); and
  the same with ``copy=False`` (the env's own observation array handed out, no copy): "no copy".
Each is timed ``--repeat`` times, interleaved, in CPU time of this process, and the fastest run
kept (the machine is shared: the fastest run is the one least disturbed). Printed: steps per
second and the ratios to the driver (issue 26's targets: full ≤ 3×, mask only ≤ 2×). Then the
same for the OpenSpiel games (``ludoteca.rl.openspiel``): a random legal action at each
decision, each chance node's outcome drawn uniformly, counting decisions only. Not a test:
figures vary by machine.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


from ludoteca.engine.match import Match
from ludoteca.engine.native import chosen_core
from ludoteca.games import get_game
from ludoteca.rl.native_vector import why_not_native
from ludoteca.rl.pettingzoo import env
from ludoteca.rl.vector import make_vec, self_play

clock = time.process_time
"""This process's CPU time, not the wall clock: on a shared machine the time other processes
take the CPU away does not count (the ratios were off by up to 2x either way with the wall
clock while other jobs ran)."""

CASES: list[tuple[str, int]] = [
    ("kingdomino", 2), ("kingdomino", 3), ("kingdomino", 4), ("queendomino", 2),
    ("queendomino", 3), ("queendomino", 4), ("buttons", 2), ("buttons", 3), ("buttons", 4),
    ("kami", 2), ("kami", 3), ("kami", 4), ("goita", 4),
]


def engine_steps(name: str, players: int, seeds: list[int]) -> tuple[int, float]:
    """Steps and seconds of random games on the raw engine."""
    game = get_game(name)
    opts = game.validate({}, players)
    to_act, legal_actions, apply_legal = game.to_act, game.legal_actions, game.apply_legal
    steps = 0
    start = clock()
    for seed in seeds:
        state = game.start(opts, players, seed)
        rnd = random.Random(seed).random
        while seats := to_act(state):
            for seat in sorted(seats):
                if seat in to_act(state):
                    actions = legal_actions(state, seat)
                    apply_legal(state, seat, actions[int(rnd() * len(actions))])
                    steps += 1
    return steps, clock() - start


def driver_steps(name: str, players: int, seeds: list[int]) -> tuple[int, float]:
    """Steps and seconds of random games on the engine through the match driver, as the
    environments play them (trusted steps, no events)."""
    game = get_game(name)
    opts = game.validate({}, players)
    legal_actions = game.legal_actions
    steps = 0
    start = clock()
    for seed in seeds:
        match = Match.new(game, opts, players, seed, narrate=False)
        state = match.state
        rnd = random.Random(seed).random
        seats = match.to_act()
        while seats:
            seat = min(seats)
            actions = legal_actions(state, seat)
            seats = match.step_trusted(seat, actions[int(rnd() * len(actions))])
            steps += 1
    return steps, clock() - start


def adapter_steps(name: str, players: int, seeds: list[int], observe: bool = True
                  ) -> tuple[int, float]:
    """Steps and seconds of random games through the AEC environment: with ``observe`` the
    policy gets the whole observation (``last()``), else only the mask (``action_mask``)."""
    aec = env(name, players=players)
    steps = 0
    start = clock()
    for seed in seeds:
        aec.reset(seed=seed)
        rnd = random.Random(seed).random
        for agent in aec.agent_iter():
            obs, _, terminated, truncated, _ = aec.last(observe)
            if terminated or truncated:
                aec.step(None)
                continue
            mask = obs["action_mask"] if observe else aec.action_mask(agent)
            legal: Any = mask.nonzero()[0]  # the mask is 1-D: flatnonzero's ravel is waste
            aec.step(int(legal[int(rnd() * len(legal))]))
            steps += 1
    return steps, clock() - start


def vector_steps(name: str, players: int, seeds: list[int], slots: int) -> tuple[int, float]:
    """Steps (slot decisions) and seconds of random self-play through the vector env, until
    ``len(seeds)`` matches have ended."""
    envs = self_play(name, slots, players=players)
    rnd = random.Random(seeds[0]).random
    steps = finished = 0
    start = clock()
    envs.reset(seed=seeds[0])
    actions = [0] * slots
    while finished < len(seeds):
        masks = envs.action_masks()
        for i in range(slots):
            legal: Any = masks[i].nonzero()[0]
            actions[i] = int(legal[int(rnd() * len(legal))])
        _, _, terminated, _, _ = envs.step(actions)
        steps += slots
        finished += int(terminated.sum())
    return steps, clock() - start


def random_legal(masks: Any, u: Any) -> Any:
    """A uniform legal index per row of ``masks`` (``u`` uniform in [0, 1) per row), for all rows
    at once: the ``floor(u * count)``-th legal index of each row (the legal indices found in one
    pass over the batch; counting per row by summing costs twice that)."""
    rows, cols = np.divmod(np.flatnonzero(masks), masks.shape[1])
    counts = np.bincount(rows, minlength=len(masks))
    return cols[np.cumsum(counts) - counts + (u * counts).astype(np.int64)]


def native_vector_steps(name: str, players: int, seeds: list[int], slots: int,
                        copy: bool = True) -> tuple[int, float]:
    """``vector_steps`` on the native core, the policy reading the masks batched; at least
    ``4 * slots`` matches end, so the rate is not one batch's first matches. ``copy=False``:
    the observations handed out are the env's own array (Gymnasium's ``copy=False``)."""
    envs = self_play(name, slots, players=players, core="native", copy=copy)
    rng = np.random.default_rng(seeds[0])
    steps = finished = 0
    start = clock()
    envs.reset(seed=seeds[0])
    while finished < max(len(seeds), 4 * slots):
        actions = random_legal(envs.action_masks(), rng.random(slots))
        _, _, terminated, _, _ = envs.step(actions)
        steps += slots
        finished += int(terminated.sum())
    return steps, clock() - start


def bot_vector_steps(name: str, players: int, seeds: list[int], slots: int, core: str,
                     opponents: str) -> tuple[int, float]:
    """Learner steps and seconds of ``make_vec`` against ``opponents`` (a learner step carries
    the opponents' moves up to the learner's next decision), the random policy batched, until
    as many matches as ``seeds`` have ended."""
    envs = make_vec(name, slots, players=players, opponents=opponents, core=core)
    rng = np.random.default_rng(seeds[0])
    steps = finished = 0
    start = clock()
    envs.reset(seed=seeds[0])
    while finished < len(seeds):
        _, _, terminated, _, _ = envs.step(random_legal(envs.action_masks(), rng.random(slots)))
        steps += slots
        finished += int(terminated.sum())
    return steps, clock() - start


def openspiel_steps(name: str, players: int, seeds: list[int]) -> tuple[int, float]:
    """Decisions and seconds of random games through the OpenSpiel game (chance sampled)."""
    import pyspiel

    from ludoteca.rl import openspiel

    game = pyspiel.load_game(openspiel.PREFIX + name, {"players": players})
    steps = 0
    start = clock()
    for seed in seeds:
        rnd = random.Random(seed).random
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(rnd() * len(state.chance_outcomes())))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rnd() * len(legal))])
                steps += 1
    return steps, clock() - start


def table(rows: list[tuple[str, ...]]) -> None:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for i, row in enumerate(rows):
        print("| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |")
        if i == 0:
            print("|" + "|".join("-" * (w + 2) for w in widths) + "|")


def bots_table(args: argparse.Namespace, seeds: list[int]) -> None:
    """``make_vec`` against bots, Python (``--slots``) and native (``--native-slots``): learner
    steps per second, fastest of ``--repeat``."""
    rows = [("game", "players", "opponents", "python steps/s", "native steps/s", "native / python")]
    for name, players in CASES:
        if (args.game and name not in args.game) or why_not_native(name, "win") is not None:
            continue
        for level in args.bots:
            if why_not_native(name, "win", level) is not None:
                continue
            rates = [max(n / t for n, t in (
                bot_vector_steps(name, players, seeds, slots, core, level)
                for _ in range(args.repeat)))
                for core, slots in (("python", args.slots), ("native", args.native_slots))]
            rows.append((name, str(players), level, f"{rates[0]:,.0f}", f"{rates[1]:,.0f}",
                         f"{rates[1] / rates[0]:.1f}×"))
    print("\nmake_vec against bots (learner steps):")
    table(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--episodes", type=int, default=60, help="games per case")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per figure (best kept)")
    parser.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel games")
    parser.add_argument("--slots", type=int, default=16, help="matches in the vector env")
    parser.add_argument("--native-slots", type=int, default=64,
                        help="matches in the native vector env")
    parser.add_argument("--bots", action="append",
                        help="also time make_vec against this bot level on both cores")
    args = parser.parse_args()
    seeds = list(range(1000, 1000 + args.episodes))
    rows = [("game", "players", "bare engine steps/s", "engine + driver steps/s",
             "full steps/s", "ratio", "mask only steps/s", "ratio", "vector steps/s",
             "vector / full", "native vector steps/s", "native / full", "no copy / full")]
    for name, players in CASES:
        if args.game and name not in args.game:
            continue
        runs: dict[str, list[tuple[int, float]]] = {"e": [], "d": [], "a": [], "m": [], "v": [],
                                                     "n": [], "c": []}
        native = why_not_native(name, "win") is None and chosen_core() == "native"
        for _ in range(args.repeat):
            runs["e"].append(engine_steps(name, players, seeds))
            runs["d"].append(driver_steps(name, players, seeds))
            runs["a"].append(adapter_steps(name, players, seeds))
            runs["m"].append(adapter_steps(name, players, seeds, observe=False))
            runs["v"].append(vector_steps(name, players, seeds, args.slots))
            if native:
                runs["n"].append(native_vector_steps(name, players, seeds, args.native_slots))
                runs["c"].append(native_vector_steps(name, players, seeds, args.native_slots,
                                                     copy=False))
        e_rate, d_rate, a_rate, m_rate, v_rate = (max(n / t for n, t in runs[k])
                                                  for k in "edamv")
        n_rate, c_rate = (max((n / t for n, t in runs[k]), default=0.0) for k in "nc")
        rows.append((name, str(players), f"{e_rate:,.0f}", f"{d_rate:,.0f}", f"{a_rate:,.0f}",
                     f"{d_rate / a_rate:.2f}×", f"{m_rate:,.0f}", f"{d_rate / m_rate:.2f}×",
                     f"{v_rate:,.0f}", f"{v_rate / a_rate:.2f}×",
                     f"{n_rate:,.0f}" if native else "-",
                     f"{n_rate / a_rate:.1f}×" if native else "-",
                     f"{c_rate / a_rate:.1f}×" if native else "-"))
        print(" | ".join(rows[-1]), file=sys.stderr, flush=True)
    print("PettingZoo (AEC), ratios to the engine through the match driver:")
    table(rows)
    if args.bots:
        bots_table(args, seeds)
    if args.no_openspiel:
        return
    rows = [("game", "players", "engine steps/s", "OpenSpiel steps/s", "ratio")]
    for name, players in CASES:
        if args.game and name not in args.game:
            continue
        e_steps, e_secs = engine_steps(name, players, seeds)
        o_steps, o_secs = openspiel_steps(name, players, seeds)
        e_rate, o_rate = e_steps / e_secs, o_steps / o_secs
        rows.append((name, str(players), f"{e_rate:,.0f}", f"{o_rate:,.0f}",
                     f"{e_rate / o_rate:.1f}×"))
    print("\nOpenSpiel (decisions; chance nodes sampled):")
    table(rows)


if __name__ == "__main__":
    main()
