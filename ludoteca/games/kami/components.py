"""Kami's 32 cards (rules/kami.md A1) as 8 types, and hands packed into one int.

A hand is a multiset of types, so it is kept as counts: 4 bits per type in one int (at most 10
Soldiers fit in 4 bits). Adding or removing a card is one addition; cloning is free.
"""

from __future__ import annotations

from ludoteca.engine.i18n import N_

SOLDIER, SPEAR, HORSEMAN, SILVER, GOLD, TOWER, FOOL, EMPRESS = range(8)
TYPES = range(8)
NAMES = ("soldier", "spear", "horseman", "silver", "gold", "tower", "fool", "empress")
TITLES = (
    "Soldier", "Spear", "Horseman", "Silver Dragon", "Gold Dragon", "Tower", "Fool", "Empress",
)
GOITA_TITLES = ("Shi", "Gon", "Bakko", "Gin", "Kin", "Hisha", "Kaku", "Ou")
NAME_INDEX = {name: t for t, name in enumerate(NAMES)}
COPIES = (10, 4, 4, 4, 4, 2, 2, 2)
POINTS = (1, 2, 2, 3, 3, 4, 4, 5)
DECK_SIZE = sum(COPIES)

# Attacks an Empress may not counter (A4.4 / B3).
EMPRESS_BARRED = frozenset({SOLDIER, SPEAR})

ONE = tuple(1 << (4 * t) for t in TYPES)
"""``ONE[t]`` added to a packed hand adds one card of type ``t``."""


def count(hand: int, t: int) -> int:
    return (hand >> (4 * t)) & 15


def pack(cards: list[int] | tuple[int, ...]) -> int:
    """The packed hand holding these card types."""
    hand = 0
    for t in cards:
        hand += ONE[t]
    return hand


def unpack(hand: int) -> list[int]:
    """The card types of a packed hand, ascending."""
    out: list[int] = []
    for t in TYPES:
        out.extend([t] * ((hand >> (4 * t)) & 15))
    return out


def full_deck() -> list[int]:
    """All 32 cards as types, in type order (shuffle before use)."""
    return [t for t in TYPES for _ in range(COPIES[t])]


# The card words said in sentences (events, score parts), one message each.
KAMI_TITLES = (
    N_("Soldier"), N_("Spear"), N_("Horseman"), N_("Silver Dragon"), N_("Gold Dragon"),
    N_("Tower"), N_("Fool"), N_("Empress"),
)
KAMI_THE = (
    N_("the Soldier"), N_("the Spear"), N_("the Horseman"), N_("the Silver Dragon"),
    N_("the Gold Dragon"), N_("the Tower"), N_("the Fool"), N_("the Empress"),
)
GOITA_NAMES = (
    N_("Shi"), N_("Gon"), N_("Bakko"), N_("Gin"), N_("Kin"), N_("Hisha"), N_("Kaku"), N_("Ou"),
)
"""Goita's pieces are named bare in both languages ("attacked with Hisha")."""
