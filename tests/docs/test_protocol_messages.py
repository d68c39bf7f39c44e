"""docs/protocol.md against ludoteca/server/protocol.py: every message the docs list (client
messages, server messages on the table socket, events on the event stream) has its typed
constructor there with the fields the docs name, and every constructor there is documented.
A message added, removed or given a field on one side only fails here."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import get_args, get_type_hints

import pytest

from ludoteca.server import protocol

DOCS = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def table_rows(heading: str) -> list[list[str]]:
    """The cells of the first table under ``heading`` (a whole ``###`` line), header and rule
    left out."""
    lines = DOCS.read_text(encoding="utf-8").splitlines()
    start = lines.index(heading)
    rows: list[list[str]] = []
    for line in lines[start + 1:]:
        if line.startswith("#"):
            break
        if line.startswith("|"):
            rows.append([cell.strip() for cell in re.split(r"(?<!\\)\|", line)[1:-1]])
        elif rows:
            break
    assert len(rows) > 2, f"no table under {heading!r}"
    return rows[2:]


def names(cell: str) -> set[str]:
    """The field names a cell lists: its backquoted names outside parentheses, up to the first
    ``:`` or ``;`` (what follows describes a field's own parts, as ``line``'s in ``chat``)."""
    depth, kept = 0, []
    for char in cell:
        depth += char == "("
        if depth == 0:
            kept.append(char)
        depth -= char == ")" and depth > 0
    flat = re.split(r"[:;]", "".join(kept))[0]
    return set(re.findall(r"`([a-z_]+)`", flat))


def message_type(cell: str) -> str:
    found = re.fullmatch(r"`([a-z_]+)`", cell)
    assert found, f"not a message type: {cell!r}"
    return found[1]


def wire_fields(cls: type) -> set[str]:
    """The fields besides ``type`` a server message's constructor puts on the wire."""
    if issubclass(cls, protocol.ServerMessage):
        return {field.name for field in dataclasses.fields(cls)}
    return set(get_type_hints(cls)) - {"type"}  # the TypedDicts, ``full`` and ``update``


def documented(heading: str, fields_column: int) -> dict[str, set[str]]:
    rows = table_rows(heading)
    found = {message_type(row[0]): names(row[fields_column]) for row in rows}
    assert len(found) == len(rows), f"a type listed twice under {heading!r}"
    return found


def test_client_messages_are_the_parsed_ones() -> None:
    docs = documented("### Client messages", 1)
    code = {kind: set(fields) - {"type"} for kind, fields in protocol.FIELDS.items()}
    assert docs == code


def test_server_messages_are_the_constructed_ones() -> None:
    docs = documented("### Server messages", 2)
    code = {kind: wire_fields(cls) for kind, cls in protocol.SOCKET_MESSAGES.items()}
    assert docs == code


def test_stream_events_are_the_constructed_ones() -> None:
    docs: dict[str, set[str]] = {}
    for row in table_rows("### The event stream"):
        shape = re.match(r"`\{([a-z_, ]+)\}`", row[2])
        assert shape, f"no data shape for {row[0]}"
        docs[message_type(row[0])] = {name.strip() for name in shape[1].split(",")} - {"type"}
    code = {kind: wire_fields(cls) for kind, cls in protocol.STREAM_EVENTS.items()}
    assert docs == code


@pytest.mark.parametrize("registry", [protocol.SOCKET_MESSAGES, protocol.STREAM_EVENTS])
def test_each_constructor_sends_its_own_type(registry: dict[str, type]) -> None:
    """The registry's keys are the types the constructors write (dataclasses: ``TYPE``;
    TypedDicts: the ``Literal`` of their ``type``)."""
    for kind, cls in registry.items():
        if issubclass(cls, protocol.ServerMessage):
            assert kind == cls.TYPE
        else:
            assert get_args(get_type_hints(cls)["type"]) == (kind,)


def test_every_server_message_class_is_registered() -> None:
    """A constructor added to protocol.py but to neither registry would escape the checks."""
    made = {cls for cls in vars(protocol).values()
            if isinstance(cls, type) and issubclass(cls, protocol.ServerMessage)
            and cls is not protocol.ServerMessage}
    assert made == ({*protocol.SOCKET_MESSAGES.values(), *protocol.STREAM_EVENTS.values()}
                    - {protocol.Full, protocol.Update})


def test_wire_form_is_type_then_fields_in_order() -> None:
    """What clients have always read, byte for byte (``text`` is the standard encoding)."""
    assert protocol.PongMessage(3).text() == '{"type": "pong", "seq": 3}'
    assert protocol.ReconnectEvent().text() == '{"type": "reconnect"}'
    assert protocol.TurnEvent("t1", "kami", 12).to_wire() == {
        "type": "turn", "table": "t1", "game": "kami", "seq": 12}
    assert list(protocol.HintMessage.of(
        4, {"action": {"type": "pass"}, "win": 61, "score": 18.5, "extra": 0}, "Why.",
    ).to_wire()) == ["type", "seq", "action", "win", "score", "why"]
