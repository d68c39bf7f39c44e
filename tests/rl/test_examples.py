"""The end-to-end examples of docs/rl.md still run (with tiny budgets): OpenSpiel's IS-MCTS
against our bots, and the linear policy learned on 2-player Buttons."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> str:
    done = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_openspiel_ismcts_against_our_bots() -> None:
    out = run("examples/openspiel_ismcts.py", "-o", "target=10", "--games", "1",
              "--simulations", "3", "--opponents", "greedy")
    assert "against greedy  IS-MCTS scores" in out


def test_a_linear_policy_learns_buttons() -> None:
    out = run("examples/buttons_linear_policy.py", "--episodes", "20", "--games", "4")
    assert "trained 20 games" in out
    assert "learned (linear)" in out and "vs easy" in out
