"""Print the path of a Python on this machine whose cookie parser is not quadratic
(CVE-2024-7592), for ``make run``; print nothing when there is none.

    python3 -m tools.safe_python [CANDIDATE ...]

Tried in this order: the candidates given (the Makefile passes its ``PYTHON``), then
``python3.13``, ``python3.12`` and ``python3.11`` on ``PATH``, then the same versions
installed under pyenv (``$PYENV_ROOT`` or ``~/.pyenv``). Only versions the arena supports
(3.11 or newer) count.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from ludoteca.server.python_check import cookie_parser_is_quadratic

NAMES = ("python3.13", "python3.12", "python3.11")


def candidates(given: list[str]) -> list[str]:
    found = [*given, *NAMES]
    root = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv") / "versions"
    if root.is_dir():
        versions = sorted(root.iterdir(), key=lambda p: p.name, reverse=True)
        found += [str(v / "bin" / "python3") for v in versions if v.name[:4] == "3.13"]
        found += [str(v / "bin" / "python3") for v in versions if v.name[:4] in ("3.12", "3.11")]
    return found


def version_of(python: str) -> tuple[int, ...] | None:
    path = shutil.which(python)
    if path is None:
        return None
    try:
        done = subprocess.run(
            [path, "-c", "import sys, venv, ensurepip; print(*sys.version_info[:3])"],
            capture_output=True, text=True, timeout=20, check=False)
    except OSError:
        return None
    if done.returncode != 0:  # a pyenv shim of a version not selected, or no venv
        return None
    return tuple(int(p) for p in done.stdout.split())


def main(argv: list[str]) -> None:
    for python in candidates(argv):
        version = version_of(python)
        if version is not None and version >= (3, 11) and not cookie_parser_is_quadratic(
                version):
            print(shutil.which(python))
            return


if __name__ == "__main__":
    main(sys.argv[1:])
