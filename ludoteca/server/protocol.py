"""The table socket's wire, both directions (docs/protocol.md), after lila-ws's typed
``ClientOut``/``ClientIn``.

A client's text frame is read into one of the typed messages below by ``parse`` (a refusal
names what is wrong: ``bad_json``, ``unknown_message``, ``bad_request``), and the socket
handler dispatches it through one table keyed by type. The server's own messages are built
here (errors, pong, reconnect) or by the table's view builder (``full``, ``update``,
``table``, ``chat``), whose shapes are the ``TypedDict``s at the end.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, TypedDict

from ludoteca.engine.errors import LudotecaError
from ludoteca.engine.game import JSON
from ludoteca.engine.i18n import Voice
from ludoteca.server import errors as E
from ludoteca.server.errors import ServerError, error_message
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


def error(exc: LudotecaError, say: Voice) -> str:
    """``{"type": "error", "code", "message"}``, the message in the viewer's language."""
    return json.dumps(error_message(exc, say))


def server_error() -> ServerError:
    """What a client hears when the server failed at something unexpected: nothing changed,
    the socket stays open, try again."""
    return ServerError("server_error", E.SERVER_BUG, 500)


def pong(seq: int) -> str:
    return json.dumps({"type": "pong", "seq": seq})


def hint(seq: int, suggestion: JSON, why: str) -> str:
    """The coach's answer, to the asking socket only: the move, the values behind it and one
    sentence in the asker's language."""
    return json.dumps({"type": "hint", "seq": seq, "action": suggestion["action"],
                       "win": suggestion["win"], "score": suggestion["score"], "why": why})


def reconnect(message: str | None = None) -> str:
    data: JSON = {"type": "reconnect"}
    if message is not None:
        data["message"] = message
    return json.dumps(data)


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
    type: str  # "full"
    table: JSON
    you: int | None
    log: list[LogLine]
    chat: list[JSON]


class Update(StatePart):
    type: str  # "update"
    seat: int | None
    events: list[JSON]
