"""Values of positions and moves by flat Monte Carlo from one seat's information.

Every sample draws a full state from what the seat knows (``game.determinize``), applies the
candidate move and plays to the end with the game's playout policy. All candidates share the
same samples and the same playout streams (common random numbers), so what differs between
two candidates' values is the move, not the luck of the draw: the noise of a *difference*,
which is what a judgement reads, is far smaller than that of each value.

Budgets are counts of playouts, never seconds, and every stream is seeded from the analysis
seed, a sample key and the sample number, so the same record gives the same values on any
machine. The analysis gives every decision between two chance events the same key: the
decisions of one stretch with nothing drawn between then value the same drawn worlds with the
same playout streams, so the value after a move and the value before the next decision differ
by what the moves did, not by the luck of the samples.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ludoteca.bots.search import random_playout
from ludoteca.engine.game import JSON, Game, Outcome, Seat
from ludoteca.engine.registry import Playout, SearchProfile
from ludoteca.engine.rng import Rng

KEEP = 8
"""Candidates kept for the full budget after the first, cheaper look at every move."""


def stream(*parts: int | str) -> Rng:
    """A generator seeded by ``parts`` (the same on every machine and Python)."""
    key = ":".join(str(p) for p in parts).encode()
    return Rng(int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big"))


@dataclass
class Estimate:
    """Means over ``samples`` playouts, per seat: the share of a win (ties split) and the final
    score."""

    win: list[float]
    score: list[float]
    samples: int
    exact: bool = False
    """Whether the values are the game's exact solver's (the perfect-information tail)."""

    @classmethod
    def empty(cls, players: int) -> Estimate:
        return cls([0.0] * players, [0.0] * players, 0)

    def add(self, outcome: Outcome) -> None:
        """One playout's result. A win is shared by the winning sides, not seats: partners
        who win together each count a whole win (Kami, Goita)."""
        self.add_result(outcome.ranks, outcome.scores, outcome.side_of)

    def add_result(self, ranks: Sequence[int], scores: Sequence[int],
                   side_of: Sequence[int]) -> None:
        """``add`` from the outcome's ranks, scores and sides alone (a batch of native
        playouts builds no ``Outcome``)."""
        sides = len({side_of[seat] for seat, rank in enumerate(ranks) if rank == 1})
        for seat, (rank, score) in enumerate(zip(ranks, scores, strict=True)):
            self.win[seat] += (1.0 / sides) if rank == 1 else 0.0
            self.score[seat] += score
        self.samples += 1

    def mean(self) -> Estimate:
        n = max(self.samples, 1)
        return Estimate([w / n for w in self.win], [s / n for s in self.score], self.samples,
                        self.exact)

    def key(self, seat: Seat) -> tuple[float, float]:
        """How good this is for ``seat``: the win chance, then the expected score."""
        return (self.win[seat], self.score[seat])


def playout_of(profile: SearchProfile) -> Playout:
    """The game's playout policy to the end (its search profile's), else uniformly random."""
    return profile.playout or random_playout


@dataclass
class Evaluator:
    """Values moves and positions of one game with one playout policy and one seed."""

    game: Game[Any, Any]
    profile: SearchProfile
    seed: int

    def __post_init__(self) -> None:
        self.playout = playout_of(self.profile)
        self.playouts = 0
        """Playouts run so far (what an analysis costs, in iterations, for the benchmarks)."""
        self.solved = 0
        """Values taken from the game's exact solver instead of playouts."""

    def _batch(self, state: Any, seat: Seat | None, actions: Sequence[Any], rng: Rng,
               into: Sequence[Estimate]) -> bool:
        """Each action (None: none) from ``state`` played out with one call of the profile's
        ``playouts_after``, its results added to ``into``; False (nothing added) where the game
        has none or it cannot, and the caller plays them one by one: the same results."""
        after = self.profile.playouts_after
        results = None if after is None else after(self.game, state, seat, actions, rng)
        if results is None:
            return False
        for (ranks, scores, side_of), estimate in zip(results, into, strict=True):
            estimate.add_result(ranks, scores, side_of)
        self.playouts += len(actions)
        return True

    def _finish(self, state: Any, rng: Rng, into: Estimate) -> None:
        self.playouts += 1
        if not self.game.is_over(state):
            self.playout(self.game, state, rng)
        outcome = self.game.outcome(state)
        assert outcome is not None, "a playout ends the game"
        into.add(outcome)

    def _solved(self, state: Any) -> bool:
        """Whether the game's exact solver values this state (nothing hidden, no chance)."""
        exact = self.profile.exact
        return exact is not None and exact(self.game, state) is not None

    def _solved_world(self, draw: Callable[[Rng], Any], key: int, first: int) -> Any | None:
        """The world drawn for sample ``first`` when the game's exact solver values it, else
        None. The solver must start only where the deciding seat's view determines all that
        plays a part: a second world drawn from the same view must have the same exact value
        (what the seat could not see may differ, but never matter)."""
        base = draw(stream(self.seed, "draw", key, first))
        if not self._solved(base):
            return None
        exact = self.profile.exact
        assert exact is not None
        again = draw(stream(self.seed, "draw", key, first, "again"))
        assert exact(self.game, again) == exact(self.game, base), \
            "the exact tail starts only where the deciding seat's view determines its value"
        return base

    def _exactly(self, state: Any, samples: int, into: Estimate) -> None:
        """The exact value, counted as ``samples`` samples (so sums over samples add up)."""
        exact = self.profile.exact
        assert exact is not None
        found = exact(self.game, state)
        assert found is not None, "a state after a solved one is solved"
        wins, scores = found
        self.solved += 1
        for seat in range(len(into.win)):
            into.win[seat] += wins[seat] * samples
            into.score[seat] += scores[seat] * samples
        into.samples += samples
        into.exact = True

    def moves(self, view: JSON, seat: Seat, key: int, candidates: Sequence[Any], players: int,
              samples: int, first: int = 0) -> list[Estimate]:
        """Each candidate's playouts after playing it, summed over samples
        ``first..samples-1`` (``Estimate.mean`` gives the value); ``key`` seeds the samples."""
        game = self.game
        draw = game.determinizer(view, seat)
        sums = [Estimate.empty(players) for _ in candidates]
        base = self._solved_world(draw, key, first) if first < samples else None
        if base is not None:
            # nothing hidden or left to chance: every draw is this one, and the value is exact
            for action, into in zip(candidates, sums, strict=True):
                state = game.clone(base)
                game.apply_legal(state, seat, action)
                self._exactly(state, samples - first, into)
            return sums
        for i in range(first, samples):
            base = draw(stream(self.seed, "draw", key, i))
            if self._batch(base, seat, candidates, stream(self.seed, "play", key, i), sums):
                continue
            for action, into in zip(candidates, sums, strict=True):
                state = game.clone(base)
                game.apply_legal(state, seat, action)
                self._finish(state, stream(self.seed, "play", key, i), into)
        return sums

    def position(self, view: JSON, seat: Seat | None, key: int, players: int,
                 samples: int) -> Estimate:
        """The value of the position ``seat`` sees with the playout policy choosing the next
        move too: the same drawn worlds and playout streams as the moves valued with ``key``."""
        game = self.game
        draw = game.determinizer(view, seat)
        into = Estimate.empty(players)
        base = self._solved_world(draw, key, 0) if samples else None
        if base is not None:
            self._exactly(base, samples, into)
            return into.mean()
        for i in range(samples):
            world, rng = draw(stream(self.seed, "draw", key, i)), stream(self.seed, "play", key, i)
            if not self._batch(world, seat, [None], rng, [into]):
                self._finish(world, rng, into)
        return into.mean()

    def fresh_setups(self, options: dict[str, Any], players: int, samples: int) -> Estimate:
        """The value of a match not yet dealt: the average over new setups (for the luck of
        the first deal)."""
        game = self.game
        validated = game.validate(options, players)
        into = Estimate.empty(players)
        for i in range(samples):
            state = game.start(validated, players, rng=stream(self.seed, "setup", i))
            rng = stream(self.seed, "play", "setup", i)
            if not self._batch(state, None, [None], rng, [into]):
                self._finish(state, rng, into)
        return into.mean()

    def best_of(self, view: JSON, seat: Seat, key: int, legal: Sequence[Any], played: int,
                players: int, budget: int) -> tuple[list[int], list[Estimate]]:
        """Candidates (indices into ``legal``) and their values: every legal move is looked at
        with an eighth of the budget, the best ``KEEP`` and the played one get the whole
        budget (successive halving, so wide decisions such as a domino's placement stay
        affordable). A game whose search profile has a prior (Kami's greedy ranking) has only
        the moves its own search would weigh looked at, and the played one."""
        everything = list(range(len(legal)))
        prior = self.profile.prior
        if prior is not None and len(legal) > 1:  # the moves the game's own search weighs
            state = self.game.determinize(view, seat, stream(self.seed, "prior", key))
            ranked = {a.index for a in prior(self.game, state, seat, list(legal),
                                             stream(self.seed, "prior", key))[: self.profile.width]}
            everything = [k for k, a in enumerate(legal) if a.index in ranked or k == played]
            legal = [legal[k] for k in everything]
            played = everything.index(played)
            kept, values = self._halving(view, seat, key, legal, played, players, budget)
            return [everything[k] for k in kept], values
        return self._halving(view, seat, key, legal, played, players, budget)

    def _halving(self, view: JSON, seat: Seat, key: int, legal: Sequence[Any], played: int,
                 players: int, budget: int) -> tuple[list[int], list[Estimate]]:
        everything = list(range(len(legal)))
        first = max(2, budget // 8)
        if len(legal) <= KEEP or first >= budget:
            sums = self.moves(view, seat, key, legal, players, budget)
            return everything, [s.mean() for s in sums]
        sums = self.moves(view, seat, key, legal, players, first)
        ranked = sorted(everything, key=lambda k: sums[k].mean().key(seat), reverse=True)
        kept = sorted(set(ranked[:KEEP]) | {played})
        more = self.moves(view, seat, key, [legal[k] for k in kept], players, budget, first)
        out = []
        for k, extra in zip(kept, more, strict=True):
            total = sums[k]
            for s in range(players):
                total.win[s] += extra.win[s]
                total.score[s] += extra.score[s]
            total.samples += extra.samples
            out.append(total.mean())
        return kept, out
