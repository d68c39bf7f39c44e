"""The interactive loops behind ``ludoteca play`` and ``ludoteca replay``, generic over games.

Everything a person sees goes through the game's terminal renderer and a seat's ``view``; the
loops never print state. Input comes from a ``read(prompt) -> str`` callable so tests can script
it; it raises EOFError when input ends, which ends the session cleanly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from ludoteca.engine.errors import OptionError
from ludoteca.engine.game import JSON, Game, Seat
from ludoteca.engine.record import Match, MatchRecord, iter_replay
from ludoteca.terminal import renderer as find_renderer

Read = Callable[[str], str]
QUIT_WORDS = ("q", "quit", "exit")
HELP_WORDS = ("?", "h", "help")


class Quit(Exception):
    """The person asked to leave."""


def load_renderer(game_name: str) -> ModuleType:
    """The game's terminal renderer, or OptionError saying there is none yet."""
    try:
        return find_renderer(game_name)
    except KeyError:
        raise OptionError(
            f"{game_name} has no terminal renderer yet, so it cannot be shown here; "
            f"bots can still play it: ludoteca tournament {game_name} --bots random"
        ) from None


def seat_name(seat: Seat) -> str:
    return f"P{seat + 1}"


def describe(game: Game[Any, Any], ui: ModuleType, action: Any, view_before: JSON) -> str:
    """What an action did, as far as the one who reads it may know."""
    if hasattr(ui, "describe"):
        return str(ui.describe(action, view_before))
    if game.spec.hidden_information:
        return "acted"
    return game.describe(action)


def results_table(outcome: JSON, names: list[str]) -> Table:
    """Ranks and scores of every seat, best first."""
    table = Table(title="Final ranks")
    table.add_column("rank", justify="right")
    table.add_column("seat")
    table.add_column("player")
    table.add_column("score", justify="right")
    order = sorted(range(len(names)), key=lambda s: (outcome["ranks"][s], s))
    for s in order:
        table.add_row(str(outcome["ranks"][s]), seat_name(s), names[s], str(outcome["scores"][s]))
    return table


def final_renderable(
    ui: ModuleType, view: JSON, outcome: JSON, seat: Seat | None
) -> RenderableType:
    if hasattr(ui, "final"):
        return ui.final(view, outcome, seat)  # type: ignore[no-any-return]
    return Text("")


@dataclass
class PlaySession:
    """A person (or nobody, to watch) at a table with bots. ``controllers[seat]`` is a bot, or
    None for a seat the person plays."""

    match: Match
    controllers: list[Any]
    names: list[str]
    ui: ModuleType
    console: Console
    read: Read
    log: list[str] = field(default_factory=list)

    @property
    def game(self) -> Game[Any, Any]:
        return self.match.game

    @property
    def humans(self) -> list[Seat]:
        return [s for s, c in enumerate(self.controllers) if c is None]

    @property
    def viewer(self) -> Seat | None:
        """Whose eyes the table is drawn with: the person's seat, or a spectator's."""
        humans = self.humans
        return humans[0] if len(humans) == 1 else None

    def run(self) -> JSON:
        """Play to the end and return the outcome JSON; Quit or EOFError if the person leaves."""
        game, state = self.game, self.match.state
        self.console.print(
            "Seats: " + ", ".join(f"{seat_name(s)} = {n}" for s, n in enumerate(self.names))
        )
        while seats := sorted(game.to_act(state)):
            views = {s: game.view(state, s) for s in seats}  # all choose from the same moment
            choices: dict[Seat, Any] = {}
            for s in seats:
                if self.controllers[s] is None:
                    self.flush_log()
                    choices[s] = self.ask(s, views[s])
            if not self.humans:
                self.console.print(self.ui.render(game.view(state, None), None))
            for s in seats:
                bot = self.controllers[s]
                if bot is not None:
                    choices[s] = bot.choose(game, views[s], s)
            for s in seats:
                if s in game.to_act(state):
                    self.match.play(s, choices[s])
                    who = "you" if self.controllers[s] is None else self.names[s]
                    what = describe(game, self.ui, choices[s], views[s])
                    self.log.append(f"{seat_name(s)} ({who}) {what}")
            if not self.humans:
                self.flush_log()
        self.flush_log()
        outcome = self.match.outcome
        assert outcome is not None
        result = outcome.to_json()
        viewer = self.viewer
        final_view = game.view(state, viewer)
        self.console.print(self.ui.render(final_view, viewer))
        self.console.print(final_renderable(self.ui, final_view, result, viewer))
        self.console.print(results_table(result, self.names))
        return result

    def flush_log(self) -> None:
        for line in self.log:
            self.console.print(Text(line, style="cyan"))
        self.log.clear()

    def ask(self, seat: Seat, view: JSON) -> Any:
        """Draw the table for ``seat`` and read a legal move, re-asking after any mistake."""
        game, state = self.game, self.match.state
        legal = game.legal_actions(state, seat)
        self.console.print(self.ui.render(view, seat))
        self.console.print(self.ui.hint(view, legal), soft_wrap=True)
        while True:
            text = self.read(f"{seat_name(seat)}> ").strip()
            word = text.lower()
            if word in QUIT_WORDS:
                raise Quit
            if word in HELP_WORDS:
                self.console.print(self.ui.hint(view, legal), soft_wrap=True)
                self.console.print("Other commands: `board` redraws the table, `quit` leaves.")
                continue
            if word == "board":
                self.console.print(self.ui.render(view, seat))
                continue
            try:
                action = self.ui.parse(text, view, legal)
                reason = None if action in legal else "that is not a legal move now"
            except ValueError as exc:
                reason = str(exc)
            if reason is None:
                return action
            self.console.print(Text(f"✗ {reason}", style="bold red"))


def default_record_path(game_name: str, now: str) -> Path:
    return Path("matches") / f"{game_name}-{now}.json"


def save_record(record: MatchRecord, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    record.save(path)
    return path


@dataclass
class Frame:
    """One step of a replay: the action that led here (None at the start) and the view."""

    seat: Seat | None
    what: str
    view: JSON


def replay_frames(
    game: Game[Any, Any], ui: ModuleType, record: MatchRecord, seat: Seat | None
) -> tuple[list[Frame], JSON | None]:
    """Every state of the recorded match as ``seat`` saw it, and the replayed outcome."""
    frames: list[Frame] = []
    state = None
    for who, action, state in iter_replay(game, record):
        if who is None:
            frames.append(Frame(None, "start", game.view(state, seat)))
            continue
        what = describe(game, ui, action, frames[-1].view)
        frames.append(Frame(who, what, game.view(state, seat)))
    outcome = game.outcome(state) if state is not None else None
    return frames, outcome.to_json() if outcome else None


def run_replay(
    record: MatchRecord,
    game: Game[Any, Any],
    ui: ModuleType,
    console: Console,
    read: Read,
    seat: Seat | None = None,
    to_end: bool = False,
) -> JSON | None:
    """Step through a match: Enter next, b back, e end, q quit. Returns the replayed outcome."""
    frames, outcome = replay_frames(game, ui, record, seat)
    last = len(frames) - 1

    def show(i: int) -> None:
        f = frames[i]
        console.rule(f"ply {i}/{last}")
        if f.seat is not None:
            console.print(Text(f"{seat_name(f.seat)} {f.what}", style="cyan"))
        console.print(ui.render(f.view, seat))

    def show_end() -> None:
        show(last)
        if outcome is not None:
            console.print(final_renderable(ui, frames[last].view, outcome, seat))
            names = [str(s.get("name", seat_name(i))) for i, s in enumerate(record.seats)]
            names += [seat_name(i) for i in range(len(names), record.players)]
            console.print(results_table(outcome, names))
            if record.result is not None and record.result.get("scores") != outcome["scores"]:
                console.print("[bold red]warning: the replayed scores differ from the record's[/]")
        else:
            console.print("The recorded match is unfinished.")

    if to_end:
        show_end()
        return outcome
    i = 0
    show(i)
    while True:
        try:
            word = read("[Enter] next · b back · e end · q quit > ").strip().lower()
        except EOFError:
            return outcome
        if word in QUIT_WORDS:
            return outcome
        if word in ("b", "back"):
            i = max(0, i - 1)
        elif word in ("e", "end"):
            i = last
        elif word.isdigit():
            i = min(last, int(word))
        elif word == "":
            if i == last:
                return outcome
            i += 1
        else:
            console.print("Enter = next, b = back, e = end, a number = that ply, q = quit")
            continue
        if i == last:
            show_end()
        else:
            show(i)
