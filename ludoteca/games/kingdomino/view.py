"""What a seat may know (rules §8), and a full state rebuilt from it for bots.

Everything is public except the order of the draw pile and which dominoes were removed unseen,
so every seat gets the same view; only the count of undrawn dominoes is shown.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ludoteca.engine.errors import RecordError
from ludoteca.engine.game import JSON, Game, Seat
from ludoteca.engine.parts import Part, TieBreak
from ludoteca.engine.rng import Rng
from ludoteca.games.kingdomino import scoring
from ludoteca.games.kingdomino.components import DOMINOES, TERRAINS
from ludoteca.games.kingdomino.draft import line_json, read_draft, seen_dominoes
from ludoteca.games.kingdomino.grid import (
    CASTLE,
    DELTA,
    DIRECTIONS,
    cell_of,
    crown_at,
    new_kingdom,
    place,
    reach,
    terrain_at,
    xy_of,
)
from ludoteca.games.kingdomino.state import (
    CLAIM_STEP,
    DRAFT,
    OVER,
    PHASE_NAMES,
    PLACE_STEP,
    Config,
    KingdominoState,
)

Deal = tuple[KingdominoState, list[int], int]
"""A view read once: the state without its pile, the unseen dominoes (ascending), the pile size."""


def domino_json(n: int) -> JSON:
    return DOMINOES[n].to_json()


def kingdom_json(k: list[int], placed: list[tuple[int, int, int]], cfg: Config) -> JSON:
    """A kingdom as views show it. The same placements give the same object (views are never
    changed once made): most kingdoms do not change from one move to the next, every viewer
    sees them, and the server renders a record it has seen once (render_parts' memo)."""
    flags = (cfg.frame, cfg.harmony, cfg.middle_kingdom, cfg.crowns_tiebreak)
    key = (tuple(placed), flags)
    found = _KINGDOMS.get(key)
    if found is None:
        # A kingdom only grows: the one it grew from is not asked for again (an undo asks
        # for it once more and it is made anew), so the cache holds about the live kingdoms.
        _KINGDOMS.pop((key[0][:-1], flags), None)
        if len(_KINGDOMS) >= 2048:
            _KINGDOMS.clear()
        found = _KINGDOMS[key] = _kingdom_json(k, placed, cfg)
    return found


_KINGDOMS: dict[tuple[Any, ...], JSON] = {}
"""Kingdoms as views show them, by placements and scoring options (the placements fix the
kingdom's squares). Each one held is a few objects the cycle collector walks."""


def _kingdom_json(k: list[int], placed: list[tuple[int, int, int]], cfg: Config) -> JSON:
    squares = []
    for n, a, d in placed:
        for cell in (a, a + DELTA[d]):
            x, y = xy_of(cell)
            t = terrain_at(k, cell)
            squares.append(
                {
                    "x": x,
                    "y": y,
                    "terrain": TERRAINS[t] if t is not None else None,
                    "crowns": crown_at(k, cell),
                    "domino": n,
                }
            )
    return {
        "placements": [
            {"domino": n, "x": xy_of(a)[0], "y": xy_of(a)[1], "dir": DIRECTIONS[d]}
            for n, a, d in placed
        ],
        "squares": squares,
        "castle": list(xy_of(CASTLE)),
        "reach": reach(k, cfg.frame),
        **live_score(k, cfg),
    }


def live_score(k: list[int], cfg: Config) -> JSON:
    """The score a player sees now, with its parts and tie-break values (rules §5, §6.2),
    so no client counts territories or bonuses itself."""
    total, parts, largest, crowns, tiebreak = _live_score(
        tuple(k), cfg.frame, cfg.harmony, cfg.middle_kingdom, cfg.crowns_tiebreak
    )
    return {
        "score": total,
        "parts": [p.to_json() for p in parts],
        "largest_territory": largest,
        "crowns": crowns,
        "tiebreak": [t.to_json() for t in tiebreak],
    }


def _live_score(
    k: tuple[int, ...], frame: int, harmony: bool, middle: bool, crowns_tiebreak: bool
) -> tuple[int, tuple[Part, ...], int, int, tuple[TieBreak, ...]]:
    """A kingdom's live score (worked out once per kingdom: ``kingdom_json`` keeps them)."""
    result = scoring.breakdown(list(k), frame, harmony, middle, TERRAINS, False)
    largest, crowns = result["largest_territory"], result["crowns"]
    return (result["total"], tuple(scoring.parts(result)), largest, crowns,
            scoring.tiebreak(largest, crowns, crowns_tiebreak))


def view(state: KingdominoState, seat: Seat | None, to_act: frozenset[int]) -> JSON:
    cfg = state.cfg
    acting_domino = None
    if state.phase not in (DRAFT, OVER) and state.step == PLACE_STEP:
        acting_domino = state.cur[state.acting]
    return {
        "game": "kingdomino",
        "options": dict(cfg.options),
        "players": cfg.players,
        "teams": [[s] for s in range(cfg.players)],
        "seat": seat,
        "ply": state.ply,
        "phase": PHASE_NAMES[state.phase],
        "step": "claim" if state.step == CLAIM_STEP else "place",
        "to_act": sorted(to_act),
        "round": state.round,
        "rounds": cfg.rounds,
        "game_number": state.game_no + 1,
        "games": cfg.games,
        "frame": cfg.frame,
        "acting": state.acting,
        "acting_domino": acting_domino,
        "draft_order": state.draft_order,
        "draft_pos": state.draft_pos,
        "current_line": line_json(state.cur, state.cur_owner, domino_json),
        "next_line": line_json(state.nxt, state.nxt_owner, domino_json),
        "deck_remaining": len(state.deck) - state.deck_pos,
        "discarded": list(state.discarded),
        "kingdoms": [
            kingdom_json(k, p, cfg) for k, p in zip(state.kingdoms, state.placed, strict=True)
        ],
        "past_games": [
            [kingdom_json(k, p, cfg) for k, p in zip(ks, ps, strict=True)] for ks, ps in state.past
        ],
    }


def _rebuild_kingdom(
    placements: list[dict[str, Any]],
) -> tuple[list[int], list[tuple[int, int, int]]]:
    k = new_kingdom(len(TERRAINS))
    placed = []
    for p in placements:
        n = int(p["domino"])
        a = cell_of(int(p["x"]), int(p["y"]))
        d = DIRECTIONS.index(p["dir"])
        dom = DOMINOES[n]
        place(k, a, d, dom.terrains[0], dom.crowns[0], dom.terrains[1], dom.crowns[1])
        placed.append((n, a, d))
    return k, placed


def prepare(game: Game[Any, Any], v: JSON) -> Deal:
    """Everything of a state that the view shows, read once; ``deal`` adds the hidden pile."""
    try:
        opts = game.validate(v["options"], int(v["players"]))
        s = KingdominoState.__new__(KingdominoState)
        s.cfg = Config.from_options(opts, int(v["players"]))
        s.ply = int(v["ply"])
        read_draft(s, v, "number")
        s.step = CLAIM_STEP if v["step"] == "claim" else PLACE_STEP
        s.game_no = int(v["game_number"]) - 1
        rebuilt = [_rebuild_kingdom(kj["placements"]) for kj in v["kingdoms"]]
        s.kingdoms = [k for k, _ in rebuilt]
        s.placed = [p for _, p in rebuilt]
        s.past = []
        for past in v["past_games"]:
            old = [_rebuild_kingdom(kj["placements"]) for kj in past]
            s.past.append(([k for k, _ in old], [p for _, p in old]))
        seen = seen_dominoes(s, s.placed)
        unseen = [n for n in range(1, len(DOMINOES) + 1) if n not in seen]
        remaining = int(v["deck_remaining"])
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"not a Kingdomino view: {exc}") from None
    s.deck = []
    s.deck_pos = 0
    s.rng = Rng(0)
    return s, unseen, remaining


def deal(s: KingdominoState, unseen: list[int], remaining: int, rng: Rng) -> KingdominoState:
    """Give ``s`` a pile drawn at random from ``unseen`` (shuffled in place) and its own RNG."""
    rng.shuffle(unseen)
    s.deck = unseen[:remaining]
    s.deck_pos = 0
    s.rng = Rng(rng.next64())
    return s


def determinize(game: Game[Any, Any], v: JSON, rng: Rng) -> KingdominoState:
    """A state matching the view; the undrawn pile is a random draw from the unseen dominoes."""
    s, unseen, remaining = prepare(game, v)
    return deal(s, unseen, remaining, rng)


def determinizer(game: Game[Any, Any], v: JSON) -> Callable[[Rng], KingdominoState]:
    """``rng -> determinize(game, v, rng)`` with the view read once: each call copies the
    prepared state and deals a new pile, drawing from ``rng`` exactly as ``determinize`` does."""
    template, unseen, remaining = prepare(game, v)
    return lambda rng: deal(template.clone(), unseen[:], remaining, rng)
