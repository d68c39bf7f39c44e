"""Greedy Kami / Goita: one ply, scored by what the seat can see.

Going out wins the round, so the bot always goes out when it can (with the most points). Else it
prefers to counter (each counter empties two cards and takes the lead), but lets its partner's
attack run. Attacks are chosen to be hard to answer: the fewer unseen cards could counter a type
(its copies plus the Empress when she may counter it), the better. Defense and remaining cards:
keep the Empress (the wild counter) and a high card for the finishing attack, and spend the
cards whose type is most common among the unseen (they are the easiest to counter anyway).
"""

from __future__ import annotations

from typing import Any

from ludoteca.engine.game import JSON, Game, Seat
from ludoteca.engine.rng import Rng
from ludoteca.games.kami.actions import MERC, Decide, Declare, Pass, Play
from ludoteca.games.kami.components import (
    COPIES,
    EMPRESS,
    EMPRESS_BARRED,
    NAME_INDEX,
    POINTS,
    SOLDIER,
    TYPES,
    unpack,
)
from ludoteca.games.kami.state import FACE_DOWN, FROM_MERC, TYPE_MASK, KamiState


def unseen_counts(view: JSON) -> list[int]:
    """Copies of each type this seat has not seen (in others' hands or hidden)."""
    left = list(COPIES)
    seat = view["seat"]
    cards: list[str] = list(view["hand"] or [])
    for p, line in enumerate(view["defense"]):
        cards += [e["card"] for e in line if e["card"] is not None and (
            p == seat or e["face_up"] or e["mercenary"])]
    cards += [e["card"] for line in view["attack_lines"] for e in line]
    cards += [m["top"] for m in view["mercenaries"] if m["top"] is not None]
    if view.get("looked"):
        cards.append(view["looked"])
    for name in cards:
        left[NAME_INDEX[name]] -= 1
    return left


def threat(t: int, unseen: list[int], unlocked: bool) -> int:
    """How many unseen cards could counter an attack of type ``t``."""
    if t == EMPRESS:
        return unseen[EMPRESS]
    return unseen[t] + (0 if t in EMPRESS_BARRED else unseen[EMPRESS])


def choose(game: Game[Any, Any], view: JSON, seat: Seat, rng: Rng) -> Any:
    state = game.determinize(view, seat, rng)
    actions = game.legal_actions(state, seat)
    if len(actions) == 1 or isinstance(actions[0], (Declare, Decide)):
        return actions[0]  # never reveal; always play on (a redeal wastes a good deal as often)
    return best(actions, state, seat, unseen_counts(view), rng)


def state_unseen(s: KamiState, seat: Seat) -> list[int]:
    """``unseen_counts`` read off a state: only what ``seat`` may see of it (for playouts)."""
    left = list(COPIES)
    hand = s.hands[seat]
    for t in TYPES:
        left[t] -= (hand >> (4 * t)) & 15
    for p, line in enumerate(s.defense):
        for e in line:
            if p == seat or not e & FACE_DOWN or e & FROM_MERC:
                left[e & TYPE_MASK] -= 1
    for line in s.attacks:
        for e in line:
            left[e & TYPE_MASK] -= 1
    for top in s.merc_up:
        if top >= 0:
            left[top] -= 1
    if s.looked and s.looked[seat] >= 0:
        left[s.unused[s.looked[seat]]] -= 1
    return left


def _scores(
    actions: list[Any], s: KamiState, seat: Seat, unseen: list[int], rng: Rng
) -> list[tuple[float, int]]:
    """(``evaluate`` score plus a random tie-break, index) of each play action."""
    hand = unpack(s.hands[seat])
    size = len(hand)
    attacker = s.attacker
    side_of = s.cfg.side_of
    partner_attacks = attacker != seat and side_of[attacker] == side_of[seat]
    tops = [None if t < 0 else t for t in s.merc_up]
    lead = attacker == seat
    values = _points(s.cfg.values)
    return [
        (evaluate(a, hand, size, unseen, tops, lead, s.unlocked, partner_attacks, values)
         + rng.below(1000) / 1e5, i)
        for i, a in enumerate(actions)
    ]


def _points(values: tuple[int, ...]) -> tuple[int, ...]:
    """A game's card values in Kami points: Goita's are ten times Kami's (rules/kami.md B6), and
    the evaluator's weights are set for Kami's 1-5."""
    return POINTS if values[SOLDIER] == 1 else tuple(v // values[SOLDIER] for v in values)


def ranked(actions: list[Any], s: KamiState, seat: Seat, unseen: list[int], rng: Rng) -> list[Any]:
    """Play actions best first by ``evaluate`` (ties broken at random)."""
    return [actions[i] for _, i in sorted(_scores(actions, s, seat, unseen, rng), reverse=True)]


def best(actions: list[Any], s: KamiState, seat: Seat, unseen: list[int], rng: Rng) -> Any:
    """``ranked(...)[0]`` without sorting the rest (playouts call this on every move)."""
    return actions[max(_scores(actions, s, seat, unseen, rng))[1]]


def playout_choice(s: KamiState, seat: Seat, actions: list[Any], rng: Rng) -> Any:
    """The greedy choice among ``actions`` straight from a (determinized) state, as playouts
    need it."""
    if len(actions) == 1 or isinstance(actions[0], (Declare, Decide)):
        return actions[0]
    return best(actions, s, seat, state_unseen(s, seat), rng)


def evaluate(a: Any, hand: list[int], size: int, unseen: list[int], tops: list[int | None],
             lead: bool, unlocked: bool, partner_attacks: bool, values: tuple[int, ...]) -> float:
    if isinstance(a, Pass):
        return 15.0 if partner_attacks else 0.0
    assert isinstance(a, Play)
    rest = hand[:]
    d_type = -1
    if a.defense >= 0:
        if a.defense < MERC:
            d_type = a.defense
            rest.remove(d_type)
        else:
            d_type = tops[a.defense - MERC]  # type: ignore[assignment]
    if a.attack < MERC:
        at = a.attack
        rest.remove(at)
    else:
        at = tops[a.attack - MERC]  # type: ignore[assignment]
    if not rest:  # going out: the round is ours
        return 1000.0 + values[at] * (2 if lead and d_type == at else 1)
    unlocked = unlocked or (not lead and d_type == EMPRESS)
    score = 6.0 + 3.0 * (size - len(rest))  # progress: cards out of the hand
    score -= 2.0 * threat(at, unseen, unlocked)
    if at == EMPRESS or d_type == EMPRESS:
        score -= 4.0  # the Empress is the best card to keep
    if lead and d_type >= 0:
        score += 0.5 * threat(d_type, unseen, unlocked)  # dump the easy-to-counter cards
    if EMPRESS in rest:
        score += 2.0
    score += 0.4 * max(values[t] for t in rest)
    if len(rest) == 2 and rest[0] == rest[1]:
        score += 3.0 + values[rest[0]] * 0.3  # a pair left: a Master Strike in reach
    if len(rest) == 1 and not [m for m in tops if m is not None]:
        score -= 3.0  # alone with one card, no counter is possible any more
    if partner_attacks:
        score -= 12.0
    return score


__all__ = ["best", "choose", "evaluate", "playout_choice", "ranked", "threat", "unseen_counts"]
