"""Every shell command in the README and docs/ runs as written, and prints what the docs show.

The commands are read from the fenced blocks: ```sh blocks hold commands, ```console blocks
hold transcripts (``$ command`` and what it printed). A fenced block with no language that
holds a command fails the test: label it ``sh``, ``console`` or ``text`` (a synopsis such as
``ludoteca play GAME [--players N]`` is ``text``). Every command found is either run here or
listed in ``NOT_RUN`` with the reason; a command added to the docs and in neither fails.

How they run, from the command as written:

- ``ludoteca …`` runs through the real CLI in this process (Typer's runner), in an empty folder
  (records and results land there), with no input (a person who leaves at once); search bots
  think 10 ms a move here (``SEARCH_SECONDS``; Kingdomino's search a few playouts a move,
  ``PLAYOUTS``), so ``--jobs`` becomes 1.
- ``ludoteca serve`` and ``ludoteca worker`` run as processes until they print their address
  (then SIGTERM, and they must stop cleanly): on a free port, with their data in a scratch
  folder; the docs' example PostgreSQL and Redis addresses become a scratch database on the
  test PostgreSQL and a ``redis-server`` of the test's own (skipped without them, as the server
  tests are, except under ``LUDOTECA_REQUIRE_SERVICES=1``).
- Anything else (``python examples/…``) runs as a process from the checkout's root.
- Long commands run at a small size: ``SMALLER`` replaces a flag's value (``--games 100`` →
  ``--games 2``), ``APPEND`` adds small-size flags to a program, ``PLACEHOLDERS`` gives the
  docs' placeholders (``GAME``, ``match.json``) real values, and outputs meant for ``docs/img``
  go to the scratch folder. ``LUDOTECA_DOCS_FULL=1`` runs every command at its documented size
  instead (hours: the training examples) and then compares numbers too.

Output: where the docs show a transcript, a command run as written (no substitution) must print
the transcript's lines, in order, exactly (``…`` in a transcript skips lines; seconds taken,
``(12 s)``, are not compared; what a person typed follows the prompt, ``P1> 36``, and is fed
to the command); a command run at a small size must print every line of the transcript in
shape: numbers, paths and the widths of tables aside (its numbers and line counts differ).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

import ludoteca.bots as bots
from ludoteca import cli
from ludoteca.games.kingdomino.search import PLAYOUTS as KINGDOMINO_PLAYOUTS

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "support"))
from arena_process import RedisServer, free_port  # noqa: E402

DOC_FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
             *sorted((ROOT / "docs" / "rules").glob("*.md"))]
FULL = os.environ.get("LUDOTECA_DOCS_FULL") == "1"
REQUIRED = os.environ.get("LUDOTECA_REQUIRE_SERVICES") == "1"
PG_ADMIN = os.environ.get("LUDOTECA_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")

NOT_RUN: dict[str, str] = {
    "LUDOTECA_GAMES=nimm ludoteca games": "a refusal on purpose (status 2): "
        "tests/security/test_operators.py runs it in a process and checks that line",
    "make run": "installs a venv (network, minutes); what it starts, `ludoteca serve`, runs here",
    "make test": "the whole suite (40 minutes and more); CI runs it",
    "make lint": "part of `make test` (CI)",
    "make screenshots": "rewrites docs/screenshots/ through the browser tests (CI runs those)",
    "make bench": "`ludoteca bench` (run here) through a fresh install",
    "make golden": "rewrites tests/golden/ (the golden tests compare it in CI)",
    "make messages": "rewrites the Spanish catalogs, for a translator",
    "pip install -e '.[rl]'": "an install (network); this environment has the extras",
    "pip install -e '.[rl,rl-train]'": "an install (network); this environment has the extras",
    "python -m pytest tests/rl": "a test suite; CI runs it",
    "ludoteca tournament kingdomino --bots \"cmd:./my_bot --fast,greedy\" -n 20":
        "`./my_bot` names the reader's own program (the line above runs examples/random_bot.py)",
    "python benchmarks/bot_strength.py docs/results/bot-strength.json RUN_DIR... --out "
    "docs/img/bot-strength.png --save-rows docs/results/bot-strength.json":
        "draws the chart from the run folders of the tournaments above (RUN_DIR...)",
    ".venv/bin/python -m ludoteca.server.migrate \"add a column to tables\"":
        "a developer's step after changing db.py: writes a migration into the checkout (its "
        "one-line refusal when nothing changed: tests/security/test_operators.py)",
    "sqlite3 ~/.local/share/ludoteca/arena.sqlite3 \".backup "
    "'/var/backups/ludoteca/arena-$(date +%F).sqlite3'\"":
        "an operator's backup of a live arena (deployment); the Python form below runs here",
    "pg_dump -Fc -f /var/backups/ludoteca/arena-$(date +%F).dump "
    "\"postgresql://arena@db/ludoteca\"": "deployment: a backup of the production database",
    "pg_restore --clean --if-exists -d \"postgresql://arena@db/ludoteca\" "
    "arena-2026-11-25.dump": "deployment: a restore into the production database",
    "pg_dump -Fc -f arena-$(date +%F).dump \"postgresql://ludoteca:PASSWORD@db/ludoteca\"":
        "deployment: a backup of the production database",
    "pg_restore --clean --if-exists -d \"postgresql://ludoteca:PASSWORD@db/ludoteca\" "
    "arena-2026-11-25.dump": "deployment: a restore into the production database",
    ".venv/bin/python benchmarks/server.py": "a load benchmark (minutes, two databases)",
    ".venv/bin/python benchmarks/server.py --quick": "a load benchmark (a minute and more)",
    "python benchmarks/arena.py": "a load benchmark at full size (300 tables beside a "
        "200-entrant arena: two minutes and more, the machine's every core); its `--quick` "
        "form, the same code at 20 tables and 40 entrants, runs here",
    ".venv/bin/python benchmarks/scale.py --quick":
        "a load benchmark of several processes, PostgreSQL and Redis (minutes)",
    ".venv/bin/python benchmarks/scale.py --tables 100 --seconds 30": "a load benchmark",
    ".venv/bin/python benchmarks/scale.py --tables 250 --configs 1web,2web": "a load benchmark",
    **{f"docker compose -f deploy/compose.yaml {rest}": "deployment (Docker); "
       "tests/docs/test_deploy.py checks the compose file's commands and settings"
       for rest in (
           "up -d --build", "ps", "logs -f web1 web2", "up -d --scale worker=3", "up -d web3",
           "exec nginx nginx -s reload",
           "exec -T postgres pg_dump -U ludoteca -Fc ludoteca > arena-$(date +%F).dump",
           "build", "run --rm migrate", "up -d --no-deps web1", "up -d --no-deps web2",
           "up -d --no-deps worker")},
}

SMALLER = {"--games": "2", "-n": "2", "--jobs": "1", "--steps": "64", "--checkpoints": "1",
           "--simulations": "5", "--teacher-games": "2", "--seconds": "0.05"}
"""A flag's small value: (in-process search bots need ``--jobs 1``)."""

APPEND: dict[str, list[str]] = {
    "examples/buttons_linear_policy.py": ["--episodes", "20", "--games", "4"],
    "examples/self_play.py": ["--steps", "64", "--envs", "4", "--checkpoints", "1", "--games",
                              "1", "--seeds", "1", "--batch", "32"],
    "examples/maskable_ppo.py": ["--steps", "256", "--n-steps", "64", "--batch", "32", "--games",
                                 "1", "--seeds", "1", "--envs", "2", "--final-games", "1"],
    "bench": ["--seconds", "0.05"],
    "analyse": ["--budget", "2"],
    "--watch": ["--delay", "0"],
}
"""Flags added when a program (or a flag) is in the command: their defaults are long."""

ARENA_FILE = "~/.local/share/ludoteca/arena.sqlite3"
NEEDS = {"examples/maskable_ppo.py": ("torch", "sb3_contrib"), "examples/self_play.py": ("torch",),
         "examples/openspiel_ismcts.py": ("pyspiel",),
         "examples/buttons_linear_policy.py": ("pettingzoo",)}
"""The extras a program needs (``rl``, ``rl-train``): without them its command skips and says
why, as the RL tests do, except under ``LUDOTECA_REQUIRE_SERVICES=1`` (CI)."""

PLACEHOLDERS = {"GAME": "kingdomino", "N": "2",
                "match.json": str(ROOT / "examples" / "kingdomino-3p.json"),
                ARENA_FILE: "{scratch}/arena.sqlite3",
                "/var/backups/ludoteca/arena.sqlite3": "{scratch}/backup.sqlite3"}
"""The docs' placeholders (a game, a count, a match record, an operator's files) as real ones;
``{scratch}`` is the test's own folder (an arena database is made there first)."""

PROMPT = re.compile(r"^(\w+> )(.*)$")
TIMING = re.compile(r"\(\d+ s\)")
COMMANDISH = re.compile(r"^\s*(\$ |ludoteca |python |\.venv/|make |pip |docker )")


@dataclass
class Command:
    """One command as the docs write it, where, and the transcript they show after it."""

    text: str
    where: str
    shown: list[str] = field(default_factory=list)


def joined(lines: list[str]) -> Iterator[str]:
    """Lines with ``\\``-continuations joined and comments dropped."""
    buffer = ""
    for line in lines:
        line = re.sub(r"(^|\s)#(\s.*)?$", "", line).rstrip()
        if line.endswith("\\"):
            buffer += line[:-1].strip() + " "
            continue
        whole = (buffer + line.strip()).strip()
        buffer = ""
        if whole:
            yield whole


def blocks() -> Iterator[tuple[str, str, str]]:
    """(language, body, where) of every fenced block of the docs."""
    for path in DOC_FILES:
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"^```(\w*)\n(.*?)^```", text, re.S | re.M):
            line = text[: m.start()].count("\n") + 1
            yield m.group(1), m.group(2), f"{path.relative_to(ROOT)}:{line}"


def doc_commands() -> list[Command]:
    found: list[Command] = []
    for lang, body, where in blocks():
        if lang == "sh":
            found += [Command(c, where) for c in joined(body.splitlines())]
        elif lang == "console":
            lines = body.splitlines()
            i = 0
            while i < len(lines):
                if lines[i].startswith("$ "):
                    head = [lines[i][2:]]
                    while head[-1].rstrip().endswith("\\"):
                        i += 1
                        head.append(lines[i])
                    command = Command(next(joined(head)), where)
                    found.append(command)
                elif found and found[-1].where == where:
                    found[-1].shown.append(lines[i].rstrip())
                i += 1
    return found


COMMANDS = doc_commands()
RUN = list({c.text: c for c in reversed(COMMANDS) if c.text not in NOT_RUN}.values())[::-1]
"""Each command run once (the README and a page may show the same one), the first shown."""


def test_every_block_with_a_command_says_what_it_is() -> None:
    """A command in an unlabelled block would be neither run nor listed."""
    unlabelled = [where for lang, body, where in blocks()
                  if lang == "" and any(COMMANDISH.match(line) for line in body.splitlines())]
    assert not unlabelled, f"label these blocks sh, console or text: {unlabelled}"


def test_the_docs_have_commands_and_every_listed_one_is_still_there() -> None:
    texts = {c.text for c in COMMANDS}
    assert len(texts) > 50
    assert not set(NOT_RUN) - texts, f"listed but gone from the docs: {set(NOT_RUN) - texts}"


def test_the_docs_index_links_every_page() -> None:
    index = (ROOT / "docs" / "README.md").read_text(encoding="utf-8")
    for path in (ROOT / "docs").glob("*.md"):
        if path.name != "README.md":
            assert f"]({path.name})" in index, path.name


# ---- running one ---------------------------------------------------------------------------
def smaller(args: list[str], scratch: Path) -> list[str]:
    """The command at its small size, with placeholders filled and docs/ outputs redirected."""
    out: list[str] = []
    for i, arg in enumerate(args):
        if not FULL and i and args[i - 1] in SMALLER:
            arg = SMALLER[args[i - 1]]
        arg = PLACEHOLDERS.get(arg, arg).replace("{scratch}", str(scratch))
        if arg.startswith(("docs/img/", "docs/results/")):
            arg = str(scratch / Path(arg).name)
        out.append(arg)
    if not FULL:
        for key, extra in APPEND.items():
            if key in args:
                out += extra
    return out


def width(command: Command) -> int:
    """The terminal's width the transcript was made at: 80, or its widest line."""
    return max([80, *(len(line) for line in command.shown)])


def split_env(words: list[str]) -> tuple[dict[str, str], list[str]]:
    env: dict[str, str] = {}
    while words and re.fullmatch(r"[A-Z_]+=.*", words[0]):
        name, _, value = words.pop(0).partition("=")
        env[name] = value
    return env, words


def typed(shown: list[str]) -> str:
    """What a person typed in a transcript: the text after each prompt (``P1> 36``); for a
    bot program (examples/random_bot.py), the arena's messages (``{"type": ...}``)."""
    lines = [m.group(2) for line in shown if (m := PROMPT.match(line)) and m.group(2)]
    lines += [line for line in shown if line.startswith('{"type"')]
    return "".join(f"{line}\n" for line in lines)


def exact(line: str) -> str:
    return TIMING.sub("(# s)", line.rstrip())


def shape(line: str) -> str:
    """A line without what changes with the size: numbers (a list of them counts as one),
    paths, runs of spaces and of table rules, and the words an analysis's budget changes (which
    judgement a move got, which way a best placement faces)."""
    line = re.sub(r"\S*/\S*", "PATH", line)
    line = re.sub(r"\b(inaccuracy|mistake|blunder)\b", "JUDGED", line)
    line = re.sub(r"\bfacing [NESW]\b", "facing D", line)
    line = re.sub(r"[-+−]?\d+(?:[.,]\d+)*[%×]?(?:, [-+−]?\d+(?:[.,]\d+)*[%×]?)*", "#", line)
    line = re.sub(r"([━─═])\1+", r"\1", line)
    return " ".join(line.split())


def compare(command: Command, output: str, resized: bool) -> None:
    """A command run as written prints the transcript's lines in order (``…`` skips lines;
    input a person typed is echoed after the prompt, as in the transcript); one run at a small
    size prints every line of the transcript in shape (``shape``), in any order and number."""
    if not command.shown:
        return
    shown = [line for line in command.shown if not line.startswith('{"type"')]
    actual = output.splitlines()
    if resized:
        have = {shape(line) for line in actual}
        missing = [line for line in shown if line.strip() and shape(line) not in have]
        assert not missing, f"{command.where}: {command.text}\nnot printed (shapes): " \
            + "\n".join(missing[:10]) + f"\n\nit printed\n{output}"
        return
    chunks: list[list[str]] = [[]]
    for line in shown:
        if line.strip() == "…":
            chunks.append([])
        else:
            chunks[-1].append(exact(line))
    lines = [exact(line) for line in actual]
    at = 0
    for chunk in filter(None, chunks):
        for start in range(at, len(lines) - len(chunk) + 1):
            if lines[start:start + len(chunk)] == chunk:
                at = start + len(chunk)
                break
        else:
            raise AssertionError(f"{command.where}: {command.text}\nthe docs show\n"
                                 + "\n".join(chunk) + f"\nbut it printed\n{output}")


@pytest.fixture(autouse=True)
def shipped_games_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The docs describe the shipped games: the run's test game (``LUDOTECA_GAMES``, set by
    tests/conftest.py) is left out of these commands and of the processes they start."""
    import ludoteca.games as games

    monkeypatch.delenv("LUDOTECA_GAMES", raising=False)
    games.registry.cache_clear()
    yield
    monkeypatch.undo()
    games.registry.cache_clear()


@pytest.fixture(scope="module")
def services(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """The docs' example addresses of PostgreSQL and Redis, as real ones here."""
    found: dict[str, str] = {}
    redis: RedisServer | None = None
    database = ""
    admin_url = PG_ADMIN
    try:
        import psycopg

        with psycopg.connect(admin_url, autocommit=True, connect_timeout=3) as admin:
            database = f"ludoteca_docs_{os.getpid()}"
            admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
            admin.execute(f'CREATE DATABASE "{database}"')
        url = f"{admin_url.rsplit('/', 1)[0]}/{database}"
        found.update({"postgresql://user@db/ludoteca": url,
                      "postgresql://arena@db/ludoteca": url})
    except Exception as exc:  # any failure to reach it means "not here"
        found["no postgres"] = str(exc)
        database = ""
    try:
        redis = RedisServer(tmp_path_factory.mktemp("redis"))
        redis.start()
        found["redis://cache:6379/0"] = redis.url
    except (OSError, RuntimeError) as exc:
        found["no redis"] = str(exc)
        redis = None
    yield found
    if redis is not None:
        redis.stop()
    if database:
        import psycopg

        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


def run_server(args: list[str], env: dict[str, str], scratch: Path,
               services: dict[str, str]) -> None:
    """``ludoteca serve`` or ``worker`` until it prints where it is; then it must stop."""
    for name, value in list(env.items()):
        if value.startswith(("postgresql://", "redis://")):
            if value not in services:
                need = "postgres" if value.startswith("postgresql") else "redis"
                (pytest.fail if REQUIRED else pytest.skip)(f"no {need}: {services['no ' + need]}")
            env[name] = services[value]
    args = [services.get(a, a) for a in args]
    if any(a.startswith("redis://cache") for a in args):
        (pytest.fail if REQUIRED else pytest.skip)(f"no redis: {services.get('no redis')}")
    if args[0] == "serve":
        port = str(free_port())
        if "--port" in args:
            args[args.index("--port") + 1] = port
        else:
            args += ["--port", port]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1",
           "XDG_DATA_HOME": str(scratch / "data"), "HOME": str(scratch), **env}
    process = subprocess.Popen([sys.executable, "-m", "ludoteca", *args], cwd=scratch, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    ready = "Ludoteca arena: open http" if args[0] == "serve" else "Ludoteca bot worker on"
    seen: list[str] = []
    with process.stdout:
        try:
            for line in process.stdout:
                seen.append(line)
                if ready in line:
                    break
            assert any(ready in line for line in seen), "".join(seen)
            if args[0] == "serve":  # serving (its signal handlers set): then SIGTERM
                wait_for_health(int(args[args.index("--port") + 1]))
        finally:
            process.terminate()
            code = process.wait(60)
        rest = process.stdout.read()
    said = "".join(seen) + rest
    assert code in (0, -signal.SIGTERM), said  # uvicorn re-raises the SIGTERM it handled
    assert "Traceback" not in said
    if args[0] == "serve":
        assert '"arena stopped"' in said, said


def wait_for_health(port: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise AssertionError("the server never answered /healthz")


@pytest.mark.parametrize("command", RUN, ids=[c.text[:70] for c in RUN])
def test_the_command_runs_as_the_docs_say(
    command: Command, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    services: dict[str, str],
) -> None:
    env, words_ = split_env(shlex.split(command.text))
    for program, modules in NEEDS.items():
        missing = [m for m in modules if program in words_ and importlib.util.find_spec(m) is None]
        if missing:
            (pytest.fail if REQUIRED else pytest.skip)(f"{program} needs {', '.join(missing)}")
    if ARENA_FILE in words_:
        made = CliRunner().invoke(cli.app, ["migrate", "--database-url",
                                            f"sqlite:///{tmp_path / 'arena.sqlite3'}"])
        assert made.exit_code == 0, made.output
    args = smaller(words_, tmp_path)
    resized = args != words_
    if args[0] == "ludoteca" and args[1] in ("serve", "worker"):
        run_server(args[1:], env, tmp_path, services)
        return
    if args[0] == "ludoteca":
        monkeypatch.chdir(tmp_path)
        monkeypatch.setenv("COLUMNS", str(width(command)))
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        if not FULL:
            monkeypatch.setitem(bots.SEARCH_SECONDS, "medium", 0.01)
            monkeypatch.setitem(bots.SEARCH_SECONDS, "hard", 0.01)
            monkeypatch.setitem(KINGDOMINO_PLAYOUTS, "medium", 4)
            monkeypatch.setitem(KINGDOMINO_PLAYOUTS, "hard", 8)
        args = [str(ROOT / a) if a.startswith(("examples/", "tests/")) else a for a in args[1:]]
        result = CliRunner().invoke(cli.app, args, input=typed(command.shown))
        output = result.output
        assert result.exit_code == 0, f"{command.where}: {command.text}\n{output}"
    else:
        program = [sys.executable if a in ("python", ".venv/bin/python") else a for a in args]
        done = subprocess.run(
            program, cwd=ROOT, input=typed(command.shown), stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True,
            timeout=None if FULL else 300,
            env={**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": str(width(command)), **env},
        )
        output = done.stdout
        assert done.returncode == 0, f"{command.where}: {command.text}\n{output}"
    assert "Traceback" not in output and "error:" not in output, output
    compare(command, output, resized=resized and not FULL)
