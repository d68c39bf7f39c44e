"""The browser's unit tests in Node (``node --test``): modules that draw what the server sent."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_browser_modules_in_node() -> None:
    tests = sorted(str(p) for p in HERE.glob("*.test.mjs"))
    run = subprocess.run(["node", "--test", *tests], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
