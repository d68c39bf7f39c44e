"""The index boundary (docs/engine.md, "Playouts"): ``Game.playout`` plays exactly the matches
the loops it replaced played (each kept here as it was, the reference), ``snapshot``/``restore``
give back the same state, ``action_from_index`` round-trips every legal index, and ``reveals``
and ``chance`` read off the states before and after say what applying the action again said.
Every game, player count and drawn options (tests/engine/test_legal_indices.py's cases)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from ludoteca.engine.game import Game
from ludoteca.engine.match import Match
from ludoteca.engine.playout import GAME, GREEDY, RANDOM, Kind, Policy, Until, parse
from ludoteca.engine.rng import Rng
from ludoteca.games import game_names, get_game
from ludoteca.games.kami.rules import Kami
from tests.engine.test_legal_indices import CASES, IDS, options_for

# ---- the loops as they were before Game.playout (the reference) -------------------------


def old_random_playout(game: Game[Any, Any], state: Any, rng: Rng) -> None:
    while seats := game.to_act(state):
        seat = min(seats)
        actions = game.legal_actions(state, seat)
        game.apply_legal(state, seat, actions[rng.below(len(actions))])


def old_play_round(game: Game[Any, Any], state: Any, rng: Rng, epsilon: int,
                   choose: Callable[[Any, int, list[Any], Rng], Any]) -> None:
    start_round = state.round
    while state.round == start_round and (seats := game.to_act(state)):
        seat = min(seats)
        actions = game.legal_actions(state, seat)
        if rng.below(epsilon) == 0:
            game.apply_legal(state, seat, actions[rng.below(len(actions))])
        else:
            game.apply_legal(state, seat, choose(state, seat, actions, rng))


def old_kingdomino_playout(game: Game[Any, Any], state: Any, rng: Rng) -> None:
    from ludoteca.games.kingdomino.actions import CLAIMS, PLACES
    from ludoteca.games.kingdomino.grid import OCC
    from ludoteca.games.kingdomino.playout import best_placement
    from ludoteca.games.kingdomino.state import CLAIM_STEP, DRAFT, OVER

    frame = state.cfg.frame
    planned: dict[int, tuple[int, tuple[int, int, int]]] = {}
    while state.phase != OVER:
        (seat,) = game.to_act(state)
        if rng.below(8) == 0:
            legal = game.legal_actions(state, seat)
            game.apply_legal(state, seat, legal[rng.below(len(legal))])
            continue
        k = state.kingdoms[seat]
        if state.phase == DRAFT or state.step == CLAIM_STEP:
            owners = state.nxt_owner
            best_n, best_gain, best = -1, -2, (-1, -1, 0)
            for i, n in enumerate(state.nxt):
                if owners[i] < 0:
                    found = best_placement(k, n, frame)
                    if found[0] > best_gain:
                        best_n, best_gain, best = n, found[0], found
            planned[best_n] = (k[OCC], best)
            game.apply_legal(state, seat, CLAIMS[best_n])
            continue
        n = state.cur[state.acting]
        kept = planned.pop(n, None)
        gain, cell, d = kept[1] if kept is not None and kept[0] == k[OCC] else best_placement(
            k, n, frame)
        if gain < 0:
            game.apply_legal(state, seat, game.legal_actions(state, seat)[0])
            continue
        game.apply_legal(state, seat, PLACES[(cell << 2) | d])


def _old_kami(game: Game[Any, Any], state: Any, rng: Rng, round_only: bool) -> None:
    from ludoteca.games.kami.bot import playout_choice

    old_play_round(game, state, rng, 8, playout_choice)
    while not round_only and not game.is_over(state):
        old_play_round(game, state, rng, 8, playout_choice)


def _old_buttons(game: Game[Any, Any], state: Any, rng: Rng, round_only: bool) -> None:
    from ludoteca.games.buttons.plan import choose_state

    def choose(s: Any, seat: int, acts: list[Any], _rng: Rng) -> Any:
        return choose_state(s, seat, acts)

    old_play_round(game, state, rng, 32, choose)
    while not round_only and not game.is_over(state):
        old_play_round(game, state, rng, 32, choose)


OLD_GAME_PLAYOUT: dict[str, Callable[[Game[Any, Any], Any, Rng], None]] = {
    "kingdomino": old_kingdomino_playout,
    "kami": lambda g, s, r: _old_kami(g, s, r, False),
    "goita": lambda g, s, r: _old_kami(g, s, r, False),
    "buttons": lambda g, s, r: _old_buttons(g, s, r, False),
}
OLD_ROUND: dict[str, Callable[[Game[Any, Any], Any, Rng], None]] = {
    "kami": lambda g, s, r: _old_kami(g, s, r, True),
    "goita": lambda g, s, r: _old_kami(g, s, r, True),
    "buttons": lambda g, s, r: _old_buttons(g, s, r, True),
}


def old_play_out(game: Game[Any, Any], state: Any,
                 pick: Callable[[Any, int, list[Any]], Any]) -> list[Any]:
    """The match driver's trusted loop as it was (``play_random`` inlined this pick)."""
    actions = []
    while seats := game.to_act(state):
        for seat in sorted(seats):
            if seat in game.to_act(state):
                action = pick(state, seat, game.legal_actions(state, seat))
                game.apply_legal(state, seat, action)
                actions.append((seat, action))
    return actions


def old_reveals(game: Game[Any, Any], state: Any, seat: int, action: Any) -> tuple[bool, bool]:
    """What ``reveals`` and ``chance`` said when they applied the action to a copy: the
    Kingdomino, Queendomino and Kami rules as they were, every other game's as it is (they
    read only the state before)."""
    after = game.clone(state)
    game.apply_legal(after, seat, action)
    name = game.spec.name
    if name == "kingdomino":
        drew = after.deck_pos != state.deck_pos or after.game_no != state.game_no
        return drew, drew
    if name == "queendomino":
        drew = after.deck_pos != state.deck_pos or after.pile_pos != state.pile_pos
        return drew, drew
    if isinstance(game, Kami):  # and Goita, which is Kami's engine
        from ludoteca.games.kami.actions import REDEAL, REVEAL, Play
        from ludoteca.games.kami.state import OVER

        shown = isinstance(action, Play) or action is REVEAL or action is REDEAL
        return shown, action is REDEAL or (after.round != state.round and after.phase != OVER)
    return game.reveals(state, seat, action, after), game.chance(state, seat, action, after)


def setup(game: Game[Any, Any], players: int, seed: int) -> Any:
    rng = Rng(seed)
    options = options_for(game, players, rng) if seed % 4 else {}
    return game.setup(game.validate(options, players), players, seed)


# ---- playout equivalence ---------------------------------------------------------------


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
@settings(max_examples=examples(3), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_playouts_play_what_the_old_loops_played(
    game: Game[Any, Any], players: int, seed: int
) -> None:
    """The same seed gives the same final state (and leaves the generator where it was left)
    as the loop each call replaced: random, the game's own policy to the end and to the end of
    the round, and the match driver's trusted random loop with its record (simultaneous seats
    in sweeps); the trace replays, with every check, to the same state."""
    start = setup(game, players, seed)
    old, new = game.clone(start), game.clone(start)
    old_rng, new_rng = Rng(seed), Rng(seed)
    old_random_playout(game, old, old_rng)
    trace: list[tuple[int, int]] = []
    game.playout(new, RANDOM, new_rng, Until.END, trace)
    assert new == old and new_rng == old_rng
    assert len(trace) == new.ply - start.ply
    replayed = game.clone(start)
    for seat, index in trace:
        game.apply(replayed, seat, game.action_from_index(index))
    assert replayed == new

    name = game.spec.name
    reference = OLD_GAME_PLAYOUT.get(name, old_random_playout)
    old, new = game.clone(start), game.clone(start)
    old_rng, new_rng = Rng(seed), Rng(seed)
    reference(game, old, old_rng)
    game.playout(new, GAME, new_rng)
    assert new == old and new_rng == old_rng
    if name in OLD_ROUND:
        old, new = game.clone(start), game.clone(start)
        old_rng, new_rng = Rng(seed), Rng(seed)
        OLD_ROUND[name](game, old, old_rng)
        game.playout(new, GAME, new_rng, Until.ROUND)
        assert new == old and new_rng == old_rng

    old = game.clone(start)
    floats = random.Random(seed).random
    old_actions = old_play_out(game, old, lambda _s, _seat, legal: legal[
        int(floats() * len(legal))])
    match = Match.new(game, options_for(game, players, Rng(seed)) if seed % 4 else {}, players,
                      seed, narrate=False)
    match.play_random(random.Random(seed).random)
    assert match.state == old
    assert match.actions == old_actions
    old = game.clone(start)
    chooser = random.Random(seed ^ 1)
    old_actions = old_play_out(game, old, lambda _s, _seat, legal: chooser.choice(legal))
    picked = Match.new(game, match.options, players, seed, narrate=False)
    chooser = random.Random(seed ^ 1)
    picked.play_out(lambda _s, _seat, legal: chooser.choice(legal))
    assert picked.state == old
    assert picked.actions == old_actions

GREEDY_GAMES = [n for n in game_names() if type(get_game(n))._greedy is not Game._greedy]
"""The games with a greedy playout policy (Kingdomino, Kami and Goita, Buttons)."""


def test_the_shipped_games_with_a_search_policy_have_a_greedy_one() -> None:
    own = [n for n in game_names() if get_game(n).playout_policy.kind != Kind.RANDOM]
    assert own == GREEDY_GAMES and len(own) >= 4


@pytest.mark.parametrize("name", GREEDY_GAMES)
def test_greedy_policies_choose_as_the_games_greedy_hook(name: str) -> None:
    """Kingdomino runs greedy policies in its own loop (it keeps each claim's planned
    placement); the contract's generic loop over ``_greedy`` plays the same match. For every
    game with a greedy hook, greedy play ends and epsilon-greedy(1) is random play's draws."""
    game = get_game(name)
    for seed in range(3):
        for policy in (GREEDY, Policy.epsilon_greedy(3)):
            start = game.setup(None, game.spec.min_players, seed)
            own, generic = game.clone(start), game.clone(start)
            own_rng, generic_rng = Rng(seed), Rng(seed)
            game.playout(own, policy, own_rng)
            Game._playout(game, generic, policy, generic_rng, Until.END, None)
            assert own == generic and own_rng == generic_rng
            assert game.is_over(own)


def test_a_game_without_a_greedy_policy_says_so() -> None:
    game = get_game("queendomino")
    with pytest.raises(ValueError, match="no greedy playout policy"):
        game.playout(game.setup(None, 2, 1), GREEDY, Rng(1))
    state = game.setup(None, 2, 1)
    game.playout(state, GAME, Rng(1))  # its own policy is random play
    assert game.is_over(state)


def test_policies_are_named_by_specs() -> None:
    assert parse("random") == RANDOM and parse("greedy") == GREEDY and parse("game") == GAME
    assert parse("epsilon-greedy(8)") == Policy(Kind.EPSILON_GREEDY, 8)
    for policy in (RANDOM, GREEDY, GAME, Policy.epsilon_greedy(32)):
        assert parse(policy.spec()) == policy
    for bad in ("", "Random", "epsilon-greedy()", "epsilon-greedy(0)", "greedy(2)"):
        with pytest.raises(ValueError):
            parse(bad)
    python = Policy.python(lambda state, seat, legal, rng: legal[0])
    with pytest.raises(ValueError):
        python.spec()
    with pytest.raises(ValueError):
        Policy(Kind.RANDOM, choose=python.choose)


# ---- indices, snapshots and reveals along random matches --------------------------------


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
@settings(max_examples=examples(3), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_indices_snapshots_and_reveals_along_a_random_match(
    game: Game[Any, Any], players: int, seed: int
) -> None:
    """At every step: every legal index names an action whose index it is and that is legal;
    a snapshot restores an equal, independent state (its generator too); and ``reveals`` and
    ``chance`` from before and after agree with applying the action to a copy."""
    rng = Rng(seed ^ 0xB0B)
    state = setup(game, players, seed)
    while seats := sorted(game.to_act(state)):
        seat = seats[rng.below(len(seats))]
        legal = game.legal_indices(state, seat)
        actions = [game.action_from_index(i) for i in legal]
        assert [a.index for a in actions] == legal
        assert [a.to_json() for a in actions] == [
            a.to_json() for a in game.legal_actions(state, seat)]
        data = game.snapshot(state)
        assert isinstance(data, bytes)
        back = game.restore(data)
        assert back == state and back is not state
        index = legal[rng.below(len(legal))]
        action = game.action_from_index(index)
        want = old_reveals(game, state, seat, action)
        before = game.clone(state)
        game.apply(state, seat, action)
        assert back == before  # independent of the state it was taken from
        assert (game.reveals(before, seat, action, state),
                game.chance(before, seat, action, state)) == want
        game.apply_index(back, seat, index)  # the restored copy plays on alike
        assert back == state


# ---- a game that writes only legal_indices, and one that never ends ----------------------


def _nim() -> Game[Any, Any]:
    return get_game("nim")  # tests/fifth_game/nim, registered for the whole run


def test_a_game_may_write_legal_indices_alone() -> None:
    """The contract's ``legal_actions`` follows from ``legal_indices`` and ``action_table``:
    Nim rewritten that way plays the very same random playouts and recorded matches."""
    nim = _nim()

    class IndexNim(type(nim)):  # type: ignore[misc]
        legal_actions = Game.legal_actions

        def legal_indices(self, state: Any, seat: int) -> list[int]:
            if seat != state.turn or state.winner >= 0:
                return []
            return list(range(min(3, state.pile)))

    indexed = IndexNim()
    for seed in range(20):
        a, b = nim.setup({"stones": 30}, 3, seed), indexed.setup({"stones": 30}, 3, seed)
        assert indexed.legal_actions(b, 0) == nim.legal_actions(a, 0)
        nim.playout(a, RANDOM, Rng(seed))
        indexed.playout(b, RANDOM, Rng(seed))
        assert a == b
        ours = Match.new(indexed, {"stones": 30}, 3, seed, narrate=False)
        ours.play_random(random.Random(seed).random)
        theirs = Match.new(nim, {"stones": 30}, 3, seed, narrate=False)
        theirs.play_random(random.Random(seed).random)
        assert ours.actions == theirs.actions and ours.state == theirs.state


def test_the_match_drivers_loops_stop_a_game_that_never_ends() -> None:
    nim = _nim()

    class Endless(type(nim)):  # type: ignore[misc]
        def _apply(self, state: Any, seat: int, action: Any) -> None:
            state.turn = (state.turn + 1) % state.players  # nobody ever takes a stone

    endless = Endless()
    match = Match.new(endless, None, 2, 1, narrate=False)
    with pytest.raises(RuntimeError, match="did not end"):
        match.play_random(random.Random(1).random)
    match = Match.new(endless, None, 2, 1, narrate=False)
    with pytest.raises(RuntimeError, match="did not end"):
        match.play_out(lambda _s, _seat, legal: legal[0])
