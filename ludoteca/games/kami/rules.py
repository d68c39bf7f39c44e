"""Kami rules (``rules/kami.md`` part A, with the part C rulings); Goita (part B) reuses them.

Flow: setup draws the first player (A2.3, C5) and deals (A3). With 4 Kami players every seat is
then asked, in turn from the first player, whether it reveals 5+ Soldiers (A6, C4): asking
everyone, not only holders, keeps the question itself from leaking who holds them. Play is a loop
of leads, counters and passes (A4) until someone plays the last card of their hand as an attack
(A5); the round is scored under the end mode (A8) and the winner leads the next deal (A7).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ludoteca.engine.errors import OptionError, Reason, because
from ludoteca.engine.events import Event
from ludoteca.engine.game import JSON, Game, GameSpec, Outcome, Seat
from ludoteca.engine.i18n import N_, Voice
from ludoteca.engine.options import Option, OptionValue
from ludoteca.engine.playout import Policy, Until
from ludoteca.engine.rng import Rng
from ludoteca.games.kami import actions as act
from ludoteca.games.kami import events as events_mod
from ludoteca.games.kami import native_playout
from ludoteca.games.kami import view as view_mod
from ludoteca.games.kami.actions import (
    DECLINE,
    MERC,
    NO_DEFENSE,
    PASS,
    PLAY_ON,
    PLAYS,
    REDEAL,
    REVEAL,
    Action,
    Decide,
    Declare,
    Pass,
    Play,
)
from ludoteca.games.kami.bot import playout_choice
from ludoteca.games.kami.components import (
    EMPRESS,
    EMPRESS_BARRED,
    GOITA_NAMES,
    KAMI_THE,
    KAMI_TITLES,
    ONE,
    POINTS,
    SOLDIER,
    SPEAR,
    TITLES,
    TYPES,
    count,
    full_deck,
)
from ludoteca.games.kami.scoring import add_points, final_outcome
from ludoteca.games.kami.state import (
    DECIDE,
    DECLARE,
    END_MODES,
    FACE_DOWN,
    FROM_MERC,
    OVER,
    PLAY,
    Config,
    KamiState,
)

OPTIONS = (
    Option(
        "end_mode", str, "soldier",
        "soldier = first to 15 or more wins; lord = exactly 15, excess taken off; "
        "kami = exactly 15, overshooting resets to 0 (A8)",
        choices=END_MODES,
    ),
    Option("target", int, 15, "points needed to win (A8)", min=10, max=50),
    Option(
        "demoralized", bool, True,
        "4 players: a player with 5+ Soldiers may reveal them and let the partner redeal (A6)",
        players=(4,),
    ),
)

_SEATS = [frozenset({s}) for s in range(4)]
_KEY_LEAD = 1 << 44
"""Legal-action cache key bit for a lead (else the attack type sits at bit 40)."""
_KEY_UNLOCKED = 1 << 45
_SOLDIER_SHIFT = 4 * SOLDIER
_HAS_EMPRESS = ONE[EMPRESS]
"""A packed hand at least this large holds an Empress (the highest type)."""
_NOBODY: frozenset[int] = frozenset()
# Attacks an Empress may counter, as a bit set over the attack type (+1 so -1 maps to bit 0).
_EMPRESS_COUNTERS = sum(1 << t for t in TYPES if t not in EMPRESS_BARRED)


def counters(defense: int, attack: int) -> bool:
    """A4.2/A4.4: an identical card, or an Empress against anything but Soldier or Spear."""
    return defense == attack or (defense == EMPRESS and attack not in EMPRESS_BARRED)


def hand_plays(hand: int, size: int, attack: int, lead: bool, unlocked: bool,
               both_unlock: bool) -> list[Action]:
    """Every action from a hand alone (no mercenaries): pass (unless leading) and each legal
    (defense, attack) pair of types. ``attack`` is ignored on a lead."""
    out: list[Action] = [] if lead else [PASS]
    if size < 2:
        if lead:  # C1: one card, nothing to defend with: attack only
            out.extend(PLAYS[0][t] for t in TYPES if (hand >> (4 * t)) & 15)
        return out
    if both_unlock and (hand >> (4 * EMPRESS)) & 15 == 2:
        unlocked = True  # Goita B3: holding both kings
    last = size == 2
    for d in TYPES:
        if not (hand >> (4 * d)) & 15:
            continue
        if lead:
            may_empress = unlocked or last
        elif d == attack or (d == EMPRESS and (_EMPRESS_COUNTERS >> attack) & 1):
            may_empress = unlocked or last or d == EMPRESS  # C2
        else:
            continue
        rest = hand - ONE[d]
        row = PLAYS[d + 1]
        for a in TYPES:
            if (rest >> (4 * a)) & 15 and (a != EMPRESS or may_empress):
                out.append(row[a])
    return out


class Kami(Game[KamiState, Action]):
    spec = GameSpec(
        name="kami",
        title="Kami",
        min_players=2,
        max_players=4,
        options=OPTIONS,
        num_actions=act.NUM_ACTIONS,
        max_length=200_000,
        hidden_information=True,
        chance=True,
        teams=True,
        rules="kami.md",
    )
    titles = TITLES
    locale = Path(__file__).parent / "locale"

    def __init__(self) -> None:
        self._cache: dict[int, tuple[Action, ...]] = {}
        self._index_cache: dict[int, tuple[int, ...]] = {}
        """``legal_indices``' plays by the same keys as ``_cache``."""
        self._configs: dict[tuple[object, ...], Config] = {}

    # ---- setup (A2.3, A3) ----------------------------------------------------------------
    def _check_options(self, options: dict[str, OptionValue], players: int) -> None:
        if options.get("end_mode", "soldier") != "soldier" and int(options["target"]) < 10:
            raise OptionError(msgid=N_("exact-score end modes need a target of at least 10"))

    def _setup(self, options: dict[str, OptionValue], players: int, rng: Rng) -> KamiState:
        s = KamiState.__new__(KamiState)
        key = (players, *sorted(options.items()))
        cfg = self._configs.get(key)
        if cfg is None:
            cfg = self._configs[key] = Config.from_options(self.spec.name, options, players)
        s.cfg = cfg
        s.rng = rng
        s.ply = 0
        s.round = 1
        s.scores = [0] * s.cfg.sides
        s.history = []
        s.ended = None
        s.winner = -1
        s.draws, s.first = opening_draw(players, rng)
        deal(s)
        return s

    # ---- turn ----------------------------------------------------------------------------
    def to_act(self, state: KamiState) -> frozenset[Seat]:
        phase = state.phase
        if phase == PLAY:
            return _SEATS[state.turn]
        if phase == DECLARE:
            return _SEATS[state.asked]
        if phase == DECIDE:
            return _SEATS[(state.asked + 2) % 4]
        return _NOBODY

    def legal_actions(self, state: KamiState, seat: Seat) -> list[Action]:
        phase = state.phase
        if phase == PLAY:
            if seat != state.turn:
                return []
            merc_up = state.merc_up
            if merc_up and max(merc_up) >= 0:
                return merc_plays(state, seat)
            hand = state.hands[seat]
            lead = seat == state.attacker
            if lead:
                key = hand | (_KEY_LEAD | _KEY_UNLOCKED if state.unlocked else _KEY_LEAD)
            else:
                attack = state.attack
                if not (hand >> 4 * attack) & 15 and (
                        hand < _HAS_EMPRESS or attack in EMPRESS_BARRED):
                    return [PASS]  # nothing identical, and no Empress that may answer (A4.4)
                # key: the packed hand (32 bits), then what it must answer (see _KEY_*)
                key = hand | attack << 40 | (_KEY_UNLOCKED if state.unlocked else 0)
            plays = self._cache.get(key)
            if plays is None:
                plays = tuple(hand_plays(hand, state.sizes[seat], 0 if lead else state.attack,
                                         lead, state.unlocked, state.cfg.goita))
                if len(self._cache) < 500_000:
                    self._cache[key] = plays
            return list(plays)
        if phase == DECLARE:
            if seat != state.asked:
                return []
            return [DECLINE, REVEAL] if (state.hands[seat] >> _SOLDIER_SHIFT) & 15 >= 5 \
                else [DECLINE]
        if state.phase == DECIDE:
            return [PLAY_ON, REDEAL] if seat == (state.asked + 2) % 4 else []
        return []

    def legal_indices(self, state: KamiState, seat: Seat) -> list[int]:
        """``legal_actions``' indices in the same order; a hand's plays are cached as indices
        under ``legal_actions``' own keys."""
        phase = state.phase
        if phase == PLAY:
            if seat != state.turn:
                return []
            merc_up = state.merc_up
            if merc_up and max(merc_up) >= 0:
                return [a.index for a in merc_plays(state, seat)]
            hand = state.hands[seat]
            lead = seat == state.attacker
            if lead:
                key = hand | (_KEY_LEAD | _KEY_UNLOCKED if state.unlocked else _KEY_LEAD)
            else:
                attack = state.attack
                if not (hand >> 4 * attack) & 15 and (
                        hand < _HAS_EMPRESS or attack in EMPRESS_BARRED):
                    return [PASS.index]
                key = hand | attack << 40 | (_KEY_UNLOCKED if state.unlocked else 0)
            indices = self._index_cache.get(key)
            if indices is None:
                plays = self._cache.get(key)
                if plays is None:
                    plays = tuple(hand_plays(hand, state.sizes[seat], 0 if lead else state.attack,
                                             lead, state.unlocked, state.cfg.goita))
                    if len(self._cache) < 500_000:
                        self._cache[key] = plays
                indices = tuple([a.index for a in plays])
                if len(self._index_cache) < 500_000:
                    self._index_cache[key] = indices
            return list(indices)
        if phase == DECLARE:
            if seat != state.asked:
                return []
            return [DECLINE.index, REVEAL.index] \
                if (state.hands[seat] >> _SOLDIER_SHIFT) & 15 >= 5 else [DECLINE.index]
        if state.phase == DECIDE:
            return [PLAY_ON.index, REDEAL.index] if seat == (state.asked + 2) % 4 else []
        return []

    def _why_illegal(self, state: KamiState, seat: Seat, action: Action) -> Reason | None:
        if not isinstance(action, (Pass, Play, Declare, Decide)):
            return because(
                N_("{action} is not a {game} action"), action=repr(action), game=self.spec.title
            )
        if action in self.legal_actions(state, seat):
            return None
        return explain(state, seat, action, self.titles)

    def apply_legal(self, state: KamiState, seat: Seat, action: Action) -> None:
        """The trusted fast path (see Game.apply_legal), with the common pass inlined."""
        if action is PASS:
            state.turn = state.cfg.after[seat]
        elif state.phase == PLAY:
            play(state, seat, action.defense, action.attack)  # type: ignore[union-attr]
        elif action is DECLINE:
            next_asked(state)
        else:
            self._apply(state, seat, action)
        state.ply += 1

    def _apply(self, state: KamiState, seat: Seat, action: Action) -> None:
        if state.phase == PLAY:
            if action is PASS:
                state.turn = state.cfg.after[seat]  # back at the attacker means a lead (A4.3)
            else:
                play(state, seat, action.defense, action.attack)  # type: ignore[union-attr]
            return
        if state.phase == DECLARE:
            if action.reveal:  # type: ignore[union-attr]
                state.revealed[seat] = count(state.hands[seat], SOLDIER)
                state.phase = DECIDE
            else:
                next_asked(state)
            return
        # DECIDE
        holder = state.asked
        if action.redeal:  # type: ignore[union-attr]
            state.history.append((state.round, holder, "redeal", -1, False, 0, 0, 0))
            deal(state)  # A6: same first player
        elif state.cfg.goita:
            state.phase = PLAY
        else:
            next_asked(state)

    # ---- playouts (docs/engine.md, "Playouts"; the search profile: kami/search.py) ----------
    playout_policy = Policy.epsilon_greedy(8)
    """Epsilon-greedy, one move in 8 random."""

    def round_of(self, state: KamiState) -> int:
        return state.round

    def _playout(self, state: KamiState, policy: Policy, rng: Rng, until: Until,
                 trace: list[tuple[Seat, int]] | None) -> None:
        """On the native core, a playout to the end of the match or of the deal with the
        random, greedy or the game's policy runs there (``native_playout``: the same choices,
        draws, history and outcome)."""
        native = native_playout.native_policy(policy, until, trace, state)
        if native is None or not native_playout.playout(state, native, rng, until):
            super()._playout(state, policy, rng, until, trace)

    def _greedy(self, state: KamiState, seat: Seat, actions: list[Action], rng: Rng) -> Action:
        """The greedy evaluator's choice from the (determinized) state (``kami/bot.py``)."""
        return playout_choice(state, seat, actions, rng)  # type: ignore[no-any-return]

    def reveals(self, before: KamiState, seat: Seat, action: Action, after: KamiState) -> bool:
        """Every card played face up, a revealed hand, and a new deal uncover something; a pass
        or a decision to keep quiet does not."""
        return isinstance(action, Play) or action is REVEAL or action is REDEAL

    def chance(self, before: KamiState, seat: Seat, action: Action, after: KamiState) -> bool:
        """A new deal is chance; a card turned face up or a hand shown is not."""
        if action is REDEAL:
            return True
        return after.round != before.round and after.phase != OVER

    # ---- results -------------------------------------------------------------------------
    def outcome(self, state: KamiState) -> Outcome | None:
        return final_outcome(state) if state.phase == OVER else None

    def view(self, state: KamiState, seat: Seat | None) -> JSON:
        return view_mod.view(state, seat, self.to_act(state))

    def determinize(self, view_json: JSON, seat: Seat | None, rng: Rng) -> KamiState:
        return view_mod.determinize(self, view_json, seat, rng)

    def determinizer(self, view_json: JSON, seat: Seat | None) -> Callable[[Rng], KamiState]:
        return view_mod.determinizer(self, view_json, seat)

    # ---- events (events.py) --------------------------------------------------------------
    def narrate(self, before: KamiState, seat: Seat, action: Action,
                after: KamiState) -> list[Event]:
        return events_mod.narrate(before, seat, action, after)

    def public_action(self, before: KamiState, seat: Seat, action: Action) -> JSON:
        """A lead's own defense card goes face down (A4.1): others see only that one was led."""
        data = action.to_json()
        if (
            isinstance(action, Play)
            and seat == before.attacker
            and NO_DEFENSE != action.defense < MERC
        ):
            data["defense"] = "face down"
        return data

    def opening(self, state: KamiState) -> list[Event]:
        return events_mod.opening(state)

    def render_event(self, data: JSON, voice: Voice) -> str:
        return events_mod.render(self.spec.name == "goita", data, voice)

    def action_from_json(self, data: object) -> Action:
        return act.action_from_json(data)

    def action_from_index(self, index: int) -> Action:
        return act.action_from_index(index)

    def describe(self, action: Action) -> str:
        return act.describe(action, self.titles)


# ---- flow helpers -------------------------------------------------------------------------
_DECK = tuple(full_deck())
_DECK_ONES = tuple(ONE[t] for t in _DECK)
"""The deck as packed one-card hands: a shuffled slice of it sums to a packed hand."""
_TYPE_OF_ONE = {ONE[t]: t for t in TYPES}


def shuffled_deck(rng: Rng, cards: tuple[int, ...] = _DECK) -> list[int]:
    """The 32 ``cards`` (card types, or ``_DECK_ONES``) in random order from 192 random bits (3
    draws instead of 31, ``Rng.shuffle_wide``). The bias (32! against 2**192) is below 2**-74.
    The order depends only on ``rng``, not on ``cards``."""
    deck = list(cards)
    rng.shuffle_wide(deck)
    return deck


def opening_draw(players: int, rng: Rng) -> tuple[list[list[tuple[int, int]]], int]:
    """A2.3 / C5: everyone draws a card, highest value leads; tied players draw again."""
    contenders = list(range(players))
    draws: list[list[tuple[int, int]]] = []
    while True:
        deck = shuffled_deck(rng)
        drawn = [(seat, deck[i]) for i, seat in enumerate(contenders)]
        draws.append(drawn)
        best = max(POINTS[t] for _, t in drawn)
        contenders = [seat for seat, t in drawn if POINTS[t] == best]
        if len(contenders) == 1:
            return draws, contenders[0]


def deal(s: KamiState) -> None:
    """A3: shuffle and deal for ``s.first``; then the A6 questions or Goita's B5 checks."""
    cfg = s.cfg
    n = cfg.players
    deck = shuffled_deck(s.rng, _DECK_ONES)  # the same order as shuffled_deck(s.rng)
    per = 10 if n == 3 else 8
    s.hands = [sum(deck[i * per:(i + 1) * per]) for i in range(n)]
    s.sizes = [per] * n
    rest = [_TYPE_OF_ONE[c] for c in deck[n * per:]] if n < 4 else []
    s.unused = rest if n == 3 else []
    s.looked = [-1] * n
    if n == 3:  # the 2nd and 3rd players each look at one unused card
        s.looked[(s.first + cfg.step) % n] = 0
        s.looked[(s.first + 2 * cfg.step) % n] = 1
    s.merc_down = rest[0::2] if n == 2 else []
    s.merc_up = rest[1::2] if n == 2 else []
    s.defense = [[], [], [], []] if n == 4 else [[] for _ in range(n)]
    s.attacks = [[], [], [], []] if n == 4 else [[] for _ in range(n)]
    s.attack = -1
    s.attacker = s.turn = s.first
    s.unlocked = False
    s.revealed = [0] * n
    s.asked = s.first
    s.nasked = 0
    s.phase = PLAY
    if cfg.demoralized:
        s.phase = DECLARE
    elif cfg.goita:
        goita_special_hands(s)


def next_asked(s: KamiState) -> None:
    """C4: ask the next seat clockwise; after all four, play starts."""
    s.nasked += 1
    if s.nasked == s.cfg.players:
        s.phase = PLAY
    else:
        s.asked = s.cfg.after[s.asked]
        s.phase = DECLARE


def goita_special_hands(s: KamiState) -> None:
    """B5: 6/7/8 Shi win the deal at once; 5 Shi are shown and the partner decides."""
    shi = [count(h, SOLDIER) for h in s.hands]
    for seat, k in enumerate(shi):
        if k >= 6:
            others = [t for t in TYPES for _ in range(count(s.hands[seat], t)) if t != SOLDIER]
            values = s.cfg.values
            if k == 8:
                gain, card, kind = 100, SOLDIER, "shi8"
            elif k == 7:
                gain, card, kind = 2 * values[others[0]], others[0], "shi7"
            else:
                card = max(others, key=lambda t: values[t])
                gain = values[card] * (2 if others[0] == others[1] else 1)
                kind = "shi6"
            award(s, seat, card, gain, False, kind)
            return
    holders = [seat for seat, k in enumerate(shi) if k == 5]
    if len(holders) == 2:
        a, b = holders
        if (a - b) % 2 == 0:  # partners: the team wins outright
            side = s.cfg.side_of[a]
            before = s.scores[side]
            s.scores[side] = max(before, s.cfg.target)
            s.history.append((s.round, a, "shi5x2", SOLDIER, False, s.scores[side] - before,
                              before, s.scores[side]))
            s.winner = side
            s.phase = OVER
        else:  # one on each team: redeal, same dealer
            s.history.append((s.round, a, "redeal", -1, False, 0, 0, 0))
            deal(s)
        return
    if holders:
        s.asked = holders[0]
        s.revealed[holders[0]] = 5
        s.phase = DECIDE


def take_merc(s: KamiState, stack: int) -> int:
    """A5.4: play the face-up top card of a stack; the card beneath turns face up."""
    card = s.merc_up[stack]
    s.merc_up[stack] = s.merc_down[stack]
    s.merc_down[stack] = -1
    return card


def play(s: KamiState, seat: int, d: int, a: int) -> None:
    """A lead or counter: defense then attack; going out ends and scores the round (A5)."""
    lead = seat == s.attacker
    sizes = s.sizes
    if 0 <= d < MERC and a < MERC:  # the usual play: both cards from the hand
        s.hands[seat] -= ONE[d] + ONE[a]
        size = sizes[seat] = sizes[seat] - 2
        if lead:
            s.defense[seat].append(d | FACE_DOWN)
        else:
            if d == EMPRESS:
                s.unlocked = True  # C2: at once, for this turn's attack too
            s.defense[seat].append(d)
        s.attacks[seat].append(a)
        dt, at = d, a
    else:
        if d >= 0:
            if d < MERC:
                s.hands[seat] -= ONE[d]
                sizes[seat] -= 1
                dt = d
                entry = d
            else:
                dt = take_merc(s, d - MERC)
                entry = dt | FROM_MERC
            if lead:
                entry |= FACE_DOWN
            elif dt == EMPRESS:
                s.unlocked = True  # C2: at once, for this turn's attack too
            s.defense[seat].append(entry)
        else:
            dt = -1
        if a < MERC:
            s.hands[seat] -= ONE[a]
            sizes[seat] -= 1
            at = a
            s.attacks[seat].append(a)
        else:
            at = take_merc(s, a - MERC)
            s.attacks[seat].append(at | FROM_MERC)
        size = sizes[seat]
    cfg = s.cfg
    if at == EMPRESS and cfg.goita:
        s.unlocked = True  # B3: a king shown face up as an attack counts too
    if size == 0:
        master = lead and dt == at  # A5.3 / B4: hidden defense identical to the final attack
        gain = cfg.values[at] * (2 if master else 1)
        award(s, seat, at, gain, master, "out")
        return
    s.attacker = seat
    s.attack = at
    s.turn = cfg.after[seat]


def award(s: KamiState, seat: int, card: int, gain: int, master: bool, kind: str) -> None:
    """Score a deal for ``seat``'s side (A5.2, A8); the game ends or the winner deals (A7)."""
    cfg = s.cfg
    side = cfg.side_of[seat]
    before = s.scores[side]
    after, won = add_points(cfg.end_mode, cfg.target, before, gain)
    s.scores[side] = after
    s.history.append((s.round, seat, kind, card, master, gain, before, after))
    if kind == "out":  # the played deal's table as it ends, for the recap (view.last_round),
        # kept when a B5 hand ends the next deal at once; deal() makes new lists
        s.ended = (s.round, s.defense, s.attacks, s.sizes[:])
    if won:
        s.winner = side
        s.phase = OVER
        return
    s.round += 1
    s.first = seat
    deal(s)


def merc_plays(s: KamiState, seat: int) -> list[Action]:
    """Every action for 2 players while mercenaries remain (A5.4, C3): each slot may come from
    the hand or a stack's top card; the hand may never be emptied by a defense card (A4.6)."""
    lead = seat == s.attacker
    attack = s.attack
    hand = s.hands[seat]
    size = s.sizes[seat]
    tops = s.merc_up
    out: list[Action] = [] if lead else [PASS]
    dsources = [(t, t) for t in TYPES if count(hand, t)]
    dsources += [(MERC + k, top) for k, top in enumerate(tops) if top >= 0]
    for d, dt in dsources:
        if not lead and not counters(dt, attack):
            continue
        from_hand = d < MERC
        rest = hand - ONE[d] if from_hand else hand
        left = size - from_hand
        may_empress = s.unlocked or (not lead and dt == EMPRESS)
        row = PLAYS[d + 1]
        if left:
            for a in TYPES:
                if count(rest, a) and (a != EMPRESS or may_empress or left == 1):
                    out.append(row[a])
            for k, top in enumerate(tops):
                if top >= 0 and MERC + k != d and (top != EMPRESS or may_empress):
                    out.append(row[MERC + k])
    return out


# Card words inside the reasons below, each said in the listener's language (Goita's pieces
# keep their names). The bare names and "the ..." forms are the events' own (events.py).
_A_CARD = (
    N_("a Soldier"), N_("a Spear"), N_("a Horseman"), N_("a Silver Dragon"),
    N_("a Gold Dragon"), N_("a Tower"), N_("a Fool"), N_("an Empress"),
)


def _title(t: int, goita: bool) -> Reason:
    """A card's bare name ("Soldier", "Shi")."""
    return because(GOITA_NAMES[t] if goita else KAMI_TITLES[t])


def _the(t: int, goita: bool) -> Reason:
    """A card inside a sentence ("the Soldier", "Shi")."""
    return because(GOITA_NAMES[t] if goita else KAMI_THE[t])


def _source(src: int, goita: bool) -> Reason:
    """A card played from the hand, or a mercenary stack."""
    if src < MERC:
        return _title(src, goita)
    return because(N_("mercenary stack M{stack}"), stack=src - MERC + 1)


def said_action(action: Action, goita: bool) -> Reason:
    """``actions.describe`` as a sentence that can be said in every language."""
    if isinstance(action, Pass):
        return because(N_("pass"))
    if isinstance(action, Play):
        attack = _source(action.attack, goita)
        if action.defense < 0:
            return because(N_("attack with {attack} (no defense card)"), attack=attack)
        return because(
            N_("defend with {defense}, attack with {attack}"),
            defense=_source(action.defense, goita),
            attack=attack,
        )
    if isinstance(action, Declare):
        if action.reveal:
            return because(N_("reveal the Soldiers and ask the partner"))
        return because(N_("keep quiet"))
    if action.redeal:
        return because(N_("cancel the round and redeal"))
    return because(N_("play the round on"))


def explain(s: KamiState, seat: int, action: Action, titles: tuple[str, ...]) -> Reason:
    """A person-readable reason why ``action`` is not legal now, in the game's own words:
    Goita's pieces and rules (part B) when the game is Goita."""
    goita = s.cfg.goita
    king, pawn = titles[EMPRESS], titles[SOLDIER]
    if s.phase == DECLARE:
        if isinstance(action, Declare):
            return because(N_("you may reveal only with 5 or more Soldiers in hand (A6)"))
        return because(N_("first say whether you reveal 5 or more Soldiers (A6)"))
    if s.phase == DECIDE:
        if goita:
            return because(
                N_("your partner showed five {pawn}: decide to redeal or play the hand (B5)"),
                pawn=pawn,
            )
        return because(N_("your partner is demoralized: decide to redeal or play on (A6)"))
    if isinstance(action, Declare) and goita:
        return because(
            N_("Goita has no such question: five {pawn} are shown at once (B5)"), pawn=pawn
        )
    if isinstance(action, (Declare, Decide)):
        return because(
            N_("{action} is only possible right after the deal"),
            action=said_action(action, goita),
        )
    lead = seat == s.attacker
    if isinstance(action, Pass):
        return because(
            N_("you must lead: the attacker may never pass ({rule})"),
            rule="B2" if goita else "A4.3",
        )
    assert isinstance(action, Play)
    hand = s.hands[seat]
    for src in (action.defense, action.attack):
        if 0 <= src < MERC and count(hand, src) < 1 + (action.defense == action.attack):
            two = action.defense == src == action.attack
            if goita:
                title = titles[src]
                if two:
                    return because(N_("you do not hold two {piece}"), piece=title)
                if title[0] in "AEIOU":
                    return because(N_("you do not hold an {piece}"), piece=title)
                return because(N_("you do not hold a {piece}"), piece=title)
            if two:
                return because(N_("you do not hold two {card} cards"), card=_title(src, goita))
            return because(N_("you do not hold {card}"), card=because(_A_CARD[src]))
        if src >= MERC and (not s.merc_up or s.merc_up[src - MERC] < 0):
            return because(N_("mercenary stack M{stack} is empty"), stack=src - MERC + 1)
    if action.defense == action.attack >= MERC:
        return because(N_("one mercenary stack cannot give both cards in one turn (C3)"))
    def_type = -1
    if action.defense >= 0:
        def_type = action.defense if action.defense < MERC else s.merc_up[action.defense - MERC]
    att_type = action.attack if action.attack < MERC else s.merc_up[action.attack - MERC]
    size = s.sizes[seat]
    left = size - (0 <= action.defense < MERC) - (action.attack < MERC)
    if action.defense == NO_DEFENSE:
        if goita:
            return because(N_("a play needs a defense piece before the attack (B2)"))
        return because(
            N_("a play needs a defense card, except a lone last card with no mercenary left (C1)")
        )
    if not lead and not counters(def_type, s.attack):
        if def_type == EMPRESS:
            if goita:
                return because(
                    N_("{king} cannot counter {piece} (B3)"), king=king, piece=titles[s.attack]
                )
            return because(
                N_("the Empress cannot counter {card} (A4.4)"), card=because(_A_CARD[s.attack])
            )
        return because(
            N_("{defense} does not counter the {attack} attack ({rule})"),
            defense=_the(def_type, goita),
            attack=_title(s.attack, goita),
            rule="B2" if goita else "A4.2",
        )
    if (left == 0 and action.attack >= MERC) or size - (0 <= action.defense < MERC) == 0:
        return because(N_("the round must end on an attack card from your hand (A4.6, A5.4)"))
    if att_type == EMPRESS:
        if goita:
            return because(
                N_(
                    "{king} may attack only when you hold both, once an {king} has been shown "
                    "face up, or with your last two pieces (B3)"
                ),
                king=king,
            )
        return because(
            N_(
                "the Empress may attack only once the other Empress is face up on a defense "
                "line, or as your last card (A4.5)"
            )
        )
    if not lead and size < 2:
        if goita:
            return because(
                N_("with one piece you cannot counter: a counter needs two pieces (B2)")
            )
        return because(N_("with one card you cannot counter: a counter needs two cards (A4.6)"))
    return because(N_("{action} is not legal now"), action=said_action(action, goita))


GAME = Kami()

__all__ = ["GAME", "SPEAR", "Kami", "counters", "hand_plays"]
