"""The match driver: the one loop that advances a match (DESIGN.md §2).

A ``Match`` owns the state, the record that reproduces it, the sequence numbers clients answer
with and the seat controllers (bots; ``None`` for a seat a person or a remote client plays).
Every way of moving a match forward goes through it: ``step`` for a person's action (checked,
narrated), ``run_bots`` for the bot seats (the same checked path), and ``play_out`` for the
trusted, un-narrated loop of benchmarks and self-play. The terminal, tournaments, the bench,
the server's table actor and the RL adapters are its clients.

Sequence numbers. ``seq`` counts the actions applied (it equals ``state.ply``). Each seat that
may act has a *decision* that began at some ``seq``: when it became that seat's turn, or right
after its own previous action. A client answers with the ``seq`` it was shown; the answer is
accepted when that number lies between the start of the seat's current decision and now. So in
a simultaneous step (Buttons) every seat may answer with the number it was shown even after
other seats answered, while a repeated or stale message is refused and changes nothing. (A
contract for every game: a seat that stays to act while another seat acts keeps the same
decision, as in simultaneous steps whose answers do not depend on each other.)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ludoteca.engine.errors import (
    GameOver,
    LudotecaError,
    NotYourTurn,
    RecordError,
    StaleAction,
)
from ludoteca.engine.events import Event, for_viewer
from ludoteca.engine.game import JSON, Game, Outcome, Seat
from ludoteca.engine.i18n import N_
from ludoteca.engine.record import MatchRecord, check_header


class Controller(Protocol):
    """A seat controller (a bot): picks an action from what its seat may know.

    ``deadline`` is a ``time.monotonic()`` instant by which it must answer, or None for its own
    budget. ``end`` hears the outcome (learning bots, external programs); ``close`` frees what it
    holds. ``bots.base.Bot`` gives both a default."""

    name: str

    def choose(self, game: Game[Any, Any], view: JSON, seat: Seat, deadline: float | None) -> Any:
        ...

    def end(self, outcome: Outcome | None) -> None: ...

    def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Step:
    """One applied action: who, what, the ``seq`` it made (the new sequence number), and its
    events (empty on an un-narrated match)."""

    seq: int
    seat: Seat
    action: Any
    events: tuple[Event, ...] = ()
    seconds: float = 0.0
    """Time the seat's controller took to choose (bots), 0 for actions given from outside."""

    def events_for(self, viewer: Seat | None) -> list[JSON]:
        return for_viewer(self.events, viewer)

    @property
    def opening(self) -> bool:
        """True for the pseudo-step of a match's setup (``Match.opening_step``)."""
        return self.seat < 0


Pick = Callable[[Any, Seat, list[Any]], Any]
"""A trusted chooser for ``play_out``: from the state, a seat and its legal actions, one of
them. Only for benchmarks and self-play with state-based policies that are tested to read no
more than the seat may know (e.g. the search's rollout policies)."""


@dataclass
class Match:
    """A live match. Build it with ``Match.new`` (validates the options once) or
    ``Match.from_record`` (replays a record)."""

    game: Game[Any, Any]
    options: dict[str, Any]
    players: int
    seed: int
    state: Any
    names: list[str]
    controllers: list[Controller | None]
    narrate: bool = True
    actions: list[tuple[Seat, Any]] = field(default_factory=list)
    created: str = field(default_factory=str)
    """When the match was created (ISO 8601), filled in when first asked for."""
    _since: dict[Seat, int] = field(default_factory=dict)

    # ---- making one ----------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        game: Game[Any, Any],
        options: Mapping[str, object] | None = None,
        players: int = 2,
        seed: int = 0,
        *,
        names: Sequence[str] | None = None,
        controllers: Sequence[Controller | None] | None = None,
        narrate: bool = True,
    ) -> Match:
        """A new match; OptionError for bad options or player count."""
        opts = game.validate(options, players)
        return cls._started(game, opts, players, seed, names, controllers, narrate)

    @classmethod
    def _started(
        cls,
        game: Game[Any, Any],
        opts: dict[str, Any],
        players: int,
        seed: int,
        names: Sequence[str] | None,
        controllers: Sequence[Controller | None] | None,
        narrate: bool,
    ) -> Match:
        state = game.start(opts, players, seed)
        ctl: list[Controller | None] = (
            list(controllers) if controllers is not None else [None] * players
        )
        if len(ctl) != players:
            raise ValueError(f"{len(ctl)} controllers for {players} seats")
        match = cls(
            game=game,
            options=opts,
            players=players,
            seed=seed,
            state=state,
            names=list(names) if names is not None else [f"P{s + 1}" for s in range(players)],
            controllers=ctl,
            narrate=narrate,
        )
        match._since = dict.fromkeys(game.to_act(state), 0)
        return match

    @classmethod
    def from_record(
        cls,
        game: Game[Any, Any],
        record: MatchRecord,
        *,
        controllers: Sequence[Controller | None] | None = None,
        narrate: bool = True,
        on_step: Callable[[Step], None] | None = None,
    ) -> Match:
        """The match a record describes, every action re-applied with full checks (RecordError
        names the first one that does not replay). With ``on_step`` each replayed step is
        narrated and passed to it."""
        match = cls.unplayed(game, record, controllers=controllers, narrate=on_step is not None)
        match.replay(record.actions, on_step)
        match.narrate = narrate
        return match

    @classmethod
    def unplayed(
        cls,
        game: Game[Any, Any],
        record: MatchRecord,
        *,
        controllers: Sequence[Controller | None] | None = None,
        narrate: bool = True,
    ) -> Match:
        """The match a record describes, at its start (RecordError for a bad header)."""
        opts = check_header(game, record)
        names = [str(s.get("name", "")) or f"P{i + 1}" for i, s in enumerate(record.seats)]
        names += [f"P{i + 1}" for i in range(len(names), record.players)]
        match = cls._started(
            game, opts, record.players, record.seed, names[: record.players], controllers, narrate
        )
        match.created = record.created
        return match

    def replay(
        self, actions: Sequence[tuple[Seat, JSON]], on_step: Callable[[Step], None] | None = None
    ) -> None:
        """Apply logged ``(seat, action JSON)`` pairs with every check; RecordError names the
        first that does not replay."""
        for ply, (seat, data) in enumerate(actions):
            try:
                step = self.step(seat, self.game.action_from_json(data))
            except LudotecaError as exc:
                raise RecordError(
                    f"action {ply} ({data}) by seat {seat} does not replay: {exc}"
                ) from None
            if on_step is not None:
                on_step(step)

    # ---- reading it ----------------------------------------------------------------------
    @property
    def seq(self) -> int:
        """The number of actions applied: the decision point the match is at."""
        return int(self.state.ply)

    def to_act(self) -> frozenset[Seat]:
        return self.game.to_act(self.state)

    def is_over(self) -> bool:
        return self.game.is_over(self.state)

    def decision(self, seat: Seat) -> int | None:
        """The ``seq`` at which ``seat``'s current decision began, or None if it may not act."""
        return self._since.get(seat)

    def view(self, viewer: Seat | None) -> JSON:
        return self.game.view(self.state, viewer)

    def legal(self, seat: Seat) -> list[Any]:
        return self.game.legal_actions(self.state, seat)

    @property
    def outcome(self) -> Outcome | None:
        return self.game.outcome(self.state)

    @property
    def record(self) -> MatchRecord:
        """The match record as of now (format v2: names the data the match was played with)."""
        outcome = self.outcome
        return MatchRecord(
            game=self.game.spec.name,
            options=dict(self.options),
            players=self.players,
            seed=self.seed,
            seats=[{"name": n} for n in self.names],
            actions=[(seat, action.to_json()) for seat, action in self.actions],
            result=outcome.to_json() if outcome is not None else None,
            created=self.created or self._stamp(),
            data=self.game.data_version(self.options),
        )

    def _stamp(self) -> str:
        self.created = MatchRecord.now()
        return self.created

    def opening_step(self) -> Step:
        """The setup's events (first deal, first line) as a step with ``seq`` 0 and no seat,
        for clients that narrate a match from its start."""
        return Step(0, -1, None, tuple(self.game.opening(self.game.clone(self.state)))
                    if self.seq == 0 else ())

    # ---- moving it -----------------------------------------------------------------------
    def check(self, seat: Seat, seq: int | None) -> None:
        """Raise the error an action by ``seat`` answering ``seq`` would get, before parsing
        it: the game is over, it is not that seat's decision, or the number is stale."""
        if self.game.is_over(self.state):
            raise GameOver(msgid=N_("The game is over."))
        since = self._since.get(seat)
        now = self.seq
        if since is None:
            if seq is not None and seq < now:
                raise StaleAction(
                    msgid=N_(
                        "Move {seq} was already answered (stale); the match is at move {now} "
                        "and {player} has nothing to answer now."
                    ),
                    seq=seq, now=now, player=f"P{seat + 1}",
                )
            raise NotYourTurn(msgid=N_("It is not {player}'s turn."), player=f"P{seat + 1}")
        if seq is not None and not since <= seq <= now:
            if seq > now:
                raise StaleAction(
                    msgid=N_(
                        "Move number {seq} is ahead of the match (stale or forged); "
                        "the match is at move {now}."
                    ),
                    seq=seq, now=now,
                )
            raise StaleAction(
                msgid=N_("Move number {seq} is stale: {player} is answering move {since} now."),
                seq=seq, since=since, player=f"P{seat + 1}",
            )

    def step(self, seat: Seat, action: Any, seq: int | None = None, seconds: float = 0.0) -> Step:
        """Apply ``action`` for ``seat`` with every check (the game's legality too) and return
        the step with its events; raise IllegalAction (or a subclass) and change nothing.

        ``seq`` is the number the client was shown (None: trust that it answers the current
        decision, as local bots and replays do)."""
        self.check(seat, seq)
        return self._checked_step(seat, action, seconds)

    def step_json(self, seat: Seat, data: object, seq: int | None = None) -> Step:
        """``step`` for an action in its JSON form (MalformedAction when unreadable). The seat
        and ``seq`` are checked first: a stale message is refused as stale, whatever it says."""
        self.check(seat, seq)
        return self._checked_step(seat, self.game.action_from_json(data), 0.0)

    def _checked_step(self, seat: Seat, action: Any, seconds: float) -> Step:
        game = self.game
        state = self.state
        before_seats = game.to_act(state)
        before = game.clone(state) if self.narrate else None
        game.apply(state, seat, action)
        return self._after(seat, action, before, before_seats, seconds)

    def _after(
        self,
        seat: Seat,
        action: Any,
        before: Any,
        before_seats: frozenset[Seat],
        seconds: float,
    ) -> Step:
        game, state = self.game, self.state
        self.actions.append((seat, action))
        now = self.seq
        since = self._since
        after_seats = game.to_act(state)
        self._since = {
            s: (since[s] if s != seat and s in before_seats and s in since else now)
            for s in after_seats
        }
        events: tuple[Event, ...] = ()
        if before is not None:
            events = tuple(game.narrate(before, seat, action, state))
        return Step(now, seat, action, events, seconds)

    def bot_seats(self) -> list[Seat]:
        """Seats to act now that a controller plays, lowest first."""
        return sorted(s for s in self.to_act() if self.controllers[s] is not None)

    def human_seats(self) -> list[Seat]:
        """Seats to act now that nobody local plays (a person or a remote client)."""
        return sorted(s for s in self.to_act() if self.controllers[s] is None)

    def run_bots(
        self,
        *,
        move_seconds: float | None = None,
        on_step: Callable[[Step], None] | None = None,
        max_steps: int | None = None,
    ) -> list[Step]:
        """Let the bot seats act until the game ends or only seats without a controller are to
        act. Seats deciding at once all choose from the same moment (their views before any of
        them is applied), then each answer goes through ``step`` with the ``seq`` its bot was
        shown: the same checked path as a person's action.

        ``move_seconds`` gives each bot a deadline; ``max_steps`` stops early (pacing)."""
        steps: list[Step] = []
        limit = 4 * self.game.spec.max_length + 100
        while (seats := self.bot_seats()) and (max_steps is None or len(steps) < max_steps):
            shown = [(s, self.view(s), self.decision(s)) for s in seats]
            chosen = []
            for s, view, seq in shown:
                bot = self.controllers[s]
                assert bot is not None
                start = time.monotonic()
                deadline = start + move_seconds if move_seconds is not None else None
                action = bot.choose(self.game, view, s, deadline)
                chosen.append((s, action, seq, time.monotonic() - start))
            for s, action, seq, took in chosen:
                if s in self.to_act():
                    try:
                        step = self.step(s, action, seq, took)
                    except StaleAction:
                        continue  # another answer changed this seat's decision: ask it again
                    steps.append(step)
                    if on_step is not None:
                        on_step(step)
            if self.seq > limit:
                raise RuntimeError(f"{self.game.spec.name} did not end within {limit} actions")
        return steps

    def play_out(self, pick: Pick) -> None:
        """Play to the end with a trusted chooser (self-play data): no checks, no events, no
        seq bookkeeping; the actions are still logged, so ``record`` replays it. Simultaneous
        seats answer in seat order."""
        game, state = self.game, self.state
        to_act, legal_actions, apply_legal = game.to_act, game.legal_actions, game.apply_legal
        log = self.actions.append
        limit = 4 * game.spec.max_length + 100
        while seats := to_act(state):
            for seat in sorted(seats) if len(seats) > 1 else seats:
                if seat in to_act(state):
                    action = pick(state, seat, legal_actions(state, seat))
                    apply_legal(state, seat, action)
                    log((seat, action))
            if state.ply > limit:
                raise RuntimeError(f"{game.spec.name} did not end within {limit} actions")
        self._since = {}

    def play_random(self, random: Callable[[], float], *, log: bool = True) -> None:
        """``play_out`` with uniformly random legal actions drawn from ``random()`` in [0, 1)
        (e.g. ``random.Random(seed).random``): the benchmark's loop, the chooser inlined so
        that the figure measures the engine. ``log=False`` keeps no action log, as playouts
        keep none (the match then has no record: speed measurements only)."""
        game, state = self.game, self.state
        to_act, legal_actions, apply_legal = game.to_act, game.legal_actions, game.apply_legal
        append = self.actions.append
        limit = 4 * game.spec.max_length + 100
        while seats := to_act(state):
            if len(seats) == 1:
                for seat in seats:
                    actions = legal_actions(state, seat)
                    action = actions[int(random() * len(actions))]
                    apply_legal(state, seat, action)
                    if log:
                        append((seat, action))
            else:
                for seat in sorted(seats):
                    if seat in to_act(state):
                        actions = legal_actions(state, seat)
                        action = actions[int(random() * len(actions))]
                        apply_legal(state, seat, action)
                        if log:
                            append((seat, action))
            if state.ply > limit:
                raise RuntimeError(f"{game.spec.name} did not end within {limit} actions")
        self._since = {}

    def end(self) -> None:
        """Tell every controller the outcome, then close them (safe to call twice)."""
        outcome = self.outcome
        try:
            for bot in self.controllers:
                if bot is not None:
                    bot.end(outcome)
        finally:
            self.close()

    def close(self) -> None:
        for bot in self.controllers:
            if bot is not None:
                bot.close()
