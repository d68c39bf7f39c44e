"""The errors a person can cause. Each carries a message meant to be shown as is, and a
``code`` that clients (the server's typed error messages) can rely on."""

from __future__ import annotations


class LudotecaError(Exception):
    """Base of every error the engine raises on purpose.

    ``str(error)`` is the English message. An error built with ``msgid`` and ``fields`` can
    also be said in another language: ``error.say(voice)`` (``engine/i18n.py``)."""

    code = "error"

    def __init__(self, message: str = "", *, msgid: str | None = None, **fields: object) -> None:
        if msgid is not None and not message:
            message = msgid.format(**fields)
        super().__init__(message)
        self.msgid = msgid
        self.fields = fields

    def say(self, voice: object) -> str:
        """The message in ``voice``'s language where it has a message id, else English."""
        t = getattr(voice, "t", None)
        if self.msgid is None or t is None:
            return str(self)
        return str(t(self.msgid, **self.fields))


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
