"""What a seat may know, and a full state rebuilt from it for bots.

Boards, markers, stars, cards and dice are public (rules §1: everything lies open). Hidden are
only the answers of a simultaneous step — where another player chose to place after a roll, and
which of their markers they picked to become stars — until everybody has answered, and of course
the dice to come. A seat's view does not even say which other seats have answered already, so it
does not change at all (apart from ``ply``) while the others decide.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ludoteca.engine.errors import RecordError
from ludoteca.engine.game import JSON, Game, Seat
from ludoteca.engine.rng import Rng
from ludoteca.games.buttons.grid import (
    COLOURS,
    COLS_MASK,
    LETTERS,
    ROW_MASK,
    SIZE,
    blocked,
    board_masks,
    cell_of,
    cells,
    row_col,
)
from ludoteca.games.buttons.scoring import final_outcome, round_json, star_parts
from ludoteca.games.buttons.state import (
    NO_CELL,
    OVER,
    PHASE_NAMES,
    PLACE,
    STARS,
    STATUS_NAMES,
    ButtonsState,
    Config,
)


def cell_json(cell: int) -> list[int]:
    return list(row_col(cell))


def cells_json(mask: int) -> list[list[int]]:
    return [cell_json(c) for c in cells(mask)]


def board_rows(board: tuple[int, ...]) -> list[str]:
    """The layout as six strings over R, Y, G, B (row 1 first)."""
    out = []
    for r in range(SIZE):
        out.append(
            "".join(
                next(LETTERS[i] for i in range(4) if board[i] >> (r * SIZE + c) & 1)
                for c in range(SIZE)
            )
        )
    return out


def view(state: ButtonsState, seat: Seat | None, to_act: frozenset[int]) -> JSON:
    cfg = state.cfg
    dice = state.dice
    placed = state.history[:-1] if state.phase == STARS else state.history
    players = []
    for s in range(cfg.players):
        players.append(
            {
                "layout": state.layout_ids[s] + 1,
                "board": board_rows(state.boards[s]),
                "cards": [COLOURS[i] for i in range(4) if state.cards[s] >> i & 1],
                "status": STATUS_NAMES[state.status[s]],
                "markers": cells_json(state.markers[s]),
                "stars": cells_json(state.stars[s]),
                "star_count": state.stars[s].bit_count(),
                "parts": [p.to_json() for p in star_parts([r[s] for r in placed])],
                "stars_to_place": state.earned[s] if state.phase == STARS else 0,
                "last_placed": (
                    cell_json(state.last_placed[s]) if state.last_placed[s] != NO_CELL else None
                ),
            }
        )
    you = None
    if seat is not None:
        pending = state.pending[seat]
        you = {
            "to_act": seat in to_act,
            "pending": cell_json(pending) if pending != NO_CELL else None,
            "picks": cells_json(state.picks[seat]) if state.phase == STARS else [],
        }
    return {
        "game": "buttons",
        "options": dict(cfg.options),
        "players": cfg.players,
        "teams": [[s] for s in range(cfg.players)],
        "seat": seat,
        "ply": state.ply,
        "phase": PHASE_NAMES[state.phase],
        "round": state.round,
        "active": state.active,
        "dice": (
            {"white": dice[0], "gold": dice[1], "black": list(dice[2:])} if dice else None
        ),
        "free_dice": state.free,
        "deciders": [s for s in range(cfg.players) if state.deciders >> s & 1],
        "removed_card": next((COLOURS[i] for i in range(4) if state.removed_card >> i & 1), None),
        "seats": players,
        "you": you,
        "history": [[round_json(e) for e in entry] for entry in state.history],
        "result": final_outcome(state).to_json() if state.phase == OVER else None,
    }


def _mask(pairs: list[Any]) -> int:
    m = 0
    for row, col in pairs:
        m |= 1 << cell_of(int(row), int(col))
    return m


def _cell(pair: Any) -> int:
    return NO_CELL if pair is None else cell_of(int(pair[0]), int(pair[1]))


def determinize(game: Game[Any, Any], v: JSON, seat: Seat | None, rng: Rng) -> ButtonsState:
    """A state matching the view: other seats' hidden answers are taken as not given yet, and the
    dice to come get a fresh generator drawn from ``rng``."""
    try:
        players = int(v["players"])
        opts = game.validate(v["options"], players)
        s = ButtonsState.__new__(ButtonsState)
        s.cfg = Config.from_options(opts, players)
        s.ply = int(v["ply"])
        s.phase = PHASE_NAMES.index(v["phase"])
        s.round = int(v["round"])
        s.active = int(v["active"])
        d = v["dice"]
        s.dice = () if d is None else (int(d["white"]), int(d["gold"]), *map(int, d["black"]))
        s.free = int(v["free_dice"])
        seats = v["seats"]
        s.layout_ids = tuple(int(p["layout"]) - 1 for p in seats)
        s.boards = tuple(board_masks(tuple(p["board"])) for p in seats)
        s.cards = [sum(1 << COLOURS.index(c) for c in p["cards"]) for p in seats]
        rc = v["removed_card"]
        s.removed_card = 0 if rc is None else 1 << COLOURS.index(rc)
        s.status = [STATUS_NAMES.index(p["status"]) for p in seats]
        s.in_round = sum(1 << i for i, st in enumerate(s.status) if st == 0)
        s.markers = [_mask(p["markers"]) for p in seats]
        s.stars = [_mask(p["stars"]) for p in seats]
        s.earned = [int(p["stars_to_place"]) for p in seats]
        s.last_placed = [_cell(p["last_placed"]) for p in seats]
        s.deciders = sum(1 << int(i) for i in v["deciders"])
        s.history = [
            tuple(
                (
                    STATUS_NAMES.index(e["result"]),
                    int(e["markers"]),
                    sum(1 << COLOURS.index(c) for c in e["colours"]),
                    sum(1 << COLOURS.index(c) for c in e["bonus"]),
                    int(e["stars"]),
                )
                for e in entry
            )
            for entry in v["history"]
        ]
        you = v["you"]
        s.pending = [NO_CELL] * players
        s.picks = [0] * players
        s.waiting = s.deciders if s.phase in (PLACE, STARS) else 0
        s.options_mask = 0
        if s.phase == PLACE and s.deciders >> s.active & 1:
            white, values = s.dice[0], 0
            for x in s.dice[1:]:
                values |= 1 << x
            a = s.active
            s.options_mask = (
                ROW_MASK[white] & COLS_MASK[values] & ~blocked(s.markers[a], s.stars[a])
            )
        if s.phase == STARS:
            for i in range(players):
                if s.earned[i] and not s.deciders >> i & 1:
                    s.picks[i] = s.markers[i]  # forced: every marker becomes a star
        if seat is not None and you is not None:
            if not you["to_act"]:
                s.waiting &= ~(1 << seat)
            s.pending[seat] = _cell(you["pending"])
            if s.phase == STARS and s.deciders >> seat & 1:
                s.picks[seat] = _mask(you["picks"])
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise RecordError(f"not a Buttons view: {exc}") from None
    s.rng = Rng(rng.next64())
    return s


def determinizer(
    game: Game[Any, Any], v: JSON, seat: Seat | None
) -> Callable[[Rng], ButtonsState]:
    """``rng -> determinize(game, v, seat, rng)`` with the view read once: the only hidden part
    is the dice to come, so each sample is a clone of one prepared state with a fresh
    generator."""
    template = determinize(game, v, seat, Rng(0))

    def sample(rng: Rng) -> ButtonsState:
        s = template.clone()
        s.rng = Rng(rng.next64())
        return s

    return sample
