"""Queendomino rules (``rules/queendomino.md``): setup, the draft, the turn's steps A-E, the
Queen, the Dragon, new rounds and the end. Placement and territories are Kingdomino's grid."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from ludoteca.engine.errors import OptionError, Reason, because
from ludoteca.engine.events import Event
from ludoteca.engine.game import (
    JSON,
    Game,
    GameSpec,
    Outcome,
    Seat,
    not_legal_now,
    ranks_from_keys,
)
from ludoteca.engine.i18n import N_, Voice
from ludoteca.engine.options import Option, OptionValue
from ludoteca.engine.parts import teams_of
from ludoteca.engine.playout import Policy, Until
from ludoteca.engine.rng import Rng
from ludoteca.games.kingdomino.draft import (
    claim,
    claim_first,
    first_draft_order,
    free_claims,
    next_king,
    open_draft,
    turn_line,
    why_not_claim,
)
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
from ludoteca.games.queendomino import events, native_playout, scoring, view
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
from ludoteca.games.queendomino.buildings import DEFAULT_TABLE, SHA256, SHIPPED
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
    queen_price,
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

ROYAL_WEDDING = Option(
    "royal_wedding", bool, False,
    "Royal Wedding: add the Kingdomino box (96 dominoes, lines alternate boxes); 3-4 players "
    "build 7×7 with lines of 4, 5-8 players 5×5 with lines of 8 (rules: Playing with "
    "Kingdomino); always on for 5-8 players",
    players=(3, 4, 5, 6, 7, 8),
    fixed=((5, True), (6, True), (7, True), (8, True)),
)
OPTIONS = (
    ROYAL_WEDDING,
    Option(
        "tax_bonus", str, "per_knight",
        "When '+coin' buildings pay: 'per_knight' = with every knight's tax (default), "
        "'per_turn' = once per turn in which you collect tax (SOURCES.md §7.5.5)",
        choices=("per_knight", "per_turn"),
    ),
    Option(
        "buildings", str, DEFAULT_TABLE,
        "Building table: 'inferred' (default) = the 20 tiles nobody could read in full get "
        "the effects SOURCES.md §7.4 infers (the box's knight and tower counts); 'verified' = "
        "only effects read off a tile or the rulebook. Each tile says what it does in the "
        "table chosen (docs/queendomino.md, Building tables)",
        choices=tuple(SHIPPED),
    ),
    Option(
        "teams", bool, False,
        "Team play (Royal Wedding, 6 or 8 players): seats s and s + players/2 are partners and "
        "share a castle, a 7×7 kingdom, a treasury and knights; each keeps their own king "
        "(rules §7.6, §8.10-8.17)",
        players=(6, 8),
    ),
)
TEAM_PLAYERS = (6, 8)

_SEATS = [frozenset({s}) for s in range(8)]
_NOBODY: frozenset[int] = frozenset()
_TOWN = TERR + TOWN


class Queendomino(Game[QueendominoState, Action]):
    spec = GameSpec(
        name="queendomino",
        title="Queendomino",
        min_players=2,
        max_players=8,
        options=OPTIONS,
        num_actions=act.NUM_ACTIONS,
        max_length=6 * 96 + 8,
        hidden_information=True,
        chance=True,
        teams=True,
        rules="queendomino.md",
    )
    locale = (  # Kingdomino's sentences for the draft and placements, then Queendomino's own
        Path(__file__).parent.parent / "kingdomino" / "locale",
        Path(__file__).parent / "locale",
    )

    # ---- setup (rules "Setup") -----------------------------------------------------------
    def validate(
        self, options: Mapping[str, object] | None, players: int
    ) -> dict[str, OptionValue]:
        """Checked options. 5-8 players can only play Royal Wedding (both boxes are needed for
        lines of 8): left unset it is switched on for them; set to false it is an error. Team
        play (rules §7.6) is Royal Wedding at 6 or 8 players; ``teams`` is left out of the
        result when off, so individual matches keep the options (and records) they had."""
        teams = _teams_asked(options)
        if teams and players not in TEAM_PLAYERS and isinstance(players, int):
            raise OptionError(
                msgid=N_(
                    "team play is for 6 or 8 players in teams of 2, not {players} (rules "
                    '"Playing with Kingdomino" 6)'
                ),
                players=players,
            )
        if teams and options and "royal_wedding" in options and not _true(
            options["royal_wedding"]
        ):
            raise OptionError(
                msgid=N_(
                    "team play is a Royal Wedding variant: set royal_wedding=true or leave it "
                    'out (rules "Playing with Kingdomino" 6)'
                )
            )
        # checked before the schema's own refusal of a fixed option, to cite the rule
        asked = options.get("royal_wedding") if options else None
        if isinstance(players, int) and players > 4 and asked is not None and not (
            ROYAL_WEDDING.parse(asked)
        ):
            raise OptionError(
                msgid=N_(
                    "{players} players need both boxes: set royal_wedding=true (rules "
                    '"Playing with Kingdomino")'
                ),
                players=players,
            )
        opts = super().validate(options, players)  # 5-8 players: royal_wedding fixed on
        if not opts["teams"]:
            del opts["teams"]
        return opts

    def _setup(self, options: dict[str, OptionValue], players: int, rng: Rng) -> QueendominoState:
        cfg = Config.from_options(options, players)
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
        pile = list(range(1, len(cfg.tiles) + 1))
        rng.shuffle(pile)
        s.pile = pile
        s.board = pile[:BOARD_SPACES]
        s.pile_pos = BOARD_SPACES
        s.burnt = []
        s.dragon = -1
        s.queen = -1
        # first draft A, B, B, A with 2 players, else the kings drawn at random (rules "Setup")
        order = first_draft_order(rng, players, cfg.kings_per_player, players == 2)
        open_draft(s, order, cfg.line_size)
        # one kingdom, treasury and knight per side: per player, or per team (rules §7.6)
        sides = cfg.sides
        s.kingdoms = [new_kingdom(len(TERRAINS)) for _ in range(sides)]
        s.placed = [[] for _ in range(sides)]
        s.coins = [START_COINS] * sides
        s.knights = [START_KNIGHTS] * sides
        s.knight_cells = [0] * sides
        s.towers = [0] * sides
        s.built = [[] for _ in range(sides)]
        s.built_cells = [0] * sides
        s.lines_drawn = 1
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
            return free_claims(state, CLAIMS)
        side = state.cfg.side_of[seat]
        if step == PLACE:
            n = state.cur[state.acting]
            masks = placement_masks(state.kingdoms[side], T1[n], T2[n], state.cfg.frame)
            out: list[Action] = []
            for d in range(4):
                m = masks[d]
                while m:
                    low = m & -m
                    out.append(PLACES[((low.bit_length() - 1) << 2) | d])  # type: ignore[arg-type]
                    m ^= low
            return out or [DISCARD]
        out = []
        append = out.append  # the lists below run for every step of every playout
        coins = state.coins[side]
        if step == TAX and state.knights[side]:
            m = state.last_cells & ~state.taxed
            while m:
                low = m & -m
                append(KNIGHTS[low.bit_length() - 1])  # type: ignore[arg-type]
                m ^= low
        if step <= BUILD:
            m = state.kingdoms[side][_TOWN] & ~state.built_cells[side]
            if m:
                free = []  # the free town squares, low cell first
                while m:
                    low = m & -m
                    free.append(low.bit_length() - 1)
                    m ^= low
                discount = 1 if state.queen == side else 0
                board = state.board
                builds = BUILDS
                for price in range(BOARD_SPACES):
                    if board[price] and price - discount <= coins:
                        base = price * CELLS
                        for cell in free:
                            append(builds[base + cell])  # type: ignore[arg-type]
        if step <= DRAGON and state.dragon < 0 and state.queen != side and coins >= DRAGON_COST:
            board = state.board
            for price in range(BOARD_SPACES):
                if board[price]:
                    append(DRAGONS[price])
        nxt = state.nxt
        if nxt:  # draft.free_claims written out: this runs at every step of every playout
            owners = state.nxt_owner
            for i, n in enumerate(nxt):
                if owners[i] < 0:
                    append(CLAIMS[n])
        else:
            out.append(PASS)
        return out

    def legal_indices(self, state: QueendominoState, seat: Seat) -> list[int]:
        """``legal_actions``' indices in the same order, without the actions."""
        if seat != state.seat_acting() or seat < 0:
            return []
        step = state.step
        if state.phase == DRAFT:
            owners = state.nxt_owner
            return [act.CLAIM_BASE + n - 1 for i, n in enumerate(state.nxt) if owners[i] < 0]
        side = state.cfg.side_of[seat]
        if step == PLACE:
            n = state.cur[state.acting]
            masks = placement_masks(state.kingdoms[side], T1[n], T2[n], state.cfg.frame)
            out: list[int] = []
            for d in range(4):
                m = masks[d]
                while m:
                    low = m & -m
                    out.append(((low.bit_length() - 1) << 2) | d)  # Place.index
                    m ^= low
            return out or [act.DISCARD.index]
        out = []
        append = out.append
        coins = state.coins[side]
        if step == TAX and state.knights[side]:
            m = state.last_cells & ~state.taxed
            while m:
                low = m & -m
                append(act.KNIGHT_BASE + low.bit_length() - 1)
                m ^= low
        if step <= BUILD:
            m = state.kingdoms[side][_TOWN] & ~state.built_cells[side]
            if m:
                free = []  # the free town squares, low cell first
                while m:
                    low = m & -m
                    free.append(low.bit_length() - 1)
                    m ^= low
                discount = 1 if state.queen == side else 0
                board = state.board
                for price in range(BOARD_SPACES):
                    if board[price] and price - discount <= coins:
                        base = act.BUILD_BASE + price * CELLS
                        for cell in free:
                            append(base + cell)
        if step <= DRAGON and state.dragon < 0 and state.queen != side and coins >= DRAGON_COST:
            board = state.board
            for price in range(BOARD_SPACES):
                if board[price]:
                    append(act.DRAGON_BASE + price)
        nxt = state.nxt
        if nxt:
            owners = state.nxt_owner
            for i, n in enumerate(nxt):
                if owners[i] < 0:
                    append(act.CLAIM_BASE + n - 1)
        else:
            out.append(act.PASS_INDEX)
        return out

    def _why_illegal(self, state: QueendominoState, seat: Seat, action: Action) -> Reason | None:
        reason = why_illegal(state, seat, action)
        if reason is None and action not in self.legal_actions(state, seat):
            return not_legal_now(act.describe(action))
        return reason

    def _apply(self, state: QueendominoState, seat: Seat, action: Action) -> None:
        if state.phase == DRAFT:
            if claim_first(state, seat, action.domino):  # type: ignore[union-attr]
                next_round(state)
            return
        if state.step == PLACE:
            n = state.cur[state.acting]
            if isinstance(action, Discard):
                state.discarded.append(n)
                state.last_cells = 0
            else:
                cell, d = action.cell, action.d  # type: ignore[union-attr]
                side = state.cfg.side_of[seat]
                grid_place(state.kingdoms[side], cell, d, T1[n], C1[n], T2[n], C2[n])
                state.placed[side].append((n, cell, d))
                state.last_cells = (1 << cell) | (1 << (cell + DELTA[d]))
            state.step = TAX
            return
        if isinstance(action, Claim):
            claim(state, seat, action.domino)
            end_turn(state)
        elif isinstance(action, Knight):
            collect_tax(state, seat, action.cell)
        elif isinstance(action, Build):
            build(state, seat, action.space, action.cell)
            state.step = DRAGON
        elif isinstance(action, Dragon):
            state.coins[state.cfg.side_of[seat]] -= DRAGON_COST
            state.burnt.append(state.board[action.space])
            state.board[action.space] = EMPTY
            state.dragon = action.space
            state.step = CLAIM
        else:
            end_turn(state)

    def reveals(self, before: QueendominoState, seat: Seat, action: Action,
                after: QueendominoState) -> bool:
        """True when the action closed a round: a new line and new buildings turned up."""
        return after.deck_pos != before.deck_pos or after.pile_pos != before.pile_pos

    # ---- playouts (docs/engine.md, "Playouts on the native core") --------------------------
    def _playout(self, state: QueendominoState, policy: Policy, rng: Rng, until: Until,
                 trace: list[tuple[Seat, int]] | None) -> None:
        """On the native core, a random playout to the end runs there (``native_playout``:
        the same choices, draws and outcome); anything else plays in Python."""
        native = native_playout.native_policy(policy, until, trace, state)
        if native is None or not native_playout.playout(state, native, rng):
            super()._playout(state, policy, rng, until, trace)

    # ---- events (ludoteca/games/queendomino/events.py) -------------------------------------
    def narrate(
        self, before: QueendominoState, seat: Seat, action: Action, after: QueendominoState
    ) -> list[Event]:
        return events.narrate(before, seat, action, after, final_outcome)

    def opening(self, state: QueendominoState) -> list[Event]:
        return events.opening(state)

    def render_event(self, data: JSON, voice: Voice) -> str:
        return events.render(data, voice)

    # ---- results -------------------------------------------------------------------------
    def outcome(self, state: QueendominoState) -> Outcome | None:
        if state.phase != OVER:
            return None
        return final_outcome(state)

    def view(self, state: QueendominoState, seat: Seat | None) -> JSON:
        return view.view(state, seat, self.to_act(state))

    def determinize(self, view_json: JSON, seat: Seat | None, rng: Rng) -> QueendominoState:
        return view.determinize(self, view_json, rng)

    def determinizer(
        self, view_json: JSON, seat: Seat | None
    ) -> Callable[[Rng], QueendominoState]:
        return view.determinizer(self, view_json)

    def data_version(self, options: Mapping[str, object]) -> dict[str, str]:
        """The building table a match plays with, by name and content hash."""
        name = str(options.get("buildings", DEFAULT_TABLE))
        if name not in SHA256:
            return {"buildings": name}
        return {"buildings": name, "buildings_sha256": SHA256[name]}

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


def tax_bonus(state: QueendominoState, seat: Seat) -> int:
    """Coins the ongoing '+coin / knight' and '+coin / tower' buildings pay at one collection
    (a team's buildings count the team's knights and towers, ruling 12)."""
    tiles = state.cfg.tiles
    side = state.cfg.side_of[seat]
    knights = state.knights[side] + state.knight_cells[side].bit_count()
    towers = state.towers[side]
    bonus = 0
    for tile_id, _ in state.built[side]:
        tile = tiles[tile_id - 1]
        bonus += tile.coin_per_knight * knights + tile.coin_per_tower * towers
    return bonus


def collect_tax(state: QueendominoState, seat: Seat, cell: int) -> None:
    """Step B: a knight on ``cell`` collects the size of its territory, plus building bonuses.
    In team play the knight and the coins are the team's (ruling 11)."""
    side = state.cfg.side_of[seat]
    k = state.kingdoms[side]
    t = terrain_at(k, cell)
    assert t is not None
    first = not state.taxed
    state.knights[side] -= 1
    state.knight_cells[side] |= 1 << cell
    state.taxed |= 1 << cell
    coins = component_of(k[TERR + t], cell).bit_count()
    if first or not state.cfg.tax_bonus_per_turn:
        coins += tax_bonus(state, seat)
    state.coins[side] += coins


def build_price(state: QueendominoState, seat: Seat, space: int) -> int:
    """A board space's price, 1 less for the Queen's host (a team hosts her for both partners,
    ruling 13), never below 0 (ruling 2)."""
    return queen_price(space) if state.queen == state.cfg.side_of[seat] else space


def build(state: QueendominoState, seat: Seat, space: int, cell: int) -> None:
    """Step C: pay, put the tile on the town square, take its knights and towers (from and
    into the team's treasury, kingdom and knights in team play, ruling 11)."""
    tile_id = state.board[space]
    tile = state.cfg.tiles[tile_id - 1]
    side = state.cfg.side_of[seat]
    state.coins[side] -= build_price(state, seat, space)
    state.board[space] = EMPTY
    state.built[side].append((tile_id, cell))
    state.built_cells[side] |= 1 << cell
    if tile.crowns:  # town squares print no crown, so the building's crowns are the square's
        state.kingdoms[side][CR1 + tile.crowns - 1] |= 1 << cell
    state.knights[side] += tile.knights
    if tile.towers:
        gain_towers(state, seat, tile.towers)


def gain_towers(state: QueendominoState, seat: Seat, towers: int) -> None:
    """The Queen: whoever gains towers and then has at least as many as everyone hosts her; in
    team play a team's towers are compared and the team hosts her (ruling 13)."""
    side = state.cfg.side_of[seat]
    state.towers[side] += towers
    mine = state.towers[side]
    if all(mine >= t for t in state.towers):
        state.queen = side


def end_turn(state: QueendominoState) -> None:
    """Hand the turn to the next king on the current line, or close the round."""
    state.step = PLACE
    state.last_cells = 0
    state.taxed = 0
    if not next_king(state):
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
    playing = state.phase == PLAY
    # 3 players (or Royal Wedding): the domino nobody claimed is discarded
    if turn_line(state, state.cfg.line_size):
        state.lines_drawn += 1
    if playing:
        refresh_board(state)
    state.step = PLACE


def seat_breakdown(state: QueendominoState, seat: Seat) -> dict[str, object]:
    """The final scoring of the kingdom ``seat`` plays (its team's in team play)."""
    return scoring.side_breakdown(state, state.cfg.side_of[seat])


def final_outcome(state: QueendominoState) -> Outcome:
    """Rules §6.4: highest total, then the largest single territory, then shared. In team play
    (ruling 16) partners share their team's total, parts and rank, ranked over seats as Kami
    ranks its teams, and each seat's breakdown names its side and partners."""
    cfg = state.cfg
    per_side = [scoring.side_breakdown(state, side) for side in range(cfg.sides)]
    side_parts = [tuple(scoring.parts(b)) for b in per_side]
    if cfg.teams:
        breakdowns = tuple(
            {**per_side[side], "side": side, "partners": cfg.partners(side)}
            for side in cfg.side_of
        )
    else:
        breakdowns = tuple(per_side)
    keys = [(int(b["total"]), int(b["largest_territory"])) for b in breakdowns]
    return Outcome(
        scores=tuple(k[0] for k in keys),
        ranks=ranks_from_keys(keys),
        breakdown=breakdowns,
        tiebreaks=tuple((k[1],) for k in keys),
        teams=teams_of(cfg.side_of),
        parts=tuple(side_parts[side] for side in cfg.side_of),
        tiebreak=tuple(scoring.tiebreak(k[1]) for k in keys),
    )


# ---- why an action is refused --------------------------------------------------------------
def why_illegal(state: QueendominoState, seat: Seat, action: Action) -> Reason | None:
    """A person-readable reason why ``action`` is not legal for ``seat`` now, or None."""
    if not isinstance(action, (Place, Discard, Claim, Pass, Knight, Build, Dragon)):
        return because(N_("{action} is not a Queendomino action"), action=repr(action))
    if state.phase == DRAFT:
        if not isinstance(action, Claim):
            return because(N_("first draft: claim a domino of the first line"))
        return why_not_claim(state, action.domino)
    step = state.step
    if step == PLACE:
        n = state.cur[state.acting]
        k = state.kingdoms[state.cfg.side_of[seat]]
        masks = placement_masks(k, T1[n], T2[n], state.cfg.frame)
        if isinstance(action, Discard):
            if masks[0] | masks[1] | masks[2] | masks[3]:
                return because(
                    N_("domino {domino} can be placed, so it may not be discarded (step A)"),
                    domino=n,
                )
            return None
        if isinstance(action, Place):
            if masks[action.d] >> action.cell & 1:
                return None
            return explain_placement(k, state.cfg.frame, n, action)
        return because(
            N_("place domino {domino} first, or discard it if it cannot be placed (step A)"),
            domino=n,
        )
    if isinstance(action, (Place, Discard)):
        return because(N_("you have already placed this turn's domino (step A)"))
    if isinstance(action, Knight):
        return _why_not_knight(state, seat, action)
    if isinstance(action, Build):
        return _why_not_build(state, seat, action)
    if isinstance(action, Dragon):
        return _why_not_dragon(state, seat, action)
    if isinstance(action, Claim):
        if not state.nxt:
            return because(
                N_("this is the last round: there is no next line, so pass to end your turn")
            )
        return why_not_claim(state, action.domino)
    if state.nxt:
        return because(
            N_("you must put your king on a domino of the next line to end your turn (step E)")
        )
    return None


def _why_not_knight(state: QueendominoState, seat: Seat, action: Knight) -> Reason | None:
    if state.step > TAX:
        return because(
            N_("knights are placed in step B, before building, the Dragon and claiming")
        )
    if not state.last_cells:
        return because(N_("no domino was placed this turn, so there is no square for a knight"))
    bit = 1 << action.cell
    if not state.last_cells & bit:
        return because(
            N_(
                "({x}, {y}) is not a square of the domino just placed; knights go only on the "
                "new domino (step B)"
            ),
            x=action.x,
            y=action.y,
        )
    if state.taxed == state.last_cells:
        return because(
            N_(
                "both squares of the new domino already have a knight: at most 2, one per "
                "square"
            )
        )
    if state.taxed & bit:
        return because(
            N_("({x}, {y}) already has a knight this turn: one knight per square"),
            x=action.x,
            y=action.y,
        )
    if not state.knights[state.cfg.side_of[seat]]:
        return because(
            N_(
                "you have no unplaced knight (knights gained by building come from your next "
                "turn)"
            )
        )
    return None


def _why_not_build(state: QueendominoState, seat: Seat, action: Build) -> Reason | None:
    if state.step == DRAGON:
        return because(N_("you have already built this turn: one building per turn (step C)"))
    if state.step > DRAGON:
        return because(N_("building (step C) comes before the Dragon (step D)"))
    x, y = action.x, action.y
    side = state.cfg.side_of[seat]
    k = state.kingdoms[side]
    free = k[_TOWN] & ~state.built_cells[side]
    if not free:
        return because(N_("you have no empty town square to build on"))
    if state.board[action.space] == EMPTY:
        if state.dragon == action.space:
            return because(
                N_("the Dragon burnt the tile of board space {space} this round"),
                space=action.space,
            )
        return because(
            N_("board space {space} is empty until the next round"), space=action.space
        )
    bit = 1 << action.cell
    if not k[_TOWN] & bit:
        return because(N_("({x}, {y}) is not a town square of your kingdom"), x=x, y=y)
    if state.built_cells[side] & bit:
        return because(
            N_("({x}, {y}) already has a building; buildings cannot be stacked"), x=x, y=y
        )
    price = build_price(state, seat, action.space)
    if price > state.coins[side]:
        if state.queen == side:
            return because(
                N_(
                    "board space {space} costs {price} coin(s) with the Queen's discount and "
                    "you have {coins}"
                ),
                space=action.space,
                price=price,
                coins=state.coins[side],
            )
        return because(
            N_("board space {space} costs {price} coin(s) and you have {coins}"),
            space=action.space,
            price=price,
            coins=state.coins[side],
        )
    return None


def _why_not_dragon(state: QueendominoState, seat: Seat, action: Dragon) -> Reason | None:
    if state.step > DRAGON:
        return because(N_("you have already used the Dragon this turn"))
    if state.dragon >= 0:
        return because(
            N_("the Dragon has already burnt a tile this round (once per round, for one player)")
        )
    side = state.cfg.side_of[seat]
    if state.queen == side:
        if state.cfg.teams:
            return because(
                N_("your team hosts the Queen, so you may not use the Dragon (ruling 14)")
            )
        return because(N_("you host the Queen, so you may not use the Dragon"))
    if state.coins[side] < DRAGON_COST:
        return because(
            N_("the Dragon costs {cost} coin and you have {coins}"),
            cost=DRAGON_COST,
            coins=state.coins[side],
        )
    if state.board[action.space] == EMPTY:
        return because(
            N_("board space {space} is empty: there is nothing to burn"), space=action.space
        )
    return None


def _true(raw: object) -> bool:
    """A bool option's raw value as the schema reads it (False when unreadable: the schema's
    own check then reports it)."""
    try:
        return bool(_TEAMS_OPTION.parse(raw))
    except OptionError:
        return False


def _teams_asked(options: Mapping[str, object] | None) -> bool:
    if not options or "teams" not in options:
        return False
    return _true(options["teams"])


_TEAMS_OPTION = next(o for o in OPTIONS if o.name == "teams")


GAME = Queendomino()
