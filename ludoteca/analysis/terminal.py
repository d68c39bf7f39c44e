"""The analysis in the terminal: a summary table per seat and the list of mistakes (Rich)."""

from __future__ import annotations

from collections.abc import Callable

from rich.table import Table

from ludoteca.engine.game import JSON

SHOWN = ("inaccuracy", "mistake", "blunder")


def seat_names(analysis: JSON, record_seats: list[JSON]) -> list[str]:
    names = [str(s.get("name", "")) for s in record_seats]
    names += [""] * (analysis["players"] - len(names))
    return [n or f"P{i + 1}" for i, n in enumerate(names[: analysis["players"]])]


def summary_table(analysis: JSON, names: list[str]) -> Table:
    table = Table(title=f"{analysis['game']}: analysis (budget {analysis['budget']}, "
                  f"seed {analysis['seed']})")
    for column in ("seat", "accuracy", "inacc.", "mist.", "blund.", "skill", "luck", "score",
                   "rank"):
        table.add_column(column, justify="left" if column == "seat" else "right")
    for s in analysis["seats"]:
        counts = s["judgements"]
        accuracy = "–" if s["accuracy"] is None else f"{s['accuracy']:.1f}"
        table.add_row(
            names[s["seat"]], accuracy, str(counts["inaccuracy"]), str(counts["mistake"]),
            str(counts["blunder"]), f"{s['skill']['win']:+.1f}", f"{s['luck']['win']:+.1f}",
            str(s["result"]["score"]), str(s["result"]["rank"]),
        )
    return table


def mistakes_table(analysis: JSON, names: list[str], describe: Callable[[JSON], str]) -> Table:
    table = Table(title="Inaccuracies, mistakes and blunders")
    for column in ("move", "seat", "judgement", "played", "best", "win lost", "pts lost"):
        table.add_column(column)
    for m in analysis["moves"]:
        if m["judgement"] in SHOWN:
            table.add_row(str(m["ply"] + 1), names[m["seat"]], m["judgement"],
                          describe(m["action"]), describe(m["best"]), f"{m['loss']['win']:.1f}",
                          f"{m['loss']['score']:.1f}")
    return table

