"""What a seat may know, and a full state rebuilt from that alone (for bots).

Public: every face-up card, hand sizes, mercenary top cards, revealed Soldiers (A6/B5), scores,
the opening draw and the round history, and the recap of the deals scored since a card was last
played (``last_round``: the last one, ``earlier`` the others, each with the totals after it and,
for a deal that went out, its table).
Private to a seat: its hand, its own face-down defense cards and (3 players) the unused card it
looked at (A3). Never shown: other hands, others' face-down defenses of the deal in play,
face-down mercenary cards, the unused cards one did not look at, the RNG.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ludoteca.engine.errors import RecordError
from ludoteca.engine.game import JSON, Game, Seat
from ludoteca.engine.parts import teams_of
from ludoteca.engine.rng import Rng
from ludoteca.games.kami.components import (
    COPIES,
    NAME_INDEX,
    NAMES,
    SOLDIER,
    TYPES,
    count,
    pack,
    unpack,
)
from ludoteca.games.kami.scoring import history_json, side_parts
from ludoteca.games.kami.state import (
    FACE_DOWN,
    FROM_MERC,
    OVER,
    PHASE_NAMES,
    PLAY,
    TYPE_MASK,
    Config,
    KamiState,
)


def _defense_json(entry: int, mine: bool) -> JSON:
    down = bool(entry & FACE_DOWN)
    merc = bool(entry & FROM_MERC)
    known = not down or mine or merc  # a mercenary was face up before it was played
    return {"card": NAMES[entry & TYPE_MASK] if known else None, "face_up": not down,
            "mercenary": merc}


def recent_ends(s: KamiState) -> list[tuple[tuple[Any, ...], list[int]]]:
    """The deals scored since a card was last played, oldest first, each with every side's
    total right after it: the last deal that went out and the B5 hands that ended the deals
    after it at once (without a card played, so in the same action, or after a partner's
    redeal), or those B5 hands alone before any deal went out. Redeals score nothing and are
    skipped."""
    totals = [0] * s.cfg.sides
    found: list[tuple[tuple[Any, ...], list[int]]] = []
    for e in s.history:
        if e[2] == "redeal":
            continue
        totals[s.cfg.side_of[e[1]]] = e[7]  # the side's total after it (A8, B5)
        if e[2] == "out":
            found = []
        found.append((e, totals[:]))
    return found


def last_round(s: KamiState, seat: Seat | None) -> JSON | None:
    """The recap of the last deal that scored: who went out and with what, the points, every
    side's total after it and the table as it ended; ``earlier``: the deals scored before it
    since a card was last played (a deal that went out, then a Goita B5 hand that ended the
    next deal at once: both are told, each with its own totals). A card played face down
    stays hidden after the deal as during it (A4: "simply hidden"), but to the seat that
    played it and for a Master Strike's block, which the strike itself shows (A5.3, B5);
    ``face_down`` says which were played so. Hands left are counted, never shown. None before
    the first deal scores."""
    ends = [_recap(s, seat, e, totals) for e, totals in recent_ends(s)]
    if not ends:
        return None
    last = ends[-1]
    last["earlier"] = ends[:-1]
    return last


def _recap(s: KamiState, seat: Seat | None, e: tuple[Any, ...], totals: list[int]) -> JSON:
    """One scored deal's recap; only a deal that went out has a table (a B5 hand has none)."""
    entry = history_json(s.cfg, e)
    ended = s.ended
    table = ended if e[2] == "out" and ended is not None and ended[0] == entry["round"] else None
    strike = entry["seat"] if entry["master_strike"] else None

    def defense(owner: int, line: list[int]) -> list[JSON]:
        out = []
        for k, c in enumerate(line):
            down, merc = bool(c & FACE_DOWN), bool(c & FROM_MERC)
            known = not down or merc or owner == seat or (owner == strike and k == len(line) - 1)
            out.append({"card": NAMES[c & TYPE_MASK] if known else None, "face_down": down,
                        "mercenary": merc})
        return out

    entry["scores"] = totals
    entry["target"] = s.cfg.target
    entry["defense"] = [] if table is None else [
        defense(owner, line) for owner, line in enumerate(table[1])]
    entry["attack_lines"] = [] if table is None else [
        [{"card": NAMES[c & TYPE_MASK], "mercenary": bool(c & FROM_MERC)} for c in line]
        for line in table[2]]
    entry["hand_sizes"] = [] if table is None else list(table[3][:s.cfg.players])
    return entry


def _ended_from(v: JSON) -> tuple[int, list[list[int]], list[list[int]], list[int]] | None:
    """The state's ``ended`` back from a view's ``last_round`` (None when no deal it tells has
    a table)."""
    recap = v.get("last_round")
    last = next((e for e in [*recap["earlier"], recap] if e["defense"]), None) if recap else None
    if last is None:
        return None
    # a card this seat never saw gets any card's code: the view hides it again
    defense = [[_card(e["card"] if e["card"] is not None else NAMES[0])
                | (FACE_DOWN if e["face_down"] else 0)
                | (FROM_MERC if e["mercenary"] else 0) for e in line] for line in last["defense"]]
    attacks = [[_card(e["card"]) | (FROM_MERC if e["mercenary"] else 0) for e in line]
               for line in last["attack_lines"]]
    return int(last["round"]), defense, attacks, [int(x) for x in last["hand_sizes"]]


def view(s: KamiState, seat: Seat | None, to_act: frozenset[int]) -> JSON:
    cfg = s.cfg
    n = cfg.players
    playing = s.phase == PLAY
    looked = None
    if seat is not None and n == 3 and s.looked[seat] >= 0:
        looked = NAMES[s.unused[s.looked[seat]]]
    return {
        "game": cfg.game,
        "options": dict(cfg.options),
        "players": n,
        "seat": seat,
        "ply": s.ply,
        "phase": PHASE_NAMES[s.phase],
        "to_act": sorted(to_act),
        "round": s.round,
        "first": s.first,
        "turn": s.turn,
        "attacker": s.attacker,
        "attack": NAMES[s.attack] if s.attack >= 0 else None,
        "leading": playing and s.turn == s.attacker,
        "direction": "clockwise" if cfg.step == 1 else "counter-clockwise",
        "sides": list(cfg.side_of),
        "teams": [list(t) for t in teams_of(cfg.side_of)],
        "scores": list(s.scores),
        "card_values": {name: value for name, value in zip(NAMES, cfg.values, strict=True)},
        "parts": [[p.to_json() for p in side_parts(cfg, s.history, side)]
                  for side in range(cfg.sides)],
        "end_mode": cfg.end_mode,
        "target": cfg.target,
        "winner": s.winner if s.winner >= 0 else None,
        "hand": None if seat is None else [NAMES[t] for t in unpack(s.hands[seat])],
        "hand_sizes": list(s.sizes),
        "defense": [[_defense_json(e, p == seat) for e in s.defense[p]] for p in range(n)],
        "attack_lines": [
            [{"card": NAMES[e & TYPE_MASK], "mercenary": bool(e & FROM_MERC)} for e in line]
            for line in s.attacks
        ],
        "mercenaries": [
            {"top": NAMES[up] if up >= 0 else None, "below": down >= 0}
            for up, down in zip(s.merc_up, s.merc_down, strict=True)
        ],
        "unused": len(s.unused),
        "looked_by": [s.looked.index(i) for i in range(len(s.unused))] if n == 3 else [],
        "looked": looked,
        "empress_unlocked": s.unlocked,
        "revealed": list(s.revealed),
        "asked": s.asked if s.phase in (0, 1) else None,
        "nasked": s.nasked,
        "draws": [[{"seat": p, "card": NAMES[t]} for p, t in rnd] for rnd in s.draws],
        "history": [history_json(cfg, e) for e in s.history],
        "last_round": last_round(s, seat),
    }


def _card(name: object) -> int:
    if not isinstance(name, str) or name not in NAME_INDEX:
        raise ValueError(f"unknown card {name!r}")
    return int(NAME_INDEX[name])


def determinize(game: Game[Any, Any], v: JSON, seat: Seat | None, rng: Rng) -> KamiState:
    """A state matching the view. The cards this seat has not seen are shuffled and dealt into
    the hidden places: others' hands (by size), others' face-down defenses, face-down mercenary
    cards and the unused cards it did not look at. A player who revealed Soldiers (A6/B5) gets
    exactly the Soldiers still unaccounted for. In Goita a player who showed no Shi was dealt at
    most 4 (B5: five are always shown, six or more end the deal at once), so samples that break
    this are drawn again. Future deals get a fresh RNG from ``rng``.

    This is the plain reference; ``determinizer`` is the fast path and must agree with it."""
    p = _prepare(game, v, seat)
    s = p.template
    _place(s, p.places, _draw(p.pool, p.places, p.need, p.shi_room, rng))
    s.rng = Rng(rng.next64())
    return s


def determinizer(game: Game[Any, Any], v: JSON, seat: Seat | None) -> Callable[[Rng], KamiState]:
    """``rng -> determinize(game, v, seat, rng)`` with the view read once (the search draws
    thousands of samples of one view). Each call copies the prepared state and deals the
    shuffled unseen cards straight into its hidden places: ``_sample`` pops them from the end
    of the shuffled pool, key after key, so each key's cards are a reversed slice of it."""
    p = _prepare(game, v, seat)
    template, pool, need, places = p.template, p.pool, p.need, p.places
    if need:  # revealed Soldiers (A6, B5) are placed first: keep the general sampler
        def sample_general(rng: Rng) -> KamiState:
            s = template.clone()
            s.unused = s.unused[:]
            _place(s, places, _draw(pool, places, need, p.shi_room, rng))
            s.rng = Rng(rng.next64())
            return s
        return sample_general
    # Per key, its slice [start, stop) of the shuffled pool: the first ``nhand`` cards popped
    # (pool[stop - nhand:stop]) go to the owner's hand, the others to ``rest`` in order.
    spans: list[tuple[int, int, int, int, list[Place]]] = []
    stop = len(pool)
    for spots in places.values():
        nhand = sum(1 for spot in spots if spot[0] == _HAND)
        owner = spots[0][1] if nhand else -1
        spans.append((stop - len(spots), stop, nhand, owner, spots[nhand:]))
        stop -= len(spots)
    checks = [(span[0], span[1], p.shi_room[key])
              for key, span in zip(places, spans, strict=True) if key in p.shi_room]
    copy_unused = any(spot[0] == _UNUSED for spots in places.values() for spot in spots)

    def sample(rng: Rng) -> KamiState:
        for _ in range(_TRIES):
            deck = pool[:]
            _shuffle(rng, deck)
            if all(deck[a:b].count(SOLDIER) <= room for a, b, room in checks):
                break
        s = template.clone()
        if copy_unused:
            s.unused = s.unused[:]  # shared between clones (state.py); written here
        hands = s.hands
        for _, end, nhand, owner, rest in spans:
            if nhand:
                hands[owner] += sum(_ONE[t] for t in deck[end - nhand:end])
            i = end - nhand
            for kind, a, b, flags in rest:
                i -= 1
                t = deck[i]
                if kind == _DEFENSE:
                    s.defense[a][b] = t | flags
                elif kind == _MERC_DOWN:
                    s.merc_down[a] = t
                else:
                    s.unused[a] = t
        s.rng = Rng(rng.next64())
        return s

    return sample


def _draw(
    pool: list[int],
    places: dict[Any, list[Place]],
    need: dict[Any, int],
    shi_room: dict[Any, int],
    rng: Rng,
) -> dict[Any, list[int]]:
    """Cards for every hidden place, re-drawn (up to ``_TRIES`` times) while a hand would hold
    more Soldiers than the view allows."""
    cards: dict[Any, list[int]] = {}
    for _ in range(_TRIES):
        cards = _sample(pool[:], places, need, rng)
        if all(cards[q].count(SOLDIER) <= room for q, room in shi_room.items()):
            break
    return cards


def _place(s: KamiState, places: dict[Any, list[Place]], cards: dict[Any, list[int]]) -> None:
    for key, spots in places.items():
        for (kind, a, b, flags), t in zip(spots, cards[key], strict=True):
            if kind == _HAND:
                s.hands[a] += 1 << (4 * t)
            elif kind == _DEFENSE:
                s.defense[a][b] = t | flags
            elif kind == _MERC_DOWN:
                s.merc_down[a] = t
            else:
                s.unused[a] = t


_MASK64 = (1 << 64) - 1
_LIMITS = tuple((1 << 64) - ((1 << 64) % n) if n else 0 for n in range(64))
_ONE = tuple(1 << (4 * t) for t in TYPES)


def _shuffle(rng: Rng, items: list[int]) -> None:
    """``rng.shuffle(items)`` with the generator inlined (SplitMix64 and ``below``'s rejection,
    exactly as engine/rng.py draws them): the same permutation and the same final state,
    about twice as fast. tests/kami/test_determinizer.py checks it against
    ``Rng.shuffle``."""
    state = rng.state
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        limit = _LIMITS[n]
        while True:
            state = (state + 0x9E3779B97F4A7C15) & _MASK64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            z ^= z >> 31
            if z < limit:
                break
        j = z % n
        items[i], items[j] = items[j], items[i]
    rng.state = state


_HAND, _DEFENSE, _MERC_DOWN, _UNUSED = range(4)
Place = tuple[int, int, int, int]
"""A hidden place: (kind, seat or index, index in the line, flags)."""


@dataclass(frozen=True, slots=True)
class _Prepared:
    """A view read once: the state without its hidden cards, where those go, the unseen cards
    and the Goita B5 limits."""

    template: KamiState
    places: dict[Any, list[Place]]
    need: dict[Any, int]
    pool: list[int]
    shi_room: dict[Any, int]


def _prepare(game: Game[Any, Any], v: JSON, seat: Seat | None) -> _Prepared:
    try:
        s, places, need = _rebuild(game, v, seat)
        pool = [t for t in TYPES for _ in range(_left(t, v, s, seat))]
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise RecordError(f"not a {game.spec.title} view: {exc}") from None
    if len(pool) != sum(len(x) for x in places.values()):
        raise RecordError("inconsistent view: hidden places and unseen cards do not match")
    # Goita B5: a deal being played had no 6+ Shi hand and every 5-Shi hand was shown, so a
    # seat that showed none was dealt at most 4 (its hidden Shi plus those it played face up).
    shi_room: dict[Any, int] = {}
    if s.cfg.goita and s.phase != OVER:
        for p in range(s.cfg.players):
            if p != seat and not s.revealed[p] and p in places:
                shi_room[p] = 4 - _shown_soldiers(s, p)
    s.rng = Rng(0)  # replaced by every sample
    return _Prepared(s, places, need, pool, shi_room)


_TRIES = 10_000
"""Rejection sampling for Goita's B5 constraint; a real view is satisfied within a few tries."""


def _sample(pool: list[int], slots: dict[Any, list[Any]], need_soldiers: dict[Any, int],
            rng: Rng) -> dict[Any, list[int]]:
    """Unseen cards per hidden place: revealed Soldiers first, then the rest at random."""
    rng.shuffle(pool)
    cards: dict[Any, list[int]] = {}
    for key, k in need_soldiers.items():
        size = len(slots[key])
        soldiers = [t for t in pool if t == SOLDIER][:k]
        others = [t for t in pool if t != SOLDIER][: size - k]
        if len(soldiers) < k or len(others) < size - k:
            raise RecordError("inconsistent view: revealed Soldiers cannot be placed")
        for t in soldiers + others:
            pool.remove(t)
        got = soldiers + others
        rng.shuffle(got)
        cards[key] = got
    for key, places in slots.items():
        if key not in cards:
            cards[key] = [pool.pop() for _ in places]
    return cards


def _shown_soldiers(s: KamiState, p: int) -> int:
    """Soldiers seat ``p`` has played face up this deal."""
    return sum(
        1 for e in s.defense[p] if not e & FACE_DOWN and e & TYPE_MASK == SOLDIER
    ) + sum(1 for e in s.attacks[p] if e & TYPE_MASK == SOLDIER)


def _left(t: int, v: JSON, s: KamiState, seat: Seat | None) -> int:
    """Copies of type ``t`` this seat has not seen."""
    seen = 0
    for p, line in enumerate(v["defense"]):
        for e in line:
            if e["card"] is not None and (p == seat or e["face_up"] or e["mercenary"]):
                seen += int(e["card"] == NAMES[t])
    seen += sum(int(e["card"] == NAMES[t]) for line in v["attack_lines"] for e in line)
    seen += sum(int(m["top"] == NAMES[t]) for m in v["mercenaries"])
    if seat is not None:
        seen += count(s.hands[seat], t)
        seen += int(v["looked"] == NAMES[t])
    return COPIES[t] - seen


def _rebuild(
    game: Game[Any, Any], v: JSON, seat: Seat | None
) -> tuple[KamiState, dict[Any, list[Place]], dict[Any, int]]:
    n = int(v["players"])
    opts = game.validate(v["options"], n)
    cfg = Config.from_options(game.spec.name, opts, n)
    s = KamiState.__new__(KamiState)
    s.cfg = cfg
    s.ply = int(v["ply"])
    s.phase = PHASE_NAMES.index(v["phase"])
    s.round = int(v["round"])
    s.first = int(v["first"])
    s.turn = int(v["turn"])
    s.attacker = int(v["attacker"])
    s.attack = -1 if v["attack"] is None else _card(v["attack"])
    s.scores = [int(x) for x in v["scores"]]
    s.winner = -1 if v["winner"] is None else int(v["winner"])
    s.sizes = [int(x) for x in v["hand_sizes"]]
    s.unlocked = bool(v["empress_unlocked"])
    s.revealed = [int(x) for x in v["revealed"]]
    s.asked = s.first if v["asked"] is None else int(v["asked"])
    s.nasked = int(v["nasked"])
    s.draws = [[(int(d["seat"]), _card(d["card"])) for d in rnd] for rnd in v["draws"]]
    s.history = [
        (int(h["round"]), int(h["seat"]), str(h["kind"]),
         -1 if h["card"] is None else _card(h["card"]), bool(h["master_strike"]),
         int(h["points"]), int(h["before"]), int(h["after"]))
        for h in v["history"]
    ]
    s.ended = _ended_from(v)
    s.hands = [0] * n
    if seat is not None:
        s.hands[seat] = pack([_card(c) for c in v["hand"]])
    s.attacks = [
        [_card(e["card"]) | (FROM_MERC if e["mercenary"] else 0) for e in line]
        for line in v["attack_lines"]
    ]
    slots: dict[Any, list[Place]] = {}
    need: dict[Any, int] = {}
    s.defense = []
    for p, line in enumerate(v["defense"]):
        entries: list[int] = []
        for i, e in enumerate(line):
            flags = (0 if e["face_up"] else FACE_DOWN) | (FROM_MERC if e["mercenary"] else 0)
            if e["card"] is None:
                entries.append(flags)
                slots.setdefault(p, []).append((_DEFENSE, p, i, flags))
            else:
                entries.append(_card(e["card"]) | flags)
        s.defense.append(entries)
    for p in range(n):
        if p == seat:
            continue
        hand_slots: list[Place] = [(_HAND, p, 0, 0)] * s.sizes[p]
        slots[p] = hand_slots + slots.get(p, [])
        if s.revealed[p]:
            need[p] = s.revealed[p] - _shown_soldiers(s, p)
    s.merc_up = [-1 if m["top"] is None else _card(m["top"]) for m in v["mercenaries"]]
    s.merc_down = [-1] * len(s.merc_up)
    for k, m in enumerate(v["mercenaries"]):
        if m["below"]:
            slots[("merc", k)] = [(_MERC_DOWN, k, 0, 0)]
    s.looked = [-1] * n
    s.unused = [-1] * int(v["unused"])
    for i, p in enumerate(v["looked_by"]):
        s.looked[int(p)] = i
        if p == seat:
            s.unused[i] = _card(v["looked"])
    for i, t in enumerate(s.unused):
        if t < 0:
            slots[("unused", i)] = [(_UNUSED, i, 0, 0)]
    return s, slots, need
