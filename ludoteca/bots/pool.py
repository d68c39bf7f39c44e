"""The process pool search bots borrow for root parallelism.

Its owner creates it once per process (the tournament runner, the terminal, the server) and
passes it to the bots; a bot never forks. Processes start by ``forkserver`` where the platform
has it, else ``spawn``: never ``fork``, which copies a running event loop and its threads.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_all_start_methods, get_context
from types import TracebackType


def start_method() -> str:
    return "forkserver" if "forkserver" in get_all_start_methods() else "spawn"


class SearchPool:
    """``processes`` search processes, started on first use and shut down by ``close``."""

    def __init__(self, processes: int) -> None:
        if processes < 1:
            raise ValueError("a search pool needs at least one process")
        self.processes = processes
        self._executor: ProcessPoolExecutor | None = None

    @property
    def executor(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                self.processes, mp_context=get_context(start_method())
            )
        return self._executor

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(cancel_futures=True)
            self._executor = None

    def __enter__(self) -> SearchPool:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
