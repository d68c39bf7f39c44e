"""Helpers to build Kami positions by hand.

A hand is written as card names separated by spaces, e.g. ``"soldier soldier empress"``.
``position`` starts from a real deal (so every field exists) and then overrides what the test
names; card conservation across seats is not enforced, which rule tests do not need.
"""

from __future__ import annotations

from typing import Any

from ludoteca.games.kami.components import NAME_INDEX, pack
from ludoteca.games.kami.goita import GAME as GOITA
from ludoteca.games.kami.rules import GAME
from ludoteca.games.kami.state import PLAY, KamiState


def cards(text: str) -> list[int]:
    return [NAME_INDEX[w] for w in text.split()]


def position(
    players: int = 4,
    hands: dict[int, str] | None = None,
    *,
    first: int = 0,
    turn: int | None = None,
    attacker: int | None = None,
    attack: str | None = None,
    options: dict[str, Any] | None = None,
    goita: bool = False,
    mercs: list[tuple[str | None, str | None]] | None = None,
    **fields: Any,
) -> KamiState:
    """A PLAY-phase state. ``mercs`` lists (face-up, face-down) per stack (2 players)."""
    game = GOITA if goita else GAME
    if options is None and players == 4 and not goita:
        options = {"demoralized": False}
    s = game.setup(options, players, seed=0)
    s.phase = PLAY
    s.first = first
    s.attacker = first if attacker is None else attacker
    s.turn = s.attacker if turn is None else turn
    s.attack = -1 if attack is None else NAME_INDEX[attack]
    for seat, text in (hands or {}).items():
        s.hands[seat] = pack(cards(text))
        s.sizes[seat] = len(text.split())
    if mercs is not None:
        s.merc_up = [-1 if up is None else NAME_INDEX[up] for up, _ in mercs]
        s.merc_down = [-1 if down is None else NAME_INDEX[down] for _, down in mercs]
    for name, value in fields.items():
        setattr(s, name, value)
    return s


def act(s: KamiState, seat: int, data: dict[str, Any], goita: bool = False) -> None:
    """Apply an action given in its JSON form, with every check."""
    game = GOITA if goita else GAME
    game.apply(s, seat, game.action_from_json(data))


def play(defense: str | None, attack: str) -> dict[str, Any]:
    return {"type": "play", "defense": defense, "attack": attack}


PASS = {"type": "pass"}
