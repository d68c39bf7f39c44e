"""Buttons rules (``rules/buttons.md``): setup, turns, simultaneous placements, round scoring.

The one simultaneous step: after a roll the active player (unless they bust) and every other
player still in the round whose gold cell is legal answer at once. Answers wait in
``state.pending`` — hidden from every other seat's view — until the last one arrives, then all
are placed together. Forced choices need no input (§9.2): a bust, an illegal gold cell, and a
star placement where stars equal markers are resolved by the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from ludoteca.engine.errors import OptionError, Reason, because
from ludoteca.engine.events import Event
from ludoteca.engine.game import JSON, Game, GameSpec, Outcome, Seat
from ludoteca.engine.i18n import N_, Voice
from ludoteca.engine.options import Option, OptionValue
from ludoteca.engine.playout import Policy, Until
from ludoteca.engine.rng import Rng
from ludoteca.games.buttons import actions as act
from ludoteca.games.buttons import events, layouts, native_playout, view
from ludoteca.games.buttons.actions import (
    DECLINE,
    PLACE_BASE,
    PLACES,
    ROLL,
    ROLL_INDEX,
    STAR_BASE,
    STARS,
    STOP,
    STOP_INDEX,
    Action,
    Decline,
    Place,
    Roll,
    Star,
    Stop,
)
from ludoteca.games.buttons.grid import (
    COLS_MASK,
    NEIGH,
    RED,
    ROW_MASK,
    SIZE,
    blocked,
    board_masks,
    cell_of,
    row_col,
)
from ludoteca.games.buttons.plan import choose_state
from ludoteca.games.buttons.scoring import final_outcome, is_triggered, round_stars
from ludoteca.games.buttons.state import (
    BUSTED,
    IN,
    NO_CELL,
    OVER,
    PLACE,
    STOPPED,
    TURN,
    ButtonsState,
    Config,
    draw_dice,
)
from ludoteca.games.buttons.state import STARS as STARS_PHASE

WHITE_PIP_DICE = 4

OPTIONS = (
    Option(
        "winner", str, "bga",
        "'bga' = a 5-star line scores 100, otherwise one point per star; 'stars' = the printed "
        "rule: whoever met an end trigger wins, more stars if several did (rules §6)",
        choices=("bga", "stars"),
    ),
    Option(
        "boards", str, "random",
        "'random' = each player gets a different layout at random; 'fixed' = seat 1 plays "
        "layout 1, seat 2 layout 2, … (the same boards at every table) (rules §2.1)",
        choices=("random", "fixed"),
    ),
    Option(
        "layouts", str, layouts.DEFAULT,
        "which set of 8 board layouts to deal from: 'ludoteca' (our own, generated) or "
        "another set shipped in the package's data folder (rules §1.2, docs/buttons.md)",
        choices=layouts.NAMES,
    ),
)

_SEATS = [frozenset({s}) for s in range(4)]
_MASK_SETS = [frozenset(s for s in range(4) if m >> s & 1) for m in range(16)]
_NOBODY: frozenset[int] = frozenset()


class Buttons(Game[ButtonsState, Action]):
    spec = GameSpec(
        name="buttons",
        title="Buttons",
        min_players=2,
        max_players=4,
        options=OPTIONS,
        num_actions=act.NUM_ACTIONS,
        # The rules set no bound (everybody could bust forever); random 4-player games take
        # about 150 actions, so this cap is far beyond any real game.
        max_length=20_000,
        simultaneous=True,
        hidden_information=True,
        chance=True,
        rules="buttons.md",
    )

    locale = Path(__file__).parent / "locale"

    # ---- setup (rules §2) ----------------------------------------------------------------
    def _check_options(self, options: dict[str, OptionValue], players: int) -> None:
        name = str(options["layouts"])
        if name in layouts.BROKEN:
            raise OptionError(
                msgid=N_("the layout set {layouts!r} cannot be used: {problem}"),
                layouts=name,
                problem=layouts.BROKEN[name],
            )
        if name not in layouts.SETS:
            raise OptionError(
                msgid=N_("the layout set {layouts!r} is not installed"), layouts=name
            )

    def data_version(self, options: Mapping[str, object]) -> dict[str, str]:
        """The layout set dealt from and its content hash, named in every match record."""
        name = str(options.get("layouts", layouts.DEFAULT))
        return {"layouts": name, "layouts_sha256": layouts.HASHES.get(name, "")}

    def _setup(self, options: dict[str, OptionValue], players: int, rng: Rng) -> ButtonsState:
        cfg = Config.from_options(options, players)
        table = layouts.get(str(options.get("layouts", layouts.DEFAULT)))
        ids = list(range(len(table)))
        if not cfg.fixed_boards:
            rng.shuffle(ids)
        s = ButtonsState.__new__(ButtonsState)
        s.cfg = cfg
        s.rng = rng
        s.ply = 0
        s.layout_ids = tuple(ids[:players])
        s.boards = tuple(board_masks(table[i]) for i in s.layout_ids)
        s.cards, s.removed_card = deal_cards(players, rng)
        s.stars = [0] * players
        s.markers = [0] * players
        s.pending = [NO_CELL] * players
        s.picks = [0] * players
        s.earned = [0] * players
        s.history = []
        s.round = 1
        s.dice = ()  # the dice stay on the table (in the views) until the next roll
        start_round(s)
        return s

    # ---- turn ----------------------------------------------------------------------------
    def to_act(self, state: ButtonsState) -> frozenset[Seat]:
        phase = state.phase
        if phase == TURN:
            return _SEATS[state.active]
        if phase == OVER:
            return _NOBODY
        return _MASK_SETS[state.waiting]

    def legal_actions(self, state: ButtonsState, seat: Seat) -> list[Action]:
        phase = state.phase
        if phase == TURN:
            if seat != state.active:
                return []
            return [ROLL, STOP] if state.markers[seat] else [ROLL]
        if phase == OVER or not state.waiting >> seat & 1:
            return []
        if phase == PLACE:
            if seat == state.active:
                out: list[Action] = []
                m = state.options_mask
                while m:
                    low = m & -m
                    out.append(PLACES[low.bit_length() - 1])
                    m ^= low
                return out
            dice = state.dice
            return [PLACES[(dice[0] - 1) * SIZE + dice[1] - 1], DECLINE]
        out = []
        m = state.markers[seat] & ~state.picks[seat]
        while m:
            low = m & -m
            out.append(STARS[low.bit_length() - 1])
            m ^= low
        return out

    def legal_indices(self, state: ButtonsState, seat: Seat) -> list[int]:
        """``legal_actions``' indices in the same order, read off the same bit masks."""
        phase = state.phase
        if phase == TURN:
            if seat != state.active:
                return []
            return [ROLL_INDEX, STOP_INDEX] if state.markers[seat] else [ROLL_INDEX]
        if phase == OVER or not state.waiting >> seat & 1:
            return []
        if phase == PLACE:
            if seat == state.active:
                out: list[int] = []
                m = state.options_mask
                while m:
                    low = m & -m
                    out.append(PLACE_BASE + low.bit_length() - 1)
                    m ^= low
                return out
            dice = state.dice
            return [PLACE_BASE + (dice[0] - 1) * SIZE + dice[1] - 1, DECLINE.index]
        out = []
        m = state.markers[seat] & ~state.picks[seat]
        while m:
            low = m & -m
            out.append(STAR_BASE + low.bit_length() - 1)
            m ^= low
        return out

    def _why_illegal(self, state: ButtonsState, seat: Seat, action: Action) -> Reason | None:
        if not isinstance(action, (Roll, Stop, Decline, Place, Star)):
            return because(N_("{action} is not a Buttons action"), action=repr(action))
        phase = state.phase
        if phase == TURN:
            if isinstance(action, Roll):
                return None
            if isinstance(action, Stop):
                if state.markers[seat]:
                    return None
                return because(
                    N_("you have no marker this round, so you may not stop: roll (rule 3.1)")
                )
            return because(N_("it is your turn: roll or stop"))
        if phase == PLACE:
            return _why_not_place(state, seat, action)
        if not isinstance(action, Star):
            return because(
                N_("the round is over: choose which of your markers become stars (rule 4)")
            )
        if not state.markers[seat] >> action.cell & 1:
            return because(
                N_(
                    "row {row}, column {col} holds none of this round's markers; stars only "
                    "replace them (rule 4)"
                ),
                row=action.row,
                col=action.col,
            )
        if state.picks[seat] >> action.cell & 1:
            return because(
                N_("you already chose row {row}, column {col} for a star"),
                row=action.row,
                col=action.col,
            )
        return None

    def _apply(self, state: ButtonsState, seat: Seat, action: Action) -> None:
        phase = state.phase
        if phase == TURN:
            if action.index == ROLL_INDEX:
                roll(state)
            else:
                stop(state)
        elif phase == PLACE:
            index = action.index
            state.pending[seat] = index - PLACE_BASE if index >= PLACE_BASE else NO_CELL
            state.waiting &= ~(1 << seat)
            if not state.waiting:
                resolve_roll(state)
        else:
            picks = state.picks[seat] | 1 << (action.index - STAR_BASE)
            state.picks[seat] = picks
            if picks.bit_count() >= state.earned[seat]:
                state.waiting &= ~(1 << seat)
                if not state.waiting:
                    finish_round(state)

    # ---- playouts (docs/engine.md, "Playouts"; the search profile: buttons/search.py) ----------
    playout_policy = Policy.epsilon_greedy(32)
    """Epsilon-greedy, one move in 32 random: a random stop or roll decides a whole round."""

    def round_of(self, state: ButtonsState) -> int:
        return state.round

    def _playout(self, state: ButtonsState, policy: Policy, rng: Rng, until: Until,
                 trace: list[tuple[Seat, int]] | None) -> None:
        """On the native core, a playout to the end of the match or of the round with the
        random, line-minded or the game's policy runs there (``native_playout``: the same
        choices, draws, history and outcome)."""
        native = native_playout.native_policy(policy, until, trace, state)
        if native is None or not native_playout.playout(state, native, rng, until):
            super()._playout(state, policy, rng, until, trace)

    def _greedy(self, state: ButtonsState, seat: Seat, actions: list[Action], rng: Rng) -> Action:
        """The line-minded policy's choice (``buttons/plan.py``)."""
        return choose_state(state, seat, actions)  # type: ignore[no-any-return]

    def reveals(self, before: ButtonsState, seat: Seat, action: Action,
                after: ButtonsState) -> bool:
        """A roll shows new dice; the last answer of a simultaneous step shows everyone's."""
        if before.phase == TURN:
            return action.index != STOP_INDEX
        if before.phase == PLACE:
            return before.waiting == 1 << seat
        if before.phase == STARS_PHASE:
            last_pick = before.picks[seat].bit_count() + 1 >= before.earned[seat]
            return last_pick and before.waiting == 1 << seat
        return False

    def chance(self, before: ButtonsState, seat: Seat, action: Action,
               after: ButtonsState) -> bool:
        """Only a roll is chance; answers shown together are the players' own choices."""
        return before.phase == TURN and action.index != STOP_INDEX

    def public_action(self, before: ButtonsState, seat: Seat, action: Action) -> JSON:
        """Answers to a simultaneous step (a placement or decline after a roll, a star's place)
        stay hidden from the others until the last answer is in (rules §8)."""
        if before.phase in (PLACE, STARS_PHASE):
            return {"type": "answer"}
        return action.to_json()

    # ---- results and views ---------------------------------------------------------------
    def outcome(self, state: ButtonsState) -> Outcome | None:
        if state.phase != OVER:
            return None
        return final_outcome(state)

    def view(self, state: ButtonsState, seat: Seat | None) -> JSON:
        return view.view(state, seat, self.to_act(state))

    def determinize(self, view_json: JSON, seat: Seat | None, rng: Rng) -> ButtonsState:
        return view.determinize(self, view_json, seat, rng)

    def determinizer(self, view_json: JSON, seat: Seat | None) -> Callable[[Rng], ButtonsState]:
        return view.determinizer(self, view_json, seat)

    # ---- events --------------------------------------------------------------------------
    def narrate(
        self, before: ButtonsState, seat: Seat, action: Action, after: ButtonsState
    ) -> list[Event]:
        return events.narrate(before, seat, action, after)

    def opening(self, state: ButtonsState) -> list[Event]:
        return events.opening(state)

    def render_event(self, data: JSON, voice: Voice) -> str:
        return events.render(data, voice)

    def action_from_json(self, data: object) -> Action:
        return act.action_from_json(data)

    def action_from_index(self, index: int) -> Action:
        return act.action_from_index(index)

    def describe(self, action: Action) -> str:
        return act.describe(action)


# ---- flow (module level so tests and bots can drive single steps) --------------------------
def deal_cards(players: int, rng: Rng) -> tuple[list[int], int]:
    """Rules §2.2: one card each in 4p; in 3p a random non-red card leaves first; two each in
    2p. Returns (per-seat colour masks, the removed card's mask)."""
    colours = [0, 1, 2, 3]
    removed = 0
    if players == 3:
        out = 1 + rng.below(3)
        colours.remove(out)
        removed = 1 << out
    rng.shuffle(colours)
    per = 2 if players == 2 else 1
    cards = [0] * players
    for i, colour in enumerate(colours):
        cards[i // per] |= 1 << colour
    return cards, removed


def red_holder(s: ButtonsState) -> int:
    return next(seat for seat, c in enumerate(s.cards) if c >> RED & 1)


def start_round(s: ButtonsState) -> None:
    """Rules §2.3 and §5: everybody is in, all dice are back, the red holder starts."""
    n = s.cfg.players
    s.in_round = (1 << n) - 1
    s.status = [IN] * n
    s.free = WHITE_PIP_DICE
    s.active = red_holder(s)
    s.phase = TURN
    s.deciders = 0
    s.waiting = 0
    s.options_mask = 0
    s.last_placed = [NO_CELL] * n


def leave(s: ButtonsState, seat: int, status: int) -> None:
    """Rules §3.1 / §3.2 item 5: out of the round, setting aside 1 white-pip die (2 in 2p)."""
    s.status[seat] = status
    s.in_round &= ~(1 << seat)
    s.free -= s.cfg.aside


def stop(s: ButtonsState) -> None:
    leave(s, s.active, STOPPED)
    advance(s)


def roll(s: ButtonsState) -> None:
    """Rules §3.2: roll the white die, the gold black die and the white-pip dice still in play;
    find the active player's options (or bust them) and who else has a real choice."""
    apply_roll(s, draw_dice(s.rng, 2 + s.free))


def apply_roll(s: ButtonsState, dice: tuple[int, ...]) -> None:
    """The roll ``dice`` = (white, gold black, *white-pip black) lands (tests set it directly)."""
    s.dice = dice
    white, gold = dice[0], dice[1]
    values = 0
    for d in dice[1:]:
        values |= 1 << d
    a = s.active
    markers, stars = s.markers, s.stars
    opts = ROW_MASK[white] & COLS_MASK[values] & ~blocked(markers[a], stars[a])
    gold_cell = (white - 1) * SIZE + gold - 1
    gold_bit = 1 << gold_cell
    near = NEIGH[gold_cell]
    waiting = 0
    in_round = s.in_round
    for seat in range(s.cfg.players):
        if (
            seat != a and in_round >> seat & 1
            and not (markers[seat] | stars[seat]) & gold_bit and not markers[seat] & near
        ):
            waiting |= 1 << seat
    if opts:
        waiting |= 1 << a
    else:  # bust (§3.2 item 5); the others still answer (§9.1)
        markers[a] = 0
        leave(s, a, BUSTED)
    s.options_mask = opts
    s.deciders = waiting
    s.waiting = waiting
    s.last_placed = [NO_CELL] * s.cfg.players
    if waiting:
        s.phase = PLACE
    else:
        resolve_roll(s)


def resolve_roll(s: ButtonsState) -> None:
    """Every answer is in: place all markers together, then pass the turn."""
    pending = s.pending
    markers = s.markers
    for seat, c in enumerate(pending):
        if c >= 0:
            markers[seat] |= 1 << c
    s.last_placed = pending
    s.pending = [NO_CELL] * s.cfg.players
    s.options_mask = 0
    advance(s)


def advance(s: ButtonsState) -> None:
    """Rules §3.2 item 6: next player clockwise still in the round (maybe the same one)."""
    in_round = s.in_round
    if not in_round:
        end_round(s)
        return
    n = s.cfg.players
    a = s.active
    for i in range(1, n + 1):
        nxt = (a + i) % n
        if in_round >> nxt & 1:
            s.active = nxt
            break
    s.phase = TURN


def end_round(s: ButtonsState) -> None:
    """Rules §4: stars earned; players with more markers than stars choose where they go."""
    n = s.cfg.players
    entry = []
    waiting = 0
    for seat in range(n):
        m = s.markers[seat]
        if s.status[seat] == STOPPED:
            colours, bonus, earned = round_stars(m, s.boards[seat], s.cards[seat])
        else:
            colours = bonus = earned = 0
        earned = min(earned, m.bit_count())  # never binds (§4), kept as a guard
        entry.append((s.status[seat], m.bit_count(), colours, bonus, earned))
        s.earned[seat] = earned
        if earned == m.bit_count():
            s.picks[seat] = m
        else:
            s.picks[seat] = 0
            waiting |= 1 << seat
    s.history.append(tuple(entry))
    s.deciders = waiting
    s.waiting = waiting
    if waiting:
        s.phase = STARS_PHASE
    else:
        finish_round(s)


def finish_round(s: ButtonsState) -> None:
    """Stars go down, markers go back; rules §6 end check, else §5 cards pass left."""
    n = s.cfg.players
    for seat in range(n):
        s.stars[seat] |= s.picks[seat]
        s.picks[seat] = 0
        s.markers[seat] = 0
        s.earned[seat] = 0
    s.deciders = 0
    s.waiting = 0
    if any(is_triggered(st) for st in s.stars):
        s.phase = OVER
        s.last_placed = [NO_CELL] * n
        return
    s.cards = [s.cards[(seat - 1) % n] for seat in range(n)]
    s.round += 1
    start_round(s)


def _why_not_place(s: ButtonsState, seat: int, action: Action) -> Reason | None:
    white, gold = s.dice[0], s.dice[1]
    active = seat == s.active
    if isinstance(action, Decline):
        if active:
            return because(
                N_("you rolled, so you must place a marker: white die row, a black die column")
            )
        return None
    if not isinstance(action, Place):
        if active:
            return because(N_("choose where to place your marker"))
        return because(N_("choose where to place your marker or decline"))
    if action.row != white:
        return because(
            N_(
                "the white die shows {white}, so the marker goes in row {white}, not row {row}, "
                "column {col}"
            ),
            white=white,
            row=action.row,
            col=action.col,
        )
    if active:
        if action.col not in s.dice[1:]:
            return because(
                N_("no black die shows {col} (the black dice show {shown})"),
                col=action.col,
                shown=", ".join(str(d) for d in sorted(set(s.dice[1:]))),
            )
    elif action.col != gold:
        return because(
            N_(
                "waiting players may use only the gold black die, which shows {gold}: row "
                "{white}, column {gold} (rule 3.2 item 3)"
            ),
            gold=gold,
            white=white,
        )
    return explain_cell(s, seat, action.cell)


def explain_cell(s: ButtonsState, seat: int, cell: int) -> Reason | None:
    """Why ``cell`` is not legal for ``seat`` (rule 3.2 item 4), or None if it is."""
    r, c = row_col(cell)
    if s.stars[seat] >> cell & 1:
        return because(
            N_("row {row}, column {col} holds one of your stars (rule 3.2 item 4)"), row=r, col=c
        )
    if s.markers[seat] >> cell & 1:
        return because(
            N_("row {row}, column {col} already holds one of your markers (rule 3.2 item 4)"),
            row=r,
            col=c,
        )
    if s.markers[seat] & NEIGH[cell]:
        return because(
            N_("row {row}, column {col} is next to one of your markers (rule 3.2 item 4)"),
            row=r,
            col=c,
        )
    return None


def is_legal_cell(s: ButtonsState, seat: int, row: int, col: int) -> bool:
    return not blocked(s.markers[seat], s.stars[seat]) >> cell_of(row, col) & 1


GAME = Buttons()
