"""Fits the analysis's win-chance calibration on one half of a calibration run's matches and
measures it on the other.

    python benchmarks/fit_calibration.py --game kingdomino --players 2 [--points FILE]
                                         [--variant NAME] [--write]

Reads the points file ``benchmarks/analysis_calibration.py`` wrote (every judged decision's
raw win chance, whether the exact solver gave it, and what the seat won), fits each variant of
the mapping (``ludoteca/analysis/calibration.py``) by least log loss on the **fit half** (the
even rounds of seatings) and prints, on the **held-out half** (the odd rounds, never seen by
the fit), the reliability table, Brier score, expected calibration error and the worst bucket
of 50 or more decisions, raw and mapped. The variants:

- ``temperature``: the power on the odds only, the solver's exact values kept as solved;
- ``temperature+mix``: and a mix with the even chance, exact values kept;
- ``all``: temperature and mix on every value, exact ones too (a solver's 100 becomes what
  such seats won against these opponents);
- ``table``: a table of the reported chance at every tenth of the raw one, linear between
  (least squares, made increasing and, with two sides, symmetric), exact values kept;
- ``table+exact``: the same on every value, exact ones too.

The tables are measured for comparison but never chosen unless asked for (``--variant``): on
a few hundred matches their isotonic fit leaves nearly flat stretches (two raw values 6 points
apart reported 0.01 apart), and a loss, which is a difference of reported values, vanishes
there; temperature and mix keep every difference, scaled smoothly.

The identity (no mapping) is a candidate too. The variant is chosen without looking at the
held-out half: the fit half is split again
(its rounds of seatings alternately), every variant fitted on one part and scored by its Brier
score on the other, and the best refitted on the whole fit half. ``--exact kept`` (the
default) considers only the variants that keep the solver's values as solved, ``mapped`` only
those that map them, ``either`` all. ``--write`` stores the chosen variant (or ``--variant``)
in ``ludoteca/analysis/data/calibration.json`` for that game and player count.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from analysis_calibration import held_out, load, points_of, print_table, reliability

from ludoteca.analysis.calibration import (
    IDENTITY,
    Calibration,
    Sample,
    fit,
    fit_table,
    key,
    log_loss,
)
from ludoteca.engine.game import JSON

ROOT = Path(__file__).resolve().parent.parent
STORE = ROOT / "ludoteca" / "analysis" / "data" / "calibration.json"


def samples(lines: list[JSON]) -> list[Sample]:
    return [(q, line["sides"], line["result"][seat], bool(ex))
            for line in lines for _, seat, q, ex in line["decisions"]]


def fitted_variants(fit_samples: list[Sample], about: str) -> dict[str, Calibration]:
    return {
        "identity": IDENTITY,
        "temperature": fit(fit_samples, exact=False, mix=False, fitted=about),
        "temperature+mix": fit(fit_samples, exact=False, mix=True, fitted=about),
        "all": fit(fit_samples, exact=True, mix=True, fitted=about),
        "table": fit_table(fit_samples, exact=False, fitted=about),
        "table+exact": fit_table(fit_samples, exact=True, fitted=about),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="kingdomino")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--points", type=Path, default=None)
    parser.add_argument("--variant", choices=("identity", "temperature", "temperature+mix",
                                              "all", "table", "table+exact"))
    parser.add_argument("--exact", choices=("kept", "mapped", "either"), default="kept")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    path = args.points or ROOT / "docs" / "results" / "calibration" / \
        f"{args.game}-{args.players}p.jsonl"
    lines = load(path)
    levels = sorted({lv for line in lines for lv in line["levels"]})
    mixes = len(levels) ** args.players
    train = [line for line in lines if not held_out(line, mixes)]
    test = [line for line in lines if held_out(line, mixes)]
    if not train or not test:
        raise SystemExit(f"{path}: {len(lines)} matches, too few for a fit and a held-out half "
                         f"(rounds of {mixes} seatings)")
    seeds = sorted(line["seed"] for line in train)
    print(f"{args.game}, {args.players} players: {len(lines)} matches of {', '.join(levels)}; "
          f"fit on {len(train)} ({sum(len(x['decisions']) for x in train)} decisions), "
          f"held out {len(test)} ({sum(len(x['decisions']) for x in test)} decisions)")
    fit_samples, test_samples = samples(train), samples(test)
    date = datetime.date.today().isoformat()
    about = (f"{len(train)} matches of {'/'.join(levels)} (seeds {seeds[0]}-{seeds[-1]}, the even "
             f"rounds of seatings), {date}")
    variants = fitted_variants(fit_samples, about)
    names = [n for n in variants if not n.startswith("table") and (
        n == "identity" or args.exact == "either"
        or (args.exact == "mapped") == variants[n].exact)]
    inner_fit = samples([x for x in train if not (x["k"] // mixes // 2) % 2])
    inner_test = [x for x in train if (x["k"] // mixes // 2) % 2]
    inner = fitted_variants(inner_fit, "")
    scores = {n: reliability(points_of(inner_test, inner[n]))[1] for n in names}
    print("choice on the fit half alone (fitted on its even rounds, Brier on its odd): "
          + ", ".join(f"{n} {scores[n]:.4f}" for n in names))
    print_table("held out, raw", points_of(test))
    print(f"log loss {log_loss(test_samples, IDENTITY):.4f}")
    for name, mapping in list(variants.items())[1:]:
        print_table(f"held out, {name}: {mapping.to_json()}", points_of(test, mapping))
        print(f"log loss {log_loss(test_samples, mapping):.4f}")
    chosen = args.variant or min(names, key=lambda name: scores[name])
    print(f"chosen: {chosen} {variants[chosen].to_json()}")
    for title, mapping in (("raw", IDENTITY), (chosen, variants[chosen])):
        rows, brier, ece = reliability(points_of(test, mapping))
        print(f"\nheld out, {title} (markdown): Brier {brier:.3f}, ECE {100 * ece:.1f}\n")
        print("| said | decisions | seats | said, mean | won | ± 95% |")
        print("| --- | --- | --- | --- | --- | --- |")
        for r in rows:
            print(f"| {r['bucket']} | {r['decisions']} | {r['seats']} | {r['said']} | {r['won']} "
                  f"| {r['margin']} |")
    if args.write:
        store = json.loads(STORE.read_text("utf-8"))
        if chosen == "identity":
            store["mappings"].pop(key(args.game, args.players), None)
        else:
            store["mappings"][key(args.game, args.players)] = variants[chosen].to_json()
        store["mappings"] = dict(sorted(store["mappings"].items()))
        STORE.write_text(json.dumps(store, indent=1) + "\n", "utf-8")
        print(f"written to {STORE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
