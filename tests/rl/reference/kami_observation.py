# A snapshot of the encoder before issue 26's speed work: the reference the fast encoder must match
# bit for bit (tests/rl/test_encoders_match.py). Not to be edited.
"""Kami and Goita: one seat's observation (docs/rl.md "Kami and Goita").

Mirrors ``games/kami/view.py``: the seat's own hand and own face-down defenses, everything face
up, hand sizes, mercenary tops (2 players), the unused card it looked at (3 players), scores and
the turn. Lines are given as counts per card type (their order within a line is left out), and
the deal history only through the scores. Others' hands, others' face-down defenses, face-down
mercenaries and unused cards it did not look at are never read.
"""

from __future__ import annotations

from array import array
from typing import Any

import numpy as np

from ludoteca.engine.game import Game, Seat
from ludoteca.games.kami.components import COPIES, ONE, TYPES, pack
from ludoteca.games.kami.state import (
    DECIDE,
    DECLARE,
    FACE_DOWN,
    FROM_MERC,
    PLAY,
    TYPE_MASK,
    Config,
    KamiState,
)
from ludoteca.rl.encode import Layout, Vector, unit

T = len(TYPES)
INV_COPIES = tuple(1.0 / c for c in COPIES)
PHASES = 4
CACHE_LIMIT = 50_000
ALL = pack([t for t in TYPES for _ in range(COPIES[t])])
"""The whole deck, packed: minus what a seat has seen, what it has not."""


class Encoder:
    """Kami/Goita observation for one player count and options."""

    def __init__(self, game: Game[Any, Any], options: dict[str, Any], players: int) -> None:
        cfg = Config.from_options(game.spec.name, options, players)
        self.cfg = cfg
        n = self.n = players
        sides = cfg.sides
        lay = self.layout = Layout()
        self.o_seat = lay.add("seat", n, "the observer's seat, one-hot")
        self.o_phase = lay.add("phase", PHASES, "declare, decide, play, over (one-hot)")
        self.o_hand = lay.add("hand", T, "own hand: cards per type / copies of that type")
        self.o_unseen = lay.add(
            "unseen", T, "cards per type the observer has not seen anywhere / copies")
        self.o_sizes = lay.add("hand_sizes", n, "cards in hand per relative seat / 10")
        self.o_up = lay.add(
            "defense_known", n * T,
            "per relative seat, defense cards the observer can see (face up, mercenary, or its "
            "own), per type / copies")
        self.o_down = lay.add(
            "defense_hidden", n, "per relative seat, face-down defenses unknown to it / 8")
        self.o_merc_line = lay.add(
            "from_mercenaries", n, "per relative seat, line cards taken from mercenaries / 8")
        self.o_att = lay.add("attacks", n * T, "per relative seat, attack cards per type / copies")
        self.o_attack = lay.add("attack", T + 1, "the attack to answer by type, or none (last)")
        self.o_attacker = lay.add("attacker", n, "owner of the current attack, relative one-hot")
        self.o_turn = lay.add("turn", n, "seat to play, relative one-hot")
        self.o_first = lay.add("first", n, "first player of the round, relative one-hot")
        self.o_lead = lay.add("leading", 1, "1 when the seat to play leads")
        self.o_unlocked = lay.add("empress_unlocked", 1, "an Empress/Ou may attack")
        self.o_scores = lay.add("scores", sides, "score per relative side / target")
        self.o_round = lay.add("round", 1, "round number / 50")
        self.o_revealed = lay.add("revealed", n, "Soldiers shown (A6/B5) per relative seat / 10")
        self.o_asked = lay.add(
            "asked", n, "declare/decide phases: seat asked (or demoralized), relative one-hot")
        self.o_nasked = lay.add("nasked", 1, "seats asked so far this deal / 4")
        stacks = 8 if n == 2 else 0
        self.o_merc = lay.add(
            "mercenaries", stacks * (T + 2),
            "2 players: per stack the face-up top by type or empty, and a face-down card below")
        self.o_unused = lay.add("unused", 2 if n == 3 else 0,
                                "3 players: per unused card, looked at by the observer")
        self.o_looked = lay.add("looked", T if n == 3 else 0,
                                "3 players: the unused card the observer looked at, by type")
        self.shape = (lay.size,)
        self.zeros = array("f", bytes(4 * lay.size))
        self.buf = array("f", bytes(4 * lay.size))
        """Written in place at every observation; ``encode`` hands out a copy."""
        self.vec: Vector = np.frombuffer(self.buf, dtype=np.float32)

    def encode(self, s: KamiState, seat: Seat) -> Vector:
        n = self.n
        cfg = s.cfg
        buf = self.buf
        buf[:] = self.zeros
        buf[self.o_seat + seat] = 1.0
        buf[self.o_phase + s.phase] = 1.0
        hand = s.hands[seat]
        seen = hand
        o = self.o_hand
        buf[o:o + T] = counts(hand)
        o_up, o_att = self.o_up, self.o_att
        for p in range(n):
            r = (p - seat) % n
            size = s.sizes[p]
            if size:
                buf[self.o_sizes + r] = size / 10
            if s.revealed[p]:
                buf[self.o_revealed + r] = s.revealed[p] / 10
            defense, attacks = s.defense[p], s.attacks[p]
            if not defense and not attacks:
                continue  # nothing played yet (sizes and revealed were written)
            known = hidden = merc = line = 0
            mine = p == seat
            for e in defense:
                if e & FROM_MERC:
                    merc += 1
                    known += ONE[e & TYPE_MASK]
                elif e & FACE_DOWN and not mine:
                    hidden += 1
                else:
                    known += ONE[e & TYPE_MASK]
            for e in attacks:
                if e & FROM_MERC:
                    merc += 1
                line += ONE[e & TYPE_MASK]
            if known:
                seen += known
                buf[o_up + r * T:o_up + (r + 1) * T] = counts(known)
            if hidden:
                buf[self.o_down + r] = hidden / 8
            if line:
                seen += line
                buf[o_att + r * T:o_att + (r + 1) * T] = counts(line)
            if merc:
                buf[self.o_merc_line + r] = unit(merc, 8)
        buf[self.o_attack + (s.attack if s.attack >= 0 else T)] = 1.0
        buf[self.o_attacker + (s.attacker - seat) % n] = 1.0
        buf[self.o_turn + (s.turn - seat) % n] = 1.0
        buf[self.o_first + (s.first - seat) % n] = 1.0
        if s.phase == PLAY and s.turn == s.attacker:
            buf[self.o_lead] = 1.0
        if s.unlocked:
            buf[self.o_unlocked] = 1.0
        my_side = cfg.side_of[seat]
        sides = cfg.sides
        for side in range(sides):
            if s.scores[side]:
                buf[self.o_scores + (side - my_side) % sides] = unit(s.scores[side], cfg.target)
        buf[self.o_round] = unit(s.round, 50)
        if s.phase == DECLARE or s.phase == DECIDE:
            buf[self.o_asked + (s.asked - seat) % n] = 1.0
            buf[self.o_nasked] = s.nasked / 4
        if n == 2:
            o = self.o_merc
            for k, up in enumerate(s.merc_up):
                base = o + k * (T + 2)
                if up >= 0:
                    seen += ONE[up]
                    buf[base + up] = 1.0
                else:
                    buf[base + T] = 1.0
                if s.merc_down[k] >= 0:
                    buf[base + T + 1] = 1.0
        elif n == 3:
            looked = s.looked[seat]
            if 0 <= looked < len(s.unused):
                t = s.unused[looked]
                seen += ONE[t]
                buf[self.o_unused + looked] = 1.0
                buf[self.o_looked + t] = 1.0
        o = self.o_unseen
        buf[o:o + T] = counts(ALL - seen)
        return self.vec.copy()


_COUNTS: dict[int, array[float]] = {}


def counts(packed: int) -> array[float]:
    """A packed multiset of card types (4 bits per type, ``components.pack``) as its count
    per type / copies of that type; there are few distinct ones, so they are kept."""
    got = _COUNTS.get(packed)
    if got is None:
        got = array("f", bytes(4 * T))
        for t in TYPES:
            got[t] = ((packed >> (4 * t)) & 15) * INV_COPIES[t]
        if len(_COUNTS) > CACHE_LIMIT:
            _COUNTS.clear()
        _COUNTS[packed] = got
    return got
