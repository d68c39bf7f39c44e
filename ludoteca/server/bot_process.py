"""How the bot pool's processes start and end: quiet on Ctrl-C, never outliving their server.

- Ctrl-C in a terminal sends SIGINT to every process of the foreground group, the bot
  processes included. Each would die printing a ``KeyboardInterrupt`` traceback while the
  server, which stops its pool itself, is still shutting down gracefully. So they ignore
  SIGINT, and start with it blocked, so that one arriving while a process starts waits until
  it is ignored.
- A server killed with SIGKILL cannot stop its pool, and its processes, waiting for their next
  job, would wait forever (three orphans per kill on a 2-core machine, each holding the games
  in memory). On Linux the kernel kills each with its parent (``PR_SET_PDEATHSIG``); elsewhere
  a thread in each process ends it once its parent has changed.

Both need the processes to be the server's own children, so they are started with ``spawn``:
with ``forkserver`` their parent would be the fork server, which outlives a killed server as
long as its children hold its pipe open.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from multiprocessing.context import SpawnContext, SpawnProcess

PR_SET_PDEATHSIG = 1
"""prctl(2) option: the signal this process gets when the thread that started it ends."""
WATCH_SECONDS = 0.5
"""How often the fallback checks the parent (a killed server's processes end within this)."""


def die_with_parent() -> bool:
    """Ask Linux to SIGKILL this process when its parent ends (the parent thread, strictly:
    the pool starts its processes from the thread that submits jobs, the event loop's, which
    lives as long as the server). False where the kernel offers no such thing."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def watch_parent(parent: int, interval: float = WATCH_SECONDS) -> threading.Thread:
    """A daemon thread that ends this process as soon as its parent is no longer ``parent``
    (an orphan is adopted by init or a subreaper): the fallback where ``die_with_parent``
    is not available."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        os._exit(0)

    thread = threading.Thread(target=watch, name="ludoteca: watch the server", daemon=True)
    thread.start()
    return thread


def start_bot_process(parent: int) -> None:
    """The pool's initializer, run first in every bot process; ``parent`` is the server's pid."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    if not die_with_parent():
        watch_parent(parent)
    if os.getppid() != parent:  # the server died before it could be watched
        os._exit(0)


class _BotProcess(SpawnProcess):
    def start(self) -> None:
        """Start with SIGINT blocked (the child inherits the mask through exec) until the
        initializer ignores it; the server's own SIGINT waits those few milliseconds."""
        if not hasattr(signal, "pthread_sigmask"):
            super().start()
            return
        before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            super().start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)


class BotProcessContext(SpawnContext):
    """``spawn``, with SIGINT blocked while each process starts: for the bot pool, together
    with ``start_bot_process`` as its initializer."""

    Process = _BotProcess
