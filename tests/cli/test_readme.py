"""Every example command in the README works in a fresh clone.

The commands of the README's "Using it" block run in-process through the real CLI, from an empty
folder (so records and results land there), with no input (a person who leaves at once). Only
their cost is cut: `--games` becomes 2, watched games move without delay and the search bots
think 10 ms in this process (`--jobs` becomes 1 for that), the bench measures 0.05 s a game; so
the whole README runs in seconds. Every other flag and argument is the README's own.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

import ludoteca.bots as bots
from ludoteca import cli

ROOT = Path(__file__).resolve().parents[2]


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## Using it", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    commands = []
    for line in block.splitlines():
        line = line.split("  #", 1)[0].strip()
        if line.startswith("ludoteca "):
            commands.append(line)
    return commands


COMMANDS = readme_commands()


def cheaper(args: list[str]) -> list[str]:
    out = []
    for i, arg in enumerate(args):
        if i and args[i - 1] == "--games":
            arg = "2"
        if i and args[i - 1] == "--jobs":
            arg = "1"
        if arg.startswith("examples/"):
            arg = str(ROOT / arg)
        out.append(arg)
    if "--watch" in out:
        out += ["--delay", "0"]
    if out[0] == "analyse":
        out += ["--budget", "2"]
    if out[0] == "bench":
        out += ["--seconds", "0.05"]
    return out


def test_the_readme_has_examples() -> None:
    assert len(COMMANDS) >= 8
    assert any("--lang es" in c for c in COMMANDS) and any("replay" in c for c in COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_readme_command_works(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(bots.SEARCH_SECONDS, "medium", 0.01)
    monkeypatch.setitem(bots.SEARCH_SECONDS, "hard", 0.01)
    args = cheaper(shlex.split(command)[1:])
    result = CliRunner().invoke(cli.app, args, input="")
    assert result.exit_code == 0, f"{command}\n{result.output}"
    assert "Traceback" not in result.output and "error:" not in result.output
    assert not re.search(r"\bacted\b", result.output)
