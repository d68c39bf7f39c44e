"""Tournament statistics and seat rotation; bot names and their errors."""

from __future__ import annotations

import pytest

from ludoteca.bots import check_bot, make_bot, parse_bot_list
from ludoteca.engine.errors import OptionError
from ludoteca.games import get_game
from ludoteca.tournament import mean_interval, play_game, run_tournament, wilson_interval


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = wilson_interval(40, 40)
    assert hi == 1.0 and lo == pytest.approx(0.9124, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_mean_interval() -> None:
    mean, lo, hi = mean_interval([1.0, 2.0, 3.0])
    assert mean == 2.0 and lo < 2.0 < hi
    assert mean_interval([5.0]) == (5.0, 5.0, 5.0)


def test_every_bot_plays_every_seat_equally() -> None:
    result = run_tournament("kingdomino", ["greedy", "random"], 2, 6, seed=1)
    assert result.stats["greedy"].seat_games == {0: 3, 1: 3}
    assert result.stats["random"].seat_games == {0: 3, 1: 3}
    four = run_tournament("kingdomino", ["greedy", "random", "random", "random"], 4, 4, seed=2)
    assert four.stats["greedy"].seat_games == {0: 1, 1: 1, 2: 1, 3: 1}
    assert four.stats["random"].games == 12


def test_wins_add_up_to_the_number_of_games() -> None:
    result = run_tournament("kingdomino", ["greedy"], 2, 6, seed=3)  # greedy against itself
    stats = result.stats["greedy"]
    assert stats.games == 12
    assert stats.wins == pytest.approx(6)  # shared wins are fractions, the total is one per game
    assert stats.moves > 0 and stats.mean_move_ms > 0
    data = result.to_json()
    assert data["bots"][0]["win_rate"] == pytest.approx(0.5)


def test_same_seed_same_results() -> None:
    a = run_tournament("kingdomino", ["greedy", "random"], 3, 3, seed=9)
    b = run_tournament("kingdomino", ["greedy", "random"], 3, 3, seed=9)
    assert a.stats["greedy"].scores == b.stats["greedy"].scores


def test_play_game_reports_moves() -> None:
    game = get_game("kingdomino")
    seen = []
    outcome, _ = play_game(
        game, [make_bot("random", 1), make_bot("greedy", 2)], {}, 4,
        on_move=lambda seat, t: seen.append(seat),
    )
    assert len(outcome.scores) == 2 and set(seen) == {0, 1}


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game_name": "chess", "bots": ["random"]}, "unknown game"),
        ({"game_name": "kingdomino", "bots": ["random"], "players": 9}, "2-4 players"),
        ({"game_name": "kingdomino", "bots": ["random"] * 3, "players": 2}, "only 2 seats"),
        ({"game_name": "kingdomino", "bots": ["random"], "games": 0}, "at least 1"),
        ({"game_name": "kingdomino", "bots": ["random"], "options": {"x": 1}}, "unknown option"),
    ],
)
def test_bad_tournaments_explain(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        run_tournament(**kwargs)  # type: ignore[arg-type]


def test_bot_names() -> None:
    assert parse_bot_list("greedy, Random,easy") == ["greedy", "random", "greedy"]
    with pytest.raises(OptionError, match="unknown bot 'smart'"):
        parse_bot_list("greedy,smart")
    with pytest.raises(OptionError, match="at least one bot"):
        parse_bot_list(" , ")
    with pytest.raises(OptionError, match="greedy bot cannot play"):
        check_bot("greedy", "no_such_game")
    check_bot("random", "no_such_game")
    check_bot("greedy", "kingdomino")


def test_search_bots_share_the_cpus_with_the_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """--workers 0 gives each game's search bots the CPUs left per job; an explicit number is
    passed through to the bot; a negative one is refused."""
    from ludoteca.tournament import make_entrant, resolve_workers

    monkeypatch.setattr("os.cpu_count", lambda: 8)
    assert resolve_workers(0, 1) == 8
    assert resolve_workers(0, 2) == 4
    assert resolve_workers(0, 16) == 1
    assert resolve_workers(3, 2) == 3
    with pytest.raises(OptionError, match="--workers"):
        resolve_workers(-1, 1)
    bot = make_entrant("hard", "kingdomino", 0, 2, {}, seed=1, workers=3)
    try:
        assert bot.workers == 3
    finally:
        bot.close()
    result = run_tournament("kingdomino", ["greedy", "random"], games=2, workers=2)
    assert result.workers == 2 and result.to_json()["workers"] == 2
