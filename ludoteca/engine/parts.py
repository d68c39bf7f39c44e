"""Score parts, tie-break reasons and teams as data (DESIGN.md §2, docs/engine.md "Outcome").

A game explains each seat's score as ``Part``s and its tie-break values as ``TieBreak``s: a stable
``id``, a message id (the English sentence, marked with ``N_`` so ``make messages`` finds it),
the points (or the compared value) and the sentence's arguments. Consumers never re-add or infer
anything: they read these, and ``render_parts`` adds the sentence in a viewer's language.

An argument is a plain value, ``{"seat": n}`` (a player, named by the table's names) or
``{"msg": id, "args": {...}}`` (a word or clause that is itself a message: a terrain, a card);
a message that counts something also has ``"plural"`` (the English plural) and ``"n"`` (the
count), and is said in the form the language uses for that count ("1 crown", "2 crowns").

A leaf module: it imports nothing of the package but ``i18n``, so every layer may use it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ludoteca.engine.i18n import Voice

JSON = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Part:
    """Some points of a seat's score, and why: ``points`` add up to the seat's score."""

    id: str
    msg: str
    points: int
    args: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {"id": self.id, "msg": self.msg, "points": self.points, "args": dict(self.args)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Part:
        return cls(str(data["id"]), str(data["msg"]), int(data["points"]),
                   dict(data.get("args") or {}))


@dataclass(frozen=True, slots=True)
class TieBreak:
    """One value a seat is compared on after (or, where its rule says so, before) the score."""

    id: str
    msg: str
    value: int
    args: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {"id": self.id, "msg": self.msg, "value": self.value, "args": dict(self.args)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TieBreak:
        return cls(str(data["id"]), str(data["msg"]), int(data["value"]),
                   dict(data.get("args") or {}))


def msg(message: str, **args: Any) -> JSON:
    """A nested message argument: a word or clause said in the viewer's language."""
    return {"msg": message, "args": args} if args else {"msg": message}


def nt(singular: str, plural: str, n: int, **args: Any) -> JSON:
    """A message in the form for the count ``n`` (also its ``{n}``): ``{"msg", "plural", "n",
    "args"}``. Named like ``Voice.nt`` so that ``make messages`` extracts both forms."""
    return ({"msg": singular, "plural": plural, "n": n, "args": args} if args
            else {"msg": singular, "plural": plural, "n": n})


def seat_arg(seat: int) -> JSON:
    """A player argument, named by the table's player names when rendered."""
    return {"seat": seat}


def teams_of(side_of: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """The seats of each side, in side order, from each seat's side."""
    sides: dict[int, list[int]] = {}
    for seat, side in enumerate(side_of):
        sides.setdefault(side, []).append(seat)
    return tuple(tuple(sides[side]) for side in sorted(sides))


def side_index(teams: Sequence[Sequence[int]], players: int) -> list[int]:
    """Each seat's side number (its team's index in ``teams``)."""
    out = list(range(players))
    for side, seats in enumerate(teams):
        for seat in seats:
            out[seat] = side
    return out


def say(message: str, args: Mapping[str, Any], voice: Voice,
        plural: str | None = None, n: int = 0) -> str:
    """``message`` in ``voice``'s language with every argument said, nested ones included;
    with ``plural``, in the form for the count ``n``."""
    words = {k: _arg(v, voice) for k, v in args.items()}
    if plural is not None:
        return voice.nt(message, plural, n, **words)
    return voice.t(message, **words)


def say_record(record: Mapping[str, Any], voice: Voice) -> str:
    """A message record (``{"msg", "args"}``, maybe ``"plural"`` and ``"n"``) in words."""
    plural = record.get("plural")
    return say(str(record["msg"]), record.get("args") or {}, voice,
               None if plural is None else str(plural), int(record.get("n") or 0))


def _arg(value: Any, voice: Voice) -> Any:
    if isinstance(value, Mapping):
        if "msg" in value:
            return say_record(value, voice)
        if "seat" in value:
            return voice.name(int(value["seat"]))
    return value


def render_parts(data: Any, voice: Voice, said: dict[tuple[str, str], str] | None = None,
                 memo: dict[int, tuple[Any, Any]] | None = None) -> Any:
    """``data`` (an outcome's or a view's JSON) in which every part and tie-break reason (a
    mapping with ``id`` and ``msg``) also has its ``text`` in ``voice``'s language, so a client
    shows sentences without knowing any message. Pure: ``data`` is unchanged; only the
    containers on the way to a part are copied (a view's boards and hands are shared as they
    are), since the server renders every view it sends. A view's lists are uniform, as the
    games build them: a list whose first element is a scalar, or a record whose values are
    scalars or lists of scalars, holds no part and is not walked.

    ``said``: sentences already said in this voice, by message and arguments (a server keeps
    one per table and language: most parts do not change from one move to the next).
    ``memo``: records holding a ``parts`` list already rendered in this voice, by identity
    (``id`` → the record and its rendering): a game that hands out the same record for an
    unchanged kingdom gets it rendered once. Views are never changed after they are made, so
    the same object means the same rendering."""
    kind = type(data)
    if kind is dict:
        if memo is not None and "parts" in data:
            hit = memo.get(id(data))
            if hit is not None and hit[0] is data:
                return hit[1]
        out = data
        msg = data.get("msg")
        message = type(msg) is str and "id" in data  # a part, a reason or another message record
        for key, value in data.items():
            # a message's arguments are said within its sentence: no part is in them
            if type(value) in _CONTAINERS and not (message and key == "args"):
                new = render_parts(value, voice, said, memo)
                if new is not value:
                    if out is data:
                        out = dict(data)
                    out[key] = new
        if message:
            if out is data:
                out = dict(data)
            args = data.get("args") or {}
            if said is None:
                out["text"] = say_record(data, voice)
            else:
                key = (msg, repr(args) + repr(data.get("n")))
                text = said.get(key)
                if text is None:
                    text = said[key] = say_record(data, voice)
                out["text"] = text
        if memo is not None and "parts" in data:
            memo[id(data)] = (data, out)
        return out
    if kind is list:
        if not data:
            return data
        first = data[0]
        if type(first) is dict:
            if "msg" not in first and all(_partless(v) for v in first.values()):
                return data  # a list of flat records (a board's squares): no part in it
        elif type(first) is not list:
            return data  # a list of scalars
        copied: list[Any] | None = None
        for i, value in enumerate(data):
            if type(value) in _CONTAINERS:
                new = render_parts(value, voice, said, memo)
                if new is not value:
                    if copied is None:
                        copied = list(data)
                    copied[i] = new
        return data if copied is None else copied
    return data


def _partless(value: Any) -> bool:
    """A scalar, or a list of scalars (a domino's terrains): a record made of these is flat.
    Not ``None``: it may stand where the list's other records hold a record (an empty board
    space before a built one)."""
    kind = type(value)
    if kind is dict or value is None:
        return False
    if kind is list:
        return not value or type(value[0]) not in _CONTAINERS
    return True


_CONTAINERS = (dict, list)
