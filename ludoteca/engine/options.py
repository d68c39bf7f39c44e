"""Per-game option schemas, validated once at setup with messages a table creator can act on."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ludoteca.engine.errors import OptionError
from ludoteca.engine.i18n import N_

OptionValue = bool | int | str

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True, slots=True)
class Option:
    """One table option: its name, type, allowed values, default and what it does."""

    name: str
    type: type
    default: OptionValue
    description: str
    choices: tuple[OptionValue, ...] = ()
    min: int | None = None
    max: int | None = None
    players: tuple[int, ...] = field(default=())
    """Player counts the option applies to (empty = all); elsewhere only the default is allowed."""
    fixed: tuple[tuple[int, OptionValue], ...] = field(default=())
    """(player count, value) pairs where the rules allow one value only: left unset it takes that
    value, set otherwise it is refused, and a table form shows it set and locked."""

    def parse(self, raw: object) -> OptionValue:
        """Coerce a value (JSON or command-line text) to the option's type, or explain why not."""
        value: OptionValue
        if self.type is bool:
            if isinstance(raw, bool):
                value = raw
            elif isinstance(raw, str) and raw.strip().lower() in _TRUE | _FALSE:
                value = raw.strip().lower() in _TRUE
            else:
                raise OptionError(
                    msgid=N_("option {option!r} takes true or false, not {value!r}"),
                    option=self.name,
                    value=raw,
                )
        elif self.type is int:
            if isinstance(raw, int) and not isinstance(raw, bool):
                value = raw
            elif isinstance(raw, str) and raw.strip().lstrip("-").isdigit():
                value = int(raw.strip())
            else:
                raise OptionError(
                    msgid=N_("option {option!r} takes a whole number, not {value!r}"),
                    option=self.name,
                    value=raw,
                )
            if self.min is not None and value < self.min:
                raise OptionError(
                    msgid=N_("option {option!r} must be at least {min}"),
                    option=self.name,
                    min=self.min,
                )
            if self.max is not None and value > self.max:
                raise OptionError(
                    msgid=N_("option {option!r} must be at most {max}"),
                    option=self.name,
                    max=self.max,
                )
        else:
            if not isinstance(raw, str):
                raise OptionError(
                    msgid=N_("option {option!r} takes text, not {value!r}"),
                    option=self.name,
                    value=raw,
                )
            value = raw.strip()
        if self.choices and value not in self.choices:
            raise OptionError(
                msgid=N_("option {option!r} must be one of: {choices} (got {value!r})"),
                option=self.name,
                choices=", ".join(str(c) for c in self.choices),
                value=value,
            )
        return value

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": self.type.__name__,
            "default": self.default,
            "choices": list(self.choices),
            "min": self.min,
            "max": self.max,
            "description": self.description,
            "players": list(self.players),
            "fixed": {str(count): value for count, value in self.fixed},
        }


def validate_options(
    schema: tuple[Option, ...], given: Mapping[str, object] | None, players: int
) -> dict[str, OptionValue]:
    """All options of the schema, defaults filled in, or OptionError naming the problem."""
    given = dict(given or {})
    by_name = {o.name: o for o in schema}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        if not by_name:
            raise OptionError(
                msgid=N_("unknown option {option!r}; this game has no options"),
                option=unknown[0],
            )
        raise OptionError(
            msgid=N_("unknown option {option!r}; this game's options are: {known}"),
            option=unknown[0],
            known=", ".join(by_name),
        )
    out: dict[str, OptionValue] = {}
    for opt in schema:
        fixed = dict(opt.fixed)
        if players in fixed:
            if opt.name in given and opt.parse(given[opt.name]) != fixed[players]:
                raise OptionError(
                    msgid=N_("option {option!r} is always {value} for {players} players"),
                    option=opt.name,
                    value=fixed[players],
                    players=players,
                )
            out[opt.name] = fixed[players]
        elif opt.name in given:
            value = opt.parse(given[opt.name])
            if opt.players and players not in opt.players and value != opt.default:
                raise OptionError(
                    msgid=N_("option {option!r} is only for {counts} players"),
                    option=opt.name,
                    counts="/".join(str(p) for p in opt.players),
                )
            out[opt.name] = value
        else:
            out[opt.name] = opt.default
    return out


def parse_option_pairs(pairs: list[str]) -> dict[str, str]:
    """Turn command-line ``k=v`` pairs into a dict (values stay text; the schema parses them)."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(
                msgid=N_("options are written name=value, not {pair!r}"), pair=pair
            )
        out[key.strip()] = value
    return out
