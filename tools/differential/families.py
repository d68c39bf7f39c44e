"""The game families the native core plays, each with its configurations and its one
match-stepping comparison; and the check that they cover every game the registry puts on the
native core, every player count and every option value (``gaps``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ludoteca.games import registry
from tools.differential import buttons, kami, kingdomino, queendomino
from tools.differential.core import Case


@dataclass(frozen=True)
class Family:
    """Games of one native engine: ``play(case, seed, policy, *, observe, fault_at)`` compares
    one match and returns the states compared."""

    name: str
    cases: tuple[Case, ...]
    play: Callable[..., int]
    policies: tuple[str, ...]

    @property
    def games(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.game for c in self.cases))


FAMILIES = (
    Family("kingdomino", tuple(kingdomino.CASES), kingdomino.play, kingdomino.POLICIES),
    Family("queendomino", tuple(queendomino.CASES), queendomino.play, queendomino.POLICIES),
    Family("kami", tuple(kami.CASES), kami.play, kami.POLICIES),
    Family("buttons", tuple(buttons.CASES), buttons.play, buttons.POLICIES),
)


def family_of(game: str) -> Family:
    for family in FAMILIES:
        if game in family.games:
            return family
    raise KeyError(f"no differential comparison plays {game!r}")


def all_cases() -> list[Case]:
    return [case for family in FAMILIES for case in family.cases]


def native_games() -> list[str]:
    """The registered games with a module on the native core (``GameEntry.native``)."""
    reg = registry()
    return [name for name in reg.names() if reg.entry(name).native]


def gaps() -> list[str]:
    """What the cases miss: a native game with no comparison, a player count with no case, an
    option value no case plays (after ``validate``: defaults and fixed values count; an integer
    option needs two values). Empty when nothing is forgotten."""
    reg = registry()
    cases = all_cases()
    out = []
    for name in native_games():
        mine = [c for c in cases if c.game == name]
        if not mine:
            out.append(f"{name} is on the native core but no differential comparison plays it")
            continue
        game = reg.game(name)
        spec = game.spec
        counts = {c.players for c in mine}
        out += [f"{name} at {p} players has no case"
                for p in range(spec.min_players, spec.max_players + 1) if p not in counts]
        played = [game.validate(c.options, c.players) for c in mine]
        for option in spec.options:
            seen = {opts.get(option.name, option.default) for opts in played}
            wanted: tuple[object, ...] = (
                (True, False) if option.type is bool else option.choices)
            missing = [v for v in wanted if v not in seen]
            if option.type is int and len(seen) < 2:
                missing = ["a value besides the default"]
            out += [f"{name}: no case plays {option.name}={v}" for v in missing]
    return out
