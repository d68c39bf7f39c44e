"""An operator's mistakes and signals, on real ``ludoteca serve`` and ``ludoteca worker``
processes (issue 23).

- Every bad setting, from a flag or the environment, ends the process with one line on stderr
  and a non-zero status, before anything starts, never with a traceback; so does a database
  that cannot be reached or migrated. Every variable settings.py reads refuses nonsense.
- Ctrl-C (SIGINT to the whole process group, as a terminal sends it) stops ``serve``, with a
  bot thinking, and ``worker``, with a job answered, cleanly: no traceback from the bot
  processes, no process left.
- SIGKILL of ``serve`` or ``worker`` leaves no orphan bot process (there were four per kill),
  and the parent watch that stands in for Linux's ``PR_SET_PDEATHSIG`` elsewhere works.
- The migration recipe of docs/server.md, run as written in a copy of the package, writes the
  next migration, which applies and reverts; with nothing to migrate it writes nothing.

The worker's tests need ``redis-server``, and the worker's SIGINT test and the database-user
test PostgreSQL at 127.0.0.1:5432; without them they skip, or fail under
``LUDOTECA_REQUIRE_SERVICES=1``, like the other server tests.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from arena_process import RedisServer, ServerProcess, free_port
from extra_games import python_path

from tests.server.client import Player
from tests.server.conftest import PG_ADMIN, REQUIRED, _postgres_database

ROOT = Path(__file__).resolve().parents[2]
ORPHAN_SECONDS = 5.0
"""How long the bot processes of a killed server may take to end."""


# ---- processes, as /proc shows them --------------------------------------------------------
def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (state first), or None."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()


def descendants(pid: int) -> dict[int, str]:
    """Every process below ``pid``, by pid, with its start time (pids are reused)."""
    parents: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if name.isdigit() and (fields := _stat(int(name))) is not None:
            parents[int(name)] = int(fields[1])
    found: dict[int, str] = {}
    todo = [pid]
    while todo:
        parent = todo.pop()
        for child, its_parent in parents.items():
            if its_parent == parent and (fields := _stat(child)) is not None:
                found[child] = fields[19]
                todo.append(child)
    return found


def running(processes: dict[int, str]) -> list[int]:
    """Those of ``processes`` still running (a zombie has ended: only its exit status is left)."""
    left = []
    for pid, started in processes.items():
        fields = _stat(pid)
        if fields is not None and fields[0] != "Z" and fields[19] == started:
            left.append(pid)
    return left


def wait_until_gone(processes: dict[int, str], seconds: float = ORPHAN_SECONDS) -> list[int]:
    """Wait up to ``seconds`` for ``processes`` to end; those still running then."""
    end = time.monotonic() + seconds
    while (left := running(processes)) and time.monotonic() < end:
        time.sleep(0.1)
    return left


def group_gone(pgid: int, seconds: float = ORPHAN_SECONDS) -> bool:
    """Whether no process is left in the process group ``pgid`` within ``seconds``."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


def kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)


def cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def bot_processes(pid: int, least: int) -> dict[int, str]:
    """The processes multiprocessing started below ``pid`` (the pool's, and its resource
    tracker), once at least ``least`` of the pool's are there."""
    end = time.monotonic() + 30
    while True:
        found = {p: s for p, s in descendants(pid).items() if b"multiprocessing" in cmdline(p)}
        if sum(1 for p in found if b"resource_tracker" not in cmdline(p)) >= least:
            return found
        assert time.monotonic() < end, f"no bot processes below {pid}: {descendants(pid)}"
        time.sleep(0.1)


# ---- the arena -----------------------------------------------------------------------------
def bot_moves(base: str, where: str) -> float:
    text = httpx.get(base + "/metrics", timeout=10).text
    found = re.search(rf'ludoteca_bot_moves{{where="{where}"}} ([0-9.e+]+)', text)
    return float(found.group(1)) if found else 0.0


def play_until_a_bot_moved(base: str, where: str = "local") -> None:
    """A guest plays Buttons against a greedy bot until the bot pool has chosen a move."""
    ana = Player(base)
    try:
        table = ana.create("buttons", 2, bots=["greedy"])
        sock = ana.socket(table["id"])
        rng, answered = random.Random(5), -1
        end = time.monotonic() + 60
        while bot_moves(base, where) < 1:
            assert time.monotonic() < end, "no bot moved"
            legal = sock.state.get("legal")
            if legal and sock.state["seq"] != answered:
                answered = sock.state["seq"]
                sock.act(rng.choice(legal))
            with contextlib.suppress(TimeoutError):
                sock.recv(timeout=0.5)
    finally:
        ana.close()


def quiet_log(text: str) -> None:
    """Nothing in a process's output says it stopped badly."""
    for bad in ("Traceback", "KeyboardInterrupt", "Error:", "Aborted"):
        assert bad not in text, text[-4000:]


# ---- bad settings --------------------------------------------------------------------------
BAD_SETTINGS: list[tuple[str, list[str], dict[str, str], str]] = [
    # (name, arguments, environment, what the line must name)
    ("bot delay not a number", ["serve"], {"LUDOTECA_BOT_DELAY": "abc"}, "LUDOTECA_BOT_DELAY"),
    ("bot delay negative", ["serve"], {"LUDOTECA_BOT_DELAY": "-1"}, "LUDOTECA_BOT_DELAY"),
    ("bot delay infinite", ["serve"], {"LUDOTECA_BOT_DELAY": "inf"}, "LUDOTECA_BOT_DELAY"),
    ("bot processes", ["serve"], {"LUDOTECA_BOT_PROCESSES": "two"}, "LUDOTECA_BOT_PROCESSES"),
    ("bot processes negative", ["serve"], {"LUDOTECA_BOT_PROCESSES": "-2"},
     "LUDOTECA_BOT_PROCESSES"),
    ("auth rate zero", ["serve"], {"LUDOTECA_AUTH_RATE": "0"}, "LUDOTECA_AUTH_RATE"),
    ("create rate", ["serve"], {"LUDOTECA_CREATE_RATE": "1.5"}, "LUDOTECA_CREATE_RATE"),
    ("lease", ["serve"], {"LUDOTECA_LEASE_SECONDS": "nan"}, "LUDOTECA_LEASE_SECONDS"),
    ("rematch", ["serve"], {"LUDOTECA_REMATCH_SECONDS": "soon"}, "LUDOTECA_REMATCH_SECONDS"),
    ("housekeeping zero", ["serve"], {"LUDOTECA_HOUSEKEEPING_SECONDS": "0"},
     "LUDOTECA_HOUSEKEEPING_SECONDS"),
    ("guest days", ["serve"], {"LUDOTECA_GUEST_DAYS": "-1"}, "LUDOTECA_GUEST_DAYS"),
    ("open tables", ["serve"], {"LUDOTECA_OPEN_TABLE_MINUTES": "1h"},
     "LUDOTECA_OPEN_TABLE_MINUTES"),
    ("account sign-ins", ["serve"], {"LUDOTECA_ACCOUNT_SIGNIN_RATE": "ten"},
     "LUDOTECA_ACCOUNT_SIGNIN_RATE"),
    ("socket rate", ["serve"], {"LUDOTECA_SOCKET_RATE": "0"}, "LUDOTECA_SOCKET_RATE"),
    ("tables per account", ["serve"], {"LUDOTECA_TABLES_PER_ACCOUNT": "0"},
     "LUDOTECA_TABLES_PER_ACCOUNT"),
    ("search bots", ["serve"], {"LUDOTECA_SEARCH_BOTS_PER_ACCOUNT": "-1"},
     "LUDOTECA_SEARCH_BOTS_PER_ACCOUNT"),
    ("proxy by name", ["serve"], {"LUDOTECA_TRUSTED_PROXIES": "nginx"},
     "LUDOTECA_TRUSTED_PROXIES"),
    ("proxy network", ["serve"], {"LUDOTECA_TRUSTED_PROXIES": "10.0.0.1/24"},
     "LUDOTECA_TRUSTED_PROXIES"),
    ("host with a port", ["serve"], {"LUDOTECA_ALLOWED_HOSTS": "games.example.org:443"},
     "LUDOTECA_ALLOWED_HOSTS"),
    ("cookie limit", ["serve"], {"LUDOTECA_COOKIE_LIMIT": "8k"}, "LUDOTECA_COOKIE_LIMIT"),
    ("request timeout", ["serve"], {"LUDOTECA_REQUEST_TIMEOUT": "0"},
     "LUDOTECA_REQUEST_TIMEOUT"),
    ("cycle collector", ["serve"], {"LUDOTECA_GC_PERIOD": "-0.1"}, "LUDOTECA_GC_PERIOD"),
    ("analysis budget", ["serve"], {"LUDOTECA_ANALYSIS_BUDGET": "many"},
     "LUDOTECA_ANALYSIS_BUDGET"),
    ("bots", ["serve"], {"LUDOTECA_BOTS": "cloud"}, "LUDOTECA_BOTS"),
    ("games not importable", ["serve"], {"LUDOTECA_GAMES": "nimm"}, "LUDOTECA_GAMES"),
    ("games not a game", ["serve"], {"LUDOTECA_GAMES": "json"}, "LUDOTECA_GAMES"),
    ("games twice", ["serve"], {"LUDOTECA_GAMES": "ludoteca.games.kami"}, "LUDOTECA_GAMES"),
    ("worker games", ["worker", "--redis-url", "redis://cache"], {"LUDOTECA_GAMES": "nimm"},
     "LUDOTECA_GAMES"),
    ("games for a command", ["games"], {"LUDOTECA_GAMES": "nimm"}, "LUDOTECA_GAMES"),
    ("bots queue without redis", ["serve"], {"LUDOTECA_BOTS": "queue"}, "LUDOTECA_REDIS_URL"),
    ("origin with a path", ["serve"], {"LUDOTECA_ALLOWED_ORIGINS": "https://club.example.org/"},
     "LUDOTECA_ALLOWED_ORIGINS"),
    ("redis url", ["serve"], {"LUDOTECA_REDIS_URL": "http://cache:6379"}, "LUDOTECA_REDIS_URL"),
    ("redis port", ["serve", "--redis-url", "redis://cache:http/0"], {}, "--redis-url"),
    ("redis with sqlite", ["serve"], {"LUDOTECA_REDIS_URL": "redis://127.0.0.1:6379/0"},
     "PostgreSQL"),
    ("database url", ["serve"], {"LUDOTECA_DATABASE_URL": "nonsense"}, "LUDOTECA_DATABASE_URL"),
    ("database kind", ["serve", "--database-url", "mysql://db/arena"], {}, "--database-url"),
    ("database port", ["serve", "--database-url", "postgresql://arena:s3cret@db:abc/arena"], {},
     "--database-url"),
    ("database unreachable",
     ["serve", "--database-url", "postgresql://arena:s3cret@127.0.0.1:{closed}/arena"], {},
     "cannot use the database"),
    ("sqlite folder", ["serve", "--database-url", "sqlite:////proc/ludoteca/arena.sqlite3"], {},
     "cannot use the database"),
    ("data folder", ["serve"], {"XDG_DATA_HOME": "/proc/ludoteca"}, "XDG_DATA_HOME"),
    ("port too large", ["serve", "--port", "99999"], {}, "--port"),
    ("port not a number", ["serve", "--port", "abc"], {}, "--port"),
    ("port in use", ["serve", "--port", "{busy}"], {}, "choose another --port"),
    ("host not here", ["serve", "--host", "192.0.2.1"], {}, "--host"),
    ("bot delay flag", ["serve", "--bot-delay", "-1"], {}, "--bot-delay"),
    ("unknown flag", ["serve", "--prot", "8000"], {}, "--prot"),
    ("worker without redis", ["worker"], {}, "--redis-url"),
    ("worker redis url", ["worker", "--redis-url", "http://cache"], {}, "--redis-url"),
    ("worker processes", ["worker", "--redis-url", "redis://cache", "--processes", "-1"], {},
     "--processes"),
    ("migrate unreachable",
     ["migrate", "--database-url", "postgresql://arena@127.0.0.1:{closed}/arena"], {},
     "cannot use the database"),
]


def run_to_failure(argv: list[str], env: dict[str, str], folder: Path) -> tuple[int, str, str]:
    """``ludoteca ARGV`` in a clean environment (no ``LUDOTECA_`` variable but ``env``'s): its
    status, stdout and stderr; killed after a minute, should it start after all."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("LUDOTECA_")}
    process = subprocess.Popen(
        [sys.executable, "-m", "ludoteca.cli", *argv],
        env={**clean, "XDG_DATA_HOME": str(folder / "data"), **env}, cwd=folder,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )
    try:
        out, err = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        kill_group(process.pid)
        out, err = process.communicate()
    finally:
        kill_group(process.pid)
    return process.returncode, out.decode(), err.decode()


def assert_one_line(status: int, out: str, err: str, named: str) -> None:
    lines = err.splitlines()
    assert status != 0, (out, err)
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ") and named in lines[0], lines[0]
    assert "Traceback" not in lines[0] and "s3cret" not in lines[0]
    assert "open http" not in out  # it never said it was serving


@pytest.mark.parametrize(("args", "env", "named"), [case[1:] for case in BAD_SETTINGS],
                         ids=[case[0] for case in BAD_SETTINGS])
def test_a_bad_setting_is_one_line_and_a_failure(
    args: list[str], env: dict[str, str], named: str, tmp_path: Path
) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        ports = {"closed": str(free_port()), "busy": str(busy.getsockname()[1])}
        argv = [arg.format(**ports) for arg in args]
        if argv[0] == "serve" and "--port" not in argv:  # never 8000, should it start
            argv += ["--port", ports["closed"]]
        assert_one_line(*run_to_failure(argv, env, tmp_path), named)


@pytest.fixture
def pg_url() -> Iterator[str]:
    yield from _postgres_database()


def test_a_database_user_who_may_not_create_tables_is_one_line(
    pg_url: str, tmp_path: Path
) -> None:
    """The database answers, but its user may not create the arena's tables: the migration
    fails before the server starts, in one line that says why."""
    import psycopg
    from sqlalchemy.engine import make_url

    role = "ludoteca_t_" + secrets.token_hex(4)
    with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
        admin.execute(f'CREATE ROLE "{role}" LOGIN')
    try:
        url = make_url(pg_url).set(username=role).render_as_string(hide_password=False)
        for argv in (["serve", "--database-url", url, "--port", str(free_port())],
                     ["migrate", "--database-url", url]):
            status, out, err = run_to_failure(argv, {}, tmp_path)
            assert_one_line(status, out, err, "cannot migrate the database")
            assert "permission denied" in err
    finally:
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP ROLE IF EXISTS "{role}"')


FREE_FORM = {"LUDOTECA_WEBHOOK_TEST_HOSTS": "a file's path: any text names one"}
"""Variables with no wrong value."""


def test_every_variable_the_settings_read_refuses_a_bad_value(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Each ``LUDOTECA_`` variable named in settings.py, set to nonsense, is a
    ``SettingError`` when the settings are read, the one line ``serve`` prints: a setting
    added without its check fails here."""
    from ludoteca.server.settings import SettingError, Settings

    source = (ROOT / "ludoteca" / "server" / "settings.py").read_text()
    names = sorted(set(re.findall(r'"(LUDOTECA_[A-Z_]+)"', source)) - set(FREE_FORM))
    assert len(names) >= 15, names
    for name in [n for n in os.environ if n.startswith("LUDOTECA_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    unchecked = []
    for name in names:
        with monkeypatch.context() as env:
            env.setenv(name, "not a setting!")
            try:
                Settings()
            except SettingError as exc:
                assert name in str(exc) and "\n" not in str(exc), str(exc)
            else:
                unchecked.append(name)
    assert not unchecked, (
        f"{unchecked} take any value: read them with _float, _int, _choice or _list(name, "
        "check) in settings.py, so a bad one stops the server in one line")


LIST_ITEMS = [
    ("origin", ["https://games.example.org", "http://127.0.0.1:8000", "https://[::1]:8443"],
     ["https://games.example.org/", "games.example.org", "ftp://x.org", "https://x.org:"]),
    ("allowed_host", ["games.example.org", ".Example.org", "localhost", "*"],
     ["https://x.org", "x.org:8000", "a..b", "-a.org", "x.org/path"]),
    ("proxy", ["10.0.0.1", "10.0.0.0/24", "::1", "fd00::/8"],
     ["nginx", "10.0.0.1/24", "10.0.0.0/33", "*"]),
    ("network", ["127.0.0.1/32", "10.0.0.1/24", "::1"], ["localhost", "10.0.0.0/33"]),
    ("account_name", ["ana", "bob_2", "x.y-z"], ["a b", "ana!", "", "x" * 33]),
]


@pytest.mark.parametrize(("check", "good", "bad"), LIST_ITEMS,
                         ids=[item[0] for item in LIST_ITEMS])
def test_the_checks_of_list_items(check: str, good: list[str], bad: list[str]) -> None:
    """What each item check of ``_list`` takes and refuses."""
    from ludoteca.server import settings

    test = getattr(settings, check)
    for item in good:
        assert test("LUDOTECA_X", item) == item
    for item in bad:
        with pytest.raises(settings.SettingError, match="LUDOTECA_X"):
            test("LUDOTECA_X", item)


# ---- Ctrl-C --------------------------------------------------------------------------------
def test_ctrl_c_stops_serve_with_a_bot_thinking_and_leaves_nothing(tmp_path: Path) -> None:
    """SIGINT to the server's whole process group, as Ctrl-C in its terminal, while a hard
    bot searches in a pool process: the server stops gracefully, the bot processes (which got
    the signal too) say nothing, and no process is left."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'arena.sqlite3'}", tmp_path,
                           LUDOTECA_BOT_PROCESSES="2")
    server.start()
    pgid = server.pid
    try:
        pool = bot_processes(server.pid, least=2)
        ana = Player(server.base)
        try:
            table = ana.create("buttons", 2, bots=["hard"])
            sock = ana.socket(table["id"])
            if not sock.state.get("legal"):  # the bot begins: wait for Ana's turn
                sock.until(lambda m: m["type"] == "update" and bool(m.get("legal")))
            while sock.state.get("legal"):  # Ana plays until it is the bot's turn
                seq = sock.state["seq"]
                sock.act(sock.state["legal"][0])
                sock.until(lambda m, s=seq: m["type"] == "update" and m["seq"] > s)
            time.sleep(0.5)  # the hard bot searches for 1.5 s
            os.killpg(pgid, signal.SIGINT)
            assert server.process is not None
            status = server.process.wait(40)
        finally:
            ana.close()
        log = server.log()
        assert status in (0, 130), log  # 130: a shell's "interrupted", after a clean stop
        quiet_log(log)
        assert '"message": "arena stopped"' in log
        assert group_gone(pgid), descendants(pgid)
        assert wait_until_gone(pool) == []
    finally:
        kill_group(pgid)
        server.stop()


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    if shutil.which("redis-server") is None:
        if REQUIRED:
            pytest.fail("redis-server is required (LUDOTECA_REQUIRE_SERVICES=1)")
        pytest.skip("redis-server is not installed")
    found = RedisServer(tmp_path)
    found.start()
    try:
        yield found
    finally:
        found.stop()


@contextlib.contextmanager
def worker_process(redis_url: str, folder: Path, processes: int = 2
                   ) -> Iterator[subprocess.Popen[bytes]]:
    """A ``ludoteca worker`` in its own process group, ready (its pool started)."""
    log_path = folder / "worker.log"
    with log_path.open("wb") as log:
        worker = subprocess.Popen(
            [sys.executable, "-m", "ludoteca.cli", "worker", "--redis-url", redis_url,
             "--processes", str(processes)],
            stdout=log, stderr=subprocess.STDOUT, cwd=folder, start_new_session=True,
        )
    try:
        end = time.monotonic() + 60
        while b"ready with" not in log_path.read_bytes():
            assert worker.poll() is None, log_path.read_text()
            assert time.monotonic() < end, log_path.read_text()
            time.sleep(0.1)
        yield worker
    finally:
        kill_group(worker.pid)
        worker.wait(10)


def test_ctrl_c_stops_a_worker_that_answered_and_leaves_nothing(
    pg_url: str, redis_server: RedisServer, tmp_path: Path
) -> None:
    """A worker chooses a bot move for a web process (``LUDOTECA_BOTS=queue``, PostgreSQL);
    SIGINT to its process group stops it with status 0, nothing said by its bot processes,
    nothing left."""
    with worker_process(redis_server.url, tmp_path) as worker:
        pool = bot_processes(worker.pid, least=2)
        web = ServerProcess(pg_url, tmp_path, LUDOTECA_REDIS_URL=redis_server.url,
                            LUDOTECA_BOTS="queue")
        web.start()
        try:
            time.sleep(1.0)  # the worker says it is alive every few seconds
            play_until_a_bot_moved(web.base, where="queue")
        finally:
            web.stop()
        os.killpg(worker.pid, signal.SIGINT)
        assert worker.wait(40) == 0
        quiet_log((tmp_path / "worker.log").read_text())
        assert group_gone(worker.pid), descendants(worker.pid)
        assert wait_until_gone(pool) == []


# ---- SIGKILL -------------------------------------------------------------------------------
def test_sigkill_of_serve_leaves_no_bot_process(tmp_path: Path) -> None:
    """The server alone is killed (not its group, as when the kernel's OOM killer picks it):
    its bot processes, which had just chosen a move, end within seconds."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'arena.sqlite3'}", tmp_path,
                           LUDOTECA_BOT_PROCESSES="2")
    server.start()
    try:
        play_until_a_bot_moved(server.base)
        pool = bot_processes(server.pid, least=2)
        os.kill(server.pid, signal.SIGKILL)
        assert server.process is not None
        server.process.wait(10)
        assert wait_until_gone(pool) == [], "orphans left"
    finally:
        kill_group(server.pid)
        server.stop()


def test_sigkill_of_worker_leaves_no_bot_process(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    with worker_process(redis_server.url, tmp_path) as worker:
        pool = bot_processes(worker.pid, least=2)
        os.kill(worker.pid, signal.SIGKILL)
        worker.wait(10)
        assert wait_until_gone(pool) == [], "orphans left"


WATCHED = textwrap.dedent('''
    import multiprocessing, os, sys, time

    from ludoteca.server.bot_process import watch_parent

    def child(parent, watch):
        if watch:
            watch_parent(parent, interval=0.1)
        time.sleep(120)

    if __name__ == "__main__":
        context = multiprocessing.get_context("spawn")
        process = context.Process(target=child, args=(os.getpid(), sys.argv[1] == "watch"))
        process.start()
        print(process.pid, flush=True)
        time.sleep(120)
''')


@pytest.mark.parametrize("watch", [True, False], ids=["watched", "unwatched"])
def test_the_parent_watch_ends_an_orphan_where_the_kernel_would_not(
    watch: bool, tmp_path: Path
) -> None:
    """The fallback for systems without ``PR_SET_PDEATHSIG``, run for real: a child that
    watches its parent ends soon after the parent is killed; one that does not (the control)
    lives on."""
    script = tmp_path / "watched.py"
    script.write_text(WATCHED)
    parent = subprocess.Popen([sys.executable, str(script), "watch" if watch else "no"],
                              stdout=subprocess.PIPE, cwd=tmp_path, start_new_session=True)
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        started = descendants(parent.pid)
        assert child in started
        parent.kill()
        parent.wait(10)
        left = wait_until_gone({child: started[child]}, 2.0)
        assert left == ([] if watch else [child])
    finally:
        if parent.stdout is not None:
            parent.stdout.close()
        kill_group(parent.pid)


# ---- the migration recipe ------------------------------------------------------------------
def documented_recipe() -> str:
    """The shell block of docs/server.md's Migrations section that writes a migration."""
    text = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    section = text.split("\n## Migrations\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    found = [block for block in blocks if "ludoteca.server.migrate" in block]
    assert len(found) == 1, blocks
    return found[0]


def test_the_documented_migration_recipe_writes_the_next_migration(tmp_path: Path) -> None:
    """In a copy of the package (the tree stays clean), a column is added to the tables'
    model and the recipe runs exactly as docs/server.md shows it, from the copy's root with
    its ``.venv/bin/python``. It writes the next migration in order, lint-clean, which adds
    the column and takes it away again; run again, it finds nothing and writes nothing."""
    versions = Path("ludoteca/server/migrations/versions")
    before = sorted(p.name for p in (ROOT / versions).glob("*.py"))
    checkout = tmp_path / "checkout"
    shutil.copytree(ROOT / "ludoteca", checkout / "ludoteca",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", checkout)
    python = checkout / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    python.chmod(0o755)
    model = checkout / "ludoteca" / "server" / "db.py"
    source = model.read_text()
    anchor = '    __tablename__ = "tables"\n'
    assert source.count(anchor) == 1
    model.write_text(source.replace(anchor, anchor + (
        '    note: Mapped[str | None] = mapped_column(String(200), nullable=True)\n')))
    env = {**os.environ, "PYTHONPATH": python_path(str(checkout))}

    def recipe() -> subprocess.CompletedProcess[str]:
        return subprocess.run(["bash", "-c", documented_recipe()], cwd=checkout, env=env,
                              capture_output=True, text=True, timeout=120)

    done = recipe()
    assert done.returncode == 0, done.stderr
    said = done.stdout.splitlines()[-1]
    assert said.startswith("Wrote ") and said.endswith(".py"), done.stdout
    number = max(int(name[:4]) for name in before) + 1
    written = sorted(set(p.name for p in (checkout / versions).glob("*.py")) - set(before))
    assert written == [f"{number:04d}_add_a_column_to_tables.py"]
    migration = checkout / versions / written[0]
    text = migration.read_text()
    assert f"revision = '{number:04d}'" in text
    assert f"down_revision = '{number - 1:04d}'" in text
    assert "add_column" in text and "'note'" in text
    lint = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", str(migration)],
                          cwd=checkout, capture_output=True, text=True)
    assert lint.returncode == 0, lint.stdout

    database = tmp_path / "arena.sqlite3"
    url = f"sqlite:///{database}"
    apply = textwrap.dedent(f'''
        import sqlite3
        from alembic import command
        from ludoteca.server.migrate import alembic_config, upgrade

        def columns():
            with sqlite3.connect("{database}") as db:
                return [row[1] for row in db.execute("PRAGMA table_info(tables)")]

        upgrade("{url}")
        print("upgraded:", columns())
        command.downgrade(alembic_config("{url}"), "-1")
        print("downgraded:", columns())
    ''')
    applied = subprocess.run([sys.executable, "-c", apply], cwd=checkout, env=env,
                             capture_output=True, text=True, timeout=120)
    assert applied.returncode == 0, applied.stderr
    upgraded, downgraded = applied.stdout.splitlines()[-2:]
    assert "'note'" in upgraded and "'id'" in upgraded
    assert "'note'" not in downgraded and "'id'" in downgraded

    again = recipe()
    assert again.returncode == 1 and "Traceback" not in again.stderr
    assert again.stderr.splitlines() == [
        "error: the models in db.py match the newest migration: nothing to write (--empty "
        "writes an empty one to fill by hand)"]
    assert sorted(set(p.name for p in (checkout / versions).glob("*.py")) - set(before)) \
        == written
    assert sorted(p.name for p in (ROOT / versions).glob("*.py")) == before
