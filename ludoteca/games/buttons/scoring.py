"""Round scoring (rules §4), the end triggers and the two winner rules (rules §6)."""

from __future__ import annotations

from typing import Any

from ludoteca.engine.game import Outcome, ranks_from_keys
from ludoteca.engine.i18n import N_
from ludoteca.engine.parts import Part, TieBreak
from ludoteca.games.buttons.grid import COLOURS, cells, five_line, row_col
from ludoteca.games.buttons.state import STATUS_NAMES, STOPPED, ButtonsState

LINE_POINTS = 100  # BGA: a 5-star line is worth 100 points (rules §6)
STAR_TRIGGER = 12


def round_stars(markers: int, board: tuple[int, ...], cards: int) -> tuple[int, int, int]:
    """Rules §4 for a player who stopped: (colours with >= 3 markers, bonus colours among them,
    stars earned). A colour counts once however many markers it has."""
    colours = 0
    for i in range(4):
        if (markers & board[i]).bit_count() >= 3:
            colours |= 1 << i
    bonus = colours & cards
    return colours, bonus, 1 + colours.bit_count() + bonus.bit_count()


def colour_names(mask: int) -> list[str]:
    return [COLOURS[i] for i in range(4) if mask >> i & 1]


def is_triggered(stars: int) -> bool:
    """Rules §6: 5 stars in an unbroken row or column line, or 12 or more stars."""
    return stars.bit_count() >= STAR_TRIGGER or bool(five_line(stars))


def round_json(entry: tuple[int, int, int, int, int]) -> dict[str, Any]:
    status, markers, colours, bonus, stars = entry
    return {
        "result": STATUS_NAMES[status],
        "markers": markers,
        "stop_star": 1 if status == STOPPED else 0,
        "colours": colour_names(colours),
        "bonus": colour_names(bonus),
        "stars": stars,
    }


STOP_STARS = N_("stars for stopping (rule 4): {count}")
COLOUR_STARS = N_("stars for colours with 3 markers (rule 4): {count}")
BONUS_STARS = N_("stars for bonus colours (rule 4): {count}")
FIVE_LINE = N_("a line of 5 stars: {points} points (rule 6, BGA scoring)")
TRIGGER = N_("met an end trigger (rule 6): a line of 5 stars or 12 stars")
NO_TRIGGER = N_("met no end trigger (rule 6)")


def star_sums(entries: list[tuple[int, int, int, int, int]]) -> tuple[int, int, int]:
    """A seat's stars for stopping, for colours and for bonus colours over the rounds
    ``entries`` (``star_parts``' counts; the native core keeps these sums instead of the
    rounds)."""
    stop = colours = bonus = 0
    for status, _, colour_mask, _, earned in entries:
        if status != STOPPED or not earned:
            continue
        stop += 1
        c = min(colour_mask.bit_count(), earned - 1)
        colours += c
        bonus += earned - 1 - c
    return stop, colours, bonus


def star_parts(entries: list[tuple[int, int, int, int, int]]) -> list[Part]:
    """Rules §4: where a seat's stars came from, over the rounds ``entries`` (one history entry
    of that seat per round): 1 for stopping, 1 per colour with 3 markers, 1 per bonus colour.
    Stars are given in that order, so a round whose stars were capped by its markers (never in
    practice) loses the later ones first and the parts still add up to the stars."""
    stop, colours, bonus = star_sums(entries)
    out = [Part("stop", STOP_STARS, stop, {"count": stop})]
    if colours:
        out.append(Part("colours", COLOUR_STARS, colours, {"count": colours}))
    if bonus:
        out.append(Part("bonus", BONUS_STARS, bonus, {"count": bonus}))
    return out


def final_outcome(s: ButtonsState) -> Outcome:
    """Scores, ranks and a breakdown that traces every star to the round that earned it.

    BGA rule (default): 100 for a 5-star line, else the star count; higher wins.
    Printed rule: a player who met a trigger beats one who did not; among them more stars wins.
    Exact ties share the rank under both rules (§9.3)."""
    bga = s.cfg.bga_winner
    scores: list[int] = []
    keys: list[tuple[int, ...]] = []
    breakdown: list[dict[str, Any]] = []
    parts: list[tuple[Part, ...]] = []
    reasons: list[tuple[TieBreak, ...]] = []
    for seat in range(s.cfg.players):
        stars = s.stars[seat]
        count = stars.bit_count()
        line = five_line(stars)
        triggered = count >= STAR_TRIGGER or bool(line)
        if bga:
            score = LINE_POINTS if line else count
            keys.append((score,))
            reasons.append(())
        else:
            score = count
            keys.append((int(triggered), count))
            reasons.append((TieBreak("trigger", TRIGGER if triggered else NO_TRIGGER,
                                     int(triggered)),))
        if bga and line:
            parts.append((Part("five_line", FIVE_LINE, LINE_POINTS, {"points": LINE_POINTS}),))
        else:
            parts.append(tuple(star_parts([r[seat] for r in s.history])))
        scores.append(score)
        breakdown.append(
            {
                "rule": "bga" if bga else "stars",
                "stars": count,
                "five_line": [list(row_col(c)) for c in cells(line)] if line else None,
                "twelve_stars": count >= STAR_TRIGGER,
                "triggered": triggered,
                "score": score,
                "why": (
                    f"a line of 5 stars scores {LINE_POINTS}" if bga and line
                    else f"{count} stars, one point each" if bga
                    else f"{count} stars" + (" and met an end trigger" if triggered else "")
                ),
                "rounds": [round_json(r[seat]) for r in s.history],
            }
        )
    return Outcome(
        scores=tuple(scores),
        ranks=ranks_from_keys(keys),
        breakdown=tuple(breakdown),
        tiebreaks=tuple(() for _ in keys),
        parts=tuple(parts),
        tiebreak=tuple(reasons),
    )


def scores_now(s: ButtonsState) -> tuple[tuple[int, ...], float]:
    """Each seat's score now by the winner rule in force (BGA: 100 for a 5-star line, else the
    stars) and the scale the RL rewards measure it against (the 12-star trigger): the
    outcome's scores once the match is over (``GameEntry.rl_score``; ``ludoteca/rl/rewards.py``)."""
    bga = s.cfg.bga_winner
    return tuple(
        LINE_POINTS if bga and five_line(stars) else stars.bit_count() for stars in s.stars
    ), float(STAR_TRIGGER)
