"""Greedy evaluators used inside search: state-based twins of the view-based bots, root pruning
by a prior, and the searching seat's own decision at the root of simultaneous steps."""

from __future__ import annotations

from typing import Any

import pytest

from ludoteca.bots.search import root_candidates, search
from ludoteca.engine.rng import Rng
from ludoteca.games import get_game
from ludoteca.games.buttons import bot as greedy_buttons
from ludoteca.games.buttons.search import PROFILE as BUTTONS
from ludoteca.games.buttons.search import buttons_rollout
from ludoteca.games.buttons.state import PLACE
from ludoteca.games.kami import bot as greedy_kami
from ludoteca.games.kami.search import PROFILE as KAMI
from ludoteca.games.kami.search import kami_prior, kami_rollout


def walk(game_name: str, players: int, seed: int, every: int = 1) -> Any:
    """Yield (game, state) at every step of random games."""
    game = get_game(game_name)
    rng = Rng(seed)
    for g in range(6):
        state = game.setup({}, players, seed * 100 + g)
        step = 0
        while seats := game.to_act(state):
            if step % every == 0:
                yield game, state
            seat = min(seats)
            legal = game.legal_actions(state, seat)
            game.apply_legal(state, seat, legal[rng.below(len(legal))])
            step += 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kami_state_unseen_counts_only_what_the_seat_sees(players: int) -> None:
    """The playouts' unseen counts, read off the full state, equal the greedy bot's, read off
    the seat's view: no hidden card leaks into the playout policy's choices."""
    checked = 0
    for game, state in walk("kami", players, seed=players, every=3):
        for seat in range(players):
            view = game.view(state, seat)
            assert greedy_kami.state_unseen(state, seat) == greedy_kami.unseen_counts(view)
            checked += 1
    assert checked > 300


def test_kami_playout_choice_is_the_greedy_bots_choice() -> None:
    """From the same state and random stream, the state-based choice equals the bot's."""
    for game, state in walk("kami", 2, seed=11, every=2):
        (seat,) = game.to_act(state)
        view = game.view(state, seat)
        a = greedy_kami.choose(game, view, seat, Rng(5))
        rng = Rng(5)
        game.determinize(view, seat, rng)  # the bot draws its determinization first
        legal = game.legal_actions(state, seat)
        assert greedy_kami.playout_choice(state, seat, legal, rng) == a


def test_buttons_state_choice_is_the_greedy_bots_choice() -> None:
    for game, state in walk("buttons", 3, seed=12, every=2):
        for seat in sorted(game.to_act(state)):
            view = game.view(state, seat)
            legal = game.legal_actions(state, seat)
            expected = greedy_buttons.choose(game, view, seat, Rng(1))
            assert greedy_buttons.choose_state(state, seat, legal) == expected


@pytest.mark.parametrize("game_name", ["kami", "buttons"])
def test_round_rollouts_stay_legal_and_reward_in_range(game_name: str) -> None:
    """The greedy round rollouts end the round (or game) through legal moves only and give
    every seat a reward in [0, 1]."""
    rollout = kami_rollout if game_name == "kami" else buttons_rollout
    for game, state in walk(game_name, 2, seed=13, every=7):
        s = game.clone(state)
        rewards = rollout(_checked(game), s, Rng(s.ply), 0.0)
        assert len(rewards) == 2
        assert all(0.0 <= r <= 1.0 for r in rewards)
        assert s.round > state.round or game.is_over(s)


class _checked:
    """The game with apply_legal replaced by the checked apply, to prove every move legal."""

    def __init__(self, game: Any) -> None:
        self._game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def apply_legal(self, state: Any, seat: int, action: Any) -> None:
        self._game.apply(state, seat, action)


def test_root_is_pruned_to_the_priors_best_actions() -> None:
    """Kami's root keeps only the greedy evaluator's best `width` actions (its profile); the
    search visits no other and its choice is one of them."""
    width = KAMI.width
    seen_wide = 0
    for game, state in walk("kami", 2, seed=14, every=5):
        (seat,) = game.to_act(state)
        view = game.view(state, seat)
        legal = game.legal_actions(state, seat)
        allowed = root_candidates(game, view, seat, Rng(3), KAMI)
        if len(legal) <= width:
            assert allowed is None
            continue
        seen_wide += 1
        assert allowed is not None and len(allowed) == width
        assert allowed <= {a.index for a in legal}
        ranked = kami_prior(game, game.clone(state), seat, legal, Rng(3))
        assert ranked[0].index in allowed  # the greedy favourite is always kept
        stats, _ = search(game, view, seat, iterations=60, seed=3, width=width, profile=KAMI)
        assert len(stats.visits) == width  # ties in the prior are broken by the search's rng
        assert set(stats.visits) <= {a.index for a in legal}
        if seen_wide >= 8:
            break
    assert seen_wide >= 8


def test_search_roots_at_the_searching_seat_in_a_simultaneous_step() -> None:
    """Buttons asks several seats at once; a later seat's search must be about its own
    choices, not the earlier seat's (whose actions share the same indices)."""
    found = 0
    for game, state in walk("buttons", 3, seed=15):
        seats = sorted(game.to_act(state))
        if state.phase != PLACE or len(seats) < 2:
            continue
        seat = seats[-1]
        view = game.view(state, seat)
        own = {a.index for a in game.legal_actions(state, seat)}
        if own == {a.index for a in game.legal_actions(state, seats[0])}:
            continue
        stats, tree = search(
            game, view, seat, iterations=40, seed=1, mode="uct", profile=BUTTONS
        )
        assert set(stats.visits) <= own
        assert all(child.seat == seat for child in tree.children.values())
        found += 1
        if found >= 5:
            break
    assert found >= 5


def test_kami_best_play_heads_the_ranking() -> None:
    """Playouts take ``best`` (no sort); the root prior takes ``ranked``: from the same random
    stream they agree on the favourite."""
    checked = 0
    for game, state in walk("kami", 3, seed=16, every=2):
        (seat,) = game.to_act(state)
        legal = game.legal_actions(state, seat)
        if len(legal) < 2 or not hasattr(legal[-1], "attack"):
            continue
        unseen = greedy_kami.state_unseen(state, seat)
        assert greedy_kami.best(legal, state, seat, unseen, Rng(checked)) == greedy_kami.ranked(
            legal, state, seat, unseen, Rng(checked)
        )[0]
        checked += 1
    assert checked > 100
