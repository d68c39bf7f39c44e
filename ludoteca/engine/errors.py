"""The errors a person can cause. Each carries a message meant to be shown as is, and a
``code`` that clients (the server's typed error messages) can rely on."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Reason:
    """A sentence said later in the listener's language: a message id (the English sentence
    with ``{named}`` fields, marked with ``N_`` so ``make messages`` extracts it) and its fields.

    A game's ``_why_illegal`` returns one (``because(N_("..."), domino=n)``) and ``Game.apply``
    raises it as an ``IllegalAction``. A field may itself be a ``Reason`` (a card's name, which
    has its own translation): it is said in the same language. ``str(reason)`` is the English."""

    msgid: str
    fields: Mapping[str, object] = field(default_factory=dict, hash=False)

    def __str__(self) -> str:
        return self.msgid.format(**self.fields)

    def say(self, voice: object) -> str:
        """The sentence in ``voice``'s language (English when ``voice`` cannot translate)."""
        return _say(voice, self.msgid, self.fields)


def because(msgid: str, /, **fields: object) -> Reason:
    """Why something is refused: ``because(N_("domino {domino} is already claimed"), domino=n)``."""
    return Reason(msgid, fields)


def _say(voice: object, msgid: str, fields: Mapping[str, object]) -> str:
    t = getattr(voice, "t", None)
    if t is None:
        return msgid.format(**fields)
    said = {k: v.say(voice) if isinstance(v, Reason) else v for k, v in fields.items()}
    return str(t(msgid, **said))


class LudotecaError(Exception):
    """Base of every error the engine raises on purpose.

    ``str(error)`` is the English message. An error built with ``msgid`` and ``fields`` can
    also be said in another language: ``error.say(voice)`` (``engine/i18n.py``). Every error a
    person can cause is built that way, its message id marked with ``N_`` for the catalogs;
    a field that is a ``Reason`` is said in the same language."""

    code = "error"

    def __init__(self, message: str = "", *, msgid: str | None = None, **fields: object) -> None:
        if msgid is not None and not message:
            message = msgid.format(**fields)
        super().__init__(message)
        self.msgid = msgid
        self.fields = fields

    def say(self, voice: object) -> str:
        """The message in ``voice``'s language where it has a message id, else English."""
        if self.msgid is None or getattr(voice, "t", None) is None:
            return str(self)
        return _say(voice, self.msgid, self.fields)


class OptionError(LudotecaError, ValueError):
    """An unknown option, a value of the wrong type or out of its choices, a bad player count."""

    code = "bad_option"


class MalformedAction(LudotecaError, ValueError):
    """The action cannot be read at all (bad JSON shape, unknown type, bad field)."""

    code = "malformed_action"


class IllegalAction(LudotecaError):
    """The action is well formed but not allowed now. The state is left untouched."""

    code = "illegal_action"


class NotYourTurn(IllegalAction):
    """The seat may not act now (another seat's turn, or it already answered)."""

    code = "not_your_turn"


class GameOver(IllegalAction):
    """The match has ended."""

    code = "game_over"


class StaleAction(IllegalAction):
    """The action answers a decision that is no longer current (a repeat, or an old view)."""

    code = "stale"


class RecordError(LudotecaError, ValueError):
    """A match record file cannot be read or does not replay."""

    code = "bad_record"
