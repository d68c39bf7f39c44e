"""Club-sized Swiss tournaments on a real server process (SQLite), over real HTTP, server-sent
events and table WebSockets (issue 35): a 64-entrant Swiss of 2-player Kingdomino and a
32-entrant Swiss of 4-player Queendomino, half their entrants the arena's bots (random and
greedy) and half "people-programs" (separate accounts, each an asyncio client that signs up,
registers, waits for ``tournament_table`` on its event stream, opens its table and answers
every decision with a random legal action, as an outside program would); and both again with
the server killed (SIGKILL) in the middle of a round, some tables finished and some half
played, then started again on the same database (and killed once more as the next round is
paired): the people-programs reconnect, the tournaments finish, nothing is paired, opened or
decided twice and no finished result is lost.

Each run's crosstable is checked against an independent recomputation: results rebuilt from
the finished tables themselves (their outcomes and take-overs), standings from the pure
``ludoteca.tournament`` module on those, every round's draw re-paired from the results before
it, points and tie-breaks recounted by hand, and the Swiss invariants (everyone once a round, no
bye, no repeat pairing at two players)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from ludoteca.engine.game import Outcome
from ludoteca.server.db import Table, Tournament, TournamentGame, TournamentRound
from ludoteca.tournament.model import Entrant, GameResult, RoundDraw
from ludoteca.tournament.pairing import Format, format_standings, pair_round
from tests.server.client import CLIENT
from tests.server.conftest import Server
from tests.server.test_tournaments import engine_of

JSON = dict[str, Any]
HOLD_AFTER = 3
"""In the round the server is killed, half the people-programs stop answering after this many
moves of theirs (their tables cannot finish) until their socket drops."""
BOTS = ("random", "greedy")
"""The bot entrants' levels, in turn: the two that answer at once."""
GONE = (httpx.TransportError, ConnectionClosed, InvalidHandshake, OSError)
"""What a client sees while the server is down (or dies under it)."""


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("scale")
    found = Server(f"sqlite:///{folder / 'arena.sqlite3'}", folder,
                   LUDOTECA_DIRECTOR_SECONDS="0.2")
    found.start()
    try:
        yield found
    finally:
        found.stop()


@dataclass(frozen=True)
class Plan:
    """One tournament to run: the game, its table size, entrants, people among them, rounds."""

    prefix: str
    game: str
    players: int
    entrants: int
    people: int
    rounds: int
    kill_round: int | None = None

    @property
    def fmt(self) -> Format:
        return Format("swiss", self.players, self.rounds)


def cookie_of(http: httpx.AsyncClient) -> str:
    return "; ".join(f"{k}={v}" for k, v in http.cookies.items())


async def ok(response: httpx.Response) -> Any:
    assert response.status_code < 400, response.text
    return response.json()


async def sse(lines: AsyncIterator[str]) -> AsyncIterator[JSON]:
    """The events of an open ``/api/events`` stream, as JSON (each event's data)."""
    data = ""
    async for line in lines:
        if line.startswith("data:"):
            data += line.split(":", 1)[1].strip()
        elif line == "" and data:
            yield json.loads(data)
            data = ""


@dataclass
class Person:
    """A people-program: an account of its own that plays its tournament tables at random."""

    base: str
    name: str
    seed: int
    hold_round: int | None = None
    http: httpx.AsyncClient = field(init=False)
    me: JSON = field(default_factory=dict)
    tournament: str = ""
    played: list[tuple[int, str]] = field(default_factory=list)
    """(round, table) of each table played to its end, in order."""
    announced: set[str] = field(default_factory=set)
    """Tables its event stream announced (``tournament_table``)."""
    found_by_look: set[str] = field(default_factory=set)
    """Tables it learnt of from ``your_table`` after (re)subscribing, not from an event."""
    reconnects: int = 0
    subscribed: asyncio.Event = field(default_factory=asyncio.Event)
    holding: asyncio.Event = field(default_factory=asyncio.Event)
    released: bool = False

    def __post_init__(self) -> None:
        self.http = httpx.AsyncClient(base_url=self.base, headers=CLIENT, timeout=60)
        self.rng = random.Random(self.seed)

    @property
    def participant(self) -> str:
        return f"user:{self.me['id']}"

    async def sign_up(self) -> None:
        self.me = await ok(await self.http.post("/api/signup", json={
            "name": self.name, "password": "correct horse", "language": "en"}))

    async def register(self, tournament: str) -> None:
        self.tournament = tournament
        await ok(await self.http.post(f"/api/tournaments/{tournament}/register", json={}))

    async def sign_up_and_register(self, tournament: str) -> None:
        await self.sign_up()
        await self.register(tournament)

    async def run(self) -> None:
        """Play until the tournament is over; when the server goes away, reconnect."""
        while True:
            try:
                if await self.session():
                    return
            except GONE:
                self.reconnects += 1
                await asyncio.sleep(0.2)

    async def session(self) -> bool:
        """One event stream: after subscribing, the tournament's own ``your_table`` catches up
        on what came before (events are not replayed), then each ``tournament_table`` is
        played. True once the tournament finished."""
        tables: asyncio.Queue[tuple[int, str] | BaseException | None] = asyncio.Queue()
        async with self.http.stream("GET", "/api/events",
                                    timeout=httpx.Timeout(60, read=None)) as response:
            assert response.status_code == 200
            lines = response.aiter_lines()
            assert await anext(lines) == ": ludoteca"  # subscribed: nothing is missed now
            self.subscribed.set()
            listener = asyncio.create_task(self.listen(lines, tables))
            try:
                found = await ok(await self.http.get(f"/api/tournaments/{self.tournament}"))
                if found["status"] == "finished":
                    return True
                table = found["your_table"]
                if table is not None and table not in self.done:
                    self.found_by_look.add(table)
                    tables.put_nowait((found["round"], table))
                while True:
                    item = await tables.get()
                    if item is None:
                        return True
                    if isinstance(item, BaseException):
                        raise item
                    if item[1] not in self.done:
                        await self.play(*item)
            finally:
                listener.cancel()
                with contextlib.suppress(asyncio.CancelledError, *GONE):
                    await listener

    async def listen(self, lines: AsyncIterator[str],
                     tables: asyncio.Queue[tuple[int, str] | BaseException | None]) -> None:
        try:
            async for event in sse(lines):
                if event["type"] == "tournament_table" and (
                        event["tournament"] == self.tournament):
                    self.announced.add(event["table"])
                    tables.put_nowait((event["round"], event["table"]))
                elif event["type"] == "tournament" and (
                        event["tournament"]["id"] == self.tournament
                        and event["tournament"]["status"] == "finished"):
                    tables.put_nowait(None)
            tables.put_nowait(ConnectionError("the event stream ended"))
        except GONE as exc:
            tables.put_nowait(exc)

    @property
    def done(self) -> set[str]:
        return {t for _, t in self.played}

    async def play(self, round: int, table: str) -> None:
        """Answer this seat's decisions with random legal actions to the end (or, in the
        round the server is killed, stop after a few and wait for the socket to drop)."""
        url = self.base.replace("http", "ws", 1) + f"/ws/tables/{table}"
        async with connect(url, additional_headers={"cookie": cookie_of(self.http)},
                           max_size=None, open_timeout=30) as ws:
            state: JSON = json.loads(await ws.recv())
            assert state["type"] == "full", state
            moves, answered = 0, -1
            while state["status"] != "finished":
                legal = state.get("legal") or []
                if legal and state["seq"] != answered:
                    if (round == self.hold_round and not self.released
                            and moves >= HOLD_AFTER):
                        self.holding.set()  # reads on (nothing comes) until the kill
                    else:
                        answered = state["seq"]
                        await ws.send(json.dumps({"type": "act", "seq": state["seq"],
                                                  "action": self.rng.choice(legal)}))
                        moves += 1
                message: JSON = json.loads(await ws.recv())
                if message["type"] in ("full", "update"):
                    state = message
                elif message["type"] == "error" and message["code"] != "stale":
                    raise AssertionError(f"{self.name} at {table}: {message}")
        self.played.append((round, table))


# ---- running a tournament ------------------------------------------------------------------
@dataclass
class Run:
    plan: Plan
    tournament: str
    host: httpx.AsyncClient
    people: list[Person]
    seconds: float = 0.0
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    killed_at: JSON | None = None
    """The round's games as they stood when the server was killed."""


async def start(server: Server, plan: Plan) -> Run:
    """The host creates the Swiss; the people-programs sign up, register and start playing;
    then the host enters the bots, and the last entry starts it."""
    host = httpx.AsyncClient(base_url=server.base, headers=CLIENT, timeout=60)
    await ok(await host.post("/api/signup", json={
        "name": f"{plan.prefix}host", "password": "correct horse", "language": "en"}))
    made = await ok(await host.post("/api/tournaments", json={
        "name": f"{plan.game} club Swiss", "game": plan.game, "players": plan.players,
        "format": "swiss", "rounds": plan.rounds, "min_entrants": plan.entrants,
        "max_entrants": plan.entrants, "bank_seconds": 3600, "increment_seconds": 0}))
    tid = made["id"]
    # at most one holding person for every two tables: some tables are sure to finish
    every = max(2, plan.people * 2 * plan.players // plan.entrants)
    people = [Person(server.base, f"{plan.prefix}p{i:02d}", seed=i,
                     hold_round=plan.kill_round if i % every == 0 else None)
              for i in range(plan.people)]
    # each registers as soon as it has signed up: a connection left idle while the others'
    # passwords hash outlives the server's keep-alive, and reusing it as it closes is a ReadError
    await asyncio.gather(*(p.sign_up_and_register(tid) for p in people))
    forget_peak(server.pid)  # the sign-ups' password hashing is not the tournament's
    run = Run(plan, tid, host, people)
    run.tasks = [asyncio.create_task(p.run()) for p in people]
    await asyncio.gather(*(p.subscribed.wait() for p in people))
    for i in range(plan.entrants - plan.people):
        await ok(await host.post(f"/api/tournaments/{tid}/bots", json={"level": BOTS[i % 2]}))
    return run


async def look(run: Run) -> JSON:
    found: JSON = await ok(await run.host.get(f"/api/tournaments/{run.tournament}"))
    return found


async def until_held(run: Run, timeout: float = 120) -> JSON:
    """The kill round once every table without a holding person is decided and every table
    with one waits on a person who holds: some tables finished, the others half played."""
    held = {p.participant for p in run.people if p.hold_round is not None}
    holding = {p.participant: p.holding for p in run.people}
    end = time.monotonic() + timeout
    while True:
        found = await look(run)
        if found["round"] == run.plan.kill_round:
            games = found["rounds"][-1]["games"]
            free = [g for g in games if not held & set(g["seats"])]
            assert free and len(free) < len(games)
            waiting = [g for g in games if held & set(g["seats"])]
            # a table of two holding people waits on whichever of them is to move
            if all(g["result"] is not None for g in free) and all(
                    any(holding[e].is_set() for e in held & set(g["seats"])) for g in waiting):
                assert all(g["result"] is None for g in waiting)
                return found
        for task in run.tasks:  # a people-program that failed says why
            if task.done():
                task.result()
        assert time.monotonic() < end, (
            f"round {found['round']} did not reach its held state: holding "
            f"{[p.name for p in run.people if p.holding.is_set()]}, undecided "
            f"{[g['seats'] for g in found['rounds'][-1]['games'] if g['result'] is None]}")
        await asyncio.sleep(0.2)


async def tournaments(server: Server, plans: list[Plan]) -> list[Run]:
    """Run every plan at once to its end (killing the server in its kill round, if it has
    one); each tournament's state as it finished."""
    began = time.monotonic()
    runs: list[Run] = []
    try:
        for plan in plans:
            runs.append(await start(server, plan))
        players = [task for run in runs for task in run.tasks]
        killing = [run for run in runs if run.plan.kill_round is not None]
        if killing:
            async with asyncio.TaskGroup() as group:  # one failing stops the other
                held = [group.create_task(until_held(run)) for run in killing]
            for run, found in zip(killing, held, strict=True):
                run.killed_at = found.result()["rounds"][-1]
            server.kill()
            for run in killing:
                for p in run.people:
                    p.released = True
            await asyncio.to_thread(server.start)
            # and again the moment the first pairs its next round, while it opens the tables
            first = killing[0]
            while (await look(first))["round"] == first.plan.kill_round:
                await asyncio.sleep(0.02)
            server.kill()
            await asyncio.to_thread(server.start)
        await asyncio.wait_for(asyncio.gather(*players), 600)
        for run in runs:
            end = time.monotonic() + 60
            while (await look(run))["status"] != "finished":
                assert time.monotonic() < end
                await asyncio.sleep(0.1)
            run.seconds = time.monotonic() - began
        return runs
    finally:
        for run in runs:
            for task in run.tasks:
                task.cancel()
            await run.host.aclose()
            for p in run.people:
                await p.http.aclose()


# ---- checking the crosstable ---------------------------------------------------------------
def result_of(round: int, board: int, seats: list[str], table: JSON) -> GameResult:
    """A finished table's result for the tournament, rebuilt from the table itself: places are
    its outcome's ranks, scores its scores, and a seat a bot took over forfeits."""
    outcome = Outcome.from_json(table["result"])
    forfeits = tuple(bool(s["zombie"]) for s in table["seats"])
    return GameResult(round, board, tuple(seats), tuple(outcome.ranks),
                      tuple(float(s) for s in outcome.scores),
                      forfeits if any(forfeits) else ())


def by_hand(fmt: Format, results: list[GameResult], ids: list[str]) -> dict[str, JSON]:
    """Points and the format's tie-breaks counted directly from the rules in
    docs/tournaments.md (no forfeits, full tables): place points shared on ties."""
    full = (1.0, 0.0) if fmt.table_size == 2 else tuple(
        2.0 * (fmt.table_size - p) for p in range(1, fmt.table_size + 1))
    points = dict.fromkeys(ids, 0.0)
    earned: list[list[float]] = []
    for r in results:
        assert not r.forfeits and len(r.seats) == fmt.table_size
        got = []
        for place in r.places:
            covered = [full[i] for i in range(len(full))
                       if sorted(r.places).index(place) <= i
                       < sorted(r.places).index(place) + r.places.count(place)]
            got.append(sum(covered) / len(covered))
        earned.append(got)
        for seat, e in enumerate(r.seats):
            points[e] += got[seat]
    out: dict[str, JSON] = {e: {"points": points[e], "buchholz": [], "sb": 0.0, "opp": 0.0,
                                "score": 0.0} for e in ids}
    for r in results:
        for seat, e in enumerate(r.seats):
            others = [s for s in range(len(r.seats)) if s != seat]
            mine = out[e]
            mine["buchholz"].extend(points[r.seats[s]] for s in others)
            mine["sb"] += sum(points[r.seats[s]] * (1.0 if r.places[seat] < r.places[s] else
                                                    0.5 if r.places[seat] == r.places[s] else 0)
                              for s in others)
            mine["opp"] += sum(points[r.seats[s]] for s in others) / len(others)
            mine["score"] += r.scores[seat]
    return out


def check(server: Server, run: Run, found: JSON) -> list[GameResult]:
    """The served crosstable against the finished tables' results; the Swiss invariants; the
    rows in the database (each round paired once, each board one table, decided once)."""
    plan, fmt = run.plan, run.plan.fmt
    tid = run.tournament
    assert found["status"] == "finished" and found["round"] == plan.rounds
    ids = [e["participant"] for e in found["entrants"]]
    assert len(ids) == len(set(ids)) == plan.entrants
    bots = (plan.entrants - plan.people) // 2
    assert sum(i.startswith("bot:random@") for i in ids) == sum(
        i.startswith("bot:greedy@") for i in ids) == bots
    assert not any(e["withdrawn"] for e in found["entrants"])
    names = {p.participant: p.me["name"] for p in run.people}
    assert set(names) <= set(ids)
    assert [r["round"] for r in found["rounds"]] == list(range(1, plan.rounds + 1))

    results: list[GameResult] = []
    with httpx.Client(base_url=server.base, timeout=60) as http:
        for r in found["rounds"]:
            assert r["byes"] == []  # an even field at two, a multiple of four at four
            seated = [e for g in r["games"] for e in g["seats"]]
            assert sorted(seated) == sorted(ids)  # everyone plays once a round
            assert [g["board"] for g in r["games"]] == list(
                range(1, plan.entrants // plan.players + 1))
            for g in r["games"]:
                assert g["decided_by"] == "played" and g["table"] is not None
                table: JSON = http.get(f"/api/tables/{g['table']}").json()
                assert table["tournament"] == tid and table["status"] == "finished"
                assert [s["user"] if s["user"] else f"bot:{s['bot']}" for s in table["seats"]] \
                    == [names.get(e, e.split("@")[0]) for e in g["seats"]]
                mine = result_of(r["round"], g["board"], g["seats"], table)
                assert g["result"] == mine.to_json()
                results.append(mine)

    # the served standings are the pure module's on the tables' own results
    entrants = [Entrant(e["participant"], e["rating"]) for e in found["entrants"]]
    expected = format_standings(fmt, entrants, results, [], 0).to_json()
    served = found["standings"]
    assert [t["key"] for t in served["tiebreaks"]] == list(fmt.tiebreak_keys)
    assert [(r["entrant"], r["rank"], r["points"], r["tiebreaks"], r["games"], r["byes"])
            for r in served["rows"]] == [
        (r["entrant"], r["rank"], r["points"], r["tiebreaks"], r["games"], r["byes"])
        for r in expected["rows"]]
    # ... and counted again by hand
    hand = by_hand(fmt, results, ids)
    tables_per_round = plan.entrants // plan.players
    per_table = 1.0 if plan.players == 2 else sum(range(0, 2 * plan.players, 2))
    assert sum(r["points"] for r in served["rows"]) == pytest.approx(
        plan.rounds * tables_per_round * per_table)
    ranked = [(r["points"], tuple(r["tiebreaks"].values())) for r in served["rows"]]
    assert ranked == sorted(ranked, reverse=True)
    for row in served["rows"]:
        h, tb = hand[row["entrant"]], row["tiebreaks"]
        assert row["games"] == plan.rounds and row["byes"] == 0
        assert row["points"] == pytest.approx(h["points"])
        if plan.players == 2:
            assert tb["buchholz"] == pytest.approx(sum(h["buchholz"]))
            assert tb["buchholz_cut1"] == pytest.approx(sum(h["buchholz"]) - min(h["buchholz"]))
            assert tb["sonneborn_berger"] == pytest.approx(h["sb"])
        else:
            assert tb["opponents_points"] == pytest.approx(h["opp"])
            assert tb["game_score"] == pytest.approx(h["score"])

    # the database: each round paired once, each board one table, the draws the module's
    engine = engine_of(server)
    try:
        with engine.connect() as db:
            seed = db.execute(select(Tournament.seed).where(Tournament.id == tid)).scalar_one()
            draws = [RoundDraw.from_json(d) for d in db.execute(
                select(TournamentRound.draw).where(TournamentRound.tournament_id == tid)
                .order_by(TournamentRound.round)).scalars()]
            games = db.execute(select(TournamentGame.round, TournamentGame.board,
                                      TournamentGame.table_id).where(
                TournamentGame.tournament_id == tid)).all()
            tables = db.execute(select(Table.id).where(Table.tournament == tid)).scalars().all()
    finally:
        engine.dispose()
    assert [d.round for d in draws] == list(range(1, plan.rounds + 1))
    assert len(games) == len({(g.round, g.board) for g in games}) == len(results)
    assert sorted(tables) == sorted(g.table_id for g in games)  # no table opened twice
    for draw in draws:
        before = [r for r in results if r.round < draw.round]
        again = pair_round(fmt, entrants, before, [], draw.round, seed)
        assert again is not None and again.to_json() == draw.to_json()
        assert [list(t.seats) for t in draw.tables] == [
            g["seats"] for g in found["rounds"][draw.round - 1]["games"]]
    met = [frozenset(p) for r in results for p in itertools.combinations(r.seats, 2)]
    if plan.players == 2:
        assert len(set(met)) == len(met)  # nobody met twice
    # at four, a pair may meet again: the grouping is a greedy search (docs/tournaments.md),
    # and the draws are the module's own (above), repeats and all
    return results


def repeats(results: list[GameResult]) -> int:
    met = [frozenset(p) for r in results for p in itertools.combinations(r.seats, 2)]
    return len(met) - len(set(met))


def forget_peak(pid: int) -> None:
    """Start the server's peak resident memory (VmHWM) again from now."""
    Path(f"/proc/{pid}/clear_refs").write_text("5")


def peak_rss_mb(pid: int) -> float:
    """The server's peak resident memory (VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def figures(server: Server, run: Run) -> str:
    """Seconds per round (from each round's pairing to the next's, the last to the finish),
    and the director's share of it: from a round's last decided table to the next pairing."""
    engine = engine_of(server)
    try:
        with engine.connect() as db:
            paired = list(db.execute(select(TournamentRound.paired_at).where(
                TournamentRound.tournament_id == run.tournament)
                .order_by(TournamentRound.round)).scalars())
            decided = list(db.execute(select(func.max(TournamentGame.decided_at)).where(
                TournamentGame.tournament_id == run.tournament)
                .group_by(TournamentGame.round).order_by(TournamentGame.round)).scalars())
            finished = db.execute(select(Tournament.finished_at).where(
                Tournament.id == run.tournament)).scalar_one()
    finally:
        engine.dispose()
    assert finished is not None
    marks = [*paired, finished]
    rounds = [round((b - a).total_seconds(), 1) for a, b in itertools.pairwise(marks)]
    gaps = [round((b - a).total_seconds(), 2)
            for a, b in zip([d for d in decided if d is not None], marks[1:], strict=True)]
    return (f"{run.plan.game} x{run.plan.entrants}: {run.seconds:.1f} s in all, rounds {rounds} s"
            f" (last table decided to next pairing {gaps} s),"
            f" server peak RSS {peak_rss_mb(server.pid):.0f} MB")


# ---- the tests -----------------------------------------------------------------------------
KINGDOMINO = Plan("kds", "kingdomino", 2, 64, 32, 5)
QUEENDOMINO = Plan("qds", "queendomino", 4, 32, 16, 3)


@pytest.mark.parametrize("plan", [KINGDOMINO, QUEENDOMINO], ids=lambda p: p.game)
def test_a_club_swiss_runs_to_the_end_with_the_right_crosstable(arena: Server,
                                                                plan: Plan) -> None:
    [run] = asyncio.run(tournaments(arena, [plan]))
    found = httpx.get(f"{arena.base}/api/tournaments/{run.tournament}", timeout=60).json()
    results = check(arena, run, found)
    for p in run.people:  # one table a round, each announced by its event
        assert [r for r, _ in p.played] == list(range(1, plan.rounds + 1))
        assert p.announced == p.done and p.reconnects == 0
    print(figures(arena, run), f"repeats {repeats(results)}")


def test_club_swisses_killed_mid_round_resume_with_nothing_paired_twice_or_lost(
        arena: Server) -> None:
    """Both Swisses at once; in Kingdomino's round 3 and Queendomino's round 2, some
    people-programs stop answering after a few moves, so their tables wait while the others
    finish; the server is killed there (SIGKILL) and started again on the same database. It
    is killed once more the moment Kingdomino's round 4 is paired (its director opening the
    32 tables, or just done), and started again."""
    plans = [Plan("kdk", "kingdomino", 2, 64, 32, 5, kill_round=3),
             Plan("qdk", "queendomino", 4, 32, 16, 3, kill_round=2)]
    runs = asyncio.run(tournaments(arena, plans))
    for run in runs:
        plan = run.plan
        found = httpx.get(f"{arena.base}/api/tournaments/{run.tournament}", timeout=60).json()
        results = check(arena, run, found)
        assert plan.kill_round is not None and run.killed_at is not None
        assert run.killed_at["round"] == plan.kill_round
        now = {g["board"]: g for g in found["rounds"][run.killed_at["round"] - 1]["games"]}
        decided = [g for g in run.killed_at["games"] if g["result"] is not None]
        assert 0 < len(decided) < len(run.killed_at["games"])
        for g in run.killed_at["games"]:  # the same board, the same table, its result kept
            assert now[g["board"]]["table"] == g["table"]
            if g["result"] is not None:
                assert now[g["board"]]["result"] == g["result"]
        for p in run.people:
            assert [r for r, _ in p.played] == list(range(1, plan.rounds + 1))
            assert p.reconnects >= 1  # every stream and socket went down with the server
            assert p.done == p.announced | p.found_by_look
            before = {t for r, t in p.played if r < plan.kill_round}
            assert before <= p.announced  # before the kill, events told every table
        print(figures(arena, run), f"repeats {repeats(results)}")
