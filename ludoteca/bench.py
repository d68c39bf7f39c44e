"""Engine speed: random max-player games per second on one core, against a target per game.

Both cores run in the same run: where the game has a native core (its registry entry's
``native``) and ``LUDOTECA_CORE`` allows it, the same random games are also played in C++, and
a batch of matches is stepped through the native batched API, so the ratio compares like with like
on one machine at one moment (docs/engine.md, "The native core").

Random play goes through the match driver's trusted loop (``Match.play_random``: the
contract's fast path, ``legal_actions`` + ``apply_legal``, without the action log, as playouts
run) with fixed seeds, so figures are comparable between runs and machines. Every game also
reports the cost of one ``legal_actions`` and one ``clone`` call over a fixed corpus of mid-game
states. Targets come from each game's registry entry.
"""

from __future__ import annotations

import logging
import random
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ludoteca.engine.errors import LudotecaError
from ludoteca.engine.game import Game
from ludoteca.engine.match import Match
from ludoteca.engine.native import CoreUnavailable, chosen_core, core_setting, using_core
from ludoteca.engine.playout import RANDOM
from ludoteca.engine.registry import resolve
from ludoteca.engine.rng import Rng
from ludoteca.games import entry, game_names, get_game

log = logging.getLogger("ludoteca.bench")


@dataclass
class BenchResult:
    game: str
    players: int
    games: int
    seconds: float
    target: float | None
    extra: dict[str, float] = field(default_factory=dict)
    error: str | None = None

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def ratio(self) -> float | None:
        return self.games_per_second / self.target if self.target else None

    @property
    def native_ratio(self) -> float | None:
        """Native random games per second over the Python engine's, measured in this run."""
        native = self.extra.get("native_games_per_second")
        python = self.games_per_second
        return native / python if native is not None and python else None

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
            "target": self.target,
            "ratio": self.ratio,
            "native_ratio": self.native_ratio,
            "error": self.error,
            **self.extra,
        }


def random_game(game: Game[Any, Any], players: int, seed: int) -> Any:
    """Play one game of uniformly random legal actions through the match driver's trusted
    random loop (``Match.play_random``); return the final state.

    The harness draws its choices from the C-implemented ``random.Random`` so that the figure
    measures the engine, not the chooser; the game itself still uses its own seeded ``Rng``.
    """
    match = Match.new(game, None, players, seed, narrate=False)
    match.play_random(random.Random(seed ^ 0x5EED).random, log=False)
    return match.state


def games_per_second(game: Game[Any, Any], players: int, seconds: float) -> tuple[int, float]:
    """Games played and time taken: seeds 0, 1, 2 … until ``seconds`` have passed."""
    played = 0
    start = time.perf_counter()
    elapsed = 0.0
    while played == 0 or elapsed < seconds:
        random_game(game, players, played)
        played += 1
        elapsed = time.perf_counter() - start
    return played, elapsed


def per_call_us(fn: Callable[[Any], object], items: list[Any], seconds: float) -> float:
    """Mean microseconds of ``fn(item)`` cycling over ``items`` for about ``seconds``."""
    calls = 0
    start = time.perf_counter()
    elapsed = 0.0
    while calls == 0 or elapsed < seconds:
        for item in items:
            fn(item)
        calls += len(items)
        elapsed = time.perf_counter() - start
    return 1e6 * elapsed / calls


def decision_corpus(
    game: Game[Any, Any], players: int, games: int = 20, every: int = 3
) -> list[tuple[Any, int]]:
    """(state, seat) pairs at every ``every``-th decision of seeded random games."""
    corpus: list[tuple[Any, int]] = []
    for seed in range(games):
        match = Match.new(game, None, players, 10_000 + seed, narrate=False)
        rng = Rng(seed)

        def pick(state: Any, seat: int, actions: list[Any], rng: Rng = rng) -> Any:
            if state.ply % every == 0:
                corpus.append((game.clone(state), seat))
            return actions[rng.below(len(actions))]

        match.play_out(pick)
    return corpus


def call_costs(game: Game[Any, Any], players: int, seconds: float) -> dict[str, float]:
    """Microseconds per ``legal_actions`` and per ``clone`` over mid-game states."""
    corpus = decision_corpus(game, players)
    return {
        "corpus_states": float(len(corpus)),
        "legal_us": per_call_us(lambda c: game.legal_actions(c[0], c[1]), corpus, seconds),
        "clone_us": per_call_us(lambda c: game.clone(c[0]), corpus, seconds),
    }


BENCH_PLAYERS = 4


def bench_players(game: Game[Any, Any]) -> int:
    """4 players (the targets' table size), or the nearest count the game allows."""
    spec = game.spec
    return max(spec.min_players, min(BENCH_PLAYERS, spec.max_players))


def state_bytes(game: Game[Any, Any], players: int, copies: int = 200) -> float:
    """Bytes allocated by one clone of a mid-game state (what a search pays per node copy)."""
    match = Match.new(game, None, players, 4242, narrate=False)
    pick = random.Random(4242).random
    for _ in range(60):
        seats = match.to_act()
        if not seats:
            break
        seat = min(seats)
        actions = match.legal(seat)
        match.step(seat, actions[int(pick() * len(actions))])
    state = match.state
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = [game.clone(state) for _ in range(copies)]
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    del kept
    return (after - before) / copies


NATIVE_BATCH = 256
"""Matches per native batch (``batched_steps``)."""


def per_second(run: Callable[[int], int], seconds: float) -> float:
    """Units per second of ``run(n)`` (which does ``n`` rounds and returns the units done),
    called with growing ``n`` for at least ``seconds``, so the timer's cost stays negligible."""
    done, rounds, start = 0, 16, time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        done += run(rounds)
        rounds *= 2
        elapsed = time.perf_counter() - start
    return done / elapsed


def native_figures(
    game: Game[Any, Any], name: str, module: str, players: int, seconds: float
) -> dict[str, float]:
    """The native core's random games and batched match-steps per second, and where the game's
    native module has them, search-profile playouts per second on both cores."""
    native = resolve(module)

    def games(n: int) -> int:
        native.random_games(players, 0, n)
        return n

    def steps(n: int) -> int:
        return int(native.batched_steps(players, NATIVE_BATCH, n))

    figures = {
        "native_games_per_second": per_second(games, seconds),
        "native_batch_steps_per_second": per_second(steps, seconds),
    }
    playout = entry(name).search_profile().playout
    if playout is not None and hasattr(native, "search_playouts"):

        def python_playouts(n: int) -> int:
            for seed in range(n):
                playout(game, game.setup(None, players, seed), Rng(seed))
            return n

        def native_playouts(n: int) -> int:
            native.search_playouts(players, 0, n)
            return n

        with using_core("python"):  # Game.playout goes native where it can: the Python core's own
            figures["python_search_playouts_per_second"] = per_second(python_playouts, seconds)
        figures["native_search_playouts_per_second"] = per_second(native_playouts, seconds)
    return figures


def driver_games(game: Game[Any, Any], players: int, seconds: float) -> float:
    """Random games a second through the match driver on the core chosen now: ``Match.new``
    (options checked, the deal), then ``Match.play_policy(RANDOM)`` without a log, which the
    native core plays whole and reads back into the Python state."""

    def run(n: int) -> int:
        for seed in range(n):
            match = Match.new(game, None, players, seed, narrate=False)
            match.play_policy(RANDOM, Rng(seed ^ 0x5EED), log=False)
        return n

    return per_second(run, seconds)


def bench_game(name: str, seconds: float = 2.0) -> BenchResult:
    """One game's figures; a game that cannot be set up with default options reports why."""
    game = get_game(name)
    target = entry(name).bench_target
    players = bench_players(game)
    try:
        played, elapsed = games_per_second(game, players, seconds)
    except LudotecaError as exc:
        return BenchResult(game.spec.name, players, 0, 0.0, target, error=str(exc))
    extra = call_costs(game, players, seconds / 4)
    extra["state_bytes"] = state_bytes(game, players)
    module = entry(name).native
    if module is not None and chosen_core() == "native":
        try:
            extra.update(native_figures(game, name, module, players, seconds / 2))
            for setting in ("python", "native"):
                with using_core(setting):
                    extra[f"{setting}_driver_games_per_second"] = driver_games(
                        game, players, seconds / 2)
        except CoreUnavailable as exc:  # a core built before this game was native: no row
            log.warning("%s", exc)
    return BenchResult(game.spec.name, players, played, elapsed, target, extra)


def run_bench(
    seconds: float = 2.0,
    games: list[str] | None = None,
    on_result: Callable[[BenchResult], None] | None = None,
) -> list[BenchResult]:
    """Benchmark each named game (default: every registered one)."""
    names = games if games else game_names()
    for name in names:
        get_game(name)  # unknown names fail before any time is spent
    results = []
    for name in names:
        result = bench_game(name, seconds)
        results.append(result)
        if on_result is not None:
            on_result(result)
    return results


def report(results: list[BenchResult]) -> Any:
    """A Rich table of the results: speed, ratio to the target, per-call costs."""
    from rich.console import Group
    from rich.markup import escape
    from rich.table import Table

    from ludoteca.tables import fold_long_words

    table = Table(title="Engine speed (random legal play, one core)")
    table.add_column("game", no_wrap=True)
    table.add_column("seats", justify="right")
    table.add_column("games", justify="right")
    table.add_column("games/s", justify="right")
    table.add_column("target", justify="right")
    table.add_column("ratio", justify="right")
    table.add_column("bytes/clone", justify="right")
    for r in results:
        if r.error is not None:
            table.add_row(
                r.game, str(r.players), "-", f"[red]failed: {escape(r.error)}[/]", "", "", ""
            )
            continue
        ratio = r.ratio
        ratio_text = "-" if ratio is None else f"{ratio:.2f}x"
        style = "" if ratio is None else ("green" if ratio >= 1 else "red")
        table.add_row(
            r.game,
            str(r.players),
            str(r.games),
            f"{r.games_per_second:,.0f}",
            "-" if r.target is None else f"{r.target:,.0f}",
            f"[{style}]{ratio_text}[/]" if style else ratio_text,
            f"{r.extra.get('state_bytes', 0):,.0f}",
        )
    notes = [
        f"{r.game}: legal actions {r.extra['legal_us']:.1f} µs, clone {r.extra['clone_us']:.2f} µs"
        for r in results
        if "legal_us" in r.extra
    ]
    if notes:
        table.caption = "per call, over mid-game states:\n" + "\n".join(notes)
    return Group(fold_long_words(table), native_table(results))


def native_table(results: list[BenchResult]) -> Any:
    """Both cores side by side: the same random games on each, the same search playouts, and
    the native batched steps."""
    from rich.table import Table
    from rich.text import Text

    from ludoteca.tables import fold_long_words

    table = Table(title="Native core against the Python core (same run, one core)")
    table.add_column("game", no_wrap=True)
    table.add_column("seats", justify="right")
    table.add_column("per second", no_wrap=True)
    table.add_column("python", justify="right")
    table.add_column("native", justify="right")
    table.add_column("native ÷ python", justify="right")
    for r in results:
        ratio = r.native_ratio
        if ratio is None:
            continue
        x = r.extra
        table.add_row(r.game, str(r.players), "random games", f"{r.games_per_second:,.0f}",
                      f"{x['native_games_per_second']:,.0f}", f"{ratio:.1f}x")
        if "native_search_playouts_per_second" in x:
            py, nat = x["python_search_playouts_per_second"], x["native_search_playouts_per_second"]
            table.add_row("", "", "search playouts", f"{py:,.0f}", f"{nat:,.0f}",
                          f"{nat / py:.1f}x")
        if "native_driver_games_per_second" in x:
            py, nat = x["python_driver_games_per_second"], x["native_driver_games_per_second"]
            table.add_row("", "", "driver games", f"{py:,.0f}", f"{nat:,.0f}",
                          f"{nat / py:.1f}x")
        table.add_row("", "", "batched steps", "-", f"{x['native_batch_steps_per_second']:,.0f}",
                      "-")
    if not table.rows:
        why = ("LUDOTECA_CORE=python" if core_setting() == "python"
               else "none of these games has one, or it is not built (make install)")
        return Text(f"Native core: no figures ({why}).")
    table.caption = (f"driver games: random games through the match driver (Match.new, "
                     "Match.play_policy(RANDOM): played whole in the game, read back); search "
                     "playouts: the search profile's playout policy; batched: "
                     f"{NATIVE_BATCH} matches stepped per call, observations, random choices, "
                     "legal masks, rewards and dones written to numpy arrays")
    return fold_long_words(table)
