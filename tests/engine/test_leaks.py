"""No viewer is told what it may not know: not in its view, not in its events.

The property (DESIGN.md §2): what a viewer is told about an action is a function of what it can
see. We check it by re-dealing. At each step of random games of every game and player count, for
every viewer (each seat and the spectator), we re-deal everything hidden from that viewer
(``determinize`` of its view: other hands, face-down cards, deck order, dice to come, pending
simultaneous answers, the RNG) and let the acting seat play each of its legal actions in the
re-dealt world. Whenever the viewer cannot tell the two apart — the same view after the action,
and (for a viewer other than the actor) the same public form of the action
(``Game.public_action``: what others see being done, a face-down card left out) — the viewer's
events must be the same too: otherwise an event carried something hidden (a face-down card,
another seat's pending answer, the deck order) that the viewer may not know.

A face-down Kami lead played with another card, a Buttons answer of another seat, a Kingdomino
move with another deck order behind the revealed lines: each gives the same view and so must
give the same events. The RNG state itself is checked directly: no event carries it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from ludoteca.engine.events import for_viewer
from ludoteca.engine.game import Game
from ludoteca.engine.rng import Rng
from ludoteca.games import all_games

GAMES = all_games()
CASES: list[tuple[Game[Any, Any], int, dict[str, Any]]] = [
    (g, n, {}) for g in GAMES for n in range(g.spec.min_players, g.spec.max_players + 1)
]
VARIANTS = {  # options whose events differ: Dynasty's next games, discards, teams
    "kingdomino": [(2, {"dynasty": True, "mighty_duel": True}), (3, {"three_player_draft": "bga"})],
    "queendomino": [(6, {"royal_wedding": True, "teams": True}),
                    (8, {"royal_wedding": True, "teams": True})],
}
CASES += [(g, n, o) for g in GAMES for n, o in VARIANTS.get(g.spec.name, [])]
IDS = [f"{g.spec.name}-{n}p" + ("-" + "-".join(sorted(o)) if o else "") for g, n, o in CASES]

REDEALS = 3
"""Re-dealt worlds per viewer and step."""
ALTERNATIVES = 12
"""Legal actions tried in each re-dealt world (the true one always among them)."""


def options_for(game: Game[Any, Any], players: int) -> dict[str, Any]:
    from ludoteca.engine.errors import OptionError

    try:
        game.validate({}, players)
        return {}
    except OptionError:
        # a player count that needs an option (e.g. Queendomino's Royal Wedding at 5-6)
        for opt in game.spec.options:
            if opt.type is bool:
                try:
                    game.validate({opt.name: True}, players)
                    return {opt.name: True}
                except OptionError:
                    continue
        raise


def events(game: Game[Any, Any], before: Any, seat: int, action: Any) -> tuple[Any, list[Any]]:
    after = game.clone(before)
    game.apply(after, seat, action)
    return after, game.narrate(game.clone(before), seat, action, after)


def ints_in(data: object) -> set[int]:
    if isinstance(data, bool):
        return set()
    if isinstance(data, int):
        return {data}
    if isinstance(data, dict):
        return set().union(*(ints_in(v) for v in data.values())) if data else set()
    if isinstance(data, list | tuple):
        return set().union(*(ints_in(v) for v in data)) if data else set()
    return set()


def check_step(
    game: Game[Any, Any], state: Any, seat: int, action: Any, players: int, rng: Rng
) -> int:
    """Check every viewer at this step; return how many re-dealt comparisons were made."""
    after, true_events = events(game, state, seat, action)
    public = game.public_action(state, seat, action)
    compared = 0
    secret_ints = {state.rng.state, after.rng.state} if hasattr(state, "rng") else set()
    for viewer in (None, *range(players)):
        told = for_viewer(true_events, viewer)
        assert json.loads(json.dumps(told)) == told
        assert not ints_in(told) & {i for i in secret_ints if i > 1 << 20}, "an event holds RNG"
        seen_after = game.view(after, viewer)
        view = json.loads(json.dumps(game.view(state, viewer)))
        for _ in range(REDEALS):
            world = game.determinize(view, viewer, rng)
            if seat not in game.to_act(world):
                continue
            legal = game.legal_actions(world, seat)
            tries = [a for a in legal if a == action]
            others = [
                a for a in legal
                if a != action and viewer != seat and game.public_action(world, seat, a) == public
            ]
            for _ in range(min(ALTERNATIVES, len(others))):
                tries.append(others.pop(rng.below(len(others))))
            for alt in tries:
                alt_after, alt_events = events(game, world, seat, alt)
                if game.view(alt_after, viewer) != seen_after:
                    continue
                compared += 1
                assert for_viewer(alt_events, viewer) == told, (
                    f"{game.spec.name}: viewer {viewer} is told different things about two "
                    f"actions it cannot tell apart ({action.to_json()} vs {alt.to_json()})"
                )
    return compared


def check_opening(game: Game[Any, Any], state: Any, players: int, rng: Rng) -> int:
    """The setup's events (first deal, first line) too depend only on the viewer's view."""
    compared = 0
    for viewer in (None, *range(players)):
        told = for_viewer(game.opening(game.clone(state)), viewer)
        view = json.loads(json.dumps(game.view(state, viewer)))
        for _ in range(REDEALS):
            world = game.determinize(view, viewer, rng)
            assert for_viewer(game.opening(world), viewer) == told
            compared += 1
    return compared


@pytest.mark.parametrize(("game", "players", "options"), CASES, ids=IDS)
@settings(max_examples=examples(3), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_events_say_no_more_than_the_view(
    game: Game[Any, Any], players: int, options: dict[str, Any], seed: int
) -> None:
    rng = Rng(seed)
    state = game.setup(options or options_for(game, players), players, seed)
    compared = check_opening(game, state, players, rng)
    steps = 0
    limit = 4 * game.spec.max_length
    while (seats := sorted(game.to_act(state))) and steps < limit:
        seat = seats[rng.below(len(seats))]
        legal = game.legal_actions(state, seat)
        action = legal[rng.below(len(legal))]
        if steps % 3 == 0:
            compared += check_step(game, state, seat, action, players, rng)
        game.apply(state, seat, action)
        steps += 1
    assert compared > 0
