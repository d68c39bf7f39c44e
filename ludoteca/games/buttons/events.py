"""Buttons events: what an applied action did, told to each viewer as far as they may know it.

Everything on the boards is public (rules §1), so most events are the same for everybody. The
exceptions are the answers of a simultaneous step (rules §3.2 item 3 and §4): a seat's placement
or decline after a roll, and each marker it picks to become a star, are told only to that seat
(``only``) until the last answer arrives; then every placement (or the stars) is told to all at
once. A seat's view does not say who has answered already, so the others hear nothing meanwhile.

``narrate`` reads everything off the states before and after the action, so the engine's hot
path builds nothing: the dice of a roll are drawn again from the generator kept in ``before``.
docs/buttons.md ("Events") lists every type with its fields.
"""

from __future__ import annotations

from collections.abc import Callable

from ludoteca.engine.events import Event, event, only
from ludoteca.engine.game import JSON, Seat
from ludoteca.engine.i18n import N_, Voice
from ludoteca.games.buttons.actions import PLACE_BASE, ROLL_INDEX, STAR_BASE, Action
from ludoteca.games.buttons.grid import COLOURS, cells, row_col
from ludoteca.games.buttons.scoring import colour_names, final_outcome
from ludoteca.games.buttons.state import (
    BUSTED,
    NO_CELL,
    OVER,
    PLACE,
    STARS,
    STATUS_NAMES,
    TURN,
    ButtonsState,
)

COLOUR_WORDS = (N_("red"), N_("yellow"), N_("green"), N_("blue"))
"""The colour names as message ids, so they get Spanish entries (``voice.t(colour)``)."""


# ---- narration -----------------------------------------------------------------------------
def narrate(before: ButtonsState, seat: Seat, action: Action, after: ButtonsState) -> list[Event]:
    """The events of ``action`` by ``seat``, which took ``before`` to ``after``."""
    out: list[Event] = []
    phase = before.phase
    if phase == TURN:
        if action.index == ROLL_INDEX:
            _roll(before, after, out)
        else:
            out.append(event("stop", seat=seat, aside=before.cfg.aside))
    elif phase == PLACE:
        if before.waiting == 1 << seat:  # the last answer: every placement shows at once
            _placements(before, seat, action, out)
        else:
            row, col = _answer(action)
            out.append(only("answer", [seat], seat=seat, row=row, col=col))
    elif phase == STARS and after.phase == STARS and after.round == before.round:
        row, col = row_col(action.index - STAR_BASE)
        out.append(only("pick", [seat], seat=seat, row=row, col=col))
    _round_end(before, after, out)
    return out


def _answer(action: Action) -> tuple[int | None, int | None]:
    index = action.index
    if index >= PLACE_BASE:
        return row_col(index - PLACE_BASE)
    return None, None


def _roll(before: ButtonsState, after: ButtonsState, out: list[Event]) -> None:
    """Rules §3.2: the dice, a bust (markers removed, dice set aside), who else may place."""
    a = before.active
    dice = after.dice  # the roll stays on the table until the next one
    out.append(event("roll", seat=a, white=dice[0], gold=dice[1], black=list(dice[2:])))
    ended = len(after.history) > len(before.history)
    status = after.history[len(before.history)][a][0] if ended else after.status[a]
    if status == BUSTED:
        removed = [list(row_col(c)) for c in cells(before.markers[a])]
        out.append(event("bust", seat=a, removed=removed, aside=before.cfg.aside))
    if after.phase == PLACE and after.round == before.round:
        others = [s for s in range(after.cfg.players) if s != a and after.deciders >> s & 1]
        if others:
            out.append(event("offer", seats=others, row=dice[0], col=dice[1]))


def _placements(before: ButtonsState, seat: Seat, action: Action, out: list[Event]) -> None:
    """Every answer of the roll, revealed together: the active player first, then clockwise."""
    n = before.cfg.players
    a = before.active
    last = action.index - PLACE_BASE if action.index >= PLACE_BASE else NO_CELL
    for i in range(n):
        s = (a + i) % n
        if not before.deciders >> s & 1:
            continue
        cell = last if s == seat else before.pending[s]
        if cell == NO_CELL:
            out.append(event("decline", seat=s))
            continue
        row, col = row_col(cell)
        colour = next(COLOURS[k] for k in range(4) if before.boards[s][k] >> cell & 1)
        out.append(event("place", seat=s, row=row, col=col, colour=colour, gold=s != a))


def _round_end(before: ButtonsState, after: ButtonsState, out: list[Event]) -> None:
    """Rules §4-6, whatever of it this action set off: stars won, who chooses where they go,
    the stars placed, then the game's end or the next round."""
    n = after.cfg.players
    done = len(before.history)
    if len(after.history) > done:
        for s, (status, markers, colours, bonus, stars) in enumerate(after.history[done]):
            out.append(
                event(
                    "score", seat=s, result=STATUS_NAMES[status], markers=markers,
                    colours=colour_names(colours), bonus=colour_names(bonus), stars=stars,
                )
            )
        if after.phase == STARS and after.round == before.round:
            out.append(event("choose", seats=[s for s in range(n) if after.deciders >> s & 1]))
    if not (after.round > before.round or (after.phase == OVER and before.phase != OVER)):
        return
    for s in range(n):
        new = after.stars[s] & ~before.stars[s]
        if new:
            placed = [list(row_col(c)) for c in cells(new)]
            out.append(event("stars", seat=s, cells=placed, total=after.stars[s].bit_count()))
    if after.phase == OVER:
        result = final_outcome(after)
        for s, b in enumerate(result.breakdown):
            if b["triggered"]:
                out.append(event("trigger", seat=s, line=b["five_line"], stars=b["stars"]))
        out.append(
            event(
                "end", rule="bga" if after.cfg.bga_winner else "stars",
                scores=list(result.scores), ranks=list(result.ranks),
                winners=list(result.winners),
            )
        )
    else:
        cards = [colour_names(c) for c in after.cards]
        out.append(event("round", round=after.round, seat=after.active, cards=cards))


# ---- sentences -----------------------------------------------------------------------------
def render(data: JSON, voice: Voice) -> str:
    """One event as one sentence in ``voice``'s language."""
    kind = data.get("type")
    write = _WRITERS.get(str(kind))
    if write is None:
        raise ValueError(f"not a Buttons event: {kind!r}")
    return write(data, voice)


def _who(data: JSON, voice: Voice) -> str:
    return voice.name(int(data["seat"]))


def _colours(names: list[str], voice: Voice) -> str:
    return voice.join([voice.t(c) for c in names])


def _seats(seats: list[int], voice: Voice) -> str:
    return voice.join([voice.name(s) for s in seats])


def _dice(n: int, voice: Voice) -> str:
    return voice.nt("{n} black die", "{n} black dice", n)


def _roll_text(d: JSON, v: Voice) -> str:
    black = ", ".join(str(x) for x in d["black"])
    return v.nt(
        "{player} rolled: white {white}, gold {gold}, black die {black}.",
        "{player} rolled: white {white}, gold {gold}, black dice {black}.",
        len(d["black"]), player=_who(d, v), white=d["white"], gold=d["gold"], black=black,
    )


def _bust_text(d: JSON, v: Voice) -> str:
    lost = len(d["removed"])
    dice = _dice(int(d["aside"]), v)
    if not lost:
        return v.t("{player} cannot place and busts, setting aside {dice}.",
                   player=_who(d, v), dice=dice)
    return v.nt(
        "{player} cannot place and busts, losing {n} marker and setting aside {dice}.",
        "{player} cannot place and busts, losing {n} markers and setting aside {dice}.",
        lost, player=_who(d, v), dice=dice,
    )


def _offer_text(d: JSON, v: Voice) -> str:
    return v.nt(
        "{players} may also place on row {row}, column {col} (the white and gold dice).",
        "{players} may also place on row {row}, column {col} (the white and gold dice).",
        len(d["seats"]), players=_seats(d["seats"], v), row=d["row"], col=d["col"],
    )


def _answer_text(d: JSON, v: Voice) -> str:
    if d["row"] is None:
        return v.t("{player} chose not to place (revealed when everyone has answered).",
                   player=_who(d, v))
    return v.t(
        "{player} chose row {row}, column {col} (revealed when everyone has answered).",
        player=_who(d, v), row=d["row"], col=d["col"],
    )


def _place_text(d: JSON, v: Voice) -> str:
    colour = str(d["colour"])
    fields = {"player": _who(d, v), "row": d["row"], "col": d["col"], "colour": v.t(colour)}
    if d["gold"]:
        return v.t("{player} also placed with the gold die: row {row}, column {col} ({colour}).",
                   **fields)
    return v.t("{player} placed a marker on row {row}, column {col} ({colour}).", **fields)


def _decline_text(d: JSON, v: Voice) -> str:
    return v.t("{player} did not use the gold die.", player=_who(d, v))


def _stop_text(d: JSON, v: Voice) -> str:
    return v.nt(
        "{player} opts out of the round and sets aside {n} black die.",
        "{player} opts out of the round and sets aside {n} black dice.",
        int(d["aside"]), player=_who(d, v),
    )


def _score_text(d: JSON, v: Voice) -> str:
    if d["result"] == BUSTED_NAME:
        return v.t("{player} busted this round and earns no star.", player=_who(d, v))
    reasons = [v.t("1 for opting out")]
    if d["colours"]:
        reasons.append(v.nt(
            "1 for a colour with 3 markers or more ({colours})",
            "{n} for colours with 3 markers or more ({colours})",
            len(d["colours"]), colours=_colours(d["colours"], v),
        ))
    if d["bonus"]:
        reasons.append(v.nt(
            "1 for the bonus colour {colours}", "{n} for the bonus colours {colours}",
            len(d["bonus"]), colours=_colours(d["bonus"], v),
        ))
    return v.nt(
        "{player} earns {n} star: {reasons}.", "{player} earns {n} stars: {reasons}.",
        int(d["stars"]), player=_who(d, v), reasons=v.join(reasons),
    )


def _choose_text(d: JSON, v: Voice) -> str:
    return v.nt(
        "{players} chooses which markers become stars.",
        "{players} choose which markers become stars.",
        len(d["seats"]), players=_seats(d["seats"], v),
    )


def _pick_text(d: JSON, v: Voice) -> str:
    return v.t(
        "{player} chose row {row}, column {col} for a star (revealed when everyone has chosen).",
        player=_who(d, v), row=d["row"], col=d["col"],
    )


def _stars_text(d: JSON, v: Voice) -> str:
    where = v.join([f"({r}, {c})" for r, c in d["cells"]])
    return v.nt(
        "{player} placed {n} star at {cells} ({total} in all).",
        "{player} placed {n} stars at {cells} ({total} in all).",
        len(d["cells"]), player=_who(d, v), cells=where, total=d["total"],
    )


def _trigger_text(d: JSON, v: Voice) -> str:
    if d["line"]:
        return v.t("{player} has 5 stars in a line: the game ends.", player=_who(d, v))
    return v.t("{player} has {stars} stars: the game ends.", player=_who(d, v), stars=d["stars"])


def _end_text(d: JSON, v: Voice) -> str:
    scores = ", ".join(f"{v.name(s)} {score}" for s, score in enumerate(d["scores"]))
    return v.nt(
        "Game over: {winners} wins; scores: {scores}.",
        "Game over: {winners} share the win; scores: {scores}.",
        len(d["winners"]), winners=_seats(d["winners"], v), scores=scores,
    )


def opening(s: ButtonsState) -> list[Event]:
    """The setup's events (rules §2.2-2.3): the bonus cards dealt, the red card's holder
    starts."""
    cards = [colour_names(c) for c in s.cards]
    return [event("round", round=s.round, seat=s.active, cards=cards)]


def _round_text(d: JSON, v: Voice) -> str:
    if d["round"] == 1:
        return v.t(
            "Round 1: the bonus cards are dealt and {player} starts with the red card.",
            player=_who(d, v),
        )
    return v.t(
        "Round {round}: the bonus cards pass left and {player} starts with the red card.",
        round=d["round"], player=_who(d, v),
    )


BUSTED_NAME = STATUS_NAMES[BUSTED]

_WRITERS: dict[str, Callable[[JSON, Voice], str]] = {
    "roll": _roll_text,
    "bust": _bust_text,
    "offer": _offer_text,
    "answer": _answer_text,
    "place": _place_text,
    "decline": _decline_text,
    "stop": _stop_text,
    "score": _score_text,
    "choose": _choose_text,
    "pick": _pick_text,
    "stars": _stars_text,
    "trigger": _trigger_text,
    "end": _end_text,
    "round": _round_text,
}
