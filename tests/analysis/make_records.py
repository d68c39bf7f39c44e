"""Writes the matches the analysis tests read (records/*.json): a ``hard`` bot against a
``random`` one in each seat, for the calibration test. Run again only to change them:

    python tests/analysis/make_records.py

The ``hard`` bot searches for a time, not a count, so the records are kept rather than
replayed: the test reads the same moves on any machine."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from ludoteca.bots import make_bot  # noqa: E402
from ludoteca.engine.match import Match  # noqa: E402
from ludoteca.games import get_game  # noqa: E402


def play(game_name: str, levels: list[str], seed: int) -> Any:
    game = get_game(game_name)
    bots = [make_bot(level, game_name, seed + k) for k, level in enumerate(levels)]
    match = Match.new(game, {}, len(levels), seed, names=levels, narrate=False)
    while seats := match.to_act():
        for seat in sorted(seats):
            if seat in match.to_act():
                match.step(seat, bots[seat].choose(game, match.view(seat), seat))
    for bot in bots:
        bot.close()
    return match.record


def main() -> None:
    for name, levels, seed in [("kingdomino", ["hard", "random"], 11),
                               ("kingdomino", ["random", "hard"], 12)]:
        record = play(name, levels, seed)
        path = HERE / "records" / f"{name}-{'-'.join(levels)}-{seed}.json"
        record.save(path)
        print(path.name, record.result and record.result.get("scores"))


if __name__ == "__main__":
    main()
