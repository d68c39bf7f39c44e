"""One picture of the bot levels' measured strength, from `ludoteca tournament` results files.

    python benchmarks/bot_strength.py SOURCE... --out docs/img/bot-strength.png [--save-rows F]

Each SOURCE is a run directory holding a results.json (round-robin or list mode), or a rows file
written by ``--save-rows`` (the record kept in ``docs/results/bot-strength.json``). Every matchup
becomes a bar: the lone or first bot's win rate with its 95% Wilson interval, and the bar the
issue sets for it (hard vs easy 70%, easy vs random 90%, the Kingdomino anchor 60%) as a tick.
A later source's row replaces an earlier one with the same label, so a new run updates the
record. The table printed alongside gives the same figures with mean scores.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

TARGETS = {("hard", "easy"): 0.70, ("easy", "random"): 0.90}
ANCHOR_TARGET = 0.60


def matchups(result: dict[str, Any]) -> list[dict[str, Any]]:
    """(label, win rate, interval, mean scores, target) per matchup of one results file."""
    game, players = result["game"], result["players"]
    options = result.get("options", {})
    anchor = players == 4 and options.get("harmony") and options.get("middle_kingdom")
    out = []
    if result["mode"] == "round-robin":
        for p in result["pairings"]:
            a, b = p["a_stats"], p["b_stats"]
            versus = b["bot"] if p["b_seats"] == 1 else f"{p['b_seats']}× {b['bot']}"
            out.append(
                {
                    "label": f"{game} {players}p: {a['bot']} vs {versus}",
                    "a": a,
                    "b_score": b["mean_score"],
                    "target": TARGETS.get((a["bot"], b["bot"])),
                }
            )
    else:
        bots = result["bots"]
        first, rest = bots[0], bots[1:]
        versus = ", ".join(sorted({b["bot"] for b in rest})) or first["bot"]
        target = ANCHOR_TARGET if anchor else TARGETS.get((first["bot"], versus))
        label = f"{game} {players}p: {first['bot']} vs {players - 1}× {versus}"
        if anchor:
            label += " (anchor)"
        out.append(
            {
                "label": label,
                "a": first,
                "b_score": sum(b["mean_score"] for b in rest) / max(1, len(rest)),
                "target": target,
            }
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sources", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, default=Path("bot-strength.png"))
    parser.add_argument("--save-rows", type=Path, help="write the combined rows here (JSON)")
    args = parser.parse_args()
    by_label: dict[str, dict[str, Any]] = {}
    for source in args.sources:
        if source.is_dir():
            found = matchups(json.loads((source / "results.json").read_text()))
            for row in found:
                row["source"] = f"{source.name}/results.json"
        else:
            found = json.loads(source.read_text())
        for row in found:
            by_label[row["label"]] = row
    rows = list(by_label.values())
    if args.save_rows:
        args.save_rows.parent.mkdir(parents=True, exist_ok=True)
        args.save_rows.write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n")
    print(f"{'matchup':52} {'games':>5} {'win rate (95% CI)':>20} {'mean score':>16} {'bar':>5}")
    for r in rows:
        a = r["a"]
        lo, hi = a["win_rate_ci95"]
        ci = f"{100 * a['win_rate']:.1f}% ({100 * lo:.1f}-{100 * hi:.1f})"
        scores = f"{a['mean_score']:.1f} vs {r['b_score']:.1f}"
        bar = f"{100 * r['target']:.0f}%" if r["target"] else "-"
        print(f"{r['label']:52} {a['games']:>5} {ci:>20} {scores:>16} {bar:>5}")

    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 0.45 * len(rows) + 1.2))
    y = list(range(len(rows)))[::-1]
    rates = [100 * r["a"]["win_rate"] for r in rows]
    lo = [max(0.0, 100 * (r["a"]["win_rate"] - r["a"]["win_rate_ci95"][0])) for r in rows]
    hi = [max(0.0, 100 * (r["a"]["win_rate_ci95"][1] - r["a"]["win_rate"])) for r in rows]
    ax.barh(y, rates, xerr=[lo, hi], color="#4c72b0", capsize=3)
    for yy, r in zip(y, rows, strict=True):
        if r["target"]:
            ax.plot([100 * r["target"]] * 2, [yy - 0.4, yy + 0.4], color="#c44e52", lw=2)
        ax.text(1, yy, f"{100 * r['a']['win_rate']:.1f}% of {r['a']['games']}", va="center",
                color="white", fontsize=8)
    ax.set_yticks(y, [r["label"] for r in rows], fontsize=8)
    ax.set_xlim(0, 100)
    ax.set_xlabel("win rate of the first bot, % (95% Wilson interval; red: the bar to clear)")
    ax.set_title("Ludoteca bot levels, measured with ludoteca tournament")
    fig.tight_layout()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
