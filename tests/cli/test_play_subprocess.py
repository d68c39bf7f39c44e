"""``python -m ludoteca play`` as a real process: a person types moves read off the printed hint."""

from __future__ import annotations

import json
import os
import re
import selectors
import subprocess
import sys
import time
from pathlib import Path

from extra_games import python_path

ROOT = Path(__file__).resolve().parents[2]
PROMPT = "P1> "
EXAMPLE = re.compile(r"e\.g\. `([^`]+)`")


def spawn(*args: str, cwd: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=python_path(str(ROOT)), PYTHONUNBUFFERED="1", COLUMNS="120")
    return subprocess.Popen(
        [sys.executable, "-m", "ludoteca", *args],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd, env=env,
    )


def read_until_prompt_or_exit(proc: subprocess.Popen[bytes], deadline: float) -> str:
    """Output up to the next prompt (or to the end of the process)."""
    assert proc.stdout is not None
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    chunks = b""
    while time.monotonic() < deadline:
        if not sel.select(timeout=0.5):
            continue
        data = os.read(proc.stdout.fileno(), 65536)
        if not data:
            break
        chunks += data
        if chunks.decode(errors="replace").endswith(PROMPT):
            break
    sel.close()
    return chunks.decode(errors="replace")


def next_move(out: str) -> str | None:
    """The move the latest hint suggests (always a legal one), if the output holds a hint."""
    examples = EXAMPLE.findall(out)
    if examples:
        return " ".join(examples[-1].split())
    return "discard" if "type `discard`" in out else None


def send(proc: subprocess.Popen[bytes], line: str) -> None:
    assert proc.stdin is not None
    proc.stdin.write(line.encode() + b"\n")
    proc.stdin.flush()


def test_play_a_whole_game_from_the_hints(tmp_path: Path) -> None:
    with spawn("play", "kingdomino", "--seed", "1", cwd=tmp_path) as proc:
        try:
            play_from_hints(proc, tmp_path)
        finally:
            if proc.poll() is None:
                proc.kill()


def play_from_hints(proc: subprocess.Popen[bytes], tmp_path: Path) -> None:
    deadline = time.monotonic() + 60
    out = read_until_prompt_or_exit(proc, deadline)
    assert "Your turn" in out and "Claim a domino" in out
    transcript = [out]

    send(proc, "hello there")  # a line that is no move at all
    out = read_until_prompt_or_exit(proc, deadline)
    assert "✗" in out and "type its number" in out
    send(proc, "claim 99")  # a domino that is not on offer
    out = read_until_prompt_or_exit(proc, deadline)
    assert "✗ domino 99 is not in the next line" in out

    tried_bad_placement = False
    move = next_move(transcript[0])
    while out.endswith(PROMPT):
        move = next_move(out) or move
        assert move is not None
        if "Place domino" in out and not tried_bad_placement:
            send(proc, "4 4 N")  # not touching the castle in the first round: illegal
            out = read_until_prompt_or_exit(proc, deadline)
            flat = " ".join(out.split())  # error lines wrap at word boundaries in 80 columns
            assert "is not a legal placement" in flat and "legal placements start at" in flat
            assert "claimed" not in out and "placed" not in out  # nothing was applied
            tried_bad_placement = True
            continue
        send(proc, move)
        out = read_until_prompt_or_exit(proc, deadline)
        transcript.append(out)
    proc.wait(timeout=30)
    stderr = proc.stderr.read().decode() if proc.stderr else ""
    assert proc.returncode == 0, stderr
    assert "Traceback" not in stderr
    assert tried_bad_placement
    assert "Final ranks" in out and "Match saved to" in out
    saved = list((tmp_path / "matches").glob("kingdomino-*.json"))
    assert len(saved) == 1
    record = json.loads(saved[0].read_text())
    assert record["result"]["scores"] and record["seats"][0]["name"] == "you"


def test_end_of_input_exits_cleanly(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ludoteca", "play", "kingdomino", "--seed", "1"],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, cwd=tmp_path, timeout=60,
        env=dict(os.environ, PYTHONPATH=python_path(str(ROOT))),
    )
    assert result.returncode == 0
    assert "Input ended" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr
    assert not (tmp_path / "matches").exists()  # nothing saved without --save


def test_usage_error_is_one_line_and_code_2(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ludoteca", "play", "kingdomino", "--players", "9"],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, cwd=tmp_path, timeout=60,
        env=dict(os.environ, PYTHONPATH=python_path(str(ROOT))),
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "error: Kingdomino is for 2-4 players, not 9"
    ]
