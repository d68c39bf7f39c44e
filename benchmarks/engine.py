"""Engine speed benchmark: ``python benchmarks/engine.py [--seconds S] [--game G]``.

A thin wrapper over ``ludoteca.bench`` (also ``ludoteca bench``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rich.console import Console

from ludoteca.bench import report, run_bench


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per game")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    args = parser.parse_args()
    Console().print(report(run_bench(args.seconds, args.game)))


if __name__ == "__main__":
    main()
