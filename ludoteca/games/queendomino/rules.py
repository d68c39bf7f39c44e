"""Queendomino rules (``rules/queendomino.md``): setup, the draft, the turn's steps A-E, the
Queen, the Dragon, new rounds and the end. Placement and territories are Kingdomino's grid."""

from __future__ import annotations

from collections.abc import Mapping

from ludoteca.engine.errors import OptionError
from ludoteca.engine.game import JSON, Game, GameSpec, Outcome, Seat, ranks_from_keys
from ludoteca.engine.options import Option, OptionValue
from ludoteca.engine.rng import Rng
from ludoteca.games.kingdomino.grid import (
    CR1,
    DELTA,
    TERR,
    component_of,
    new_kingdom,
    placement_masks,
    terrain_at,
)
from ludoteca.games.kingdomino.grid import place as grid_place
from ludoteca.games.kingdomino.rules import explain_placement
from ludoteca.games.queendomino import actions as act
from ludoteca.games.queendomino import scoring, view
from ludoteca.games.queendomino.actions import (
    BUILDS,
    CELLS,
    CLAIMS,
    DISCARD,
    DRAGONS,
    KNIGHTS,
    PASS,
    PLACES,
    Action,
    Build,
    Claim,
    Discard,
    Dragon,
    Knight,
    Pass,
    Place,
)
from ludoteca.games.queendomino.buildings import Table, configured_buildings
from ludoteca.games.queendomino.components import (
    BOARD_SPACES,
    C1,
    C2,
    DRAGON_COST,
    KINGDOMINO_OFFSET,
    QUEENDOMINO_BOX,
    START_COINS,
    START_KNIGHTS,
    T1,
    T2,
    TERRAINS,
    TOWN,
)
from ludoteca.games.queendomino.state import (
    BUILD,
    CLAIM,
    DRAFT,
    DRAGON,
    EMPTY,
    OVER,
    PLACE,
    PLAY,
    TAX,
    Config,
    QueendominoState,
)

OPTIONS = (
    Option(
        "royal_wedding", bool, False,
        "Royal Wedding: add the Kingdomino box (96 dominoes, lines alternate boxes); 3-4 players "
        "build 7×7 with lines of 4, 5-6 players 5×5 with lines of 8 (rules: Playing with "
        "Kingdomino); always on for 5-6 players",
        players=(3, 4, 5, 6),
    ),
    Option(
        "tax_bonus", str, "per_knight",
        "When '+coin' buildings pay: 'per_knight' = with every knight's tax (default), "
        "'per_turn' = once per turn in which you collect tax (SOURCES.md §7.5.5)",
        choices=("per_knight", "per_turn"),
    ),
)

_SEATS = [frozenset({s}) for s in range(8)]
_NOBODY: frozenset[int] = frozenset()
_TOWN = TERR + TOWN


class Queendomino(Game[QueendominoState, Action]):
    spec = GameSpec(
        name="queendomino",
        title="Queendomino",
        min_players=2,
        max_players=6,
        options=OPTIONS,
        num_actions=act.NUM_ACTIONS,
        max_length=6 * 96 + 8,
        hidden_information=True,
        chance=True,
        rules="queendomino.md",
    )

    def __init__(self, buildings: Table | None = None) -> None:
        """``buildings`` replaces the building table (see ``buildings.py``); default: the
        operator's override file if configured, else the shipped table."""
        self.tiles: Table = buildings if buildings is not None else configured_buildings()

    # ---- setup (rules "Setup") -----------------------------------------------------------
    def validate(
        self, options: Mapping[str, object] | None, players: int
    ) -> dict[str, OptionValue]:
        """Checked options. 5-6 players can only play Royal Wedding (both boxes are needed for
        lines of 8): left unset it is switched on for them; set to false it is an error."""
        opts = super().validate(options, players)
        if players > 4:
            if options and "royal_wedding" in options and not opts["royal_wedding"]:
                raise OptionError(
                    f"{players} players need both boxes: set royal_wedding=true (rules "
                    '"Playing with Kingdomino")'
                )
            opts["royal_wedding"] = True
        return opts

    def _setup(self, options: dict[str, OptionValue], players: int, rng: Rng) -> QueendominoState:
        cfg = Config.from_options(options, players, self.tiles)
        s = QueendominoState.__new__(QueendominoState)
        s.cfg = cfg
        s.rng = rng
        s.ply = 0
        queen_box = list(range(1, QUEENDOMINO_BOX + 1))
        rng.shuffle(queen_box)
        if cfg.royal_wedding:
            king_box = list(range(KINGDOMINO_OFFSET + 1, KINGDOMINO_OFFSET + 49))
            rng.shuffle(king_box)
            s.deck = interleave(queen_box, king_box, cfg.line_size)
        else:
            s.deck = queen_box
        pile = list(range(1, len(self.tiles) + 1))
        rng.shuffle(pile)
        s.pile = pile
        s.board = pile[:BOARD_SPACES]
        s.pile_pos = BOARD_SPACES
        s.burnt = []
        s.dragon = -1
        s.queen = -1
        if players == 2:  # first draft A, B, B, A (rules "Setup")
            a = rng.below(2)
            order = [a, 1 - a, 1 - a, a]
        else:
            order = [seat for seat in range(players) for _ in range(cfg.kings_per_player)]
            rng.shuffle(order)
        s.draft_order = order
        s.draft_pos = 0
        s.kingdoms = [new_kingdom(len(TERRAINS)) for _ in range(players)]
        s.placed = [[] for _ in range(players)]
        s.coins = [START_COINS] * players
        s.knights = [START_KNIGHTS] * players
        s.knight_cells = [0] * players
        s.towers = [0] * players
        s.built = [[] for _ in range(players)]
        s.built_cells = [0] * players
        s.discarded = []
        s.cur = []
        s.cur_owner = []
        s.nxt = sorted(s.deck[: cfg.line_size])
        s.nxt_owner = [-1] * cfg.line_size
        s.deck_pos = cfg.line_size
        s.lines_drawn = 1
        s.phase = DRAFT
        s.round = 0
        s.acting = 0
        s.step = CLAIM
        s.last_cells = 0
        s.taxed = 0
        return s

    # ---- turn ----------------------------------------------------------------------------
    def to_act(self, state: QueendominoState) -> frozenset[Seat]:
        seat = state.seat_acting()
        return _SEATS[seat] if seat >= 0 else _NOBODY

    def legal_actions(self, state: QueendominoState, seat: Seat) -> list[Action]:
        if seat != state.seat_acting() or seat < 0:
            return []
        step = state.step
        if state.phase == DRAFT:
            return _claims(state)
        if step == PLACE:
            n = state.cur[state.acting]
            masks = placement_masks(state.kingdoms[seat], T1[n], T2[n], state.cfg.frame)
            out: list[Action] = []
            for d in range(4):
                m = masks[d]
                while m:
                    low = m & -m
                    out.append(PLACES[((low.bit_length() - 1) << 2) | d])  # type: ignore[arg-type]
                    m ^= low
            return out or [DISCARD]
        out = []
        coins = state.coins[seat]
        if step == TAX and state.knights[seat]:
            m = state.last_cells & ~state.taxed
            while m:
                low = m & -m
                out.append(KNIGHTS[low.bit_length() - 1])  # type: ignore[arg-type]
                m ^= low
        if step <= BUILD:
            free = state.kingdoms[seat][_TOWN] & ~state.built_cells[seat]
            if free:
                discount = 1 if state.queen == seat else 0
                board = state.board
                for price in range(BOARD_SPACES):
                    if board[price] and price - discount <= coins:
                        base = price * CELLS
                        m = free
                        while m:
                            low = m & -m
                            out.append(BUILDS[base + low.bit_length() - 1])  # type: ignore[arg-type]
                            m ^= low
        if step <= DRAGON and state.dragon < 0 and state.queen != seat and coins >= DRAGON_COST:
            board = state.board
            for price in range(BOARD_SPACES):
                if board[price]:
                    out.append(DRAGONS[price])
        if state.nxt:
            out.extend(_claims(state))
        else:
            out.append(PASS)
        return out

    def _why_illegal(self, state: QueendominoState, seat: Seat, action: Action) -> str | None:
        reason = why_illegal(state, seat, action)
        if reason is None and action not in self.legal_actions(state, seat):
            return f"{act.describe(action)} is not a legal action now"
        return reason

    def _apply(self, state: QueendominoState, seat: Seat, action: Action) -> None:
        if state.phase == DRAFT:
            state.nxt_owner[state.nxt.index(action.domino)] = seat  # type: ignore[union-attr]
            state.draft_pos += 1
            if state.draft_pos == len(state.draft_order):
                next_round(state)
            return
        if state.step == PLACE:
            n = state.cur[state.acting]
            if isinstance(action, Discard):
                state.discarded.append(n)
                state.last_cells = 0
            else:
                cell, d = action.cell, action.d  # type: ignore[union-attr]
                grid_place(state.kingdoms[seat], cell, d, T1[n], C1[n], T2[n], C2[n])
                state.placed[seat].append((n, cell, d))
                state.last_cells = (1 << cell) | (1 << (cell + DELTA[d]))
            state.step = TAX
            return
        if isinstance(action, Claim):
            state.nxt_owner[state.nxt.index(action.domino)] = seat
            end_turn(state)
        elif isinstance(action, Knight):
            collect_tax(state, seat, action.cell)
        elif isinstance(action, Build):
            build(state, seat, action.space, action.cell)
            state.step = DRAGON
        elif isinstance(action, Dragon):
            state.coins[seat] -= DRAGON_COST
            state.burnt.append(state.board[action.space])
            state.board[action.space] = EMPTY
            state.dragon = action.space
            state.step = CLAIM
        else:
            end_turn(state)

    def reveals(self, state: QueendominoState, seat: Seat, action: Action) -> bool:
        """True when the action closes a round: a new line and new buildings turn up."""
        after = state.clone()
        self._apply(after, seat, action)
        return after.deck_pos != state.deck_pos or after.pile_pos != state.pile_pos

    # ---- results -------------------------------------------------------------------------
    def outcome(self, state: QueendominoState) -> Outcome | None:
        if state.phase != OVER:
            return None
        return final_outcome(state)

    def view(self, state: QueendominoState, seat: Seat | None) -> JSON:
        return view.view(state, seat, self.to_act(state))

    def determinize(self, view_json: JSON, seat: Seat | None, rng: Rng) -> QueendominoState:
        return view.determinize(self, view_json, rng)

    def action_from_json(self, data: object) -> Action:
        return act.action_from_json(data)

    def action_from_index(self, index: int) -> Action:
        return act.action_from_index(index)

    def describe(self, action: Action) -> str:
        return act.describe(action)


# ---- flow helpers (module level so tests, views and bots can reuse them) -------------------
def interleave(queen_box: list[int], king_box: list[int], line: int) -> list[int]:
    """Royal Wedding draw order: lines alternate boxes, Queendomino first."""
    out: list[int] = []
    for i in range(0, len(queen_box), line):
        out += queen_box[i : i + line]
        out += king_box[i : i + line]
    return out


def _claims(state: QueendominoState) -> list[Action]:
    owners = state.nxt_owner
    return [CLAIMS[n] for i, n in enumerate(state.nxt) if owners[i] < 0]


def tax_bonus(state: QueendominoState, seat: Seat) -> int:
    """Coins the ongoing '+coin / knight' and '+coin / tower' buildings pay at one collection."""
    tiles = state.cfg.tiles
    knights = state.knights[seat] + state.knight_cells[seat].bit_count()
    towers = state.towers[seat]
    bonus = 0
    for tile_id, _ in state.built[seat]:
        tile = tiles[tile_id - 1]
        bonus += tile.coin_per_knight * knights + tile.coin_per_tower * towers
    return bonus


def collect_tax(state: QueendominoState, seat: Seat, cell: int) -> None:
    """Step B: a knight on ``cell`` collects the size of its territory, plus building bonuses."""
    k = state.kingdoms[seat]
    t = terrain_at(k, cell)
    assert t is not None
    first = not state.taxed
    state.knights[seat] -= 1
    state.knight_cells[seat] |= 1 << cell
    state.taxed |= 1 << cell
    coins = component_of(k[TERR + t], cell).bit_count()
    if first or not state.cfg.tax_bonus_per_turn:
        coins += tax_bonus(state, seat)
    state.coins[seat] += coins


def build_price(state: QueendominoState, seat: Seat, space: int) -> int:
    """A board space's price, 1 less for the Queen's host, never below 0 (ruling 2)."""
    return max(space - 1, 0) if state.queen == seat else space


def build(state: QueendominoState, seat: Seat, space: int, cell: int) -> None:
    """Step C: pay, put the tile on the town square, take its knights and towers."""
    tile_id = state.board[space]
    tile = state.cfg.tiles[tile_id - 1]
    state.coins[seat] -= build_price(state, seat, space)
    state.board[space] = EMPTY
    state.built[seat].append((tile_id, cell))
    state.built_cells[seat] |= 1 << cell
    if tile.crowns:  # town squares print no crown, so the building's crowns are the square's
        state.kingdoms[seat][CR1 + tile.crowns - 1] |= 1 << cell
    state.knights[seat] += tile.knights
    if tile.towers:
        gain_towers(state, seat, tile.towers)


def gain_towers(state: QueendominoState, seat: Seat, towers: int) -> None:
    """The Queen: whoever gains towers and then has at least as many as everyone hosts her."""
    state.towers[seat] += towers
    mine = state.towers[seat]
    if all(mine >= t for t in state.towers):
        state.queen = seat


def end_turn(state: QueendominoState) -> None:
    """Hand the turn to the next king on the current line, or close the round."""
    state.step = PLACE
    state.last_cells = 0
    state.taxed = 0
    i = state.acting + 1
    owners = state.cur_owner
    size = len(owners)
    while i < size and owners[i] < 0:
        i += 1
    if i < size:
        state.acting = i
    else:
        next_round(state)


def refresh_board(state: QueendominoState) -> None:
    """New round: the Dragon goes home; tiles slide to the cheap end; the pile refills the rest."""
    state.dragon = -1
    tiles = [t for t in state.board if t]
    pile, pos = state.pile, state.pile_pos
    while len(tiles) < BOARD_SPACES and pos < len(pile):
        tiles.append(pile[pos])
        pos += 1
    state.pile_pos = pos
    state.board = tiles + [EMPTY] * (BOARD_SPACES - len(tiles))


def next_round(state: QueendominoState) -> None:
    """The claimed line becomes current and a new one is drawn; or, after the last, the end."""
    if not state.nxt:
        state.phase = OVER
        state.step = PLACE
        return
    cur, owners = state.nxt, state.nxt_owner
    for i, n in enumerate(cur):
        if owners[i] < 0:  # 3 players (or Royal Wedding): the domino nobody claimed
            state.discarded.append(n)
    state.cur = cur
    state.cur_owner = owners
    line = state.cfg.line_size
    if state.deck_pos < len(state.deck):
        state.nxt = sorted(state.deck[state.deck_pos : state.deck_pos + line])
        state.nxt_owner = [-1] * line
        state.deck_pos += line
        state.lines_drawn += 1
    else:
        state.nxt = []
        state.nxt_owner = []
    if state.phase == PLAY:
        refresh_board(state)
    state.phase = PLAY
    state.round += 1
    state.step = PLACE
    i = 0
    while owners[i] < 0:
        i += 1
    state.acting = i


def seat_breakdown(state: QueendominoState, seat: Seat) -> dict[str, object]:
    tiles = state.cfg.tiles
    built = [(tiles[t - 1], cell) for t, cell in state.built[seat]]
    crowned = 0
    for tile, cell in built:
        if tile.crowns:
            crowned |= 1 << cell
    return scoring.breakdown(
        state.kingdoms[seat],
        built,
        state.coins[seat],
        state.towers[seat],
        state.knights[seat] + state.knight_cells[seat].bit_count(),
        state.queen == seat,
        crowned,
    )


def final_outcome(state: QueendominoState) -> Outcome:
    """Rule 4: highest total, then the largest single territory, then shared."""
    breakdowns = tuple(seat_breakdown(state, seat) for seat in range(state.cfg.players))
    keys = [(int(b["total"]), int(b["largest_territory"])) for b in breakdowns]  # type: ignore[call-overload]
    return Outcome(
        scores=tuple(k[0] for k in keys),
        ranks=ranks_from_keys(keys),
        breakdown=breakdowns,
        tiebreaks=tuple((k[1],) for k in keys),
    )


# ---- why an action is refused --------------------------------------------------------------
def why_illegal(state: QueendominoState, seat: Seat, action: Action) -> str | None:
    """A person-readable reason why ``action`` is not legal for ``seat`` now, or None."""
    if not isinstance(action, (Place, Discard, Claim, Pass, Knight, Build, Dragon)):
        return f"{action!r} is not a Queendomino action"
    if state.phase == DRAFT:
        if not isinstance(action, Claim):
            return "first draft: claim a domino of the first line"
        return _why_not_claim(state, action)
    step = state.step
    if step == PLACE:
        n = state.cur[state.acting]
        k = state.kingdoms[seat]
        masks = placement_masks(k, T1[n], T2[n], state.cfg.frame)
        if isinstance(action, Discard):
            if masks[0] | masks[1] | masks[2] | masks[3]:
                return f"domino {n} can be placed, so it may not be discarded (step A)"
            return None
        if isinstance(action, Place):
            if masks[action.d] >> action.cell & 1:
                return None
            return explain_placement(k, state.cfg.frame, n, action)
        return f"place domino {n} first, or discard it if it cannot be placed (step A)"
    if isinstance(action, (Place, Discard)):
        return "you have already placed this turn's domino (step A)"
    if isinstance(action, Knight):
        return _why_not_knight(state, seat, action)
    if isinstance(action, Build):
        return _why_not_build(state, seat, action)
    if isinstance(action, Dragon):
        return _why_not_dragon(state, seat, action)
    if isinstance(action, Claim):
        if not state.nxt:
            return "this is the last round: there is no next line, so pass to end your turn"
        return _why_not_claim(state, action)
    if state.nxt:
        return "you must put your king on a domino of the next line to end your turn (step E)"
    return None


def _why_not_claim(state: QueendominoState, action: Claim) -> str | None:
    if action.domino not in state.nxt:
        return f"domino {action.domino} is not in the next line"
    if state.nxt_owner[state.nxt.index(action.domino)] >= 0:
        return f"domino {action.domino} is already claimed"
    return None


def _why_not_knight(state: QueendominoState, seat: Seat, action: Knight) -> str | None:
    if state.step > TAX:
        return "knights are placed in step B, before building, the Dragon and claiming"
    if not state.last_cells:
        return "no domino was placed this turn, so there is no square for a knight"
    bit = 1 << action.cell
    if not state.last_cells & bit:
        return (
            f"({action.x}, {action.y}) is not a square of the domino just placed; knights go "
            "only on the new domino (step B)"
        )
    if state.taxed == state.last_cells:
        return "both squares of the new domino already have a knight: at most 2, one per square"
    if state.taxed & bit:
        return f"({action.x}, {action.y}) already has a knight this turn: one knight per square"
    if not state.knights[seat]:
        return "you have no unplaced knight (knights gained by building come from your next turn)"
    return None


def _why_not_build(state: QueendominoState, seat: Seat, action: Build) -> str | None:
    if state.step == DRAGON:
        return "you have already built this turn: one building per turn (step C)"
    if state.step > DRAGON:
        return "building (step C) comes before the Dragon (step D)"
    x, y = action.x, action.y
    k = state.kingdoms[seat]
    free = k[_TOWN] & ~state.built_cells[seat]
    if not free:
        return "you have no empty town square to build on"
    if state.board[action.space] == EMPTY:
        if state.dragon == action.space:
            return f"the Dragon burnt the tile of board space {action.space} this round"
        return f"board space {action.space} is empty until the next round"
    bit = 1 << action.cell
    if not k[_TOWN] & bit:
        return f"({x}, {y}) is not a town square of your kingdom"
    if state.built_cells[seat] & bit:
        return f"({x}, {y}) already has a building; buildings cannot be stacked"
    price = build_price(state, seat, action.space)
    if price > state.coins[seat]:
        queen = " with the Queen's discount" if state.queen == seat else ""
        return (
            f"board space {action.space} costs {price} coin(s){queen} and you have "
            f"{state.coins[seat]}"
        )
    return None


def _why_not_dragon(state: QueendominoState, seat: Seat, action: Dragon) -> str | None:
    if state.step > DRAGON:
        return "you have already used the Dragon this turn"
    if state.dragon >= 0:
        return "the Dragon has already burnt a tile this round (once per round, for one player)"
    if state.queen == seat:
        return "you host the Queen, so you may not use the Dragon"
    if state.coins[seat] < DRAGON_COST:
        return f"the Dragon costs {DRAGON_COST} coin and you have {state.coins[seat]}"
    if state.board[action.space] == EMPTY:
        return f"board space {action.space} is empty: there is nothing to burn"
    return None


GAME = Queendomino()
