"""Queendomino's events: every step of a turn (rules/queendomino.md "Turn" A-E) and what the game
resolves on its own, as data and as one sentence (DESIGN.md §2).

Everything a Queendomino event names is public (the view hides only the order of the two piles),
so every event is the same for every viewer. Per action, in order: the move (a claim; step A's
placement with both squares, or a forced discard; step B's knight and the tax it collects; step
C's building with its price and what it gives; the Queen changing hands; step D's Dragon; the
turn ending with ``pass``), then, when a round turns: the dominoes nobody claimed, the new round
and its line, the Dragon back in its cave and the buildings newly drawn onto the builders' board;
after the last turn, the final scores. The sentence helpers are Kingdomino's (``kingdomino/
events.py``).

Team play (rules §7.6) adds: ``teams`` (the partners, told at the start by ``opening``),
``team_queen`` (the Queen moves to a team's kingdom: ``seat`` built the towers, ``team`` and
``previous`` list partners) and ``team_score`` (one per team) instead of ``queen`` and ``score``,
and ``game_over`` carries ``sides`` as Kami's does. A move's ``seat`` is always the player who
made it; the coins, knights and kingdom it names are that player's team's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ludoteca.engine.events import Event, event
from ludoteca.engine.game import JSON
from ludoteca.engine.i18n import N_, Voice
from ludoteca.games.kingdomino import events as kd
from ludoteca.games.kingdomino.grid import TERR, component_of, terrain_at
from ludoteca.games.queendomino.actions import (
    Action,
    Build,
    Claim,
    Discard,
    Dragon,
    Knight,
    Place,
)
from ludoteca.games.queendomino.components import (
    DOMINOES,
    TERRAINS,
    box_number,
    box_of,
    domino_json,
)
from ludoteca.games.queendomino.state import DRAFT, OVER, PLACE, QueendominoState

BUILDING_NAMES = (
    N_("Bakery"), N_("Sawmill"), N_("Fishmonger's"), N_("Weaving Shop"), N_("Magic School"),
    N_("Foundry"), N_("Church"), N_("Statue"), N_("Guardtower"), N_("Small Tavern"),
    N_("Big Tavern"), N_("Safe (tower variant)"), N_("Safe (knight variant)"),
    N_("Fortified Castle"), N_("Training Camp"), N_("Travelling Castle"), N_("Queen's Tower"),
)
"""The names of the shipped tables' buildings appear inside sentences: each is a message."""


def ref(n: int) -> JSON:
    """The fields that name a domino in an event: its id, printed number and box."""
    return {"domino": n, "number": box_number(n), "box": box_of(n)}


def building_ref(state: QueendominoState, tile_id: int) -> JSON:
    return {"id": tile_id, "name": state.cfg.tiles[tile_id - 1].name}


# ---- data ---------------------------------------------------------------------------------
def narrate(
    before: QueendominoState, seat: int, action: Action, after: QueendominoState, outcome: Any
) -> list[Event]:
    """The events of one Queendomino action (``outcome`` is the rules' ``final_outcome``)."""
    out: list[Event] = []
    if before.phase == DRAFT or isinstance(action, Claim):
        assert isinstance(action, Claim)
        out.append(event("claim", seat=seat, **ref(action.domino)))
    elif before.step == PLACE:
        n = before.cur[before.acting]
        if isinstance(action, Place):
            squares = kd.squares_json(DOMINOES[n], action.cell, action.d, TERRAINS)
            out.append(event("place", seat=seat, **ref(n), squares=squares))
        else:
            assert isinstance(action, Discard)
            out.append(event("discard", seat=seat, **ref(n), reason="no_legal_spot"))
    elif isinstance(action, Knight):
        out.append(_tax(before, seat, action, after))
    elif isinstance(action, Build):
        out += _build(before, seat, action, after)
    elif isinstance(action, Dragon):
        side = after.cfg.side_of[seat]
        out.append(
            event("dragon", seat=seat, space=action.space,
                  building=building_ref(before, before.board[action.space]),
                  cost=before.coins[side] - after.coins[side])
        )
    else:
        out.append(event("pass", seat=seat))
    if after.round != before.round:
        new_line = after.nxt if after.deck_pos != before.deck_pos else None
        out += kd.new_round_events(
            after.cur, after.cur_owner, after.round, after.cfg.rounds, new_line, domino_json, ref
        )
        if before.dragon >= 0:
            out.append(event("dragon_home"))
        old = set(before.board)
        fresh = [
            {"space": space, **building_ref(after, t)}
            for space, t in enumerate(after.board)
            if t and t not in old
        ]
        if fresh:
            out.append(event("board", buildings=fresh))
    if after.phase == OVER and before.phase != OVER:
        result = outcome(after)
        per_seat = [_score_fields(b) for b in result.breakdown]
        if after.cfg.teams:
            out += _team_outcome(after, result, per_seat)
        else:
            out += kd.outcome_events(result, per_seat)
    return out


def opening(s: QueendominoState) -> list[Event]:
    """The setup's events: in team play who partners whom (rules §7.6, ruling 10), the
    first-draft order and the first line (§2), the builders' board as dealt."""
    cfg = s.cfg
    out = []
    if cfg.teams:
        out.append(event("teams", teams=[cfg.partners(side) for side in range(cfg.sides)]))
    out.append(event("start", draft_order=list(s.draft_order)))
    out.append(event("line", dominoes=[domino_json(n) for n in s.nxt]))
    board = [{"space": i, **building_ref(s, t)} for i, t in enumerate(s.board) if t]
    if board:
        out.append(event("board", buildings=board))
    return out


def _score_fields(b: JSON) -> JSON:
    return {
        "total": b["total"],
        "territories": b["territory_points"],
        "queen": b["queen"]["points"],
        "buildings": b["building_points"],
        "wealth": b["wealth"]["points"],
        "coins": b["wealth"]["coins"],
        "largest_territory": b["largest_territory"],
    }


def _team_outcome(s: QueendominoState, result: Any, per_seat: list[JSON]) -> list[Event]:
    """Final scoring in team play (ruling 16): one score per team, then ranks and winners."""
    cfg = s.cfg
    out = [
        event("team_score", team=cfg.partners(side), **per_seat[cfg.partners(side)[0]])
        for side in range(cfg.sides)
    ]
    out.append(
        event("game_over", scores=list(result.scores), ranks=list(result.ranks),
              winners=list(result.winners), sides=list(cfg.side_of))
    )
    return out


def _tax(before: QueendominoState, seat: int, action: Knight, after: QueendominoState) -> Event:
    """Step B: the knight's square, its territory's size and the building bonus."""
    side = after.cfg.side_of[seat]
    k = after.kingdoms[side]
    t = terrain_at(k, action.cell)
    assert t is not None
    squares = component_of(k[TERR + t], action.cell).bit_count()
    coins = after.coins[side] - before.coins[side]
    return event(
        "tax", seat=seat, x=action.x, y=action.y, terrain=TERRAINS[t], squares=squares,
        bonus=coins - squares, coins=coins,
    )


def _build(
    before: QueendominoState, seat: int, action: Build, after: QueendominoState
) -> list[Event]:
    """Step C: what was built where, its price, what it gave; and the Queen if she moved."""
    tile_id = before.board[action.space]
    cfg = after.cfg
    tile = cfg.tiles[tile_id - 1]
    side = cfg.side_of[seat]
    out = [
        event(
            "build", seat=seat, building=building_ref(after, tile_id), space=action.space,
            x=action.x, y=action.y, cost=before.coins[side] - after.coins[side],
            crowns=tile.crowns, towers=tile.towers, knights=tile.knights,
        )
    ]
    if after.queen != before.queen and cfg.teams:  # ruling 13: she goes to a team's kingdom
        out.append(
            event("team_queen", seat=seat, team=cfg.partners(after.queen),
                  previous=cfg.partners(before.queen) if before.queen >= 0 else None,
                  towers=after.towers[after.queen])
        )
    elif after.queen != before.queen:
        out.append(
            event("queen", seat=after.queen,
                  previous=before.queen if before.queen >= 0 else None,
                  towers=after.towers[after.queen])
        )
    return out


# ---- sentences ----------------------------------------------------------------------------
def label(data: JSON) -> str:
    """A domino as its printed number; a K marks the Kingdomino box (Royal Wedding)."""
    return ("K" if data.get("box") == "kingdomino" else "") + str(data["number"])


def coins(voice: Voice, n: int) -> str:
    return voice.nt("{n} coin", "{n} coins", n)


def building_name(voice: Voice, data: JSON) -> str:
    return voice.t(str(data["building"]["name"]))


def _claim(data: JSON, voice: Voice) -> str:
    return voice.t(
        "{player} claimed domino {domino}.", player=voice.name(data["seat"]), domino=label(data)
    )


def _discard(data: JSON, voice: Voice) -> str:
    return voice.t(
        "{player} discarded domino {domino}: it fits nowhere in their kingdom (step A).",
        player=voice.name(data["seat"]), domino=label(data),
    )


def _unclaimed(data: JSON, voice: Voice) -> str:
    return voice.t("Nobody claimed domino {domino}: it is discarded.", domino=label(data))


def _line(data: JSON, voice: Voice) -> str:
    numbers = [label(d) for d in data["dominoes"]]
    return voice.t("New line: dominoes {dominoes}.", dominoes=voice.join(numbers))


def _tax_text(data: JSON, voice: Voice) -> str:
    fields = {
        "player": voice.name(data["seat"]), "x": data["x"], "y": data["y"],
        "coins": coins(voice, data["coins"]), "terrain": voice.t(str(data["terrain"])),
        "squares": data["squares"], "bonus": data["bonus"],
    }
    if data["bonus"]:
        return voice.t(
            "{player} sent a knight to ({x}, {y}) and collected {coins} in tax: {squares} for "
            "their {terrain} territory and {bonus} from their buildings.",
            **fields,
        )
    return voice.t(
        "{player} sent a knight to ({x}, {y}) and collected {coins} in tax for their {terrain} "
        "territory.",
        **fields,
    )


def _build_text(data: JSON, voice: Voice) -> str:
    gains = []
    if data["knights"]:
        gains.append(voice.nt("{n} knight", "{n} knights", data["knights"]))
    if data["towers"]:
        gains.append(voice.nt("{n} tower", "{n} towers", data["towers"]))
    if data["crowns"]:
        gains.append(voice.nt("{n} crown", "{n} crowns", data["crowns"]))
    fields = {
        "player": voice.name(data["seat"]), "building": building_name(voice, data),
        "x": data["x"], "y": data["y"], "cost": coins(voice, data["cost"]),
        "gains": voice.join(gains),
    }
    if gains:
        return voice.t(
            "{player} built the {building} on ({x}, {y}) for {cost} and gained {gains}.", **fields
        )
    return voice.t("{player} built the {building} on ({x}, {y}) for {cost}.", **fields)


def _queen(data: JSON, voice: Voice) -> str:
    towers = voice.nt("{n} tower", "{n} towers", data["towers"])
    if data["previous"] is None:
        return voice.t(
            "The Queen comes to {player}'s kingdom ({towers}).",
            player=voice.name(data["seat"]), towers=towers,
        )
    return voice.t(
        "The Queen leaves {previous}'s kingdom for {player}'s ({towers}).",
        previous=voice.name(data["previous"]), player=voice.name(data["seat"]), towers=towers,
    )


def team(voice: Voice, seats: list[int]) -> str:
    """A team: both partners' names ("Ana and Luis")."""
    return voice.join([voice.name(p) for p in seats])


def _teams(data: JSON, voice: Voice) -> str:
    return voice.t("Teams: {teams}.", teams="; ".join(team(voice, t) for t in data["teams"]))


def _team_queen(data: JSON, voice: Voice) -> str:
    towers = voice.nt("{n} tower", "{n} towers", data["towers"])
    if data["previous"] is None:
        return voice.t(
            "The Queen comes to the kingdom of {team} ({towers}).",
            team=team(voice, data["team"]), towers=towers,
        )
    return voice.t(
        "The Queen leaves the kingdom of {previous} for that of {team} ({towers}).",
        previous=team(voice, data["previous"]), team=team(voice, data["team"]), towers=towers,
    )


def _team_score(data: JSON, voice: Voice) -> str:
    fields = {
        "team": team(voice, data["team"]), "total": kd.points(voice, data["total"]),
        "territories": data["territories"], "buildings": data["buildings"],
        "wealth": data["wealth"], "queen": data["queen"],
    }
    if data["queen"]:
        return voice.t(
            "{team} scored {total} together: {territories} from territories ({queen} thanks to "
            "the Queen), {buildings} from buildings and {wealth} from coins.",
            **fields,
        )
    return voice.t(
        "{team} scored {total} together: {territories} from territories, {buildings} from "
        "buildings and {wealth} from coins.",
        **fields,
    )


def _game_over(data: JSON, voice: Voice) -> str:
    sides = data.get("sides")
    if not sides:
        return kd.game_over_text(voice, data)
    best = kd.points(voice, data["scores"][data["winners"][0]])
    teams: dict[int, list[int]] = {}
    for seat in data["winners"]:
        teams.setdefault(sides[seat], []).append(seat)
    if len(teams) == 1:
        (seats,) = teams.values()
        return voice.t("{team} win with {points}.", team=team(voice, seats), points=best)
    names = [voice.t("the team of {players}", players=team(voice, t)) for t in teams.values()]
    return voice.t("Tie for the victory with {points}: {teams}.", points=best,
                   teams=voice.join(names))


def _dragon(data: JSON, voice: Voice) -> str:
    return voice.t(
        "{player} bribed the Dragon with {cost} to burn the {building} (space {space}).",
        player=voice.name(data["seat"]), cost=coins(voice, data["cost"]),
        building=building_name(voice, data), space=data["space"],
    )


def _board(data: JSON, voice: Voice) -> str:
    tiles = [
        voice.t("{building} (space {space})", building=voice.t(str(b["name"])), space=b["space"])
        for b in data["buildings"]
    ]
    return voice.t("New buildings on the builders' board: {buildings}.",
                   buildings=voice.join(tiles))


def _score(data: JSON, voice: Voice) -> str:
    fields = {
        "player": voice.name(data["seat"]), "total": kd.points(voice, data["total"]),
        "territories": data["territories"], "buildings": data["buildings"],
        "wealth": data["wealth"], "queen": data["queen"],
    }
    if data["queen"]:
        return voice.t(
            "{player} scored {total}: {territories} from territories ({queen} thanks to the "
            "Queen), {buildings} from buildings and {wealth} from coins.",
            **fields,
        )
    return voice.t(
        "{player} scored {total}: {territories} from territories, {buildings} from buildings "
        "and {wealth} from coins.",
        **fields,
    )


RENDERERS: dict[str, Callable[[JSON, Voice], str]] = {
    "claim": _claim,
    "place": lambda data, voice: kd.place_text(voice, data, label(data)),
    "discard": _discard,
    "tax": _tax_text,
    "build": _build_text,
    "queen": _queen,
    "dragon": _dragon,
    "pass": lambda data, voice: voice.t(
        "{player} ended their turn (the last round has no next line).",
        player=voice.name(data["seat"]),
    ),
    "unclaimed": _unclaimed,
    "round": lambda data, voice: kd.round_text(voice, data),
    "start": kd.start_text,
    "line": _line,
    "dragon_home": lambda data, voice: voice.t("The Dragon goes back to its cave."),
    "board": _board,
    "score": _score,
    "game_over": _game_over,
    "teams": _teams,
    "team_queen": _team_queen,
    "team_score": _team_score,
}


def render(data: JSON, voice: Voice) -> str:
    """One Queendomino event as a sentence in ``voice``'s language."""
    renderer = RENDERERS.get(str(data.get("type")))
    if renderer is None:
        return voice.t("{player} acted.", player=voice.name(int(data.get("seat", -1))))
    return renderer(data, voice)
