"""The analysis in the terminal: a summary table per seat and the list of mistakes (Rich), in
the reader's language (``ludoteca/locale/es.po``).

Both tables fit 80 columns without cutting a word: columns two spaces apart, the number
columns never wrap and the columns of names and moves wrap at spaces (``ludoteca.tables``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich import box
from rich.table import Table

from ludoteca.engine.game import JSON
from ludoteca.engine.i18n import N_, Voice
from ludoteca.tables import fold_long_words

SHOWN = ("inaccuracy", "mistake", "blunder")
NARROW: dict[str, Any] = {"box": box.SIMPLE_HEAD, "show_edge": False, "pad_edge": False,
                          "collapse_padding": True}
"""Columns two spaces apart under a ruled header: six columns of figures and the seat's
name fit 80 columns."""
JUDGEMENTS = {"best": N_("best"), "good": N_("good"), "inaccuracy": N_("inaccuracy"),
              "mistake": N_("mistake"), "blunder": N_("blunder")}
"""A judgement's word (the JSON keeps the English key)."""


def seat_names(analysis: JSON, record_seats: list[JSON]) -> list[str]:
    """``P1 (greedy bot)``: the seat number and the name, as the table and the replay call a
    seat, so two seats with the same name (two greedy bots) stay apart."""
    names = [str(s.get("name", "")) for s in record_seats]
    names += [""] * (analysis["players"] - len(names))
    return [f"P{i + 1} ({n})" if n else f"P{i + 1}"
            for i, n in enumerate(names[: analysis["players"]])]


def judgement(voice: Voice, key: str) -> str:
    return voice.t(JUDGEMENTS[key])


def decimal(voice: Voice, text: str) -> str:
    """A number as the reader's language writes it: ``71,3`` in Spanish (as the arena's page)."""
    return text.replace(".", ",") if voice.lang == "es" else text


def summary_table(analysis: JSON, names: list[str], voice: Voice | None = None) -> Table:
    v = voice or Voice()
    table = Table(title=v.t("{game}: analysis (budget {budget}, seed {seed})",
                            game=analysis["game"], budget=analysis["budget"],
                            seed=analysis["seed"]), **NARROW)
    table.add_column(v.t("seat"), ratio=1)
    for column in (v.t("accuracy"), v.t("inacc."), v.t("mist."), v.t("blund."), v.t("score"),
                   v.t("rank")):
        table.add_column(column, justify="right", no_wrap=True)
    for s in analysis["seats"]:
        counts = s["judgements"]
        accuracy = "–" if s["accuracy"] is None else f"{s['accuracy']:.1f}"
        table.add_row(
            names[s["seat"]], decimal(v, accuracy), str(counts["inaccuracy"]),
            str(counts["mistake"]), str(counts["blunder"]),
            str(s["result"]["score"]), str(s["result"]["rank"]),
        )
    return fold_long_words(table)


def parts_table(analysis: JSON, names: list[str], voice: Voice | None = None) -> Table:
    """Each seat's win chance in four parts that add up to its result (points, 0-100)."""
    v = voice or Voice()
    table = Table(title=v.t("Win chance in four parts (points)"), **NARROW)
    table.add_column(v.t("seat"), ratio=1)
    for column in (v.t("start"), v.t("luck"), v.t("skill"), v.t("others"), v.t("result")):
        table.add_column(column, justify="right", no_wrap=True)
    for s in analysis["seats"]:
        table.add_row(
            names[s["seat"]], decimal(v, f"{s['start']['win']:.1f}"),
            *(decimal(v, f"{s[term]['win']:+.1f}") for term in ("luck", "skill", "others")),
            decimal(v, f"{s['result']['win']:.1f}"),
        )
    return fold_long_words(table)


def mistakes_table(analysis: JSON, names: list[str], describe: Callable[[JSON], str],
                   voice: Voice | None = None) -> Table:
    v = voice or Voice()
    table = Table(title=v.t("Inaccuracies, mistakes and blunders"), **NARROW)
    table.add_column(v.t("move"), justify="right", no_wrap=True)
    table.add_column(v.t("seat"), ratio=2)
    table.add_column(v.t("judgement"), no_wrap=True)
    table.add_column(v.t("played"), ratio=3)
    table.add_column(v.t("best"), ratio=3)
    table.add_column(v.t("win lost"), justify="right")
    table.add_column(v.t("pts lost"), justify="right")
    for m in analysis["moves"]:
        if m["judgement"] in SHOWN:
            table.add_row(str(m["ply"] + 1), names[m["seat"]], judgement(v, m["judgement"]),
                          describe(m["action"]), describe(m["best"]),
                          decimal(v, f"{m['loss']['win']:.1f}"),
                          decimal(v, f"{m['loss']['score']:.1f}"))
    return fold_long_words(table)
