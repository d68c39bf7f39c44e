"""The engine contract (DESIGN.md §2), checked on random games of every registered game.

One random-simulation test over every game, in the spirit of OpenSpiel's ``random_sim_test``:
legal actions always apply, actions round-trip through JSON and index, views are JSON and rebuild
through ``determinize``, clones are independent, every game ends with an outcome, and a match
record replays to the same states.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from ludoteca.engine.errors import OptionError
from ludoteca.engine.game import Game
from ludoteca.engine.match import Match, Step, iter_replay, replay
from ludoteca.engine.record import MatchRecord
from ludoteca.engine.rng import Rng
from ludoteca.games import all_games, game_names

GAMES = all_games()
CASES = [(g, n) for g in GAMES for n in range(g.spec.min_players, g.spec.max_players + 1)]
IDS = [f"{g.spec.name}-{n}p" for g, n in CASES]


def random_options(game: Game[Any, Any], players: int, rng: Rng) -> dict[str, Any]:
    """A random choice for every bool or multiple-choice option that applies to ``players``."""
    out: dict[str, Any] = {}
    for opt in game.spec.options:
        if opt.players and players not in opt.players:
            continue
        if opt.type is bool:
            out[opt.name] = bool(rng.below(2))
        elif opt.choices:
            out[opt.name] = opt.choices[rng.below(len(opt.choices))]
    return out


def random_match(game: Game[Any, Any], players: int, seed: int, check_every: int = 1) -> Match:
    """Play a random match with full checks, verifying the contract at every ``check_every`` ply.
    Seed 0 plays the default options; other seeds draw options from the schema."""
    rng = Rng(seed ^ 0x5EED)
    options = random_options(game, players, rng) if seed else {}
    for _ in range(100):  # some player counts need an option (e.g. Royal Wedding for 5-6)
        try:
            game.validate(options, players)
            break
        except OptionError:
            options = random_options(game, players, rng)
    match = Match.new(game, options, players, seed, narrate=check_every == 1)
    state = match.state
    steps = 0
    while not game.is_over(state):
        seats = sorted(game.to_act(state))
        assert seats, "a running game must have a seat to act"
        seat = seats[rng.below(len(seats))]
        actions = game.legal_actions(state, seat)
        assert actions, f"seat {seat} is asked to act but has no legal action"
        action = actions[rng.below(len(actions))]
        if steps % check_every == 0:
            check_state(game, state, players, seat, actions, rng)
        step = match.step(seat, action, match.decision(seat))
        if match.narrate:
            check_events(game, step, players)
        steps += 1
        assert steps <= game.spec.max_length, "the game did not end within spec.max_length"
    assert game.outcome(state) is not None
    return match


def check_state(
    game: Game[Any, Any], state: Any, players: int, seat: int, actions: list[Any], rng: Rng
) -> None:
    for action in actions:
        assert game.action_from_json(json.loads(json.dumps(action.to_json()))) == action
        assert game.action_from_index(action.index) == action
    assert len({a.index for a in actions}) == len(actions), "duplicate legal actions"
    for who in (None, *range(players)):
        json.dumps(game.view(state, who))
    view = json.loads(json.dumps(game.view(state, seat)))
    rebuilt = game.determinize(view, seat, rng)
    assert game.view(rebuilt, seat) == view, "determinize(view) must give a state with that view"
    sample = game.determinizer(view, seat)
    for k in range(2):
        a, b = Rng(k), Rng(k)
        assert sample(a) == game.determinize(view, seat, b) and a.state == b.state, (
            "the prepared determinizer must draw exactly what determinize draws"
        )
    assert sorted(a.index for a in game.legal_actions(rebuilt, seat)) == sorted(
        a.index for a in actions
    )
    copy = game.clone(state)
    assert copy == state
    game.apply_legal(copy, seat, actions[0])
    assert copy != state, "applying to a clone must not touch the original"


def check_events(game: Game[Any, Any], step: Step, players: int) -> None:
    """Every viewer's events are JSON with a type and render to a sentence in both languages."""
    for who in (None, *range(players)):
        events = step.events_for(who)
        assert json.loads(json.dumps(events)) == events
        for e in events:
            assert isinstance(e.get("type"), str)
            for lang in ("en", "es"):
                assert game.render_event(e, game.voice(lang)).strip()


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
def test_random_games_follow_the_contract(game: Game[Any, Any], players: int) -> None:
    for seed in range(3):
        match = random_match(game, players, seed, check_every=1 if seed == 0 else 7)
        outcome = game.outcome(match.state)
        assert outcome is not None
        assert len(outcome.scores) == len(outcome.ranks) == players
        assert min(outcome.ranks) == 1
        json.dumps(outcome.to_json())
        json.dumps(game.view(match.state, None))


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
@settings(max_examples=examples(8), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_replay_reproduces_every_state(game: Game[Any, Any], players: int, seed: int) -> None:
    match = random_match(game, players, seed, check_every=10**9)
    record = MatchRecord.from_json(json.loads(json.dumps(match.record.to_json())))
    live = Match.new(game, record.options, players, record.seed)
    replayed = iter_replay(game, record)
    _, _, state = next(replayed)
    assert state == live.state
    for (seat, data), (rseat, action, state) in zip(record.actions, replayed, strict=True):
        live.step(seat, game.action_from_json(data))
        assert rseat == seat and action.to_json() == data
        assert state == live.state
    final = replay(game, record)
    assert final == match.state
    assert game.outcome(final) == game.outcome(match.state)


def test_registry_lists_every_game() -> None:
    assert "kingdomino" in game_names()
    assert [g.spec.name for g in GAMES] == game_names()
