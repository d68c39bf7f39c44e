"""What the API and the event stream say of a tournament: its summary, its entrants and games as
the pairing module reads them, its standings, and its rules in words (docs/protocol.md)."""

from __future__ import annotations

from collections.abc import Sequence

from ludoteca.engine.game import JSON
from ludoteca.engine.i18n import N_, Voice
from ludoteca.server.db import Tournament
from ludoteca.server.store import stamp
from ludoteca.server.tournament_store import EntrantRow, GameRow, RoundRow
from ludoteca.tournament.model import Bye, Entrant, GameResult, RoundDraw
from ludoteca.tournament.pairing import Format, format_standings
from ludoteca.tournament.scoring import Scoring
from ludoteca.tournament.standings import TIEBREAKS, Standings

FORMAT_WORDS = {
    "swiss": N_("Swiss: each round pairs entrants with others on the same points, never twice "
                "against the same opponent where it can be avoided."),
    "round-robin": N_("Round robin: everyone meets everyone."),
    "knockout": N_("Knockout: the best of each table goes through to the next round."),
    "arena": N_("Arena: paired as soon as you are free, with someone near your score."),
}
ROUNDS_WORDS = N_("{rounds} rounds, tables of {size}.")
POINTS_WORDS = N_("Points per place: {points}; a bye scores {bye}.")
TIEBREAK_WORDS = N_("Ties are broken by {name}: {rule}")
LATE_WORDS = N_("A table still playing at the round's deadline is a draw; a seat a bot took "
                "over forfeits.")
ARENA_TIME_WORDS = N_("It lasts {minutes} minutes from its start; after that nobody is paired, "
                      "and the tables still playing finish and count.")
ARENA_POINTS_WORDS = N_("Points: 2 for each player you finish ahead of (a win 2, a draw 1 at two "
                        "players); after two wins in a row every game counts double until one "
                        "you do not win.")
ARENA_LATE_WORDS = N_("A table still playing {minutes} minutes after the end is a draw; a seat "
                      "a bot took over forfeits.")


def summary(t: Tournament, entrants: int, host: str | None) -> JSON:
    return {
        "id": t.id, "name": t.name, "game": t.game, "players": t.players,
        "options": t.options, "format": t.format, "rated": t.rated, "mode": t.mode,
        "bank_seconds": t.bank_seconds, "increment_seconds": t.increment_seconds,
        "turn_hours": t.turn_hours, "round_minutes": t.round_minutes,
        "starts_at": stamp(t.starts_at), "min_entrants": t.min_entrants,
        "max_entrants": t.max_entrants, "invite_only": t.invite is not None,
        "status": t.status, "round": t.round, "round_deadline": stamp(t.round_deadline),
        "entrants": entrants, "host": host, "created_at": stamp(t.created_at),
        "started_at": stamp(t.started_at), "finished_at": stamp(t.finished_at),
        "ends_at": stamp(t.ends_at),
    }


def active(entrants: Sequence[EntrantRow]) -> list[EntrantRow]:
    return [e for e in entrants if e.withdrawn_at is None]


def as_entrants(entrants: Sequence[EntrantRow]) -> list[Entrant]:
    return [Entrant(e.participant, e.rating) for e in entrants]


def results_of(games: Sequence[GameRow]) -> list[GameResult]:
    return [GameResult.from_json(g.result) for g in games if g.result is not None]


def byes_of(rounds: Sequence[RoundRow]) -> list[Bye]:
    return [b for r in rounds for b in RoundDraw.from_json(r.draw).byes]


def standings_of(t: Tournament, entrants: Sequence[EntrantRow],
                 rounds: Sequence[RoundRow],
                 games: Sequence[GameRow]) -> Standings:
    """The standings from the stored results and byes, everyone who entered counted (one
    who withdrew keeps the points of the games played, for their opponents' tie-breaks)."""
    return format_standings(Format.from_json(t.format), as_entrants(entrants), results_of(games),
                            byes_of(rounds), t.seed)


def rules_in_words(fmt: Format, voice: Voice, round_minutes: float = 60.0) -> list[str]:
    """The rules as sentences in the reader's language: the format, its length, its points,
    each tie-break with its rule, and the deadline's rule."""
    out = [voice.t(FORMAT_WORDS[fmt.kind])]
    if fmt.kind == "arena":
        out.append(voice.t(ARENA_TIME_WORDS, minutes=f"{fmt.minutes or 0:g}"))
        out.append(voice.t(ARENA_POINTS_WORDS))
        for key in fmt.tiebreak_keys:
            tb = TIEBREAKS[key]
            out.append(voice.t(TIEBREAK_WORDS, name=voice.t(tb.name), rule=voice.t(tb.rule)))
        out.append(voice.t(ARENA_LATE_WORDS, minutes=f"{round_minutes:g}"))
        return out
    if fmt.rounds is not None:
        out.append(voice.t(ROUNDS_WORDS, rounds=fmt.rounds, size=fmt.table_size))
    scorer = fmt.scorer
    if isinstance(scorer, Scoring):
        out.append(voice.t(POINTS_WORDS, points=" / ".join(f"{p:g}" for p in scorer.full),
                           bye=f"{scorer.bye:g}"))
    for key in fmt.tiebreak_keys:
        tb = TIEBREAKS[key]
        out.append(voice.t(TIEBREAK_WORDS, name=voice.t(tb.name), rule=voice.t(tb.rule)))
    out.append(voice.t(LATE_WORDS))
    return out


def standings_json(found: Standings, voice: Voice, names: dict[str, str],
                   streaks: dict[str, int] | None = None) -> JSON:
    """The standings for the API; an arena's rows also carry each entrant's ``streak`` (wins
    in a row) and ``on_fire`` (two or more: the next game counts double)."""
    out = found.to_json()
    for tb in out["tiebreaks"]:
        tb["name"], tb["rule"] = voice.t(tb["name"]), voice.t(tb["rule"])
    for row in out["rows"]:
        row["name"] = names.get(row["entrant"], row["entrant"])
        if streaks is not None:
            row["streak"] = streaks.get(row["entrant"], 0)
            row["on_fire"] = row["streak"] >= 2
    return out
