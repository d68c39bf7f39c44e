"""Kami actions: pass, play a defense + attack pair, and the "demoralized" declarations (A6).

A card *source* is an int: 0-7 a card of that type from the hand, 8-15 the face-up top card of
mercenary stack 0-7 (2 players, A5.4). A lead's or counter's defense may be ``NO_DEFENSE`` only
in ruling C1. Whether a play is a lead (face-down defense) or a counter follows from the state,
so one action shape covers both.

Index layout (stable, for RL action masks): 0 pass; ``1 + (defense + 1) * 16 + attack`` for
plays (1-272); then decline, reveal, play on, redeal (273-276).
"""

from __future__ import annotations

from dataclasses import dataclass

from ludoteca.engine.errors import MalformedAction
from ludoteca.engine.game import JSON, require_index, require_json_object
from ludoteca.engine.i18n import N_, t
from ludoteca.games.kami.components import NAME_INDEX, NAMES, TITLES

MERC = 8
"""Sources from ``MERC`` on are mercenary stacks."""
NO_DEFENSE = -1
STACKS = 8
PLAY_BASE = 1
DECLARE_BASE = PLAY_BASE + 17 * 16
NUM_ACTIONS = DECLARE_BASE + 4


@dataclass(frozen=True, slots=True)
class Pass:
    """Let the current attack go (A4.2): always allowed, and it reveals nothing."""

    @property
    def index(self) -> int:
        return 0

    def to_json(self) -> JSON:
        return {"type": "pass"}


@dataclass(frozen=True, slots=True)
class Play:
    """A lead or a counter: ``defense`` then ``attack``, each a source (see module doc)."""

    defense: int
    attack: int

    @property
    def index(self) -> int:
        return PLAY_BASE + (self.defense + 1) * 16 + self.attack

    def to_json(self) -> JSON:
        return {
            "type": "play",
            "defense": None if self.defense < 0 else source_name(self.defense),
            "attack": source_name(self.attack),
        }


@dataclass(frozen=True, slots=True)
class Declare:
    """4 players, after the deal (A6, C4): reveal 5+ Soldiers and ask the partner, or not."""

    reveal: bool

    @property
    def index(self) -> int:
        return DECLARE_BASE + self.reveal

    def to_json(self) -> JSON:
        return {"type": "declare", "reveal": self.reveal}


@dataclass(frozen=True, slots=True)
class Decide:
    """The partner of a demoralized player: cancel and redeal, or play the round on (A6)."""

    redeal: bool

    @property
    def index(self) -> int:
        return DECLARE_BASE + 2 + self.redeal

    def to_json(self) -> JSON:
        return {"type": "decide", "redeal": self.redeal}


Action = Pass | Play | Declare | Decide

PASS = Pass()
DECLINE, REVEAL = Declare(False), Declare(True)
PLAY_ON, REDEAL = Decide(False), Decide(True)
# PLAYS[defense + 1][attack]: every play, built once.
PLAYS = [[Play(d, a) for a in range(16)] for d in range(-1, 16)]
_BY_INDEX: list[Action] = [PASS]
_BY_INDEX += [p for row in PLAYS for p in row]
_BY_INDEX += [DECLINE, REVEAL, PLAY_ON, REDEAL]
assert all(a.index == i for i, a in enumerate(_BY_INDEX))


def source_name(source: int) -> str:
    return NAMES[source] if source < MERC else f"merc:{source - MERC}"


def source_from_name(text: object, field: str) -> int:
    if isinstance(text, str):
        if text in NAME_INDEX:
            return NAME_INDEX[text]
        if text.startswith("merc:") and text[5:].isdigit() and int(text[5:]) < STACKS:
            return MERC + int(text[5:])
    raise MalformedAction(
        msgid=N_("field {field!r} must be a card ({cards}) or a mercenary stack merc:0-merc:7"),
        field=field,
        cards=", ".join(NAMES),
    )


def action_from_index(index: int) -> Action:
    return _BY_INDEX[require_index(index, NUM_ACTIONS)]


def action_from_json(data: object) -> Action:
    obj = require_json_object(data)
    kind = obj.get("type")
    if kind == "pass":
        return PASS
    if kind == "play":
        raw = obj.get("defense")
        defense = NO_DEFENSE if raw is None else source_from_name(raw, "defense")
        return PLAYS[defense + 1][source_from_name(obj.get("attack"), "attack")]
    if kind in ("declare", "decide"):
        key = "reveal" if kind == "declare" else "redeal"
        value = obj.get(key)
        if not isinstance(value, bool):
            raise MalformedAction(msgid=N_("field {field!r} must be true or false"), field=key)
        if kind == "declare":
            return REVEAL if value else DECLINE
        return REDEAL if value else PLAY_ON
    raise MalformedAction(
        msgid=N_("unknown action type {type!r}; expected pass, play, declare or decide"),
        type=kind,
    )


def source_title(source: int, titles: tuple[str, ...] = TITLES) -> str:
    """A card's title or a mercenary stack, in the language being spoken."""
    if source < MERC:
        return t(titles[source])
    return t("mercenary stack M{stack}", stack=source - MERC + 1)


def describe(action: Action, titles: tuple[str, ...] = TITLES) -> str:
    """The action in words, in the language being spoken (``engine.i18n.speaking``)."""
    if isinstance(action, Pass):
        return t("pass")
    if isinstance(action, Play):
        attack = source_title(action.attack, titles)
        if action.defense < 0:
            return t("attack with {attack} (no defense card)", attack=attack)
        return t("defend with {defense}, attack with {attack}",
                 defense=source_title(action.defense, titles), attack=attack)
    if isinstance(action, Declare):
        return t("reveal the Soldiers and ask the partner") if action.reveal else t("keep quiet")
    return t("cancel the round and redeal") if action.redeal else t("play the round on")
