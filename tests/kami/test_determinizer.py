"""The determinizer fast path (view.py) samples exactly as ``determinize`` does."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from ludoteca.engine.rng import Rng
from ludoteca.games.kami.goita import GAME as GOITA
from ludoteca.games.kami.rules import GAME
from ludoteca.games.kami.view import _shuffle

CASES = [(GAME, 2, {}), (GAME, 3, {}), (GAME, 4, {}), (GAME, 4, {"end_mode": "kami"}),
         (GOITA, 4, {})]


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), case=st.sampled_from(CASES))
def test_determinizer_equals_determinize(seed: int, case: tuple) -> None:
    """For every rng state, ``determinizer(view, seat)(rng)`` is the state
    ``determinize(view, seat, rng)`` gives, and leaves ``rng`` in the same state; samples
    drawn one after another from one determinizer do not disturb each other (rules/kami.md
    A3, A6, B5: hands, face-down defenses and mercenaries, set-aside cards, revealed Soldiers
    and Goita's Shi limit are all sampled)."""
    game, players, options = case
    rng = Rng(seed)
    s = game.setup(options, players, seed=seed)
    step = 0
    revealed = 0
    while not game.is_over(s) and step < 400:
        if step % 9 == 0:
            revealed += any(s.revealed)
            for seat in (None, *range(players)):
                view = json.loads(json.dumps(game.view(s, seat)))
                sample = game.determinizer(view, seat)
                for k in range(3):
                    a, b = Rng(seed + k), Rng(seed + k)
                    want = game.determinize(view, seat, a)
                    got = sample(b)
                    assert got == want and a.state == b.state
                    assert game.view(got, seat) == view
        seat = next(iter(game.to_act(s)))
        acts = game.legal_actions(s, seat)
        game.apply(s, seat, acts[rng.below(len(acts))])
        step += 1


def test_determinizer_with_revealed_soldiers() -> None:
    """rules/kami.md A6: after a reveal the holder's Soldiers are placed first; the fast path
    agrees there too."""
    for seed in range(3000):
        s = GAME.setup({}, 4, seed=seed)
        if (s.hands[s.asked] >> 0) & 15 >= 5:
            break
    holder = s.asked
    GAME.apply(s, holder, GAME.action_from_json({"type": "declare", "reveal": True}))
    GAME.apply(s, (holder + 2) % 4, GAME.action_from_json({"type": "decide", "redeal": False}))
    for seat in (None, 0, 1, 2, 3):
        view = GAME.view(s, seat)
        sample = GAME.determinizer(view, seat)
        for k in range(5):
            assert sample(Rng(k)) == GAME.determinize(view, seat, Rng(k))


def test_inlined_shuffle_is_rng_shuffle() -> None:
    """view._shuffle gives Rng.shuffle's permutation and leaves the generator in its state."""
    for seed in range(200):
        for n in (0, 1, 2, 7, 24, 32):
            a, b = Rng(seed), Rng(seed)
            x, y = list(range(n)), list(range(n))
            a.shuffle(x)
            _shuffle(b, y)
            assert x == y and a.state == b.state
