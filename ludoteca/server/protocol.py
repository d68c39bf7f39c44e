"""The arena's wire, both directions (docs/protocol.md), after lila-ws's typed
``ClientOut``/``ClientIn``.

A client's text frame is read into one of the typed messages below by ``parse`` (a refusal
names what is wrong: ``bad_json``, ``unknown_message``, ``bad_request``), and the socket
handler dispatches it through one table keyed by type. Every message the server sends, on
the table socket and on the event stream, has one typed constructor here: a frozen dataclass
whose ``to_wire`` is its JSON object, or (``full`` and ``update``, filled in by the table's
view builder) a ``TypedDict``. So the docs are checked against this one place.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Literal, TypedDict

from ludoteca.engine.errors import LudotecaError
from ludoteca.engine.game import JSON
from ludoteca.engine.i18n import Voice
from ludoteca.server import errors as E
from ludoteca.server.errors import ServerError
from ludoteca.server.socket_limits import too_deep

# ---- client to server ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Act:
    """An action for the sender's seat, answering the decision shown at ``seq``."""

    seq: int
    action: object


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the sender's last action; ``seq`` must be the table's current one."""

    seq: int


@dataclass(frozen=True, slots=True)
class Chat:
    text: str


@dataclass(frozen=True, slots=True)
class Rematch:
    """Offer a rematch of the finished match (or accept the open offer); decline it with
    ``accept`` false."""

    accept: bool


@dataclass(frozen=True, slots=True)
class Hint:
    """The coach's move for the sender's decision shown at ``seq`` (tables that allow hints)."""

    seq: int


@dataclass(frozen=True, slots=True)
class Sync:
    """Send me a fresh ``full`` message (after a gap in ``seq``)."""


@dataclass(frozen=True, slots=True)
class Ping:
    """Answered with ``pong`` and the table's ``seq``."""


ClientMessage = Act | Undo | Chat | Rematch | Hint | Sync | Ping
MAX_DEPTH = 32
"""Levels of lists and objects a client message may nest (the message itself is one)."""
FIELDS: dict[str, frozenset[str]] = {
    kind: frozenset(("type", *extra)) for kind, extra in (
        ("act", ("seq", "action")), ("undo", ("seq",)), ("chat", ("text",)),
        ("rematch", ("accept",)), ("hint", ("seq",)), ("sync", ()), ("ping", ()))
}
"""The fields each client message may have (docs/protocol.md, "Client messages")."""
KINDS = tuple(FIELDS)


def parse(text: str) -> ClientMessage:
    """One client frame as a typed message, or the ``ServerError`` that says what is wrong.
    Nesting is bounded (``MAX_DEPTH``): the standard parser recurses, and a deep value would
    otherwise reach code that recurses over it again."""
    try:
        data = json.loads(text)
    except ValueError:
        raise ServerError("bad_json", E.BAD_JSON) from None
    except RecursionError:
        raise ServerError("bad_json", E.TOO_DEEP, limit=MAX_DEPTH) from None
    if not isinstance(data, dict):
        raise ServerError("bad_json", E.BAD_JSON)
    if too_deep(data, MAX_DEPTH):
        raise ServerError("bad_json", E.TOO_DEEP, limit=MAX_DEPTH)
    kind = data.get("type")
    fields = FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is not None:
        extra = sorted(k for k in data if k not in fields)
        if extra:  # strict, as HTTP bodies: a misspelt field is never silently dropped
            raise ServerError("bad_request", E.UNKNOWN_FIELD, field=json.dumps(extra[0])[:40])
    if kind == "ping":
        return Ping()
    if kind == "sync":
        return Sync()
    if kind == "chat":
        said = data.get("text")
        if not isinstance(said, str):  # malformed, not an empty line
            raise ServerError("bad_request", E.BAD_REQUEST, detail="text")
        return Chat(said)
    if kind == "undo":
        return Undo(_seq(data))
    if kind == "hint":
        return Hint(_seq(data))
    if kind == "rematch":
        accept = data.get("accept", True)
        if not isinstance(accept, bool):
            raise ServerError("bad_request", E.BAD_REQUEST, detail="accept")
        return Rematch(accept)
    if kind == "act":
        if "action" not in data:
            raise ServerError("bad_request", E.BAD_REQUEST, detail="action")
        return Act(_seq(data), data["action"])
    raise ServerError("unknown_message", E.UNKNOWN_MESSAGE, kind=json.dumps(kind)[:40],
                      known=", ".join(KINDS))


def _seq(data: dict[str, Any]) -> int:
    seq = data.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool):
        raise ServerError("bad_request", E.BAD_REQUEST, detail="seq")
    return seq


# ---- server to client ------------------------------------------------------------------------
# One typed constructor per message the server sends (docs/protocol.md, "Server messages" and
# "The event stream"; tests/docs/test_protocol_messages.py holds the two together). A message's
# wire form is ``{"type": TYPE}`` and then its fields, in the order declared.


@dataclass(frozen=True, slots=True)
class ServerMessage:
    TYPE: ClassVar[str] = ""

    def to_wire(self) -> JSON:
        data: JSON = {"type": self.TYPE}
        for field in fields(self):
            data[field.name] = getattr(self, field.name)
        return data

    def text(self) -> str:
        """The wire form as the standard library encodes it, as these messages always were
        (the table's views encode theirs with orjson: ``table/view.py``'s ``dumps``)."""
        return json.dumps(self.to_wire())


def server_error() -> ServerError:
    """What a client hears when the server failed at something unexpected: nothing changed,
    the socket stays open, try again."""
    return ServerError("server_error", E.SERVER_BUG, 500)


# -- on the table socket (``full`` and ``update`` are the TypedDicts below)


@dataclass(frozen=True, slots=True)
class ErrorMessage(ServerMessage):
    """A refusal, over the socket and as the body of an HTTP error alike; the message in the
    listener's language."""

    TYPE: ClassVar[str] = "error"
    code: str
    message: str

    @classmethod
    def of(cls, exc: LudotecaError, say: Voice) -> ErrorMessage:
        return cls(exc.code, exc.say(say))


@dataclass(frozen=True, slots=True)
class TableMessage(ServerMessage):
    """The table's summary changed (without ``invite``)."""

    TYPE: ClassVar[str] = "table"
    table: JSON


@dataclass(frozen=True, slots=True)
class ChatMessage(ServerMessage):
    """A chat line was said: ``user``, ``name``, ``text``, ``at``."""

    TYPE: ClassVar[str] = "chat"
    line: JSON


@dataclass(frozen=True, slots=True)
class PongMessage(ServerMessage):
    TYPE: ClassVar[str] = "pong"
    seq: int


@dataclass(frozen=True, slots=True)
class HintMessage(ServerMessage):
    """The coach's answer, to the asking socket only: the move, the values behind it and one
    sentence in the asker's language."""

    TYPE: ClassVar[str] = "hint"
    seq: int
    action: object
    win: object
    score: object
    why: str

    @classmethod
    def of(cls, seq: int, suggestion: JSON, why: str) -> HintMessage:
        return cls(seq, suggestion["action"], suggestion["win"], suggestion["score"], why)


@dataclass(frozen=True, slots=True)
class ReconnectMessage(ServerMessage):
    """The server is stopping (or the session ended); the socket closes next."""

    TYPE: ClassVar[str] = "reconnect"
    message: str


class StatePart(TypedDict):
    seq: int
    status: str
    clocks: list[JSON]
    result: JSON | None
    view: JSON | None
    legal: list[JSON]
    to_act: list[int]
    undo: bool


class LogLine(TypedDict):
    seq: int
    seat: int | None
    events: list[JSON]


class Full(StatePart):
    type: Literal["full"]
    table: JSON
    you: int | None
    log: list[LogLine]
    chat: list[JSON]


class Update(StatePart):
    type: Literal["update"]
    seat: int | None
    events: list[JSON]


SOCKET_MESSAGES: dict[str, type] = {
    "full": Full, "update": Update, "table": TableMessage, "chat": ChatMessage,
    "error": ErrorMessage, "pong": PongMessage, "hint": HintMessage,
    "reconnect": ReconnectMessage,
}
"""Every message the table socket sends, by type."""


# -- on the event stream (``GET /api/events``): each event's name is its type


@dataclass(frozen=True, slots=True)
class LobbyEvent(ServerMessage):
    """A public table was created, changed seats, started, finished or was abandoned."""

    TYPE: ClassVar[str] = "lobby"
    table: JSON


@dataclass(frozen=True, slots=True)
class WaitingEvent(ServerMessage):
    """The ids of the turn-based tables waiting for the person's move, first on a stream."""

    TYPE: ClassVar[str] = "waiting"
    tables: list[str]


@dataclass(frozen=True, slots=True)
class TurnEvent(ServerMessage):
    """A decision of the person's began at a turn-based table (also posted to the webhook)."""

    TYPE: ClassVar[str] = "turn"
    table: str
    game: str
    seq: int


@dataclass(frozen=True, slots=True)
class TurnOverEvent(ServerMessage):
    TYPE: ClassVar[str] = "turn_over"
    table: str


@dataclass(frozen=True, slots=True)
class FinishedEvent(ServerMessage):
    TYPE: ClassVar[str] = "finished"
    table: str


@dataclass(frozen=True, slots=True)
class RematchOfferEvent(ServerMessage):
    """``by`` (a display name) offers a rematch."""

    TYPE: ClassVar[str] = "rematch_offer"
    table: str
    by: str


@dataclass(frozen=True, slots=True)
class RematchEvent(ServerMessage):
    """The rematch ``table`` of the table ``of`` is made."""

    TYPE: ClassVar[str] = "rematch"
    table: str
    of: str


@dataclass(frozen=True, slots=True)
class RemovedEvent(ServerMessage):
    """The host freed the person's seat before the start."""

    TYPE: ClassVar[str] = "removed"
    table: str


@dataclass(frozen=True, slots=True)
class ReconnectEvent(ServerMessage):
    """The server is stopping; the stream ends."""

    TYPE: ClassVar[str] = "reconnect"


@dataclass(frozen=True, slots=True)
class SignedOutEvent(ServerMessage):
    """The person's sessions ended; the stream ends."""

    TYPE: ClassVar[str] = "signed_out"


@dataclass(frozen=True, slots=True)
class TournamentEvent(ServerMessage):
    """A tournament was created, changed entrants, started, paired a round, decided a table,
    finished or was cancelled: its summary (``GET /api/tournaments``'s items)."""

    TYPE: ClassVar[str] = "tournament"
    tournament: JSON


@dataclass(frozen=True, slots=True)
class TournamentTableEvent(ServerMessage):
    """The person's table of round ``round`` is ready: go to ``table``."""

    TYPE: ClassVar[str] = "tournament_table"
    tournament: str
    round: int
    board: int
    table: str


@dataclass(frozen=True, slots=True)
class ChallengeEvent(ServerMessage):
    """A challenge the person made or received changed: ``challenge`` is its summary
    (``GET /api/challenges``' items; its ``status`` says what happened)."""

    TYPE: ClassVar[str] = "challenge"
    challenge: JSON


StreamEvent = (LobbyEvent | WaitingEvent | TurnEvent | TurnOverEvent | FinishedEvent
               | RematchOfferEvent | RematchEvent | RemovedEvent | ReconnectEvent
               | SignedOutEvent | TournamentEvent | TournamentTableEvent | ChallengeEvent)
STREAM_EVENTS: dict[str, type[ServerMessage]] = {
    cls.TYPE: cls for cls in (LobbyEvent, WaitingEvent, TurnEvent, TurnOverEvent,
                              FinishedEvent, RematchOfferEvent, RematchEvent, RemovedEvent,
                              ReconnectEvent, SignedOutEvent, TournamentEvent,
                              TournamentTableEvent, ChallengeEvent)
}
"""Every event the event stream sends, by type."""
