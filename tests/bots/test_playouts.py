"""Kingdomino playout policy: its incremental gain is the true score change, its moves legal."""

from __future__ import annotations

from ludoteca.engine.playout import GAME as OWN_POLICY
from ludoteca.engine.playout import Until
from ludoteca.engine.rng import Rng
from ludoteca.games.kingdomino import scoring
from ludoteca.games.kingdomino.actions import PLACES, Place
from ludoteca.games.kingdomino.components import DOMINOES
from ludoteca.games.kingdomino.grid import place
from ludoteca.games.kingdomino.playout import best_placement
from ludoteca.games.kingdomino.rules import GAME
from ludoteca.games.kingdomino.state import PLACE_STEP, PLAY


def test_greedy_gain_is_the_exact_territory_score_change() -> None:
    """Over many reachable positions, the placement best_placement picks is legal and its gain
    equals territory_points after minus before, and no legal placement gains more."""
    checked = 0
    for seed in range(30):
        s = GAME.setup({"mighty_duel": seed % 2 == 0}, 2, seed)
        rng = Rng(seed)
        while not GAME.is_over(s):
            (seat,) = GAME.to_act(s)
            legal = GAME.legal_actions(s, seat)
            if s.phase == PLAY and s.step == PLACE_STEP:
                k = s.kingdoms[seat]
                n = s.cur[s.acting]
                gain, cell, d = best_placement(k, n, s.cfg.frame)
                places = [a for a in legal if isinstance(a, Place)]
                if not places:
                    assert gain == -1
                else:
                    assert PLACES[(cell << 2) | d] in places
                    before = scoring.territory_points(k)
                    dom = DOMINOES[n]
                    gains = []
                    for a in places:
                        after = k[:]
                        place(
                            after,
                            a.cell,
                            a.d,
                            dom.terrains[0],
                            dom.crowns[0],
                            dom.terrains[1],
                            dom.crowns[1],
                        )
                        gains.append(scoring.territory_points(after) - before)
                        if (a.cell, a.d) == (cell, d):
                            assert gains[-1] == gain
                    assert gain == max(gains)
                    checked += 1
            GAME.apply(s, seat, legal[rng.below(len(legal))])
    assert checked > 500


def test_playouts_finish_games_through_legal_actions() -> None:
    """A playout from any point ends the game; every move it makes is legal (checked replay)."""
    for seed in range(20):
        s = GAME.setup({}, 2 + seed % 3, seed)
        start = s.clone()
        log: list[tuple[int, int]] = []
        GAME.playout(s, OWN_POLICY, Rng(seed), Until.END, log)
        assert GAME.is_over(s)
        for seat, index in log:
            GAME.apply(start, seat, GAME.action_from_index(index))
        assert start == s


def test_round_rollouts_stop_at_the_end_of_the_round() -> None:
    """Every game's round rollout (Kami's, Goita's, Buttons': the games whose search profile
    has one) plays to the end of the current round (or game) and returns one reward in [0, 1]
    per seat."""
    from ludoteca.games import entry, game_names, get_game

    rolled = [n for n in game_names() if entry(n).search_profile().rollout is not None]
    assert len(rolled) >= 3
    for name in rolled:
        game = get_game(name)
        players = game.spec.min_players
        for seed in range(10):
            state = game.setup({}, players, seed)
            start = state.round
            rollout = entry(name).search_profile().rollout
            assert rollout is not None
            rewards = rollout(game, state, Rng(seed), 0.0)
            assert len(rewards) == players
            assert all(0.0 <= r <= 1.0 for r in rewards)
            assert game.is_over(state) or state.round == start + 1
