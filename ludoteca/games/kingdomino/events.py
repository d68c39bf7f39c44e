"""Kingdomino's events: what each applied action did, as data and as one sentence (DESIGN.md §2).

Everything a Kingdomino event names is public (rules/kingdomino.md §8: only the order of the
pile, and with 2-3 players which dominoes were left out, are hidden), so every event is the same
for every viewer. ``narrate`` reads the states before and after one action and tells, in order:
the move itself (a claim, a placement with both squares, a forced discard), then whatever the
engine resolved on its own: dominoes nobody claimed, a new round and its line, a Dynasty game
ending and the next one starting, and the final scores.

The sentence helpers (squares, lines, scores) are shared with Queendomino's events.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ludoteca.engine.events import Event, event
from ludoteca.engine.game import JSON, Outcome
from ludoteca.engine.i18n import N_, Voice
from ludoteca.games.kingdomino import scoring
from ludoteca.games.kingdomino.actions import Action, Claim, Place
from ludoteca.games.kingdomino.components import DOMINOES, TERRAINS, Domino
from ludoteca.games.kingdomino.grid import DELTA, xy_of
from ludoteca.games.kingdomino.state import OVER, KingdominoState

TERRAIN_WORDS = (
    N_("wheat"), N_("forest"), N_("lake"), N_("grassland"), N_("swamp"), N_("mine"), N_("town"),
)
"""Terrain names appear inside sentences, so each is a message of its own."""


# ---- data ---------------------------------------------------------------------------------
def squares_json(dom: Domino, cell: int, d: int, terrain_names: Sequence[str]) -> list[JSON]:
    """The two squares a placed domino covers: first half on ``cell``, second one step ``d``."""
    out = []
    for half, c in enumerate((cell, cell + DELTA[d])):
        x, y = xy_of(c)
        out.append(
            {"x": x, "y": y, "terrain": terrain_names[dom.terrains[half]],
             "crowns": dom.crowns[half]}
        )
    return out


def new_round_events(
    line: list[int],
    owners: list[int],
    after_round: int,
    rounds: int,
    new_line: list[int] | None,
    domino: Callable[[int], JSON],
    ref: Callable[[int], JSON] = lambda n: {"domino": n},
) -> list[Event]:
    """A line was turned (rules/kingdomino.md §3.1, §3.3): the dominoes nobody claimed are
    discarded, a round begins, and a new line is revealed unless it is the last round.
    ``line`` and ``owners`` are the line just turned (the new current line) and its kings;
    ``domino`` gives a domino's full data, ``ref`` the fields that name it in an event."""
    out = [
        event("unclaimed", **ref(n)) for n, owner in zip(line, owners, strict=True) if owner < 0
    ]
    out.append(event("round", round=after_round, rounds=rounds, last=new_line is None))
    if new_line is not None:
        out.append(event("line", dominoes=[domino(n) for n in new_line]))
    return out


def outcome_events(outcome: Outcome, per_seat: list[JSON]) -> list[Event]:
    """The final scoring: one ``score`` event per seat, then ranks and winners."""
    out = [event("score", seat=seat, **fields) for seat, fields in enumerate(per_seat)]
    out.append(
        event(
            "game_over",
            scores=list(outcome.scores),
            ranks=list(outcome.ranks),
            winners=list(outcome.winners),
        )
    )
    return out


def narrate(
    before: KingdominoState, seat: int, action: Action, after: KingdominoState, outcome: Any
) -> list[Event]:
    """The events of one Kingdomino action (``outcome`` is the rules' ``final_outcome``)."""
    out: list[Event] = []
    if isinstance(action, Claim):
        out.append(event("claim", seat=seat, domino=action.domino))
    else:
        n = before.cur[before.acting]
        if isinstance(action, Place):
            squares = squares_json(DOMINOES[n], action.cell, action.d, TERRAINS)
            out.append(event("place", seat=seat, domino=n, squares=squares))
        else:
            out.append(event("discard", seat=seat, domino=n, reason="no_legal_spot"))
    cfg = after.cfg
    if after.game_no != before.game_no:  # Dynasty: this game is over, the next one is dealt
        kingdoms = after.past[-1][0]
        scores = [scoring.score(k, cfg.frame, cfg.harmony, cfg.middle_kingdom) for k in kingdoms]
        out.append(event("game_end", game=before.game_no + 1, games=cfg.games, scores=scores))
        out.append(
            event("next_game", game=after.game_no + 1, games=cfg.games,
                  draft_order=list(after.draft_order))
        )
        out.append(event("line", dominoes=[domino_json(n) for n in after.nxt]))
    elif after.round != before.round:
        new_line = after.nxt if after.deck_pos != before.deck_pos else None
        out += new_round_events(
            after.cur, after.cur_owner, after.round, cfg.rounds, new_line, domino_json
        )
    if after.phase == OVER and before.phase != OVER:
        result = outcome(after)
        per_seat = []
        for b in result.breakdown:
            games = b.get("games")
            last = games[-1] if games else b
            fields: JSON = {
                "total": b["total"],
                "territories": sum(tr["points"] for tr in last["territories"]),
                "bonuses": sum(x["points"] for x in last["bonuses"]),
                "largest_territory": b["largest_territory"],
                "crowns": b["crowns"],
            }
            if games:
                fields["games"] = [g["total"] for g in games]
            per_seat.append(fields)
        out += outcome_events(result, per_seat)
    return out


def domino_json(n: int) -> JSON:
    return DOMINOES[n].to_json()


# ---- sentences ----------------------------------------------------------------------------
def points(voice: Voice, n: int) -> str:
    return voice.nt("{n} point", "{n} points", n)


def square_text(voice: Voice, sq: JSON) -> str:
    terrain = voice.t(str(sq["terrain"]))
    crowns = int(sq["crowns"])
    if crowns:
        return voice.t(
            "{terrain} with {crowns} at ({x}, {y})",
            terrain=terrain, crowns=voice.nt("{n} crown", "{n} crowns", crowns),
            x=sq["x"], y=sq["y"],
        )
    return voice.t("{terrain} at ({x}, {y})", terrain=terrain, x=sq["x"], y=sq["y"])


def place_text(voice: Voice, data: JSON, label: str) -> str:
    first, second = (square_text(voice, sq) for sq in data["squares"])
    return voice.t(
        "{player} placed domino {domino}: {first} and {second}.",
        player=voice.name(data["seat"]), domino=label, first=first, second=second,
    )


def round_text(voice: Voice, data: JSON) -> str:
    if data["last"]:
        return voice.t(
            "Round {round} of {rounds} begins, the last one: no new line is drawn.",
            round=data["round"], rounds=data["rounds"],
        )
    return voice.t("Round {round} of {rounds} begins.", round=data["round"], rounds=data["rounds"])


def game_over_text(voice: Voice, data: JSON) -> str:
    winners = [voice.name(s) for s in data["winners"]]
    best = points(voice, data["scores"][data["winners"][0]])
    if len(winners) == 1:
        return voice.t("{player} wins with {points}.", player=winners[0], points=best)
    return voice.t(
        "{players} share the victory with {points}.", players=voice.join(winners), points=best
    )


def _claim(data: JSON, voice: Voice) -> str:
    return voice.t(
        "{player} claimed domino {domino}.", player=voice.name(data["seat"]), domino=data["domino"]
    )


def _place(data: JSON, voice: Voice) -> str:
    return place_text(voice, data, str(data["domino"]))


def _discard(data: JSON, voice: Voice) -> str:
    return voice.t(
        "{player} discarded domino {domino}: it fits nowhere in their kingdom (rule 4.3).",
        player=voice.name(data["seat"]), domino=data["domino"],
    )


def _unclaimed(data: JSON, voice: Voice) -> str:
    return voice.t("Nobody claimed domino {domino}: it is discarded.", domino=data["domino"])


def _line(data: JSON, voice: Voice) -> str:
    numbers = [str(d["number"]) for d in data["dominoes"]]
    return voice.t("New line: dominoes {dominoes}.", dominoes=voice.join(numbers))


def _game_end(data: JSON, voice: Voice) -> str:
    scores = [
        voice.t("{player}: {points}", player=voice.name(s), points=points(voice, p))
        for s, p in enumerate(data["scores"])
    ]
    return voice.t(
        "Game {game} of {games} is over: {scores}.",
        game=data["game"], games=data["games"], scores=voice.join(scores),
    )


def _next_game(data: JSON, voice: Voice) -> str:
    order = [voice.name(s) for s in data["draft_order"]]
    return voice.t(
        "Game {game} of {games} begins; first-draft order: {order}.",
        game=data["game"], games=data["games"], order=", ".join(order),
    )


def start_text(data: JSON, voice: Voice) -> str:
    order = [voice.name(s) for s in data["draft_order"]]
    return voice.t("The game begins; first-draft order: {order}.", order=", ".join(order))


def opening(s: KingdominoState) -> list[Event]:
    """The setup's events (rules §2.3-2.4): the first-draft order and the first line."""
    return [
        event("start", draft_order=list(s.draft_order)),
        event("line", dominoes=[domino_json(n) for n in s.nxt]),
    ]


def _score(data: JSON, voice: Voice) -> str:
    player = voice.name(data["seat"])
    total = points(voice, data["total"])
    if "games" in data:
        per_game = ", ".join(str(p) for p in data["games"])
        return voice.t(
            "{player} scored {total} over the Dynasty ({per_game}).",
            player=player, total=total, per_game=per_game,
        )
    if data["bonuses"]:
        return voice.t(
            "{player} scored {total}: {territories} from territories and {bonuses} from "
            "bonuses.",
            player=player, total=total, territories=data["territories"],
            bonuses=data["bonuses"],
        )
    return voice.t("{player} scored {total}.", player=player, total=total)


RENDERERS: dict[str, Callable[[JSON, Voice], str]] = {
    "claim": _claim,
    "place": _place,
    "discard": _discard,
    "unclaimed": _unclaimed,
    "round": lambda data, voice: round_text(voice, data),
    "line": _line,
    "game_end": _game_end,
    "next_game": _next_game,
    "start": start_text,
    "score": _score,
    "game_over": lambda data, voice: game_over_text(voice, data),
}


def render(data: JSON, voice: Voice) -> str:
    """One Kingdomino event as a sentence in ``voice``'s language."""
    renderer = RENDERERS.get(str(data.get("type")))
    if renderer is None:
        return voice.t("{player} acted.", player=voice.name(int(data.get("seat", -1))))
    return renderer(data, voice)

