"""Tournament statistics and seat rotation; games through the match driver, their saved records;
bot names and their errors; the search pool of a process playing games."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest

import ludoteca.tournament.runner as runner
from ludoteca.bots import SearchPool, check_bot, make_bot, parse_bot_list
from ludoteca.bots.search import SearchBot
from ludoteca.engine.errors import OptionError
from ludoteca.engine.match import Match, replay
from ludoteca.engine.record import MatchRecord
from ludoteca.games import get_game
from ludoteca.tournament import (
    BotStats,
    GameTask,
    TournamentResult,
    TournamentSettings,
    describe,
    make_entrant,
    mean_interval,
    play_task,
    resolve_workers,
    run_games,
    run_round_robin,
    run_tournament,
    stats_table,
    wilson_interval,
)


def kingdomino(bots: list[str], players: int | None = None, games: int = 6, **kw: Any) -> Any:
    return run_tournament(TournamentSettings("kingdomino", bots, players, games, **kw))


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = wilson_interval(40, 40)
    assert hi == 1.0 and lo == pytest.approx(0.9124, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(0, 3)[0] == 0.0 and wilson_interval(3, 3)[1] == 1.0


def test_mean_interval() -> None:
    mean, lo, hi = mean_interval([1.0, 2.0, 3.0])
    assert mean == 2.0 and lo < 2.0 < hi
    assert mean_interval([5.0]) == (5.0, 5.0, 5.0)


def test_score_intervals_stop_at_zero() -> None:
    """Scores are never negative, so their interval is not either (issue 12, item 7); values
    that can be negative keep the plain normal interval."""
    mean, lo, hi = mean_interval([0.0, 0.0, 0.0, 10.0])
    assert mean == 2.5 and lo == 0.0 and hi > 2.5
    assert mean_interval([-5.0, 5.0])[1] < -5.0
    stats = BotStats("random", games=2, scores=[0.0, 1.0])
    assert stats.score_interval[1] == 0.0
    _, rows = stats_table([stats])
    assert "0.5 (0.0-" in rows[0][3]


def test_every_bot_plays_every_seat_equally() -> None:
    result = kingdomino(["greedy", "random"], 2, 6, seed=1)
    assert result.stats["greedy"].seat_games == {0: 3, 1: 3}
    assert result.stats["random"].seat_games == {0: 3, 1: 3}
    four = kingdomino(["greedy", "random", "random", "random"], 4, 4, seed=2)
    assert four.stats["greedy"].seat_games == {0: 1, 1: 1, 2: 1, 3: 1}
    assert four.stats["random"].seat_games == {0: 3, 1: 3, 2: 3, 3: 3}
    assert four.stats["random"].games == 4  # games, not the 12 seats it held


def test_a_bot_in_several_seats_counts_games_not_seats() -> None:
    """``greedy,random`` at 4 players: each bot holds two seats of every game, and its row says
    4 games, its win is either seat winning, its score the mean of its seats (issue 12, item 7)."""
    result = kingdomino(["greedy", "random"], 4, 4, seed=2)
    greedy, rand = result.stats["greedy"], result.stats["random"]
    assert greedy.games == rand.games == 4
    assert greedy.seat_games == rand.seat_games == {0: 2, 1: 2, 2: 2, 3: 2}
    assert greedy.wins + rand.wins == pytest.approx(4)
    assert len(greedy.scores) == 4 and 0 <= greedy.win_rate <= 1
    _, rows = stats_table(result.stats.values())
    assert [row[1] for row in rows] == ["4", "4"]
    assert [b["games"] for b in result.to_json()["bots"]] == [4, 4]


def test_a_lone_bot_in_a_round_robin_counts_its_games() -> None:
    result = run_round_robin(
        TournamentSettings("kingdomino", ["easy", "random"], players=3, games=3, seed=4)
    )
    for pairing in result.pairings:
        assert pairing.games == pairing.a_stats.games == pairing.b_stats.games == 3
        assert sum(pairing.b_stats.seat_games.values()) == 6  # two seats a game, three games
    assert [s.games for s in result.overall.values()] == [3, 3]


def test_wins_add_up_to_the_number_of_games() -> None:
    result = kingdomino(["greedy", "random"], 2, 6, seed=3)
    stats = result.stats["greedy"]
    assert stats.wins + result.stats["random"].wins == pytest.approx(6)  # shared wins: fractions
    assert stats.moves > 0 and stats.mean_move_ms > 0
    alone = kingdomino(["greedy"], 2, 6, seed=3).stats["greedy"]  # greedy against itself
    assert alone.games == 6 and alone.wins == pytest.approx(6) and alone.win_rate == 1.0
    assert alone.seat_games == {0: 6, 1: 6}
    assert kingdomino(["greedy"], 2, 6, seed=3).to_json()["bots"][0]["win_rate"] == 1.0


def test_same_seed_same_results() -> None:
    a = kingdomino(["greedy", "random"], 3, 3, seed=9)
    b = kingdomino(["greedy", "random"], 3, 3, seed=9)
    assert a.stats["greedy"].scores == b.stats["greedy"].scores


def test_a_tournament_game_is_a_match_of_the_driver() -> None:
    """play_task plays through Match.run_bots: the same bots, seeded the same way, in a match
    of the driver reach the same scores; moves and thinking time come from its steps."""
    task = GameTask(0, "kingdomino", {}, 4, ("random", "greedy"))
    record = play_task(task)
    game = get_game("kingdomino")
    bots = [make_bot(name, "kingdomino", 4 + 7919 * seat) for seat, name in enumerate(task.seating)]
    match = Match.new(game, {}, 2, 4, controllers=bots, narrate=False)
    steps = match.run_bots()
    match.end()
    assert match.outcome is not None and record.scores == tuple(match.outcome.scores)
    assert record.moves == tuple(sum(s.seat == seat for s in steps) for seat in (0, 1))
    assert all(t > 0 for t in record.think) and record.forfeits == (None, None)


def test_saved_records_replay_to_the_same_scores(tmp_path: Path) -> None:
    """With a save directory every game's match record is saved (format v2, the bots named in
    its seats) and replays to the scores the tournament counted (issue 12, item 3)."""
    result = kingdomino(["greedy", "random"], 2, 4, seed=8, save_dir=tmp_path / "records")
    files = sorted((tmp_path / "records").iterdir())
    assert [f.name for f in files] == [f"kingdomino-{i}.json" for i in range(4)]
    game = get_game("kingdomino")
    greedy_scores = []
    for path in files:
        record = MatchRecord.load(path)
        outcome = game.outcome(replay(game, record))
        assert outcome is not None and record.result is not None
        assert list(outcome.scores) == record.result["scores"]
        names = [seat["name"] for seat in record.seats]
        assert sorted(names) == ["greedy", "random"] and record.version == 2
        greedy_scores.append(float(outcome.scores[names.index("greedy")]))
    assert greedy_scores == result.stats["greedy"].scores


def test_round_robin_saves_every_game_with_its_index(tmp_path: Path) -> None:
    """Worker processes save too; a game an external bot forfeited (this one exits at once)
    replays as well, the random stand-in's moves being in its record."""
    quitter = f"cmd:{sys.executable} -c pass"
    run_round_robin(
        TournamentSettings(
            "kingdomino", ["random", "easy", quitter], games=4, seed=1, jobs=2,
            save_dir=tmp_path,
        )
    )
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [f"kingdomino-{i:02d}.json" for i in range(12)]  # 3 pairings × 4 games
    game = get_game("kingdomino")
    for name in names[::5]:
        record = MatchRecord.load(tmp_path / name)
        outcome = game.outcome(replay(game, record))
        assert outcome is not None and record.result is not None
        assert list(outcome.scores) == record.result["scores"]


def test_unusable_save_directory_is_refused_before_any_game(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(OptionError, match="cannot save match records"):
        kingdomino(["random"], 2, 1, save_dir=blocker / "sub")


def test_search_processes_are_mentioned_only_when_a_search_bot_plays() -> None:
    """Issue 12, item 7: ``--workers`` means nothing to random and greedy bots."""
    listed = kingdomino(["greedy", "random"], 2, 1, workers=2)
    assert listed.workers == 2 and listed.to_json()["workers"] == 2
    assert "search processes" not in describe(listed)
    assert "1 game," in describe(listed)
    searching = TournamentResult(
        "kingdomino", 2, {}, 0, ["medium", "easy"], 2, {}, 1.0, workers=2
    )
    assert "2 search processes per bot" in describe(searching)
    searching.workers = 1
    assert "search processes" not in describe(searching)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game": "chess", "entrants": ["random"]}, "unknown game"),
        ({"game": "kingdomino", "entrants": []}, "at least one bot"),
        ({"game": "kingdomino", "entrants": ["random"], "players": 9}, "2-4 players"),
        ({"game": "kingdomino", "entrants": ["random"] * 3, "players": 2}, "only 2 seats"),
        ({"game": "kingdomino", "entrants": ["random"], "games": 0}, "at least 1"),
        ({"game": "kingdomino", "entrants": ["random"], "options": {"x": 1}}, "unknown option"),
        ({"game": "kingdomino", "entrants": ["random"], "workers": -1}, "--workers"),
    ],
)
def test_bad_tournaments_explain(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        run_tournament(TournamentSettings(**kwargs))


def test_bot_names() -> None:
    assert parse_bot_list("greedy, Random,easy") == ["greedy", "random", "greedy"]
    with pytest.raises(OptionError, match="unknown bot 'smart'"):
        parse_bot_list("greedy,smart")
    with pytest.raises(OptionError, match="at least one bot"):
        parse_bot_list(" , ")
    with pytest.raises(OptionError, match="unknown game"):
        check_bot("greedy", "no_such_game")
    check_bot("random", "no_such_game")
    check_bot("greedy", "kingdomino")


def test_search_bots_share_the_cpus_with_the_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """--workers 0 gives each game's search bots the CPUs left per job; an explicit number is
    passed through to the bot with the pool it borrows; a negative one is refused."""
    monkeypatch.setattr("os.cpu_count", lambda: 8)
    assert resolve_workers(0, 1) == 8
    assert resolve_workers(0, 2) == 4
    assert resolve_workers(0, 16) == 1
    assert resolve_workers(3, 2) == 3
    with pytest.raises(OptionError, match="--workers"):
        resolve_workers(-1, 1)
    pool = SearchPool(2)  # starts no process until a search uses it
    bot = make_entrant("hard", "kingdomino", 0, 2, {}, seed=1, workers=3, pool=pool)
    try:
        assert isinstance(bot, SearchBot) and bot.workers == 3 and bot.pool is pool
    finally:
        bot.close()
        pool.close()


class FakePool:
    """Stands for SearchPool: counts what is made and closed, starts nothing."""

    made: ClassVar[list[FakePool]] = []

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self.closed = False
        FakePool.made.append(self)

    def close(self) -> None:
        self.closed = True


def test_one_search_pool_per_process_made_when_first_needed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The process playing the games makes one pool, only for a search bot with workers > 1,
    lends it to every game and closes it when done."""
    FakePool.made = []
    monkeypatch.setattr(runner, "SearchPool", FakePool)
    lent: list[object] = []

    def fake_play(task: GameTask, pool: object = None) -> Any:
        lent.append(pool)
        return runner.GameRecord(task.index, 0, task.seed, task.seating, (0, 0), (), (0, 0),
                                 (0.0, 0.0), (None, None))

    monkeypatch.setattr(runner, "play_task", fake_play)

    def task(i: int, seating: tuple[str, ...], workers: int) -> GameTask:
        return GameTask(i, "kingdomino", {}, i, seating, workers=workers)

    run_games([task(0, ("greedy", "random"), 3), task(1, ("easy", "hard"), 1)])
    assert lent == [None, None] and FakePool.made == []
    tasks = [task(i, ("medium", "random") if i % 2 else ("easy", "hard"), 3) for i in range(4)]
    run_games([task(9, ("random", "random"), 3), *tasks])
    (pool,) = FakePool.made
    assert lent[2:] == [None, pool, pool, pool, pool]
    assert pool.processes == 2 and pool.closed


def test_search_bots_in_worker_processes_finish_and_clean_up() -> None:
    """``jobs`` 2 and ``workers`` 2: each worker process makes its one search pool, lends it to
    its games and closes it as it exits (a close after the worker's queues shut down would
    wait forever), and the header names the search processes since a search bot played."""
    import threading

    results: list[Any] = []
    settings = TournamentSettings("kingdomino", ["medium", "random"], 2, 2, jobs=2, workers=2)
    play = threading.Thread(target=lambda: results.append(run_tournament(settings)), daemon=True)
    play.start()
    play.join(timeout=120)
    assert not play.is_alive(), "the tournament did not finish"
    (result,) = results
    assert result.stats["medium"].games == 2 and result.stats["medium"].moves > 0
    assert "2 search processes per bot" in describe(result)
