"""The game registry: one entry per game, declared in the game's own folder (DESIGN.md §1).

An entry names, as lazy ``"module:attribute"`` references, everything generic tools need: the
``Game``, its greedy bot's ``choose``, its search profile, its terminal renderer, its RL encoder and
its web renderer, all in the game's own folder (DESIGN.md §1). Nothing else in the code lists game
names: the search, the terminal, tournaments and the bench look a game up here. A game package says
what it offers in ``ENTRIES`` in its ``__init__.py``, and ``ludoteca/games/__init__.py`` lists the
packages (one line per package).

References stay strings so that listing games imports no rules engine and no bot.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from importlib.resources import files
from pathlib import Path
from typing import Any

from ludoteca.engine.errors import OptionError
from ludoteca.engine.game import Game, Seat
from ludoteca.engine.i18n import LANGUAGES, N_
from ludoteca.engine.rng import Rng

Playout = Callable[[Game[Any, Any], Any, Rng], None]
"""Plays a determinized state to the end in place."""
Rollout = Callable[[Game[Any, Any], Any, Rng, float], list[float]]
"""Plays on from a state and returns each seat's reward in [0, 1] (the float: score weight)."""
Prior = Callable[[Game[Any, Any], Any, Seat, list[Any], Rng], list[Any]]
"""The seat's root actions worth searching, best first."""
Exact = Callable[[Game[Any, Any], Any], "tuple[list[float], list[float]] | None"]
"""Each seat's share of the win and final score with everyone playing their best, for a state
where nothing that still matters is hidden from anyone or left to chance; None for any other
state."""
Result = tuple[Sequence[int], Sequence[int], Sequence[int]]
"""A finished playout: each seat's rank, score and side (``Outcome.ranks``, ``scores``,
``side_of``; any numbering of the sides)."""
Playouts = Callable[[Game[Any, Any], Any, "Seat | None", Sequence[Any], Rng],
                    "list[Result] | None"]
"""The profile's ``playout`` after each of several actions from one state, in one call: for
each action (None: none), a copy of the state with the seat's action applied, played to the end
drawing from a copy of the generator (every copy from its state as given, the generator left
as it is). None where it cannot (the Python core chosen, a state the native core refuses): the
caller then plays them one by one, with the same results."""


@dataclass(frozen=True)
class RootBudget:
    """What a whole-search hook (``SearchProfile.root_search``) may spend and how it rewards,
    as ``bots/search.py``'s loop reads its budget at the moment it hands over."""

    iterations: int
    """At most this many iterations (an iteration budget, else a number never reached)."""
    seconds: float
    """Seconds left on the clock (``math.inf``: none)."""
    cpu_seconds: float
    """Seconds of this process's CPU left (``math.inf``: none)."""
    elapsed: float
    """Seconds the search spent before handing over (its rate estimates count them): of CPU
    with ``by_cpu``, else on the clock."""
    by_iterations: bool
    """An iteration budget: early stops count the iterations left, never the time."""
    by_cpu: bool
    """CPU seconds alone are the budget: early stops estimate the iterations left from them."""
    early_stop: bool
    exploration: float
    win_weight: float
    score_weight: float
    score_scale: float | None
    tree: bool = False
    """The tree search (``mode="uct"``) rather than the flat one."""


RootStats = tuple[int, list[tuple[int, int, float, int]]]
"""A whole search's iterations and, per root action in the order the loop created it, (index,
visits, total reward, availability)."""
RootSearch = Callable[[Game[Any, Any], Any, Seat, Rng, RootBudget], "RootStats | None"]
"""A whole search of the view for the seat (flat, or a tree with ``RootBudget.tree``) run
elsewhere (a native core) with exactly the draws and choices of ``bots/search.py``'s loop; None
where it cannot (the loop then runs)."""


@dataclass(frozen=True)
class SearchProfile:
    """How the generic search (``bots/search.py``) plays one game, each value measured
    (docs/bots.md): tree mode, leaf evaluation, root pruning and reward shape."""

    mode: str = "uct"
    """``"uct"`` (IS-MCTS) or ``"flat"`` (statistics at the root only)."""
    playout: Playout | None = None
    """Playout policy to the end of the game; None: uniformly random."""
    rollout: Rollout | None = None
    """A rollout that values the leaf itself (e.g. to the end of the round); wins over
    ``playout``."""
    prior: Prior | None = None
    width: int | None = None
    """How many of the prior's best root actions are searched (None: all it returns)."""
    score_weight: float = 0.0
    """Share of the reward paid for points (``search.utilities``)."""
    score_scale: float | None = None
    """Score that earns the whole score share (None: the best score of the game)."""
    exact: Exact | None = None
    """An exact solver of the game's perfect-information tail: the analysis values a move there
    with it instead of playouts (docs/analysis.md lists where each game's tail starts)."""
    playouts: Mapping[str, int] | None = field(default=None, compare=False)
    """Playouts (search iterations) per move of each search level (``{"medium": ..., "hard":
    ...}``), where the game measured them: a fixed, seeded budget makes a level the same player
    on any machine and under any load, which its rating needs (docs/ratings.md). None: the
    levels search for their seconds (``bots.SEARCH_SECONDS``), so play depends on speed."""
    playouts_after: Playouts | None = None
    """``playout`` from one state after each of several actions in one call (the analysis's
    samples of one drawn world: ``analysis/estimates.py``), where the game has it natively;
    None: one by one."""
    root_search: RootSearch | None = field(default=None, compare=False)
    """The whole search, flat or a tree, of ``playout`` and this reward in one call
    (Kingdomino's native core: ``games/kingdomino/native_search.py``), equal to the loop's
    statistics; the loop runs where it answers None."""
    analysis_budget: int = 256
    """Playouts per candidate move in post-game analysis (ludoteca/analysis) unless asked
    otherwise: fixed per game so an analysis costs minutes, not hours, where a playout to the
    match's end is long (docs/analysis.md has each game's cost and noise)."""
    analysis_budgets: tuple[tuple[int, int], ...] = ()
    """``(players, budget)`` where a player count's differs from ``analysis_budget``: where a
    larger one is affordable there and brings the noise floor under 2 points."""

    def budget_for(self, players: int) -> int:
        """The analysis budget of a match of ``players``."""
        return dict(self.analysis_budgets).get(players, self.analysis_budget)


DEFAULT_PROFILE = SearchProfile()


def resolve(ref: str) -> Any:
    """``"package.module:attribute"`` -> the attribute (the module alone without a colon)."""
    module, _, attr = ref.partition(":")
    obj = import_module(module)
    return getattr(obj, attr) if attr else obj


@dataclass(frozen=True)
class GameEntry:
    """One game as generic tools see it. Every reference is optional but the game's: a game
    with no greedy bot plays with random and search bots, one with no terminal renderer only
    in tournaments."""

    name: str
    game: str
    """``module:attribute`` of the ``Game`` instance."""
    greedy: str | None = None
    """``module:attribute`` of ``choose(game, view, seat, rng) -> action``."""
    search: str | None = None
    """``module:attribute`` of the game's ``SearchProfile``."""
    terminal: str | None = None
    """Module of the terminal renderer (``ludoteca/terminal/__init__.py`` says what it has)."""
    web: str | None = None
    """``package:path`` of the browser renderer, an ES module whose default export is
    ``{name, messages: {en, es}, render(root, ctx)}`` (``ctx``: view, legal, names, t, act). Its
    folder is served whole at ``/static/games/<name>/``, so the renderer imports
    its stylesheet and helpers by relative URL; ``i18n/<lang>.json`` there holds the option
    labels (and any other words) of the games it serves, keyed by game name. None: the browser
    shows the plain view."""
    bench_target: float | None = None
    """Random games per second (4 players where allowed) the engine must reach."""
    native: str | None = None
    """Module (or ``module:attribute``, for two games of one engine) of the game on the native
    core (``ludoteca/engine/native.py``; docs/engine.md, "The native core"): its
    ``random_games(players, first_seed, count)`` plays seeded random matches in C++, its
    ``batched_steps(players, size, steps)`` steps a batch of them, and its
    ``search_playouts(players, first_seed, count)``, if it has one, plays them with the search
    profile's playout. Its ``batch(options, players, size, seed)`` and ``batch_policies()``,
    if it has them, give a native ``Batch`` and the bot levels its ``sample`` plays: the RL
    vector environments' ``core="native"`` (``ludoteca/rl/native_vector.py``). None: the game
    plays on the Python engine only."""
    rl_observation: str | None = None
    """``module:attribute`` of the RL observation encoder class (``ludoteca/rl/encode.py``;
    needs the ``rl`` extra). None: the game has no RL environment yet."""
    rl_score: str | None = None
    """``module:attribute`` of ``scores_now(state) -> (scores, scale)``: each seat's score now
    (the outcome's scores at the end; partners share) and a typical winning score to measure
    it against, for the RL rewards ``margin`` and ``shaped`` (``ludoteca/rl/rewards.py``).
    None: those rewards are refused for the game."""
    rl_picture: str | None = None
    """``module:attribute`` of ``draw(view) -> H×W×3 uint8 array``, the picture of a public
    view for the RL environments' ``rgb_array`` mode (``ludoteca/rl/picture.py`` has the
    shapes; needs the ``rl`` extra). None: those environments render text only."""

    def load(self) -> Game[Any, Any]:
        game = resolve(self.game)
        if not isinstance(game, Game):
            raise TypeError(f"{self.game} is not a Game")
        return game

    def greedy_choose(self) -> Callable[[Game[Any, Any], Any, Seat, Rng], Any] | None:
        return resolve(self.greedy) if self.greedy else None

    def web_file(self) -> Path | None:
        """The renderer's file in the installed package (None without a web renderer)."""
        if not self.web:
            return None
        package, _, path = self.web.partition(":")
        return Path(str(files(package).joinpath(path)))

    def web_labels(self) -> dict[str, dict[str, str]]:
        """This game's words in each language, from its web folder's ``i18n/<lang>.json``:
        ``{lang: {"<option>": label, "<option>.hint": hint, "<option>.<choice>": label,
        "howto.<n>": the rules' n-th line}}``.
        Read from disk each call; the server asks once per process."""
        web = self.web_file()
        out: dict[str, dict[str, str]] = {}
        for lang in LANGUAGES:
            path = web.parent / "i18n" / f"{lang}.json" if web else None
            words = json.loads(path.read_text("utf-8")) if path and path.is_file() else {}
            out[lang] = dict(words.get(self.name, {}))
        return out

    def search_profile(self) -> SearchProfile:
        if not self.search:
            return DEFAULT_PROFILE
        profile = resolve(self.search)
        if not isinstance(profile, SearchProfile):
            raise TypeError(f"{self.search} is not a SearchProfile")
        return profile


class Registry:
    """Entries by name (names are case-insensitive), their games loaded on first use."""

    def __init__(self, entries: list[GameEntry]) -> None:
        self._entries: dict[str, GameEntry] = {}
        for e in entries:
            if e.name != e.name.strip().lower():
                raise ValueError(f"a game's registry name is lower case: {e.name!r}")
            if e.name in self._entries:
                raise ValueError(f"two games are called {e.name!r}")
            self._entries[e.name] = e
        self._games: dict[str, Game[Any, Any]] = {}

    def names(self) -> list[str]:
        return list(self._entries)

    def entry(self, name: str) -> GameEntry:
        key = name.strip().lower()
        found = self._entries.get(key)
        if found is None:
            raise OptionError(
                msgid=N_("unknown game {name}; known games: {games}"),
                name=repr(name), games=", ".join(self._entries),
            )
        return found

    def game(self, name: str) -> Game[Any, Any]:
        e = self.entry(name)
        game = self._games.get(e.name)
        if game is None:
            game = e.load()
            if game.spec.name != e.name:
                raise ValueError(f"the entry {e.name!r} loads the game {game.spec.name!r}")
            self._games[e.name] = game
        return game
