"""What a building does, in words: its name and one sentence per tile, read off the match's
building table and said the way the rules apply it (the tax bonus as the ``tax_bonus`` option
pays it), so a client shows "Panadería: Al final: 2 puntos por cada territorio de trigo."
without knowing a rule. The view carries them as message records (``engine/parts.py``), which
the server says in each viewer's language (``text``).

Which table a match plays (inferred or verified effects) is the ``buildings`` option, described
with the rules (docs/queendomino.md, "Building tables"); the sentence says what the table in
play does, so it needs no warning of its own.
"""

from __future__ import annotations

from functools import cache

from ludoteca.engine.game import JSON
from ludoteca.engine.i18n import N_
from ludoteca.engine.parts import msg, nt
from ludoteca.games.queendomino.buildings import Building
from ludoteca.games.queendomino.components import TERRAINS

AND = N_("{first} and {last}")
AT_ONCE = N_("When built: {gains}.")
THEN = N_("{first} {rest}")
NO_EFFECT = N_("No effect.")


def _gains(tile: Building) -> JSON | None:
    gains = []
    if tile.knights:
        gains.append(nt("{n} knight", "{n} knights", tile.knights))
    if tile.towers:
        gains.append(nt("{n} tower", "{n} towers", tile.towers))
    if not gains:
        return None
    what = gains[0] if len(gains) == 1 else msg(AND, first=gains[0], last=gains[1])
    return msg(AT_ONCE, gains=what)


def _clauses(tile: Building, per_turn: bool) -> list[JSON]:
    out = []
    gains = _gains(tile)
    if gains is not None:
        out.append(gains)
    if tile.coin_per_knight:
        out.append(
            nt("Once per turn in which you collect tax: +{n} coin per knight you have.",
               "Once per turn in which you collect tax: +{n} coins per knight you have.",
               tile.coin_per_knight)
            if per_turn else
            nt("With each knight's tax: +{n} coin per knight you have.",
               "With each knight's tax: +{n} coins per knight you have.", tile.coin_per_knight))
    if tile.coin_per_tower:
        out.append(
            nt("Once per turn in which you collect tax: +{n} coin per tower you have.",
               "Once per turn in which you collect tax: +{n} coins per tower you have.",
               tile.coin_per_tower)
            if per_turn else
            nt("With each knight's tax: +{n} coin per tower you have.",
               "With each knight's tax: +{n} coins per tower you have.", tile.coin_per_tower))
    if tile.crowns:
        out.append(nt("Adds {n} crown to the territory it stands in.",
                      "Adds {n} crowns to the territory it stands in.", tile.crowns))
    if tile.points:
        out.append(nt("At the end: {n} point.", "At the end: {n} points.", tile.points))
    if tile.per_territory:
        out.append(nt("At the end: {n} point per {terrain} territory.",
                      "At the end: {n} points per {terrain} territory.", tile.per_territory,
                      terrain=msg(TERRAINS[tile.terrain])))
    if tile.per_tower:
        out.append(nt("At the end: {n} point per tower you have.",
                      "At the end: {n} points per tower you have.", tile.per_tower))
    if tile.per_knight:
        out.append(nt("At the end: {n} point per knight you have.",
                      "At the end: {n} points per knight you have.", tile.per_knight))
    return out


@cache  # at most 2 tables × 32 tiles × 2 ways to pay tax; views share them, never change them
def _words(tile: Building, per_turn: bool) -> tuple[JSON, JSON]:
    clauses = _clauses(tile, per_turn) or [msg(NO_EFFECT)]
    sentence = clauses[-1]
    for clause in reversed(clauses[:-1]):
        sentence = msg(THEN, first=clause, rest=sentence)
    return {"id": "building", "msg": tile.name}, {"id": "effect", **sentence}


def building_json(tile: Building, per_turn: bool, effect: bool = True) -> JSON:
    """The tile's numbers (``Building.to_json``) with ``title`` (its name) and, unless told
    not to, ``effect`` (what it does): message records the server says in each viewer's
    language."""
    title, does = _words(tile, per_turn)
    if not effect:
        return {**tile.to_json(), "title": title}
    return {**tile.to_json(), "title": title, "effect": does}
