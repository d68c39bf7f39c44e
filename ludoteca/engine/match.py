"""The match driver: the one loop that advances a match (DESIGN.md §2).

A ``Match`` owns the state, the log that reproduces it, the sequence numbers clients answer
with, the undo rule and the seat controllers (bots; ``None`` for a seat a person or a remote
client plays). Every way of moving a match forward goes through it: ``step`` for a person's
action (checked, narrated), ``undo``, ``note`` (a notice such as a seat taken over),
``run_bots`` for the bot seats (the same checked path), ``step_trusted`` for an action checked
against the seat's legal actions by its caller, and ``play_out`` for the trusted, un-narrated
loop of benchmarks and self-play. The terminal, tournaments, the bench, the server's table and
the RL adapters are its clients; none keeps a second copy of this bookkeeping.

The log. Every entry is a ``Step``: ``act`` (an applied action), ``undo`` (the seat's last action
taken back) or ``note`` (a notice that changes no state). ``seq`` is the log's length, so it never
goes back, even when an undo takes the position back a move: an answer to a position that was
undone is stale, never applied to the position that replaced it. ``Match.from_log`` rebuilds a
match from the log's entries, as a server does after a restart.

Sequence numbers. Each seat that may act has a *decision* that began at some ``seq``: when it
became that seat's turn, or right after its own previous action. A client answers with the
``seq`` it was shown; the answer is accepted when that number lies between the start of the
seat's current decision and now. So in a simultaneous step (Buttons) every seat may answer with
the number it was shown even after other seats answered, while a repeated or stale message is
refused and changes nothing. (A contract for every game: a seat that stays to act while another
seat acts keeps the same decision, as in simultaneous steps whose answers do not depend on each
other.) A note keeps every decision; an undo starts a new one for every seat to act.

Undo (python-chess's ``pop``, with a table's manners): a seat may take back its own last action
when nothing it did was revealed (``Game.reveals``, computed once the action was checked and
applied) and nobody acted since, at most ``TAKEBACKS_PER_TURN`` times a turn (issue 23: acting
and taking back again and again would keep the other players waiting).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

from ludoteca.engine.errors import (
    GameOver,
    IllegalAction,
    LudotecaError,
    NotYourTurn,
    RecordError,
    StaleAction,
    because,
)
from ludoteca.engine.events import Event, for_viewer
from ludoteca.engine.game import JSON, Game, Outcome, Seat
from ludoteca.engine.i18n import N_
from ludoteca.engine.playout import Order, Policy, Until
from ludoteca.engine.record import MatchRecord, check_header
from ludoteca.engine.rng import Rng

Kind = Literal["act", "undo", "note"]

NO_UNDO = N_("Nothing to take back: {why}")
UNDO_NOTHING = N_("you have not moved since the last turn changed hands.")
UNDO_REVEALED = N_("your last move revealed something hidden.")
UNDO_OTHERS = N_("another player has moved since.")
UNDO_LIMIT = N_("you have taken back {count} moves this turn, the most allowed.")
TAKEBACKS_PER_TURN = 3
"""Undos a seat may make in one turn: from another seat's last action to the seat's next
undo (issue 23; docs/engine.md "Undo")."""


class NoUndo(IllegalAction):
    """The undo rule refuses: not your last action, something was revealed, or others acted."""

    code = "no_undo"


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
    """One log entry: its kind, who, what (the action; the notice of a note), the ``seq`` it
    made (the log's length once it was added), and its events (empty on an un-narrated match,
    and for entries older than the match's ``history``)."""

    seq: int
    seat: Seat
    action: Any
    events: tuple[Event, ...] = ()
    seconds: float = 0.0
    """Time the seat's controller took to choose (bots), 0 for actions given from outside."""
    kind: Kind = "act"
    reveals: bool = True
    """An act uncovered something hidden or random (undo's rule; True when not computed)."""

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

LogItem = tuple[Kind, Seat, JSON | None]
"""A log entry as stored: its kind, seat, and the action's JSON (act) or the notice (note)."""


@dataclass
class Match:
    """A live match. Build it with ``Match.new`` (validates the options once),
    ``Match.from_record`` (replays a record) or ``Match.from_log`` (a table's log)."""

    game: Game[Any, Any]
    options: dict[str, Any]
    players: int
    seed: int
    state: Any
    names: list[str]
    controllers: list[Controller | None]
    narrate: bool = True
    undoable: bool = True
    """Compute ``reveals`` for each act so that ``undo`` can be offered (needs a copy of the
    state before each act; narrated matches have it anyway)."""
    history: int | None = None
    """How many of the latest log entries keep their events (None: all). A server keeps a
    screenful per table, not a whole match's narration."""
    actions: list[tuple[Seat, Any]] = field(default_factory=list)
    """The actions in force (acts not taken back): what the record replays."""
    log: list[Step] = field(default_factory=list)
    created: str = field(default_factory=str)
    """When the match was created (ISO 8601), filled in when first asked for."""
    _since: dict[Seat, int] = field(default_factory=dict)
    _reveals: list[bool] = field(default_factory=list)
    """Per action in force: whether it revealed something."""
    _opening: tuple[Event, ...] = ()
    takebacks: int | None = TAKEBACKS_PER_TURN
    """Undos a seat may make per turn (None: no limit)."""

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
        undoable: bool | None = None,
        history: int | None = None,
    ) -> Match:
        """A new match; OptionError for bad options or player count. ``undoable`` defaults
        to ``narrate``: trusted loops (tournaments, self-play) pay for no undo."""
        opts = game.validate(options, players)
        return cls._started(game, opts, players, seed, names, controllers, narrate,
                            narrate if undoable is None else undoable, history)

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
        undoable: bool,
        history: int | None = None,
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
            undoable=undoable,
            history=history,
        )
        match._since = dict.fromkeys(game.to_act(state), 0)
        if narrate:
            match._opening = tuple(game.opening(game.clone(state)))
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
            game, opts, record.players, record.seed, names[: record.players], controllers,
            narrate, narrate,
        )
        match.created = record.created
        return match

    @classmethod
    def from_log(
        cls,
        game: Game[Any, Any],
        options: Mapping[str, object],
        players: int,
        seed: int,
        entries: Sequence[LogItem],
        *,
        names: Sequence[str] | None = None,
        history: int | None = None,
    ) -> Match:
        """The match a log describes (a table after a restart): every entry re-applied with
        the same checks as when it was written, except the ``seq`` each answered. Only the
        latest ``history`` entries are narrated. RecordError names an entry that does not
        replay (a log written by another version of a game)."""
        opts = game.validate(options, players)
        match = cls._started(game, opts, players, seed, names, None, True, True, history)
        narrate_from = 0 if history is None else len(entries) - history
        for i, (kind, seat, data) in enumerate(entries):
            match.narrate = i >= narrate_from
            try:
                match.apply_item(kind, seat, data)
            except LudotecaError as exc:
                raise RecordError(f"log entry {i + 1} ({kind} {data}) by seat {seat} "
                                  f"does not replay: {exc}") from None
        match.narrate = True
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
        """The log's length: the decision point the match is at."""
        return len(self.log)

    def to_act(self) -> frozenset[Seat]:
        return self.game.to_act(self.state)

    def is_over(self) -> bool:
        return self.game.is_over(self.state)

    def decision(self, seat: Seat) -> int | None:
        """The ``seq`` at which ``seat``'s current decision began, or None if it may not act."""
        return self._since.get(seat)

    def decisions(self) -> dict[Seat, int]:
        """Every seat to act and the ``seq`` its decision began at."""
        return dict(self._since)

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
            hints=[(int(step.action["ply"]), step.seat) for step in self.log
                   if step.kind == "note" and step.action.get("type") == "hint"],
        )

    def _stamp(self) -> str:
        self.created = MatchRecord.now()
        return self.created

    def opening_step(self) -> Step:
        """The setup's events (first deal, first line) as a step with ``seq`` 0 and no seat,
        for clients that narrate a match from its start."""
        return Step(0, -1, None, self._opening)

    def recent(self, count: int) -> list[Step]:
        """The opening and the log's entries, the latest ``count`` of them."""
        if count <= 0:
            return []
        tail = self.log[-count:]
        if len(tail) < count:
            return [self.opening_step(), *tail]
        return tail

    # ---- moving it -----------------------------------------------------------------------
    def check(self, seat: Seat, seq: int | None) -> None:
        """Raise the error an action by ``seat`` answering ``seq`` would get, before parsing
        it: the game is over, it is not that seat's decision, or the number is stale."""
        if self.game.is_over(self.state):
            raise GameOver(msgid=N_("The game is over."))
        since = self._since.get(seat)
        now = self.seq
        player = self._name(seat)
        if since is None:
            if seq is not None and seq < now:
                raise StaleAction(
                    msgid=N_(
                        "Move {seq} was already answered (stale); the match is at move {now} "
                        "and {player} has nothing to answer now."
                    ),
                    seq=seq, now=now, player=player,
                )
            raise NotYourTurn(msgid=N_("It is not {player}'s turn."), player=player)
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
                seq=seq, since=since, player=player,
            )

    def _name(self, seat: Seat) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"P{seat + 1}"

    def step(self, seat: Seat, action: Any, seq: int | None = None, seconds: float = 0.0) -> Step:
        """Apply ``action`` for ``seat`` with every check (the game's legality too) and return
        the step with its events; raise IllegalAction (or a subclass) and change nothing.

        ``seq`` is the number the client was shown (None: trust that it answers the current
        decision, as local bots and replays do)."""
        self.check(seat, seq)
        return self._checked_step(seat, action, seconds)

    def step_json(self, seat: Seat, data: object, seq: int | None = None,
                  strict: bool = False) -> Step:
        """``step`` for an action in its JSON form (MalformedAction when unreadable; with
        ``strict``, also when it has a field its canonical form has not: what a client sent).
        The seat and ``seq`` are checked first: a stale message is refused as stale, whatever
        it says."""
        self.check(seat, seq)
        game = self.game
        action = game.action_from_client(data) if strict else game.action_from_json(data)
        return self._checked_step(seat, action, 0.0)

    def step_trusted(self, seat: Seat, action: Any) -> frozenset[Seat]:
        """Apply an action its caller checked against ``legal(seat)`` at this very ``seq``
        (an RL action mask) on the trusted path, logged and sequenced as ``step`` does but
        without a second legality check and without events; return the seats to act after."""
        game, state = self.game, self.state
        before_seats = game.to_act(state)
        game.apply_legal(state, seat, action)
        after = game.to_act(state)
        self._logged(seat, action, before_seats, (), 0.0, True, after)
        return after

    def _checked_step(self, seat: Seat, action: Any, seconds: float) -> Step:
        game = self.game
        state = self.state
        before_seats = game.to_act(state)
        keep = self.narrate or self.undoable
        before = game.clone(state) if keep else None
        game.apply(state, seat, action)  # checks first: an illegal action changes nothing
        reveals = game.reveals(before, seat, action, state) if self.undoable else True
        events: tuple[Event, ...] = ()
        if self.narrate:
            events = tuple(game.narrate(before, seat, action, state))
        return self._logged(seat, action, before_seats, events, seconds, reveals)

    def _logged(
        self,
        seat: Seat,
        action: Any,
        before_seats: frozenset[Seat],
        events: tuple[Event, ...],
        seconds: float,
        reveals: bool,
        after: frozenset[Seat] | None = None,
    ) -> Step:
        self.actions.append((seat, action))
        self._reveals.append(reveals)
        step = Step(len(self.log) + 1, seat, action, events, seconds, "act", reveals)
        self._append(step)
        now = step.seq
        since = self._since
        self._since = {
            s: (since[s] if s != seat and s in before_seats and s in since else now)
            for s in (self.game.to_act(self.state) if after is None else after)
        }
        return step

    def _append(self, step: Step) -> None:
        log = self.log
        log.append(step)
        if self.history is not None and len(log) > self.history:
            old = log[-self.history - 1]
            if old.events:
                log[-self.history - 1] = replace(old, events=())

    # ---- taking back, and notices ---------------------------------------------------------
    def check_undo(self, seat: Seat, seq: int | None = None, *, limit: bool = True) -> None:
        """Raise NoUndo (or StaleAction, GameOver) unless ``seat`` may take back its last
        action now: its own last action, nothing revealed, nobody acted since, and (with
        ``limit``) fewer than ``takebacks`` undos this turn."""
        if self.game.is_over(self.state):
            raise GameOver(msgid=N_("The game is over."))
        if seq is not None and seq != self.seq:
            raise StaleAction(
                msgid=N_("Move number {seq} is stale: the match is at move {now}."),
                seq=seq, now=self.seq,
            )
        if not self.actions or self.actions[-1][0] != seat:
            mine = any(s == seat for s, _ in self.actions)
            raise NoUndo(msgid=NO_UNDO, why=because(UNDO_OTHERS if mine else UNDO_NOTHING))
        if self._reveals[-1]:
            raise NoUndo(msgid=NO_UNDO, why=because(UNDO_REVEALED))
        if limit and self.takebacks is not None and self.takebacks_this_turn(seat) >= (
                self.takebacks):
            raise NoUndo(msgid=NO_UNDO, why=because(UNDO_LIMIT, count=self.takebacks))

    def takebacks_this_turn(self, seat: Seat) -> int:
        """The seat's undos since another seat last acted."""
        count = 0
        for step in reversed(self.log):
            if step.kind == "act" and step.seat != seat:
                break
            if step.kind == "undo" and step.seat == seat:
                count += 1
        return count

    def can_undo(self, seat: Seat | None) -> bool:
        if seat is None:
            return False
        try:
            self.check_undo(seat)
        except LudotecaError:
            return False
        return True

    def undo(self, seat: Seat, seq: int | None = None, *, limit: bool = True) -> Step:
        """Take back ``seat``'s last action (``check_undo``'s rule) and log it. The position
        is rebuilt from the start on the trusted path (undo is rare; a match is short), and
        every seat to act starts a new decision. ``limit=False`` skips the takeback limit
        (replaying a log: what was written was allowed then)."""
        self.check_undo(seat, seq, limit=limit)
        self.actions.pop()
        self._reveals.pop()
        game = self.game
        state = game.start(self.options, self.players, self.seed)
        for s, action in self.actions:
            game.apply_legal(state, s, action)
        self.state = state
        step = Step(len(self.log) + 1, seat, None, kind="undo")
        self._append(step)
        self._since = dict.fromkeys(game.to_act(state), step.seq)
        return step

    def note(self, seat: Seat, notice: JSON) -> Step:
        """Log a notice (a seat taken over by a bot): it changes no position and no decision,
        but takes a ``seq``, so answers to what came before it stay valid."""
        step = Step(len(self.log) + 1, seat, dict(notice), kind="note")
        self._append(step)
        return step

    def apply_item(self, kind: Kind, seat: Seat, data: JSON | None) -> Step:
        """One log entry as it was written (``from_log``; a table catching up with entries
        another process wrote): the same checks as then, except the ``seq`` it answered."""
        if kind == "act":
            return self.step_json(seat, data)
        if kind == "undo":
            return self.undo(seat, limit=False)
        return self.note(seat, data or {})

    def log_items(self) -> list[LogItem]:
        """The log as ``from_log`` reads it."""
        out: list[LogItem] = []
        for step in self.log:
            if step.kind == "act":
                out.append(("act", step.seat, step.action.to_json()))
            else:
                out.append((step.kind, step.seat, step.action if step.kind == "note" else None))
        return out

    # ---- bots and trusted loops -----------------------------------------------------------
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
            if self.state.ply > limit:
                raise RuntimeError(f"{self.game.spec.name} did not end within {limit} actions")
        return steps

    def play_out(self, pick: Pick) -> None:
        """Play to the end with a trusted chooser (self-play data): no checks, no events, no
        log entries or seq bookkeeping; the actions in force are still kept, so ``record``
        replays it. Simultaneous seats answer in sweeps, lowest first (``Order.SWEEP``). The
        loop is the game's (``Game.playout`` with a Python policy)."""
        table = self.game.action_table()
        within = self._within_limit

        def choose(state: Any, seat: Seat, legal: list[int], _rng: Rng) -> int:
            within(state)
            return int(pick(state, seat, [table[i] for i in legal]).index)

        self._played_out(Policy.python(choose), Rng(0))  # the chooser draws from its own

    def play_random(self, random: Callable[[], float], *, log: bool = True) -> None:
        """``play_out`` with uniformly random legal actions drawn from ``random()`` in [0, 1)
        (e.g. ``random.Random(seed).random``): the benchmark's loop, the chooser inlined so
        that the figure measures the engine (not ``Game.playout``: a Python ``below`` per step
        cost Kami 5 to 10% of this figure, docs/engine.md "Playouts"). ``log=False`` keeps no
        actions, as playouts keep none (the match then has no record: speed measurements
        only)."""
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

    def _limit(self) -> int:
        """The most actions a trusted loop plays before it calls the game broken."""
        return 4 * self.game.spec.max_length + 100

    def play_policy(self, policy: Policy, rng: Rng, *, log: bool = True) -> None:
        """Play to the end with a playout policy (``RANDOM``, ``GREEDY``, the game's own),
        drawing from ``rng``: the trusted loop whole inside the game (``Game.playout``, seats
        lowest first), so on the native core, with ``log=False``, the match is played there
        and read back (random 4-player Kingdomino through the driver about 4 times the Python
        core's figure, docs/engine.md "The match driver on the native core"). The same seed
        plays the same match on either core. ``log`` keeps the actions for the record, which
        takes a trace, and a traced playout stays in Python."""
        self._played_out(policy, rng, log=log, order=Order.LOWEST)

    def _within_limit(self, state: Any) -> None:
        if state.ply > self._limit():
            raise RuntimeError(f"{self.game.spec.name} did not end within {self._limit()} actions")

    def _played_out(self, policy: Policy, rng: Rng, *, log: bool = True,
                    order: Order = Order.SWEEP) -> None:
        game = self.game
        trace: list[tuple[Seat, int]] | None = [] if log else None
        game.playout(self.state, policy, rng, Until.END, trace, order)
        if trace:
            table = game.action_table()
            self.actions.extend((seat, table[index]) for seat, index in trace)
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


def iter_replay(
    game: Game[Any, Any], record: MatchRecord
) -> Iterator[tuple[Seat | None, Any, Any]]:
    """Yield ``(None, None, initial state)`` then ``(seat, action, state)`` after each action,
    replayed by the match driver with every check (a tampered record fails with the ply and
    the reason). The state yielded is the live one (cloned by the caller if it keeps it)."""
    match = Match.unplayed(game, record, narrate=False)
    yield None, None, match.state
    for ply, (seat, data) in enumerate(record.actions):
        try:
            action = game.action_from_json(data)
            match.step(seat, action)
        except LudotecaError as exc:
            raise RecordError(
                f"action {ply} ({data}) by seat {seat} does not replay: {exc}"
            ) from None
        yield seat, action, match.state


def replay(game: Game[Any, Any], record: MatchRecord) -> Any:
    """The final state of a recorded match."""
    return Match.from_record(game, record, narrate=False).state
