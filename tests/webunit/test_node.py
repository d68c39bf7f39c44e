"""The browser client's unit tests in Node (``node --test``, Node's own runner): the socket and
the store with a fake socket, the kit's compound choice, the renderer host, and every game's
renderer drawn from golden views into a DOM snapshot (``*.test.mjs``; RENDERERS.md).

The DOM shim (happy-dom, pinned in package.json and package-lock.json) is installed here by
``make install-test`` (``npm ci``). Without Node or the packages these tests skip with a reason,
except under ``LUDOTECA_REQUIRE_SERVICES=1`` (CI), where that is a failure.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REQUIRED = os.environ.get("LUDOTECA_REQUIRE_SERVICES") == "1"


def _unavailable(why: str) -> None:
    if REQUIRED:
        pytest.fail(f"{why} (required: LUDOTECA_REQUIRE_SERVICES=1)")
    pytest.skip(why)


def test_browser_modules_in_node() -> None:
    node = shutil.which("node")
    if node is None:
        _unavailable("Node.js is not installed")
    if not (HERE / "node_modules" / "happy-dom" / "package.json").exists():
        _unavailable("the test packages are not installed (cd tests/webunit && npm ci)")
    tests = sorted(p.name for p in HERE.glob("*.test.mjs"))
    assert len(tests) >= 6, tests
    env = {k: v for k, v in os.environ.items() if k != "UPDATE_SNAPSHOTS"}  # compare, never write
    run = subprocess.run([str(node), "--import", "./register.mjs", "--test", *tests], cwd=HERE,
                         capture_output=True, text=True, timeout=300, env=env)
    assert run.returncode == 0, run.stdout[-20000:] + run.stderr[-5000:]
    assert "# fail 0" in run.stdout and "# pass " in run.stdout, run.stdout[-2000:]
