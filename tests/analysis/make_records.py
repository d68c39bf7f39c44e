"""Writes the matches the analysis tests read (records/*.json): a ``hard`` bot against a
``random`` one in each seat, for the calibration test. Run again only to change them:

    python tests/analysis/make_records.py

The ``hard`` bot searches for a time, not a count, so the records are kept rather than
replayed: the test reads the same moves on any machine."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from benchmarks.analysis import play  # noqa: E402


def main() -> None:
    for name, levels, seed in [("kingdomino", ["hard", "random"], 11),
                               ("kingdomino", ["random", "hard"], 12)]:
        record = play(name, levels, seed)
        path = HERE / "records" / f"{name}-{'-'.join(levels)}-{seed}.json"
        record.save(path)
        print(path.name, record.result and record.result.get("scores"))


if __name__ == "__main__":
    main()
