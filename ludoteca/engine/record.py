"""Match records: a header plus the action log, saved as versioned JSON, and exact replay.

A match is event-sourced: ``(game, options, players, seed)`` plus the ordered ``(seat, action)``
list reproduces every state. The file stores the options as validated (defaults filled in), so a
later change of a default never changes an old match.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ludoteca.engine.errors import LudotecaError, RecordError
from ludoteca.engine.game import JSON, Game, Outcome, Seat

FORMAT = "ludoteca-match"
VERSION = 1


@dataclass
class MatchRecord:
    game: str
    options: dict[str, Any]
    players: int
    seed: int
    seats: list[JSON] = field(default_factory=list)
    actions: list[tuple[Seat, JSON]] = field(default_factory=list)
    result: JSON | None = None
    created: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))

    def to_json(self) -> JSON:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": self.options,
            "players": self.players,
            "seed": self.seed,
            "seats": self.seats,
            "created": self.created,
            "actions": [[seat, action] for seat, action in self.actions],
            "result": self.result,
        }

    @classmethod
    def from_json(cls, data: object) -> MatchRecord:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError("not a Ludoteca match record (missing format marker)")
        version = data.get("version")
        if version != VERSION:
            raise RecordError(f"match record version {version!r} is not supported (need {VERSION})")
        try:
            actions = [(int(seat), dict(action)) for seat, action in data["actions"]]
            return cls(
                game=str(data["game"]),
                options=dict(data["options"]),
                players=int(data["players"]),
                seed=int(data["seed"]),
                seats=list(data.get("seats") or []),
                actions=actions,
                result=data.get("result"),
                created=str(data.get("created", "")),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"malformed match record: {exc}") from None

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> MatchRecord:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise RecordError(f"cannot read {path}: {exc}") from None
        return cls.from_json(data)


class Match:
    """A live match: the game, its state and the record that reproduces it."""

    def __init__(
        self,
        game: Game[Any, Any],
        options: Mapping[str, object] | None = None,
        players: int = 2,
        seed: int = 0,
        seats: list[JSON] | None = None,
    ) -> None:
        self.game = game
        opts = game.validate(options, players)
        self.state = game.setup(opts, players, seed)
        self.record = MatchRecord(
            game=game.spec.name,
            options=dict(opts),
            players=players,
            seed=seed,
            seats=seats or [{"name": f"Player {i + 1}"} for i in range(players)],
        )

    def play(self, seat: Seat, action: Any) -> None:
        """Apply with every check and log it."""
        self.game.apply(self.state, seat, action)
        self.record.actions.append((seat, action.to_json()))
        self._finish_if_over()

    def play_legal(self, seat: Seat, action: Any) -> None:
        """Trusted path for an action taken from ``legal_actions``."""
        self.game.apply_legal(self.state, seat, action)
        self.record.actions.append((seat, action.to_json()))
        self._finish_if_over()

    def _finish_if_over(self) -> None:
        if self.game.is_over(self.state):
            outcome = self.game.outcome(self.state)
            self.record.result = outcome.to_json() if outcome else None

    @property
    def outcome(self) -> Outcome | None:
        return self.game.outcome(self.state)


def iter_replay(
    game: Game[Any, Any], record: MatchRecord
) -> Iterator[tuple[Seat | None, Any, Any]]:
    """Yield ``(None, None, initial state)`` then ``(seat, action, state)`` after each action.

    The state yielded is the live one (cloned by the caller if it keeps it). Every action is
    checked, so a tampered record fails with the ply and reason.
    """
    if record.game != game.spec.name:
        raise RecordError(f"this record is a {record.game} match, not {game.spec.name}")
    try:
        state = game.setup(record.options, record.players, record.seed)
    except LudotecaError as exc:
        raise RecordError(f"the record's setup is invalid: {exc}") from None
    yield None, None, state
    for ply, (seat, data) in enumerate(record.actions):
        try:
            action = game.action_from_json(data)
            game.apply(state, seat, action)
        except LudotecaError as exc:
            raise RecordError(
                f"action {ply} ({data}) by seat {seat} does not replay: {exc}"
            ) from None
        yield seat, action, state


def replay(game: Game[Any, Any], record: MatchRecord) -> Any:
    """The final state of a recorded match."""
    final = None
    for _, _, state in iter_replay(game, record):
        final = state
    return final
