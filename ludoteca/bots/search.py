"""Search bots on the game contract: determinized Monte Carlo tree search.

One algorithm serves every game: single-observer Information-Set MCTS (Cowling, Powley and
Whitehouse, 2012). Each iteration samples a full state from what the searching seat knows
(``game.determinize(view, seat, rng)``: the deck order, the dice, the other hands), then walks a
tree shared by all samples, whose edges are action indices. An action legal in one sample and not
in another is handled with availability counts: UCB uses how often a child *could* have been
chosen instead of the parent's visits. For games whose only hidden part is chance (Kingdomino,
Queendomino, Buttons) this is determinized UCT over one tree; for Kami it is IS-MCTS proper.

``mode="flat"`` keeps statistics at the root only (flat Monte Carlo with UCB1 at the root), the
variant Gedda et al. (2018) found stronger than UCT for Kingdomino. Both are offered so the claim
is measured rather than assumed; the measured better one is each game's default
(the game's search profile, ``games/<game>/search.py``, named by its registry entry).

Simultaneous decisions (Buttons) are searched one seat after another. That lets a later seat's
tree branch see an earlier seat's choice, but in Buttons the choices touch only private boards, so
no seat's decision can exploit it.

Leaves are valued by the profile's rollout (``policy="default"``): a
playout to the end with a per-game policy, or for games of many rounds a playout to the end of the
round valued by what it earned. ``policy="random"`` plays uniformly random moves to the end.
Final rewards blend the win share with the rank (see ``utilities``).

Where a profile has a prior (for instance its game's greedy evaluator), the root keeps only the
actions the prior ranks best (the profile's ``width``), so the budget is spent on the moves worth
checking; in Kami that cuts a root of up to ~150 plays to 8.
"""

from __future__ import annotations

import math
import os
import time
from concurrent.futures import wait
from dataclasses import dataclass
from typing import Any

from ludoteca.bots.base import Bot
from ludoteca.bots.pool import SearchPool
from ludoteca.engine.errors import OptionError
from ludoteca.engine.game import JSON, Game, Outcome, Seat
from ludoteca.engine.playout import GAME, RANDOM
from ludoteca.engine.registry import (
    DEFAULT_PROFILE,
    Playout,
    Rollout,
    RootBudget,
    SearchProfile,
)
from ludoteca.engine.rng import Rng

WIN_WEIGHT = 0.6
"""Share of the reward from winning (1 split among tied winners); the rest rewards the rank (so
that search still prefers second place to last when winning is out of reach) and, optionally,
the score."""



def utilities(
    outcome: Outcome, score_weight: float = 0.0, score_scale: float | None = None
) -> list[float]:
    """Per-seat reward in [0, 1]: mostly winning (shared on ties), partly the rank, and with
    ``score_weight`` partly the score: over ``score_scale`` (capped at 1) when given, which keeps
    rewarding a winner's extra points, else relative to the best score of the game."""
    ranks = outcome.ranks
    n = len(ranks)
    winners = sum(1 for r in ranks if r == 1)
    top = score_scale or max(max(outcome.scores), 1)
    rest = 1.0 - WIN_WEIGHT - score_weight
    out = []
    for r, score in zip(ranks, outcome.scores, strict=True):
        win = 1.0 / winners if r == 1 else 0.0
        place = (n - r) / (n - 1) if n > 1 else 1.0
        points = min(1.0, max(score, 0) / top)
        out.append(WIN_WEIGHT * win + rest * place + score_weight * points)
    return out


def random_playout(game: Game[Any, Any], state: Any, rng: Rng) -> None:
    """Play uniformly random legal actions to the end (simultaneous seats in seat order)."""
    game.playout(state, RANDOM, rng)


def game_playout(game: Game[Any, Any], state: Any, rng: Rng) -> None:
    """Play to the end with the game's own playout policy (``Game.playout_policy``)."""
    game.playout(state, GAME, rng)


def full_rollout(playout: Playout, score_scale: float | None = None) -> Rollout:
    """A rollout that plays to the end with ``playout`` and rewards the final outcome."""

    def rollout(game: Game[Any, Any], state: Any, rng: Rng, score_weight: float) -> list[float]:
        playout(game, state, rng)
        outcome = game.outcome(state)
        assert outcome is not None
        return utilities(outcome, score_weight, score_scale)

    return rollout


def profile_rollout(profile: SearchProfile) -> Rollout:
    """The profile's rollout (for instance one that stops at the end of the round and values
    it), else a playout to the end with its playout policy (uniformly random by default)."""
    if profile.rollout is not None:
        return profile.rollout
    return full_rollout(profile.playout or random_playout, profile.score_scale)


class Node:
    """Statistics of one edge of the shared tree, from the view of the seat that took it."""

    __slots__ = ("avail", "children", "seat", "value", "visits")

    def __init__(self, seat: Seat) -> None:
        self.seat = seat
        self.visits = 0
        self.avail = 0
        self.value = 0.0
        self.children: dict[int, Node] = {}


@dataclass
class SearchStats:
    """What a search found at the root: per action index, visits and total reward."""

    iterations: int
    seconds: float
    visits: dict[int, int]
    values: dict[int, float]

    def merge(self, other: SearchStats) -> None:
        self.iterations += other.iterations
        self.seconds = max(self.seconds, other.seconds)
        for a, v in other.visits.items():
            self.visits[a] = self.visits.get(a, 0) + v
            self.values[a] = self.values.get(a, 0.0) + other.values[a]

    def best(self) -> int:
        """The most visited action (the robust child), then the best mean."""
        return max(self.visits, key=lambda a: (self.visits[a], self.values[a] / self.visits[a]))


def search(
    game: Game[Any, Any],
    view: JSON,
    seat: Seat,
    *,
    seconds: float | None = None,
    iterations: int | None = None,
    seed: int = 0,
    mode: str | None = None,
    exploration: float = 0.7,
    root: Node | None = None,
    policy: str = "default",
    early_stop: bool = True,
    score_weight: float | None = None,
    width: int | None = None,
    profile: SearchProfile | None = None,
    cpu_seconds: float | None = None,
) -> tuple[SearchStats, Node]:
    """Run IS-MCTS from ``view`` for ``seat`` until the time or iteration budget is spent.

    ``cpu_seconds`` is a ceiling on this process's CPU time (``time.process_time``): unlike
    ``seconds`` it does not shrink when other work shares the machine, so an iteration budget
    under it ends the same under any load. Given alone it is the budget: the search then has
    the same compute on a busy machine as on a quiet one (early stops estimate the iterations
    left from the CPU time), which is how to measure a bot "of 1.5 s a move" under load.

    ``profile`` is the game's search profile (its registry entry's; default: UCT with random
    playouts); ``mode``, ``score_weight`` and ``width`` override its values. ``width`` keeps only
    the root actions the profile's prior ranks highest, so the budget goes to moves worth
    checking.
    """
    if seconds is None and iterations is None and cpu_seconds is None:
        raise ValueError("give a time or an iteration budget")
    by_cpu = seconds is None and iterations is None  # CPU seconds alone are the budget
    profile = profile or DEFAULT_PROFILE
    if mode is None:
        mode = profile.mode
    if score_weight is None:
        score_weight = profile.score_weight
    if mode not in ("uct", "flat"):
        raise ValueError(f"unknown search mode {mode!r}")
    rng = Rng(seed)
    rollout = profile_rollout(profile) if policy == "default" else full_rollout(random_playout)
    to_act, legal_actions, apply_legal = game.to_act, game.legal_actions, game.apply_legal
    determinize = game.determinizer(view, seat)
    flat = mode == "flat"
    log = math.log
    sqrt = math.sqrt
    root = root if root is not None else Node(-1)
    start = time.perf_counter()
    allowed = root_candidates(game, view, seat, rng, profile, width)
    if allowed is not None and len(allowed) == 1:  # nothing to weigh: the prior decided
        (only,) = allowed
        return SearchStats(0, time.perf_counter() - start, {only: 1}, {only: 0.5}), root
    deadline = start + seconds if seconds is not None else math.inf
    limit = iterations if iterations is not None else 1 << 62
    cpu = time.process_time
    cpu_deadline = cpu() + cpu_seconds if cpu_seconds is not None else math.inf
    cpu_start = cpu_deadline - cpu_seconds if cpu_seconds is not None else cpu()
    if (profile.root_search is not None and policy == "default" and allowed is None
            and not root.children):
        whole = _root_search(game, view, seat, rng, profile, RootBudget(
            iterations=limit, seconds=deadline - time.perf_counter(),
            cpu_seconds=cpu_deadline - cpu(),
            elapsed=cpu() - cpu_start if by_cpu else time.perf_counter() - start,
            by_iterations=iterations is not None, by_cpu=by_cpu, early_stop=early_stop,
            exploration=exploration, win_weight=WIN_WEIGHT, score_weight=score_weight,
            score_scale=profile.score_scale, tree=not flat), root)
        if whole is not None:
            return SearchStats(whole, time.perf_counter() - start, *_root_stats(root)), root
    done = 0
    clock = time.perf_counter
    while done < limit:
        if done:  # a rollout costs far more than reading the clock, so read it every time
            now = clock()
            used = cpu()
            if now >= deadline or used >= cpu_deadline or (
                early_stop
                and done & 15 == 0
                and _decided(root, done, *_spent_and_left(
                    now - start, deadline - now, used - cpu_start, cpu_deadline - used,
                    iterations is not None, by_cpu), limit - done)
            ):
                break
        state = determinize(rng)
        node = root
        path = [root]
        depth = 0
        while True:
            seats = to_act(state)
            if not seats:
                break
            if depth == 0 and seat in seats:
                actor = seat  # the searching seat's own decision is the root's
                legal = legal_actions(state, actor)
                if allowed is not None:
                    legal = [a for a in legal if a.index in allowed] or legal
            else:
                actor = min(seats)
                legal = legal_actions(state, actor)
            if flat and depth > 0:
                break
            children = node.children
            untried = []
            best = None
            best_score = -1.0
            for a in legal:
                child = children.get(a.index)
                if child is None:
                    untried.append(a)
                else:
                    child.avail += 1
            if untried:
                a = untried[rng.below(len(untried))]
                child = Node(actor)
                child.avail = 1
                children[a.index] = child
                apply_legal(state, actor, a)
                path.append(child)
                break
            for a in legal:
                child = children[a.index]
                score = child.value / child.visits + exploration * sqrt(
                    log(child.avail) / child.visits
                )
                if score > best_score:
                    best_score = score
                    best = a
            assert best is not None
            node = children[best.index]
            apply_legal(state, actor, best)
            path.append(node)
            depth += 1
        rewards = rollout(game, state, rng, score_weight)
        root.visits += 1
        for n in path[1:]:
            n.visits += 1
            n.value += rewards[n.seat]
        done += 1
    return SearchStats(done, time.perf_counter() - start, *_root_stats(root)), root


def _spent_and_left(elapsed: float, left: float, cpu_used: float, cpu_left: float,
                    by_iterations: bool, by_cpu: bool) -> tuple[float, float]:
    """The time spent and left that early stops estimate the iterations left from: with an
    iteration budget the time is only a ceiling, so none is left to count (stopping early looks
    at the iterations left alone, and the search ends the same under any load); with CPU
    seconds alone the CPU clock's; else the wall clock's."""
    if by_iterations:
        return elapsed, math.inf
    if by_cpu:
        return cpu_used, cpu_left
    return elapsed, left


def _root_stats(root: Node) -> tuple[dict[int, int], dict[int, float]]:
    """Visits and total reward of each visited root action."""
    visits = {a: c.visits for a, c in root.children.items() if c.visits}
    values = {a: c.value for a, c in root.children.items() if c.visits}
    return visits, values


def _root_search(game: Game[Any, Any], view: JSON, seat: Seat, rng: Rng,
                 profile: SearchProfile, budget: RootBudget, root: Node) -> int | None:
    """The profile's whole flat search (``SearchProfile.root_search``), its statistics written
    into ``root``'s children as the loop leaves them; its iterations, or None (``root``
    untouched) where it cannot run."""
    assert profile.root_search is not None
    found = profile.root_search(game, view, seat, rng, budget)
    if found is None:
        return None
    done, children = found
    for index, visits, value, avail in children:
        child = root.children[index] = Node(seat)
        child.visits, child.value, child.avail = visits, value, avail
    root.visits += done
    return done


def root_candidates(
    game: Game[Any, Any],
    view: JSON,
    seat: Seat,
    rng: Rng,
    profile: SearchProfile,
    width: int | None = None,
) -> set[int] | None:
    """Indices of the ``width`` root actions the profile's prior ranks best, or None for all.

    The seat's own legal actions depend only on what it knows, so one determinization ranks
    them for every sample."""
    prior = profile.prior
    if prior is None:
        return None
    if width is None:
        width = profile.width
    state = game.determinize(view, seat, rng)
    if seat not in game.to_act(state):
        return None
    legal = game.legal_actions(state, seat)
    candidates = prior(game, state, seat, legal, rng)[:width]
    if len(candidates) >= len(legal):
        return None
    return {a.index for a in candidates}


def _decided(root: Node, done: int, elapsed: float, left: float, iterations_left: int) -> bool:
    """True when the most visited root action can no longer be overtaken in the budget left."""
    if elapsed <= 0 or len(root.children) < 2:
        return len(root.children) == 1 and done >= 64
    remaining = min(iterations_left, done / elapsed * left)
    first = second = 0
    for child in root.children.values():
        v = child.visits
        if v > first:
            first, second = v, first
        elif v > second:
            second = v
    return first - second > remaining


def _worker_search(
    game: Game[Any, Any],
    view: JSON,
    seat: Seat,
    profile: SearchProfile,
    params: dict[str, Any],
    until: float | None,
) -> SearchStats:
    """One root-parallel search in a pool process (everything arrives pickled by reference).
    ``until`` is the move's ``time.monotonic()`` end (one clock for every process of the
    machine): a worker that starts late searches only what is left."""
    if until is not None:
        left = until - time.monotonic()
        if left <= 0:
            return SearchStats(0, 0.0, {}, {})
        seconds = params.get("seconds")
        params = {**params, "seconds": left if seconds is None else min(seconds, left)}
    stats, _ = search(game, view, seat, profile=profile, **params)
    return stats


DEADLINE_MARGIN = 0.05
"""Seconds kept back from a deadline for choosing and answering after the search stops."""


class SearchBot(Bot):
    """An IS-MCTS bot with a time or an iteration budget per move; ``cpu_seconds`` optionally
    caps the CPU time of an iteration budget (a ceiling the machine's load cannot move), or
    given alone is the budget (the same compute a move under any load).

    The search stops early once the most visited action cannot be overtaken in the time left
    (with an iteration budget: in the iterations left), and never runs past the ``deadline``
    its caller gives. With a ``pool`` (a ``SearchPool``
    the caller owns) and ``workers`` > 1 it adds root parallelism: ``workers - 1`` pool
    processes search independently with different seeds besides this one, and their root
    statistics are summed; an iteration budget is split among the processes. The bot never
    creates processes itself.

    The tree is kept between moves when the bot acts again right after its own move
    (Kingdomino's place-then-claim, Queendomino's steps): the next root is then the child of the
    action it chose, which is sound because that action was part of the tree's information set
    and nothing was revealed in between (the view's ply moved by exactly one and the bot made
    that move).
    """

    def __init__(
        self,
        seconds: float | None = 1.0,
        iterations: int | None = None,
        seed: int = 0,
        cpu_seconds: float | None = None,
        mode: str | None = None,
        workers: int = 1,
        name: str = "search",
        early_stop: bool = True,
        score_weight: float | None = None,
        width: int | None = None,
        profile: SearchProfile | None = None,
        pool: SearchPool | None = None,
    ) -> None:
        if seconds is None and iterations is None and cpu_seconds is None:
            raise OptionError("a search bot needs a time or an iteration budget")
        self.seconds = seconds
        self.iterations = iterations
        self.cpu_seconds = cpu_seconds
        self.mode = mode
        self.early_stop = early_stop
        self.score_weight = score_weight
        self.width = width
        self.profile = profile or DEFAULT_PROFILE
        self.pool = pool
        self.workers = max(1, min(workers, 1 + (pool.processes if pool is not None else 0)))
        self.name = name
        self.rng = Rng(seed)
        self._tree: tuple[int, Seat, Node] | None = None
        self.last_stats: SearchStats | None = None

    def choose(
        self, game: Game[Any, Any], view: JSON, seat: Seat, deadline: float | None = None
    ) -> Any:
        state = game.determinize(view, seat, self.rng)
        legal = game.legal_actions(state, seat)
        if not legal:
            raise ValueError(f"seat {seat} has nothing to do now")
        if len(legal) == 1:
            self._tree = None
            return legal[0]
        root = self._reusable_root(view, seat)
        seconds = self.seconds
        now = time.monotonic()
        if deadline is not None:
            left = max(0.001, deadline - now - DEADLINE_MARGIN)
            seconds = left if seconds is None else min(seconds, left)
        until = now + seconds if seconds is not None else None
        parallel = self.workers > 1 and self.pool is not None
        iterations = self.iterations
        if iterations is not None and parallel:  # the budget is the move's, shared
            iterations = -(-iterations // self.workers)
        params: dict[str, Any] = {
            "seconds": seconds,
            "iterations": iterations,
            "cpu_seconds": self.cpu_seconds,
            "mode": self.mode,
            "early_stop": self.early_stop,
            "score_weight": self.score_weight,
            "width": self.width,
        }
        futures = []
        if parallel:
            assert self.pool is not None
            futures = [
                self.pool.executor.submit(
                    _worker_search, game, view, seat, self.profile,
                    {**params, "seed": self.rng.next64()}, until,
                )
                for _ in range(self.workers - 1)
            ]
        stats, tree = search(
            game, view, seat, seed=self.rng.next64(), root=root, profile=self.profile, **params
        )
        if futures:
            # Past the caller's deadline, workers that could not finish (a busy pool) are not
            # waited for; on its own budget the bot waits for them, they stop at ``until``.
            timeout = (
                None if deadline is None
                else max(0.0, deadline - DEADLINE_MARGIN / 2 - time.monotonic())
            )
            done, late = wait(futures, timeout=timeout)
            for f in late:
                f.cancel()
            for f in done:
                stats.merge(f.result())
        self.last_stats = stats
        legal_by_index = {a.index: a for a in legal}
        candidates = {a: v for a, v in stats.visits.items() if a in legal_by_index}
        if not candidates:
            return legal[self.rng.below(len(legal))]
        best = max(
            candidates,
            key=lambda a: (stats.visits[a], stats.values[a] / stats.visits[a]),
        )
        # A whole search run elsewhere keeps no tree below the root, so where one may run
        # (``root_search``) none is kept on either core: the bot plays the same on both.
        child = tree.children.get(best) if self.profile.root_search is None else None
        ply = view.get("ply")
        self._tree = (ply + 1, seat, child) if child is not None and isinstance(ply, int) else None
        return legal_by_index[best]

    def _reusable_root(self, view: JSON, seat: Seat) -> Node | None:
        kept, self._tree = self._tree, None
        if kept is None:
            return None
        ply, kept_seat, node = kept
        if kept_seat == seat and view.get("ply") == ply and node.seat == seat:
            return node
        return None

    def close(self) -> None:
        self._tree = None


def default_workers() -> int:
    return max(1, min(2, os.cpu_count() or 1))
