"""External bots: any program speaking JSON lines on stdin/stdout (docs/bot-protocol.md).

An entrant written ``cmd:<command>`` is started once per game and seat, so a crash costs one
game and nothing leaks between games. It is a ``Bot`` like the levels: the match driver calls
``choose`` with a deadline, ``end`` with the outcome and ``close``. The first bad answer (not
JSON, not a legal action, too slow, a dead process) *forfeits*: the process is stopped, the
random bot plays the seat to the end so the other seats finish a real game, and the tournament
scores that game as a loss for the forfeiting bot with the reason kept for the report.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shlex
import shutil
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Mapping
from typing import IO, Any

from ludoteca.bots.base import Bot
from ludoteca.bots.random_bot import RandomBot
from ludoteca.engine.errors import LudotecaError, OptionError
from ludoteca.engine.game import JSON, Game, Outcome, Seat
from ludoteca.engine.rng import Rng

PREFIX = "cmd:"
PROTOCOL = 1
GRACE_MS = 1000
"""Extra wait on top of the move budget before an answer counts as late: process start-up,
pipes and a busy machine (``--jobs``) should not forfeit an honest bot."""


def is_external(entry: str) -> bool:
    return entry.strip().startswith(PREFIX)


def parse_command(entry: str) -> list[str]:
    """``cmd:python my_bot.py`` -> ``["python", "my_bot.py"]`` (shell-style quoting, no shell),
    or OptionError saying what is wrong."""
    text = entry.strip()[len(PREFIX):].strip()
    try:
        argv = shlex.split(text)
    except ValueError as exc:
        raise OptionError(f"cannot read the command of {entry.strip()!r}: {exc}") from None
    if not argv:
        raise OptionError("an external bot needs a command after 'cmd:', e.g. cmd:python bot.py")
    return argv


def check_command(entry: str) -> None:
    """OptionError unless the program of a ``cmd:`` entry exists, so a typo fails before any
    game is played instead of forfeiting every game."""
    program = parse_command(entry)[0]
    if os.sep in program or (os.altsep and os.altsep in program):
        if not (os.path.isfile(program) and os.access(program, os.X_OK)):
            raise OptionError(f"cannot run {program!r} of {entry.strip()!r}: no such program")
    elif shutil.which(program) is None:
        raise OptionError(f"cannot run {program!r} of {entry.strip()!r}: not found on PATH")


def _pump(stream: IO[str], sink: queue.Queue[str | None] | deque[str]) -> None:
    """Copy lines from a pipe in a thread, so reading with a timeout works on every platform."""
    try:
        for line in stream:
            if isinstance(sink, deque):
                sink.append(line.rstrip("\n"))
            else:
                sink.put(line)
    except (OSError, ValueError):
        pass
    finally:
        stream.close()  # here, not in the main thread: closing a pipe being read can block
    if isinstance(sink, queue.Queue):
        sink.put(None)


class ExternalBot(Bot):
    """A seat played by a subprocess. ``forfeit`` holds why it lost its seat, or None.

    ``time_ms`` is its budget per decision, sent to the program; a driver's deadline, when
    given and sooner, shortens it."""

    def __init__(
        self,
        entry: str,
        game_name: str,
        seat: Seat,
        players: int,
        options: Mapping[str, object],
        seed: int = 0,
        time_ms: int = 2000,
    ) -> None:
        self.name = entry.strip()
        self.seat = seat
        self.time_ms = time_ms
        self.forfeit: str | None = None
        self.fallback = RandomBot(seed)
        self.rng = Rng(seed ^ 0x5EED)
        self.stderr: deque[str] = deque(maxlen=5)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.proc: subprocess.Popen[str] | None = None
        try:
            self.proc = subprocess.Popen(
                parse_command(entry),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                start_new_session=os.name == "posix",
            )
        except (OSError, OptionError) as exc:
            self._lose(f"could not start: {exc}")
            return
        assert self.proc.stdout is not None and self.proc.stderr is not None
        for stream, sink in ((self.proc.stdout, self.lines), (self.proc.stderr, self.stderr)):
            threading.Thread(target=_pump, args=(stream, sink), daemon=True).start()
        self._send(
            {
                "type": "start",
                "protocol": PROTOCOL,
                "game": game_name,
                "seat": seat,
                "players": players,
                "options": dict(options),
                "seed": seed,
                "time_ms": time_ms,
            }
        )

    # ---- the Bot protocol ----------------------------------------------------------------
    def choose(
        self, game: Game[Any, Any], view: JSON, seat: Seat, deadline: float | None = None
    ) -> Any:
        legal = game.legal_actions(game.determinize(view, seat, self.rng), seat)
        if self.forfeit is None:
            budget = self.time_ms
            if deadline is not None:
                left = int(1000 * (deadline - time.monotonic()))
                budget = max(1, min(budget, left))
            action = self._ask(game, view, legal, budget)
            if action is not None:
                return action
        return self.fallback.choose(game, view, seat, deadline)

    def end(self, outcome: Outcome | None) -> None:
        """Tell the program the result (nothing when the match was abandoned); ``close``, which
        the driver calls next, lets it exit."""
        if self.forfeit is None and outcome is not None:
            self._send({"type": "end", "outcome": outcome.to_json()})

    def close(self) -> None:
        """Stop the process: close its stdin, give it a moment, then kill its process group."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            self._kill(proc)

    # ---- talking -------------------------------------------------------------------------
    def _ask(self, game: Game[Any, Any], view: JSON, legal: list[Any], budget: int) -> Any:
        """The program's action within ``budget`` ms (plus the grace), or None after
        forfeiting."""
        legal_json = [a.to_json() for a in legal]
        if not self._send(
            {"type": "choose", "view": view, "legal": legal_json, "time_ms": budget}
        ):
            return None
        limit = (budget + GRACE_MS) / 1000
        try:
            line = self.lines.get(timeout=limit)
        except queue.Empty:
            return self._lose(f"no answer within {budget} ms (+{GRACE_MS} ms grace)")
        if line is None:
            return self._lose(self._crash_reason())
        try:
            answer = json.loads(line)
        except ValueError:
            return self._lose(f"answered {_clip(line)}, which is not JSON")
        if not isinstance(answer, dict) or not ({"action", "index"} & answer.keys()):
            expected = '{"action": ...} or {"index": i}'
            return self._lose(f"answered {_clip(line)}; expected {expected}")
        if "index" in answer:
            i = answer["index"]
            if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(legal):
                return self._lose(f"index {_clip(json.dumps(i))} is not 0-{len(legal) - 1}")
            return legal[i]
        try:
            action = game.action_from_json(answer["action"])
        except LudotecaError as exc:
            return self._lose(f"unreadable action {_clip(json.dumps(answer['action']))}: {exc}")
        if action not in legal:
            return self._lose(f"illegal action {_clip(json.dumps(answer['action']))}")
        return action

    def _send(self, message: JSON) -> bool:
        proc = self.proc
        if proc is None or proc.stdin is None:
            return False
        try:
            proc.stdin.write(json.dumps(message, separators=(",", ":")) + "\n")
            proc.stdin.flush()
        except (OSError, ValueError):
            self._lose(self._crash_reason())
            return False
        return True

    def _crash_reason(self) -> str:
        proc = self.proc
        code = None
        if proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = proc.wait(timeout=0.5)
        time.sleep(0.05)  # let the stderr thread catch the last words
        last = f": {_clip(self.stderr[-1])}" if self.stderr else ""
        if code is None:
            return f"closed its output without exiting{last}"
        return f"exited with code {code} mid-game{last}"

    def _lose(self, reason: str) -> None:
        """Forfeit: remember why and stop the process; the random bot takes the seat over."""
        if self.forfeit is None:
            self.forfeit = reason
        proc, self.proc = self.proc, None
        if proc is not None:
            self._kill(proc)
        return None

    @staticmethod
    def _kill(proc: subprocess.Popen[str]) -> None:
        if proc.poll() is None:
            try:
                if os.name == "posix":
                    os.killpg(proc.pid, signal.SIGKILL)
                else:
                    proc.kill()
            except OSError:
                pass
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=2)
        if proc.stdin is not None:
            with contextlib.suppress(OSError):
                proc.stdin.close()


def _clip(text: str, limit: int = 60) -> str:
    text = text.strip()
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")
