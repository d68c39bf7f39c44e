"""The interactive loops behind ``ludoteca play`` and ``ludoteca replay``: clients of the match
driver (``engine/match.py``), generic over games.

Everything a person sees goes through the game's terminal renderer, a seat's ``view`` and the
events the driver narrates for that seat, in the person's language; the loops never print
state. Input comes from a ``read(prompt) -> str`` callable so tests can script it; it raises
EOFError when input ends, which ends the session cleanly.
"""

from __future__ import annotations

import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ludoteca.engine.errors import IllegalAction, OptionError
from ludoteca.engine.game import JSON, Game, Outcome, Seat
from ludoteca.engine.i18n import Voice
from ludoteca.engine.match import Match, Step
from ludoteca.engine.parts import render_parts
from ludoteca.engine.record import MatchRecord

Read = Callable[[str], str]
QUIT_WORDS = ("q", "quit", "exit", "salir")
HELP_WORDS = ("?", "h", "help", "ayuda")
BOARD_WORDS = ("board", "tablero")
UNDO_WORDS = ("undo", "deshacer")
WIDTH = 80
"""Hints, legal moves and errors wrap at word boundaries to fit an 80-column terminal."""


class Quit(Exception):
    """The person asked to leave."""


class Undo(Exception):
    """The person asked to take back their last move."""


def load_renderer(game_name: str) -> ModuleType:
    """The game's terminal renderer (named by its registry entry), or OptionError."""
    from ludoteca.engine.registry import resolve
    from ludoteca.games import entry

    found = entry(game_name)
    if found.terminal is None:
        raise OptionError(
            f"{found.name} has no terminal renderer yet, so it cannot be shown here; "
            f"bots can still play it: ludoteca tournament {found.name} --bots random"
        )
    module: ModuleType = resolve(found.terminal)
    return module


def wrap(text: str, width: int = WIDTH) -> str:
    """Each line of ``text`` wrapped at word boundaries (indentation kept)."""
    out = []
    for line in text.splitlines() or [""]:
        indent = line[: len(line) - len(line.lstrip())]
        out.append(
            textwrap.fill(line, width, subsequent_indent=indent, break_long_words=False)
            if line.strip()
            else ""
        )
    return "\n".join(out)


def event_lines(game: Game[Any, Any], voice: Voice, step: Step, viewer: Seat | None) -> list[str]:
    """The step's events as ``viewer`` may know them, one sentence each."""
    return [game.render_event(e, voice) for e in step.events_for(viewer)]


def sides_of(outcome: JSON) -> list[JSON]:
    """The outcome's sides (``{seats, score, rank}``, ranked over sides); a record written
    before outcomes said them gets them from its ``teams`` and ranks."""
    return list(outcome.get("sides") or Outcome.from_json(outcome).to_json()["sides"])


def side_name(side: JSON, index: int, voice: Voice) -> str:
    """A seat by its name; partners as their team: "Team B: P2 and P4"."""
    seats = side["seats"]
    if len(seats) == 1:
        return voice.name(seats[0])
    return voice.t("Team {letter}: {players}", letter=chr(ord("A") + index),
                   players=voice.join([voice.name(s) for s in seats]))


def results_table(outcome: JSON, voice: Voice) -> Table:
    """Ranks and scores of every side (a seat, or partners as one team), best first: ranks
    count sides, so two teams are 1st and 2nd."""
    sides = sides_of(outcome)
    table = Table(title=voice.t("Final ranks"))
    table.add_column(voice.t("rank"), justify="right")
    teams = any(len(side["seats"]) > 1 for side in sides)
    table.add_column(voice.t("team") if teams else voice.t("player"))
    table.add_column(voice.t("score"), justify="right")
    for i in sorted(range(len(sides)), key=lambda i: (sides[i]["rank"], i)):
        side = sides[i]
        table.add_row(str(side["rank"]), Text(side_name(side, i, voice)), str(side["score"]))
    return table


def final_renderable(outcome: JSON, voice: Voice, seat: Seat | None = None) -> RenderableType:
    """The end of a match explained: one panel per side (the outcome's ``sides``; the viewer's
    first, then by rank) with each score part as the engine gave it once, the total and the
    tie-break values, in ``voice``'s language. Nothing is added up or inferred here."""
    said = render_parts(outcome, voice)
    sides = sides_of(outcome)
    parts = said.get("parts") or [[] for _ in said["scores"]]
    reasons = said.get("tiebreak") or [[] for _ in said["scores"]]
    panels = []
    order = sorted(range(len(sides)),
                   key=lambda i: (seat not in sides[i]["seats"], sides[i]["rank"], i))
    for i in order:
        side = sides[i]
        first = side["seats"][0]
        table = Table(show_header=False, show_edge=False, pad_edge=False)
        table.add_column()
        table.add_column(justify="right")
        for part in parts[first]:
            table.add_row(part["text"], str(part["points"]))
        table.add_row(Text(voice.t("total"), style="bold"),
                      Text(str(side["score"]), style="bold"))
        body: list[RenderableType] = [table]
        if reasons[first]:
            body.append(Text(voice.t("tie-break: {reasons}", reasons="; ".join(
                r["text"] for r in reasons[first])), style="dim"))
        title = voice.t("{side} · rank {rank} · {score} points",
                        side=side_name(side, i, voice), rank=side["rank"], score=side["score"])
        panels.append(Panel(Group(*body), title=title, expand=False,
                            border_style="bold green" if side["rank"] == 1 else ""))
    return Columns(panels)


def seat_names(names: list[str], humans: list[Seat], voice: Voice) -> list[str]:
    """``P1 (you)``, ``P2 (hard bot)``: how the log and tables call each seat."""
    return [f"P{s + 1} ({voice.t('you') if s in humans else n})" for s, n in enumerate(names)]


@dataclass
class PlaySession:
    """A person (or nobody, to watch) at a table with bots. The match's ``controllers[seat]``
    is a bot, or None for a seat the person plays. ``delay`` paces the bots' moves."""

    match: Match
    ui: ModuleType
    console: Console
    read: Read
    voice: Voice
    delay: float = 0.0
    sleep: Callable[[float], None] | None = None
    """How to wait between watched moves (default ``time.sleep``)."""
    log: list[str] = field(default_factory=list)

    @property
    def game(self) -> Game[Any, Any]:
        return self.match.game

    @property
    def humans(self) -> list[Seat]:
        return [s for s, c in enumerate(self.match.controllers) if c is None]

    @property
    def viewer(self) -> Seat | None:
        """Whose eyes the table is drawn with: the person's seat, or a spectator's."""
        humans = self.humans
        return humans[0] if len(humans) == 1 else None

    def say(self, text: str, style: str = "") -> None:
        self.console.print(Text(wrap(text), style=style))

    def run(self) -> JSON:
        """Play to the end and return the outcome JSON; Quit or EOFError if the person leaves."""
        match, voice = self.match, self.voice
        self.say(voice.t("Seats: {seats}", seats=", ".join(self.voice.names)))
        watching = not self.humans
        self.show(match.opening_step())
        self.flush_log()
        if watching:
            self.console.print(self.ui.render(match.view(None), None))
        while not match.is_over():
            if match.bot_seats():
                match.run_bots(on_step=self.show, max_steps=1 if watching else None)
                if watching:
                    self.flush_log()
                    self.console.print(self.ui.render(match.view(None), None))
                    (self.sleep or time.sleep)(self.delay)
                continue
            for s in match.human_seats():
                self.human_turn(s)
        self.flush_log()
        outcome = match.outcome
        assert outcome is not None
        result = outcome.to_json()
        viewer = self.viewer
        final_view = match.view(viewer)
        self.console.print(self.ui.render(final_view, viewer))
        self.console.print(final_renderable(result, self.voice, viewer))
        self.console.print(results_table(result, voice))
        return result

    def show(self, step: Step) -> None:
        """Narrate a step in the log, as the person's seat (or a spectator) may know it."""
        for line in event_lines(self.game, self.voice, step, self.viewer):
            self.log.append(line)

    def flush_log(self) -> None:
        for line in self.log:
            self.say(line, "cyan")
        self.log.clear()

    def human_turn(self, seat: Seat) -> None:
        """The person's move at ``seat``: taken at once when only one is legal, else read."""
        match = self.match
        legal = match.legal(seat)
        seq = match.decision(seat)
        if len(legal) == 1:
            self.log.append(self.voice.t("Only one move was possible, so it was played for you:"))
            self.show(match.step(seat, legal[0], seq))
            self.flush_log()
            return
        self.flush_log()
        while True:
            try:
                action = self.ask(seat, match.view(seat), legal)
            except Undo:
                try:
                    match.undo(seat, match.seq)
                except IllegalAction as exc:
                    self.say(f"✗ {exc.say(self.voice)}", "bold red")
                    continue
                self.say(self.voice.t("{player} took back their last move.",
                                      player=self.voice.name(seat)))
                return
            try:
                step = match.step(seat, action, seq)
            except IllegalAction as exc:
                self.say(f"✗ {exc.say(self.voice)}", "bold red")
                continue
            self.show(step)
            return

    def ask(self, seat: Seat, view: JSON, legal: list[Any]) -> Any:
        """Draw the table for ``seat`` and read a move, re-asking after any unreadable one."""
        self.console.print(self.ui.render(view, seat))
        self.say(self.ui.hint(view, legal))
        while True:
            text = self.read(f"P{seat + 1}> ").strip()
            word = text.lower()
            if word in QUIT_WORDS:
                raise Quit
            if word in HELP_WORDS:
                if hasattr(self.ui, "help_text"):
                    self.say(self.ui.help_text(view))
                self.say(self.ui.hint(view, legal))
                self.say(self.voice.t(
                    "Other commands: `board` redraws the table, `undo` takes back your last "
                    "move, `quit` leaves."))
                continue
            if word in BOARD_WORDS:
                self.console.print(self.ui.render(view, seat))
                continue
            if word in UNDO_WORDS:
                raise Undo
            if not word:
                continue
            try:
                return self.ui.parse(text, view, legal)
            except ValueError as exc:
                self.say(f"✗ {exc}", "bold red")


def save_record(record: MatchRecord, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    record.save(path)
    return path


@dataclass
class Frame:
    """One step of a replay: who acted (None at the start), the events in words, the view."""

    seat: Seat | None
    lines: list[str]
    view: JSON


def replay_frames(
    game: Game[Any, Any], record: MatchRecord, seat: Seat | None, voice: Voice
) -> tuple[list[Frame], JSON | None]:
    """Every state of the recorded match as ``seat`` saw it, with its events in words, and the
    replayed outcome (the driver replays and narrates)."""
    match = Match.unplayed(game, record)
    opening = event_lines(game, voice, match.opening_step(), seat)
    frames = [Frame(None, opening, match.view(seat))]

    def on_step(step: Step) -> None:
        frames.append(Frame(step.seat, event_lines(game, voice, step, seat), match.view(seat)))

    match.replay(record.actions, on_step)
    outcome = match.outcome
    return frames, outcome.to_json() if outcome else None


def run_replay(
    record: MatchRecord,
    game: Game[Any, Any],
    ui: ModuleType,
    console: Console,
    read: Read,
    voice: Voice,
    seat: Seat | None = None,
    to_end: bool = False,
) -> JSON | None:
    """Step through a match: Enter next, b back, e end, q quit. Returns the replayed outcome."""
    frames, outcome = replay_frames(game, record, seat, voice)
    last = len(frames) - 1

    def show(i: int) -> None:
        f = frames[i]
        console.rule(voice.t("move {ply}/{last}", ply=i, last=last))
        for line in f.lines:
            console.print(Text(wrap(line), style="cyan"))
        console.print(ui.render(f.view, seat))

    def show_end() -> None:
        show(last)
        if outcome is not None:
            console.print(final_renderable(outcome, voice, seat))
            console.print(results_table(outcome, voice))
            if record.result is not None and record.result.get("scores") != outcome["scores"]:
                console.print(
                    Text(voice.t("warning: the replayed scores differ from the record's"),
                         style="bold red")
                )
        else:
            console.print(voice.t("The recorded match is unfinished."))

    if to_end:
        show_end()
        return outcome
    i = 0
    show(i)
    prompt = voice.t("[Enter] next · b back · e end · q quit > ")
    while True:
        try:
            word = read(prompt).strip().lower()
        except EOFError:
            return outcome
        if word in QUIT_WORDS:
            return outcome
        if word in ("b", "back"):
            i = max(0, i - 1)
        elif word in ("e", "end"):
            i = last
        elif word.isascii() and word.isdigit():
            i = min(last, int(word))
        elif word == "":
            if i == last:
                return outcome
            i += 1
        else:
            console.print(
                voice.t("Enter = next, b = back, e = end, a number = that move, q = quit")
            )
            continue
        if i == last:
            show_end()
        else:
            show(i)
