"""The errors a person can cause. Each carries a message meant to be shown as is."""


class LudotecaError(Exception):
    """Base of every error the engine raises on purpose."""


class OptionError(LudotecaError, ValueError):
    """An unknown option, a value of the wrong type or out of its choices, a bad player count."""


class MalformedAction(LudotecaError, ValueError):
    """The action cannot be read at all (bad JSON shape, unknown type, bad field)."""


class IllegalAction(LudotecaError):
    """The action is well formed but not allowed now. The state is left untouched."""


class RecordError(LudotecaError, ValueError):
    """A match record file cannot be read or does not replay."""
