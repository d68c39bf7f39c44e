"""Kingdomino rules (``rules/kingdomino.md``): setup, the draft, placement, rounds, Dynasty."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ludoteca.engine.errors import OptionError, Reason, because
from ludoteca.engine.events import Event
from ludoteca.engine.game import JSON, Game, GameSpec, Outcome, Seat
from ludoteca.engine.i18n import N_, Voice
from ludoteca.engine.options import Option, OptionValue
from ludoteca.engine.playout import Kind, Policy, Until
from ludoteca.engine.rng import Rng
from ludoteca.games.kingdomino import actions as act
from ludoteca.games.kingdomino import events, native_playout, playout, scoring, view
from ludoteca.games.kingdomino.actions import (
    CLAIMS,
    DISCARD,
    PLACES,
    Action,
    Claim,
    Discard,
    Place,
)
from ludoteca.games.kingdomino.components import DOMINOES, TERRAINS
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
    DELTA,
    MAXC,
    MAXR,
    MINC,
    MINR,
    OCC,
    SIZE,
    STRIDE,
    frame_mask,
    new_kingdom,
    placement_masks,
)
from ludoteca.games.kingdomino.grid import place as grid_place
from ludoteca.games.kingdomino.state import (
    CLAIM_STEP,
    DRAFT,
    OVER,
    PLACE_STEP,
    PLAY,
    Config,
    KingdominoState,
)

OPTIONS = (
    Option(
        "mighty_duel",
        bool,
        False,
        "Mighty Duel: 2 players, all 48 dominoes, 7×7 kingdoms, 12 rounds (rules §7)",
        players=(2,),
    ),
    Option("harmony", bool, False, "Harmony: +5 for a complete kingdom with no empty square"),
    Option("middle_kingdom", bool, False, "Middle Kingdom: +10 when the castle is at the centre"),
    Option("dynasty", bool, False, "Dynasty: a match of 3 games; the highest total wins"),
    Option(
        "three_player_draft",
        str,
        "printed",
        "3 players: 'printed' = 36 dominoes in lines of 3; 'bga' = all 48 in lines of 4, "
        "the unclaimed domino discarded (rules §9.1)",
        choices=("printed", "bga"),
        players=(3,),
    ),
    Option(
        "tiebreak",
        str,
        "rulebook",
        "'rulebook' = largest territory, then most crowns; 'bga' = largest territory only (§9.2)",
        choices=("rulebook", "bga"),
    ),
    Option(
        "first_draft",
        str,
        "random",
        "2 players: first-draft order of the four kings, 'random' or 'abba' (BGA) (§9.3)",
        choices=("random", "abba"),
        players=(2,),
    ),
)

_SEATS = [frozenset({s}) for s in range(8)]
_NOBODY: frozenset[int] = frozenset()

# Per domino number: first/second half terrain and crowns, looked up in the hot path.
_T1 = [0] * 49
_T2 = [0] * 49
_C1 = [0] * 49
_C2 = [0] * 49
for _n, _dom in DOMINOES.items():
    _T1[_n], _T2[_n] = _dom.terrains
    _C1[_n], _C2[_n] = _dom.crowns


class Kingdomino(Game[KingdominoState, Action]):
    spec = GameSpec(
        name="kingdomino",
        title="Kingdomino",
        min_players=2,
        max_players=4,
        options=OPTIONS,
        num_actions=act.NUM_ACTIONS,
        max_length=3 * 2 * 48 + 8,
        hidden_information=True,
        chance=True,
        rules="kingdomino.md",
    )
    locale = Path(__file__).parent / "locale"

    # ---- setup (rules §2) ----------------------------------------------------------------
    def _check_options(self, options: dict[str, OptionValue], players: int) -> None:
        if options["mighty_duel"] and players != 2:
            raise OptionError(msgid=N_("Mighty Duel is a 2-player variant"))

    def _setup(self, options: dict[str, OptionValue], players: int, rng: Rng) -> KingdominoState:
        s = KingdominoState.__new__(KingdominoState)
        s.cfg = Config.from_options(options, players)
        s.rng = rng
        s.ply = 0
        s.game_no = 0
        s.past = []
        start_game(s)
        return s

    # ---- turn ----------------------------------------------------------------------------
    def to_act(self, state: KingdominoState) -> frozenset[Seat]:
        if state.phase == PLAY:
            return _SEATS[state.cur_owner[state.acting]]
        if state.phase == DRAFT:
            return _SEATS[state.draft_order[state.draft_pos]]
        return _NOBODY

    def legal_actions(self, state: KingdominoState, seat: Seat) -> list[Action]:
        phase = state.phase
        if phase == OVER:
            return []
        if phase == DRAFT:
            if state.draft_order[state.draft_pos] != seat:
                return []
        elif state.cur_owner[state.acting] != seat:
            return []
        if phase == DRAFT or state.step == CLAIM_STEP:
            return free_claims(state, CLAIMS)
        n = state.cur[state.acting]
        masks = placement_masks(state.kingdoms[seat], _T1[n], _T2[n], state.cfg.frame)
        out: list[Action] = []
        for d in range(4):
            m = masks[d]
            while m:
                low = m & -m
                out.append(PLACES[((low.bit_length() - 1) << 2) | d])  # type: ignore[arg-type]
                m ^= low
        return out or [DISCARD]

    def legal_indices(self, state: KingdominoState, seat: Seat) -> list[int]:
        """``legal_actions``' indices, read off the same masks without the actions."""
        phase = state.phase
        if phase == OVER:
            return []
        if phase == DRAFT:
            if state.draft_order[state.draft_pos] != seat:
                return []
        elif state.cur_owner[state.acting] != seat:
            return []
        if phase == DRAFT or state.step == CLAIM_STEP:
            owners = state.nxt_owner
            return [act.CLAIM_BASE + n - 1 for i, n in enumerate(state.nxt) if owners[i] < 0]
        n = state.cur[state.acting]
        masks = placement_masks(state.kingdoms[seat], _T1[n], _T2[n], state.cfg.frame)
        out: list[int] = []
        for d in range(4):
            m = masks[d]
            while m:
                low = m & -m
                out.append(((low.bit_length() - 1) << 2) | d)  # Place.index: cell * 4 + d
                m ^= low
        return out or [act.DISCARD_INDEX]

    def _why_illegal(self, state: KingdominoState, seat: Seat, action: Action) -> Reason | None:
        if not isinstance(action, (Place, Discard, Claim)):
            return because(N_("{action} is not a Kingdomino action"), action=repr(action))
        if state.phase == DRAFT or state.step == CLAIM_STEP:
            if not isinstance(action, Claim):
                return because(N_("you must claim a domino of the next line now"))
            return why_not_claim(state, action.domino)
        n = state.cur[state.acting]
        k = state.kingdoms[seat]
        masks = placement_masks(k, _T1[n], _T2[n], state.cfg.frame)
        if isinstance(action, Claim):
            return because(
                N_("place domino {domino} first (or discard it if it cannot be placed)"), domino=n
            )
        if isinstance(action, Discard):
            if masks[0] | masks[1] | masks[2] | masks[3]:
                return because(
                    N_("domino {domino} can be placed, so it may not be discarded (rule 4.3)"),
                    domino=n,
                )
            return None
        if masks[action.d] >> action.cell & 1:
            return None
        return explain_placement(k, state.cfg.frame, n, action)

    def _apply(self, state: KingdominoState, seat: Seat, action: Action) -> None:
        if state.phase == DRAFT:
            if claim_first(state, seat, action.domino):  # type: ignore[union-attr]
                next_round(state)
            return
        if state.step == CLAIM_STEP:
            claim(state, seat, action.domino)  # type: ignore[union-attr]
            state.step = PLACE_STEP
            if not next_king(state):
                next_round(state)
            return
        n = state.cur[state.acting]
        if action is DISCARD or isinstance(action, Discard):
            state.discarded.append(n)
        else:
            cell, d = action.cell, action.d  # type: ignore[union-attr]
            grid_place(state.kingdoms[seat], cell, d, _T1[n], _C1[n], _T2[n], _C2[n])
            state.placed[seat].append((n, cell, d))
        if state.nxt:
            state.step = CLAIM_STEP
        else:
            advance(state)

    # ---- playouts (ludoteca/games/kingdomino/playout.py) ------------------------------------
    playout_policy = Policy.epsilon_greedy(playout.EPSILON)

    def _playout(self, state: KingdominoState, policy: Policy, rng: Rng, until: Until,
                 trace: list[tuple[Seat, int]] | None) -> None:
        """Greedy policies run Kingdomino's own loop, which keeps each claim's planned
        placement for the move that places it (same choices as ``_greedy``, same draws).
        On the native core, a playout to the end with the random or the game's policy runs
        there (``native_playout``: the same choices, draws and outcome)."""
        native = native_playout.native_policy(policy, until, trace, state)
        if native is not None and native_playout.playout(state, native, rng):
            return
        if policy.kind in (Kind.GREEDY, Kind.EPSILON_GREEDY):
            playout.greedy_playout(self, state, rng, policy.epsilon, trace)
        else:
            super()._playout(state, policy, rng, until, trace)

    def _greedy(self, state: KingdominoState, seat: Seat, actions: list[Action],
                rng: Rng) -> Action:
        return playout.greedy_action(state, seat, actions)

    def reveals(self, before: KingdominoState, seat: Seat, action: Action,
                after: KingdominoState) -> bool:
        """True when the action closed a draft or round and so turned up a new line."""
        return after.deck_pos != before.deck_pos or after.game_no != before.game_no

    # ---- events (ludoteca/games/kingdomino/events.py) --------------------------------------
    def narrate(
        self, before: KingdominoState, seat: Seat, action: Action, after: KingdominoState
    ) -> list[Event]:
        return events.narrate(before, seat, action, after, final_outcome)

    def opening(self, state: KingdominoState) -> list[Event]:
        return events.opening(state)

    def render_event(self, data: JSON, voice: Voice) -> str:
        return events.render(data, voice)

    # ---- results -------------------------------------------------------------------------
    def outcome(self, state: KingdominoState) -> Outcome | None:
        if state.phase != OVER:
            return None
        return final_outcome(state)

    def view(self, state: KingdominoState, seat: Seat | None) -> JSON:
        return view.view(state, seat, self.to_act(state))

    def determinize(self, view_json: JSON, seat: Seat | None, rng: Rng) -> KingdominoState:
        return view.determinize(self, view_json, rng)

    def determinizer(self, view_json: JSON, seat: Seat | None) -> Callable[[Rng], KingdominoState]:
        return view.determinizer(self, view_json)

    def action_from_json(self, data: object) -> Action:
        return act.action_from_json(data)

    def action_from_index(self, index: int) -> Action:
        return act.action_from_index(index)

    def describe(self, action: Action) -> str:
        return act.describe(action)


# ---- flow helpers (module level so Queendomino and tests can reuse them) ------------------
def start_game(s: KingdominoState) -> None:
    """Deal one game: remove unseen dominoes, shuffle, reveal the first line, order the kings."""
    cfg = s.cfg
    rng = s.rng
    pool = list(range(1, len(DOMINOES) + 1))
    rng.shuffle(pool)
    s.deck = pool[: cfg.deck_size]
    order = first_draft_order(rng, cfg.players, cfg.kings_per_player, cfg.abba_first_draft)
    open_draft(s, order, cfg.line_size)
    s.kingdoms = [new_kingdom(len(TERRAINS)) for _ in range(cfg.players)]
    s.placed = [[] for _ in range(cfg.players)]
    s.step = CLAIM_STEP


def advance(s: KingdominoState) -> None:
    """Hand the turn to the next king on the current line, or close the round."""
    if not next_king(s):
        next_round(s)


def next_round(s: KingdominoState) -> None:
    """Rules §3.1: the claimed line becomes current and a new line is drawn (the domino nobody
    claimed, 3 players with the BGA draft, is discarded: §3.3), or the game ends."""
    if not s.nxt:
        end_game(s)
        return
    turn_line(s, s.cfg.line_size)
    s.step = PLACE_STEP


def end_game(s: KingdominoState) -> None:
    if s.game_no + 1 < s.cfg.games:
        s.past.append((s.kingdoms, s.placed))
        s.game_no += 1
        start_game(s)
    else:
        s.phase = OVER


def game_results(cfg: Config, kingdoms: list[list[int]]) -> list[dict[str, Any]]:
    return [
        scoring.breakdown(k, cfg.frame, cfg.harmony, cfg.middle_kingdom, TERRAINS) for k in kingdoms
    ]


def final_outcome(s: KingdominoState) -> Outcome:
    """Rules §6 (and §7 Dynasty): scores, tie-break keys, ranks, parts and a full breakdown."""
    cfg = s.cfg
    games = [kingdoms for kingdoms, _ in s.past] + [s.kingdoms]
    per_game = [game_results(cfg, kingdoms) for kingdoms in games]
    scores, keys, breakdowns, parts, reasons = [], [], [], [], []
    for seat in range(cfg.players):
        results = [g[seat] for g in per_game]
        total = sum(r["total"] for r in results)
        largest = sum(r["largest_territory"] for r in results)
        crowns = sum(r["crowns"] for r in results)
        tiebreak = (largest, crowns) if cfg.crowns_tiebreak else (largest,)
        scores.append(total)
        keys.append((total, *tiebreak))
        reasons.append(scoring.tiebreak(largest, crowns, cfg.crowns_tiebreak))
        if cfg.games == 1:
            breakdowns.append(results[0])
            parts.append(tuple(scoring.parts(results[0])))
        else:
            breakdowns.append(
                {"games": results, "total": total, "largest_territory": largest, "crowns": crowns}
            )
            parts.append(tuple(
                scoring.in_game(n, part)
                for n, r in enumerate(results, 1) for part in scoring.parts(r)
            ))
    ranks = tuple(1 + sum(1 for other in keys if other > k) for k in keys)
    return Outcome(
        scores=tuple(scores),
        ranks=ranks,
        breakdown=tuple(breakdowns),
        tiebreaks=tuple(k[1:] for k in keys),
        parts=tuple(parts),
        tiebreak=tuple(reasons),
    )


def explain_placement(k: list[int], frame: int, n: int, p: Place) -> Reason:
    """A person-readable reason why this placement of domino ``n`` breaks rule 4."""
    a = p.cell
    b = a + DELTA[p.d]
    bx, by = b % STRIDE, b // STRIDE
    where = {"domino": n, "x": p.x, "y": p.y, "dir": p.dir}
    if not (0 <= bx < SIZE and 0 <= by < SIZE) or (abs(DELTA[p.d]) == 1 and by != a // STRIDE):
        return because(N_("domino {domino} at ({x}, {y}) facing {dir} leaves the board"), **where)
    occ = k[OCC]
    if occ >> a & 1 or occ >> b & 1:
        return because(
            N_("domino {domino} at ({x}, {y}) facing {dir} covers a square that is not empty"),
            **where,
        )
    allowed = frame_mask(k, frame)
    if not (allowed >> a & 1 and allowed >> b & 1):
        w = max(k[MAXC], a % STRIDE, bx) - min(k[MINC], a % STRIDE, bx) + 1
        h = max(k[MAXR], a // STRIDE, by) - min(k[MINR], a // STRIDE, by) + 1
        return because(
            N_(
                "domino {domino} at ({x}, {y}) facing {dir} would make the kingdom "
                "{width}×{height}, larger than {frame}×{frame} (rule 4.2)"
            ),
            **where,
            width=w,
            height=h,
            frame=frame,
        )
    return because(
        N_(
            "domino {domino} at ({x}, {y}) facing {dir} touches neither the castle nor a square "
            "of the same terrain (rule 4.1)"
        ),
        **where,
    )


GAME = Kingdomino()
