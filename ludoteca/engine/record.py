"""Match records: a header plus the action log, saved as versioned JSON, and exact replay.

A match is event-sourced: ``(game, options, players, seed, data)`` plus the ordered
``(seat, action)`` list reproduces every state. The file stores the options as validated
(defaults filled in), so a later change of a default never changes an old match, and (format
v2) the versions of the component data the game played with (``Game.data_version``), so a
record never replays silently against other boards or building tables. Version 1 records, which
predate the data field, replay with the data their options select.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ludoteca.engine.errors import LudotecaError, RecordError
from ludoteca.engine.game import JSON, Game, Seat

FORMAT = "ludoteca-match"
VERSION = 2
READABLE = (1, 2)
MAX_BYTES = 64 << 20
"""A match record is a few hundred KB at most; anything far larger is not one."""


@dataclass
class MatchRecord:
    game: str
    options: dict[str, Any]
    players: int
    seed: int
    seats: list[JSON] = field(default_factory=list)
    actions: list[tuple[Seat, JSON]] = field(default_factory=list)
    result: JSON | None = None
    created: str = field(default_factory=lambda: MatchRecord.now())
    data: dict[str, str] = field(default_factory=dict)
    version: int = VERSION
    hints: list[tuple[int, Seat]] = field(default_factory=list)
    """Coach hints used (an arena table's option): ``(ply, seat)``, the seat asked before the
    record's action number ``ply``. Written only when there are some."""

    @staticmethod
    def now() -> str:
        return datetime.now(UTC).isoformat(timespec="seconds")

    def to_json(self) -> JSON:
        """The record as saved: always format v2, with the data it names (a v1 record read in
        is upgraded by ``Match.record``, which fills in the data its options select)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": self.options,
            "players": self.players,
            "seed": self.seed,
            "data": self.data,
            "seats": self.seats,
            "created": self.created,
            "actions": [[seat, action] for seat, action in self.actions],
            "result": self.result,
            **({"hints": [[ply, seat] for ply, seat in self.hints]} if self.hints else {}),
        }

    @classmethod
    def from_json(cls, data: object) -> MatchRecord:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError("not a Ludoteca match record (missing format marker)")
        version = data.get("version")
        if type(version) is not int or version not in READABLE:
            raise RecordError(
                f"match record version {version!r} is not supported (this Ludoteca reads "
                f"{' and '.join(str(v) for v in READABLE)})"
            )
        try:
            entries = data["actions"]
            if not isinstance(entries, list):
                raise RecordError("the actions of a match record must be a list")
            actions = []
            for entry in entries:
                if not isinstance(entry, list) or len(entry) != 2:
                    raise RecordError(f"an action entry must be [seat, action], not {entry!r}")
                seat, action = entry
                if isinstance(seat, bool) or not isinstance(seat, int):
                    raise RecordError(f"a seat must be a whole number, not {seat!r}")
                if not isinstance(action, dict):
                    raise RecordError(f"an action must be a JSON object, not {action!r}")
                actions.append((seat, action))
            players, seed = data["players"], data["seed"]
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in (players, seed)):
                raise RecordError("players and seed must be whole numbers")
            options, stored = data["options"], data.get("data") or {}
            if not isinstance(options, dict) or not isinstance(stored, dict):
                raise RecordError("options and data must be JSON objects")
            hints = data.get("hints") or []
            if not isinstance(hints, list) or not all(
                    isinstance(h, list) and len(h) == 2
                    and all(type(v) is int and v >= 0 for v in h) for h in hints):
                raise RecordError("hints must be a list of [ply, seat] whole numbers")
            seats = data.get("seats") or []
            if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
                raise RecordError("seats must be a list of objects")
            return cls(
                game=str(data["game"]),
                options=dict(options),
                players=players,
                seed=seed,
                seats=list(seats),
                actions=actions,
                result=data.get("result"),
                created=str(data.get("created", "")),
                data={str(k): str(v) for k, v in stored.items()},
                version=int(version),
                hints=[(int(ply), int(seat)) for ply, seat in hints],
            )
        except KeyError as exc:
            raise RecordError(f"malformed match record: the field {exc} is missing") from None

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> MatchRecord:
        """Read a record file; RecordError (one clear sentence) for anything that is not one:
        a missing file, binary or non-UTF-8 content, bad JSON, a wrong shape."""
        p = Path(path)
        try:
            if p.is_dir():
                raise RecordError(f"{path} is a folder, not a match record")
            if p.stat().st_size > MAX_BYTES:
                raise RecordError(f"{path} is too large to be a match record")
            text = p.read_bytes().decode("utf-8")
            data = json.loads(text)
        except FileNotFoundError:
            raise RecordError(f"cannot read {path}: no such file") from None
        except OSError as exc:
            raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise RecordError(f"{path} is not a match record (it is not UTF-8 text)") from None
        except (json.JSONDecodeError, RecursionError):
            raise RecordError(f"{path} is not a match record (it is not valid JSON)") from None
        return cls.from_json(data)


def check_header(game: Game[Any, Any], record: MatchRecord) -> dict[str, Any]:
    """The record's options, validated, after checking it is this game's and was played with
    data this installation has (RecordError otherwise)."""
    if record.game != game.spec.name:
        raise RecordError(f"this record is a {record.game} match, not {game.spec.name}")
    try:
        opts = game.validate(record.options, record.players)
    except LudotecaError as exc:
        raise RecordError(f"the record's setup is invalid: {exc}") from None
    if record.version >= 2:  # v1 records predate the field: they play with what options select
        here = game.data_version(opts)
        if here != record.data:
            keys = set(here) | set(record.data)
            differ = sorted(k for k in keys if here.get(k) != record.data.get(k))
            raise RecordError(
                "the record was played with other component data than this installation has "
                f"({', '.join(differ)}): it would not replay identically"
            )
    return opts
