"""The game contract every rules engine implements (DESIGN.md §2).

Callers use the public methods; a game writes the private hooks (``_setup``, ``_why_illegal``,
``_apply``). The public ``apply`` does the bookkeeping every game needs — turn, sequence number,
game over, legality — so no game can forget it, and a refused action never touches the state.
"""

from __future__ import annotations

import pickle
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from ludoteca.engine.errors import (
    GameOver,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    OptionError,
    Reason,
    because,
)
from ludoteca.engine.events import Event, event
from ludoteca.engine.i18n import N_, Voice
from ludoteca.engine.options import Option, OptionValue, validate_options
from ludoteca.engine.parts import Part, TieBreak, side_index
from ludoteca.engine.playout import RANDOM, Kind, Order, Policy, Until
from ludoteca.engine.rng import Rng

Seat = int
JSON = dict[str, Any]


class Action(Protocol):
    """A small immutable value with one canonical JSON form and a stable integer index."""

    @property
    def index(self) -> int: ...

    def to_json(self) -> JSON: ...


class State(Protocol):
    """Every game state counts the actions applied to it (the sequence number) and copies
    itself cheaply."""

    ply: int

    def clone(self) -> Any: ...


S = TypeVar("S", bound=State)
A = TypeVar("A", bound=Action)


@dataclass(frozen=True, slots=True)
class GameSpec:
    """What generic tools (server, bots, RL adapters) need to know about a game, as data."""

    name: str
    title: str
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    num_actions: int
    max_length: int
    simultaneous: bool = False
    hidden_information: bool = False
    chance: bool = True
    teams: bool = False
    rules: str = ""

    def to_json(self) -> JSON:
        return {
            "name": self.name,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "options": [o.to_json() for o in self.options],
            "num_actions": self.num_actions,
            "max_length": self.max_length,
            "simultaneous": self.simultaneous,
            "hidden_information": self.hidden_information,
            "chance": self.chance,
            "teams": self.teams,
        }


@dataclass(frozen=True, slots=True)
class Side:
    """One side at the end: its seats (partners, or one seat), its score, its rank over sides."""

    seats: tuple[Seat, ...]
    score: int
    rank: int

    def to_json(self) -> JSON:
        return {"seats": list(self.seats), "score": self.score, "rank": self.rank}


@dataclass(frozen=True, slots=True)
class Outcome:
    """Final result: per-seat scores, ranks (1 = best, equal ranks share), the sides, each
    score as parts, and the tie-break reasons, so no consumer infers or re-adds anything.

    ``teams`` lists the seats of each side (one seat each when nobody plays in teams; filled in
    when left empty); partners share their side's score, parts and rank. ``sides`` says each
    side once, ranked over sides (a match ends as sides, not seats: two teams are 1st and
    2nd, not 1, 1, 3, 3), which every end screen shows. ``parts[seat]`` adds up
    to ``scores[seat]``. ``tiebreak[seat]`` says each value compared besides the score, in
    order; ``tiebreaks`` holds the same values as bare numbers (kept for older readers), and
    ``breakdown`` the game's own detailed explanation."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    breakdown: tuple[JSON, ...] = field(default=())
    tiebreaks: tuple[tuple[int, ...], ...] = field(default=())
    teams: tuple[tuple[Seat, ...], ...] = field(default=())
    parts: tuple[tuple[Part, ...], ...] = field(default=())
    tiebreak: tuple[tuple[TieBreak, ...], ...] = field(default=())

    def __post_init__(self) -> None:
        if not self.teams:
            object.__setattr__(self, "teams", tuple((s,) for s in range(len(self.scores))))

    @property
    def winners(self) -> tuple[Seat, ...]:
        return tuple(s for s, r in enumerate(self.ranks) if r == 1)

    @property
    def side_of(self) -> tuple[int, ...]:
        """Each seat's side: its team's index in ``teams``."""
        return tuple(side_index(self.teams, len(self.scores)))

    @property
    def sides(self) -> tuple[Side, ...]:
        """Each side once, in ``teams`` order: its seats, its score and its rank counted over
        sides (sides with equal seat ranks share one; the next counts the sides above it)."""
        first = [team[0] for team in self.teams]
        return tuple(
            Side(seats=tuple(team), score=self.scores[seat],
                 rank=1 + sum(1 for other in first if self.ranks[other] < self.ranks[seat]))
            for team, seat in zip(self.teams, first, strict=True))

    def to_json(self) -> JSON:
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": list(self.winners),
            "teams": [list(t) for t in self.teams],
            "sides": [side.to_json() for side in self.sides],
            "parts": [[p.to_json() for p in seat] for seat in self.parts],
            "tiebreak": [[t.to_json() for t in seat] for seat in self.tiebreak],
            "tiebreaks": [list(t) for t in self.tiebreaks],
            "breakdown": list(self.breakdown),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        """An outcome read back from ``to_json`` (a stored result); older results, without
        teams, parts or tie-break reasons, read with one seat per side and none of those."""
        return cls(
            scores=tuple(int(x) for x in data["scores"]),
            ranks=tuple(int(x) for x in data["ranks"]),
            breakdown=tuple(data.get("breakdown") or ()),
            tiebreaks=tuple(tuple(int(x) for x in t) for t in data.get("tiebreaks") or ()),
            teams=tuple(tuple(int(x) for x in t) for t in data.get("teams") or ()),
            parts=tuple(tuple(Part.from_json(p) for p in seat) for seat in data.get("parts") or ()),
            tiebreak=tuple(
                tuple(TieBreak.from_json(t) for t in seat) for seat in data.get("tiebreak") or ()
            ),
        )


def ranks_from_keys(keys: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """Competition ranks (1, 2, 2, 4) from per-seat keys where larger is better."""
    return tuple(1 + sum(1 for other in keys if other > k) for k in keys)


def _module_attribute(module: str, name: str) -> Any:
    return getattr(import_module(module), name)


class Game(ABC, Generic[S, A]):
    """Base of every rules engine. Subclasses set ``spec`` and implement the hooks."""

    def __reduce__(self) -> str | tuple[Any, ...]:
        """A game crosses to another process as a reference to its module's instance, never
        as a copy: caches it holds then stay shared, and actions compared by identity
        (``action is PASS``) stay the module's own."""
        module = sys.modules[type(self).__module__]
        for name, value in vars(module).items():
            if value is self:
                return (_module_attribute, (module.__name__, name))
        return super().__reduce__()

    spec: GameSpec
    locale: Path | tuple[Path, ...] | None = None
    """The game's ``locale`` folder (its Spanish sentences), or several when it reuses
    another game's sentences (Queendomino tells Kingdomino's draft and placements)."""

    # ---- setup ---------------------------------------------------------------------------
    def validate(
        self, options: Mapping[str, object] | None, players: int
    ) -> dict[str, OptionValue]:
        """Checked options with defaults filled in, or OptionError."""
        spec = self.spec
        if isinstance(players, bool) or not isinstance(players, int):
            raise OptionError(
                msgid=N_("the number of players must be a whole number, not {players!r}"),
                players=players,
            )
        if not spec.min_players <= players <= spec.max_players:
            raise OptionError(
                msgid=N_("{game} is for {min}-{max} players, not {players}"),
                game=spec.title,
                min=spec.min_players,
                max=spec.max_players,
                players=players,
            )
        opts = validate_options(spec.options, options, players)
        self._check_options(opts, players)
        return opts

    def setup(
        self, options: Mapping[str, object] | None = None, players: int = 2, seed: int = 0
    ) -> S:
        """A new match: validates options and player count, then shuffles from ``seed``."""
        opts = self.validate(options, players)
        return self._setup(opts, players, Rng(seed))

    def start(
        self, validated: dict[str, OptionValue], players: int, seed: int = 0,
        rng: Rng | None = None,
    ) -> S:
        """A new match from options already checked by ``validate`` (the match driver
        validates once, then starts and replays without checking again). ``rng``, when given,
        deals instead of ``Rng(seed)``: the OpenSpiel adapter's generator, whose every draw is
        a chance node."""
        return self._setup(validated, players, rng if rng is not None else Rng(seed))

    def data_version(self, options: Mapping[str, object]) -> dict[str, str]:
        """The versions of the component data a match with ``options`` plays with (board
        layouts, building tables), named in its match record so it replays identically."""
        return {}

    def _check_options(self, options: dict[str, OptionValue], players: int) -> None:
        """Hook for rules that tie options to each other or to the player count."""

    @abstractmethod
    def _setup(self, options: dict[str, OptionValue], players: int, rng: Rng) -> S: ...

    # ---- turn ----------------------------------------------------------------------------
    @abstractmethod
    def to_act(self, state: S) -> frozenset[Seat]:
        """Seats that may act now; several for simultaneous decisions; empty when over."""

    def legal_indices(self, state: S, seat: Seat) -> list[int]:
        """The stable indices of every legal action for ``seat`` now (empty if it may not
        act): the one enumeration of legal moves (learners' action masks, playouts, a native
        core). A game writes this, or else ``legal_actions`` (a game that writes neither
        recurses forever); the two agree (tests/engine/test_legal_indices.py)."""
        return [a.index for a in self.legal_actions(state, seat)]

    def legal_actions(self, state: S, seat: Seat) -> list[A]:
        """The actions of ``legal_indices(state, seat)``, in its order: the shared values of
        ``action_table``."""
        table = self.action_table()
        return [table[i] for i in self.legal_indices(state, seat)]

    _action_table: tuple[Any, ...]

    def action_table(self) -> tuple[Any, ...]:
        """Every action by its index (None where an index names no action), read once from
        ``action_from_index``: how index-level code gets the shared action values without
        ``action_from_index``'s checks."""
        try:
            return self._action_table
        except AttributeError:
            pass
        table: list[A | None] = []
        for index in range(self.spec.num_actions):
            try:
                table.append(self.action_from_index(index))
            except MalformedAction:
                table.append(None)
        self._action_table = tuple(table)
        return self._action_table

    def apply_index(self, state: S, seat: Seat, index: int) -> None:
        """``apply_legal`` for a legal action given by its index (``legal_indices``)."""
        self.apply_legal(state, seat, self.action_table()[index])

    def apply(self, state: S, seat: Seat, action: A) -> None:
        """Apply ``action`` for ``seat`` in place, or raise IllegalAction and change nothing.

        Sequence numbers (which decision a client answers) are the match driver's business
        (``engine/match.py``), not the state's.
        """
        if self.is_over(state):
            raise GameOver(msgid=N_("The game is over."))
        if seat not in self.to_act(state):
            raise NotYourTurn(msgid=N_("It is not {player}'s turn."), player=f"P{seat + 1}")
        reason = self._why_illegal(state, seat, action)
        if reason is not None:
            raise IllegalAction(str(reason), msgid=reason.msgid, **reason.fields)
        self._apply(state, seat, action)
        state.ply += 1

    def apply_legal(self, state: S, seat: Seat, action: A) -> None:
        """Trusted fast path for an action taken from ``legal_actions`` (bots, playouts, replay
        of a log that was checked when written). Skips every check."""
        self._apply(state, seat, action)
        state.ply += 1

    def _why_illegal(self, state: S, seat: Seat, action: A) -> Reason | None:
        """Why ``action`` is not legal, or None. Games override with specific reasons, each a
        ``Reason`` so it can be said in every language: ``because(N_("..."), field=value)``."""
        if action in self.legal_actions(state, seat):
            return None
        return not_legal_now(self.describe(action))

    @abstractmethod
    def _apply(self, state: S, seat: Seat, action: A) -> None: ...

    def clone(self, state: S) -> S:
        """An independent copy; every state class writes a cheap ``clone()`` of its own."""
        return state.clone()  # type: ignore[no-any-return]

    def reveals(self, before: S, seat: Seat, action: A, after: S) -> bool:
        """Whether ``action``, taken by ``seat`` from ``before`` to ``after``, uncovered hidden
        information or randomness: read off the two states, never by applying it again."""
        return True

    def chance(self, before: S, seat: Seat, action: A, after: S) -> bool:
        """Whether ``action`` (from ``before`` to ``after``) drew something by chance (a new
        line, a deal, a roll): what post-game analysis values as luck (ludoteca/analysis).
        Default: whatever reveals; games where a reveal can be a player's own card override
        it."""
        return self.reveals(before, seat, action, after)

    # ---- playouts and snapshots (docs/engine.md, "Playouts") -----------------------------
    playout_policy: Policy = RANDOM
    """What the policy ``"game"`` plays: the game's own playout policy (its search's)."""

    def round_of(self, state: S) -> int:
        """The number of the round being played, where a playout ``until=Until.ROUND``
        stops when it changes. Default: one round, the whole match."""
        return 0

    def playout(self, state: S, policy: Policy, rng: Rng, until: Until = Until.END,
                trace: list[tuple[Seat, int]] | None = None,
                order: Order = Order.LOWEST) -> None:
        """Play ``state`` on in place with ``policy`` until ``until``, drawing from ``rng``;
        simultaneous seats act lowest first, or in sweeps with ``Order.SWEEP``. ``trace``,
        when given, gets each ``(seat, index)`` applied. The whole loop runs inside the game
        (a native core runs it without calling Python, except for a ``PYTHON`` policy's
        chooser)."""
        if policy.kind == Kind.GAME:
            policy = self.playout_policy
        if order == Order.SWEEP:
            self._swept(state, policy, rng, until, trace)
        else:
            self._playout(state, policy, rng, until, trace)

    def _playout(self, state: S, policy: Policy, rng: Rng, until: Until,
                 trace: list[tuple[Seat, int]] | None) -> None:
        """The Python engine's playout loop; a game may override it (same draws, faster).

        A Python policy chooses among indices; the others run on the actions (the same
        enumeration, in the same order), which the game's ``_greedy`` hook reads.
        Epsilon-greedy draws ``below(epsilon)`` first, then, when it is 0,
        ``below(len(legal))``."""
        to_act, below, round_of = self.to_act, rng.below, self.round_of
        kind, epsilon, choose = policy.kind, policy.epsilon, policy.choose
        start = round_of(state) if until == Until.ROUND else None
        apply_legal = self.apply_legal
        if kind == Kind.RANDOM and start is None and trace is None:  # the search's leaf loop
            legal_actions = self.legal_actions
            while seats := to_act(state):
                seat = min(seats)
                actions = legal_actions(state, seat)
                apply_legal(state, seat, actions[below(len(actions))])
            return
        if kind == Kind.RANDOM:  # on the actions: the same order as the indices, and faster
            legal_actions = self.legal_actions
            while (seats := to_act(state)) and (start is None or round_of(state) == start):
                seat = min(seats)
                actions = legal_actions(state, seat)
                action = actions[below(len(actions))]
                apply_legal(state, seat, action)
                if trace is not None:
                    trace.append((seat, action.index))
            return
        if choose is not None:
            legal_indices, table = self.legal_indices, self.action_table()
            while (seats := to_act(state)) and (start is None or round_of(state) == start):
                seat = min(seats)
                index = choose(state, seat, legal_indices(state, seat), rng)
                apply_legal(state, seat, table[index])
                if trace is not None:
                    trace.append((seat, index))
            return
        if kind not in (Kind.GREEDY, Kind.EPSILON_GREEDY):
            raise ValueError(f"{self.spec.name}: no playout policy {policy!r} here")
        legal_actions, greedy = self.legal_actions, self._greedy
        while (seats := to_act(state)) and (start is None or round_of(state) == start):
            seat = min(seats)
            actions = legal_actions(state, seat)
            if epsilon and below(epsilon) == 0:
                action = actions[below(len(actions))]
            else:
                action = greedy(state, seat, actions, rng)
            apply_legal(state, seat, action)
            if trace is not None:
                trace.append((seat, action.index))

    def _swept(self, state: S, policy: Policy, rng: Rng, until: Until,
               trace: list[tuple[Seat, int]] | None) -> None:
        """``_playout`` with simultaneous seats answering in sweeps: each seat to act, lowest
        first, while it is still to act; then the seats to act then (the match driver's
        trusted loops, whose seeded matches tests and benchmarks keep)."""
        to_act, below, round_of = self.to_act, rng.below, self.round_of
        kind, choose = policy.kind, policy.choose
        start = round_of(state) if until == Until.ROUND else None
        legal_actions, legal_indices, table, apply_legal = (
            self.legal_actions, self.legal_indices, self.action_table(), self.apply_legal)
        uniform = kind == Kind.RANDOM
        while (seats := to_act(state)) and (start is None or round_of(state) == start):
            if uniform and len(seats) == 1:  # the common step, written out
                for seat in seats:
                    actions = legal_actions(state, seat)
                    action = actions[below(len(actions))]
                    apply_legal(state, seat, action)
                    if trace is not None:
                        trace.append((seat, action.index))
                continue
            sweep = sorted(seats) if len(seats) > 1 else seats
            for seat in sweep:
                if sweep is not seats and (seat not in to_act(state) or (
                        start is not None and round_of(state) != start)):
                    continue
                if uniform:
                    actions = legal_actions(state, seat)
                    action = actions[below(len(actions))]
                elif choose is not None:
                    action = table[choose(state, seat, legal_indices(state, seat), rng)]
                else:
                    action = table[self._greedy_index(state, seat, policy, rng)]
                apply_legal(state, seat, action)
                if trace is not None:
                    trace.append((seat, action.index))

    def _greedy_index(self, state: S, seat: Seat, policy: Policy, rng: Rng) -> int:
        """One step of a greedy or epsilon-greedy policy, as ``_playout`` takes it."""
        if policy.kind not in (Kind.GREEDY, Kind.EPSILON_GREEDY):
            raise ValueError(f"{self.spec.name}: no playout policy {policy!r} here")
        actions = self.legal_actions(state, seat)
        if policy.epsilon and rng.below(policy.epsilon) == 0:
            return actions[rng.below(len(actions))].index
        return self._greedy(state, seat, actions, rng).index

    def _greedy(self, state: S, seat: Seat, actions: list[A], rng: Rng) -> A:
        """The greedy playout choice among ``actions`` read straight off ``state`` (the
        policies ``greedy`` and ``epsilon-greedy``). Games with such a policy override it."""
        raise ValueError(f"{self.spec.name} has no greedy playout policy")

    def snapshot(self, state: S) -> bytes:
        """The whole state (generator included) as bytes, for ``restore``: what crosses to a
        worker or a native core. Python states pickle; a game may write a tighter form."""
        return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)

    def restore(self, data: bytes) -> S:
        """The state ``snapshot`` wrote (a new, independent one each time). Only ever bytes
        this process or its own workers wrote: unpickling runs code, so never a client's."""
        state: S = pickle.loads(data)
        return state

    # ---- events (DESIGN.md §2) -----------------------------------------------------------
    def narrate(self, before: S, seat: Seat, action: A, after: S) -> list[Event]:
        """The events of one applied action, each with what every viewer may know, read off
        the states ``before`` and ``after`` it. Games override; this fallback names the
        action only when nothing is hidden."""
        if self.spec.hidden_information:
            return [event("act", seat=seat)]
        return [event("act", seat=seat, action=action.to_json())]

    def public_action(self, before: S, seat: Seat, action: A) -> JSON:
        """The action as every other seat sees it being taken, hidden parts left out (a face-down
        card, a simultaneous answer not yet revealed). Two actions with the same public form and
        the same resulting view must be told to others the same way (tests/engine/test_leaks.py).
        Default: everything about the action is public."""
        return action.to_json()

    def opening(self, state: S) -> list[Event]:
        """The events of the setup itself (the first deal, the first line revealed): what a
        match's first view shows, told as it would be told later in the game. Default none."""
        return []

    def render_event(self, data: JSON, voice: Voice) -> str:
        """One event (as a viewer got it from ``narrate``) as a sentence in ``voice``."""
        who = voice.name(int(data.get("seat", -1)))
        return voice.t("{player} acted.", player=who)

    def voice(self, lang: str = "en", names: Sequence[str] = ()) -> Voice:
        """Sentences for this game in ``lang`` with the table's player names."""
        folders = () if self.locale is None else (
            (self.locale,) if isinstance(self.locale, Path) else self.locale
        )
        return Voice(lang, names, folders)

    # ---- what people see -----------------------------------------------------------------
    @abstractmethod
    def view(self, state: S, seat: Seat | None) -> JSON:
        """JSON-ready: what ``seat`` may know (None = spectator). The only way out to a person."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None: ...

    def is_over(self, state: S) -> bool:
        return not self.to_act(state)

    @abstractmethod
    def determinize(self, view: JSON, seat: Seat | None, rng: Rng) -> S:
        """A full state consistent with ``view`` (what ``seat`` knows); hidden parts sampled."""

    def determinizer(self, view: JSON, seat: Seat | None) -> Callable[[Rng], S]:
        """``rng -> determinize(view, seat, rng)``, for drawing many samples of one view.

        Searches draw thousands; a game overrides this to read the view once and re-sample
        only the hidden parts of a prepared state on each call."""
        return lambda rng: self.determinize(view, seat, rng)

    # ---- actions as data -----------------------------------------------------------------
    @abstractmethod
    def action_from_json(self, data: object) -> A:
        """Parse the canonical JSON form; MalformedAction if it cannot be read."""

    def action_from_client(self, data: object) -> A:
        """``action_from_json`` for what a client sent: a field the action's canonical form
        does not have is refused (MalformedAction), as HTTP bodies refuse unknown fields, so a
        misspelt or invented field is never silently dropped."""
        action = self.action_from_json(data)
        known = action.to_json()
        extra = sorted(k for k in require_json_object(data) if k not in known)
        if extra:
            raise MalformedAction(msgid=N_("unknown field {field!r} in the action"),
                                  field=str(extra[0]))
        return action

    @abstractmethod
    def action_from_index(self, index: int) -> A: ...

    def describe(self, action: A) -> str:
        return repr(action)

    def current_player(self, state: S) -> Seat | None:
        """The single seat to act, or None when over or simultaneous."""
        seats = self.to_act(state)
        return next(iter(seats)) if len(seats) == 1 else None


def not_legal_now(action: str) -> Reason:
    """The reason of last resort: ``action`` (as a game describes it) is not legal now."""
    return because(N_("{action} is not a legal action now"), action=action)


def require_json_object(data: object, what: str = "action") -> JSON:
    if not isinstance(data, dict):
        if what == "action":
            raise MalformedAction(
                msgid=N_("an action must be a JSON object, not {type}"), type=type(data).__name__
            )
        raise MalformedAction(
            msgid=N_("an {what} must be a JSON object, not {type}"),
            what=what,
            type=type(data).__name__,
        )
    return data


def require_int(data: JSON, key: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedAction(msgid=N_("field {field!r} must be a whole number"), field=key)
    return value


def require_index(index: object, num_actions: int) -> int:
    """``index`` if it is an action index of a game with ``num_actions`` actions."""
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < num_actions:
        raise MalformedAction(
            msgid=N_("action index must be 0-{last}, not {index!r}"),
            last=num_actions - 1,
            index=index,
        )
    return index


class SlotState:
    """Base of game states: equality over every slot (replay tests compare whole states).

    Subclasses declare ``__slots__`` and write their own cheap ``clone()``."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        slots: tuple[str, ...] = type(self).__slots__
        return all(getattr(self, n) == getattr(other, n) for n in slots)

    __hash__ = None  # type: ignore[assignment]
