"""A crowd signing up at once on a real server process: Argon2 holds 64 MiB per hash, so the
server hashes a few at a time (``auth.HASHING``) and its peak memory stays near its resting
size, where 24 hashes at once (the thread pool's width allows 40) took 1.5 GiB more. Found
when 32 people-programs entered a tournament together (test_tournament_scale.py)."""

from __future__ import annotations

from pathlib import Path

from tests.server.client import Player, in_parallel
from tests.server.conftest import Server

CROWD = 24
MIB_PER_HASH = 64


def status_mib(pid: int, field: str) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no {field} in /proc/{pid}/status")


def test_a_crowd_signing_up_at_once_hashes_a_few_passwords_at_a_time(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'arena.sqlite3'}", tmp_path)
    server.start()
    players: list[Player] = []
    try:
        Player(server.base, "warmup").close()  # the first request's imports are not the crowd's
        Path(f"/proc/{server.pid}/clear_refs").write_text("5")  # peak memory counted from now
        resting = status_mib(server.pid, "VmRSS")
        players = in_parallel(*(lambda i=i: Player(server.base, f"crowd{i:02d}")
                                for i in range(CROWD)))
        assert sorted(p.name for p in players) == [f"crowd{i:02d}" for i in range(CROWD)]
        grew = status_mib(server.pid, "VmHWM") - resting
        assert grew < 6 * MIB_PER_HASH, f"peak memory grew by {grew:.0f} MiB"
    finally:
        for p in players:
            p.close()
        server.stop()
