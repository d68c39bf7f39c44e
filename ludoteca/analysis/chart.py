"""The advantage chart as a PNG: each seat's win chance after every move, the judged moves
marked in their colour (matplotlib, the ``charts`` extra; drawn without a display), labelled
in the reader's language. The format follows the file's suffix (``.png``, ``.svg``...)."""

from __future__ import annotations

from pathlib import Path

from ludoteca.analysis.terminal import judgement
from ludoteca.charts import _pyplot
from ludoteca.engine.game import JSON
from ludoteca.engine.i18n import Voice

MARKS = {"inaccuracy": "#e0b000", "mistake": "#e07000", "blunder": "#c01818"}
SEATS = ["#1f5f9f", "#b8860b", "#2f6f3e", "#8b3a62", "#6b4f2a", "#3a7f7f", "#9f4f1f", "#5a5aa0"]


def write_chart(analysis: JSON, path: Path, names: list[str], voice: Voice | None = None) -> None:
    v = voice or Voice()
    plt = _pyplot()
    moves = analysis["moves"]
    plies = [m["ply"] + 1 for m in moves]
    fig, ax = plt.subplots(figsize=(9, 3.6), dpi=110)
    for seat in range(analysis["players"]):
        colour = SEATS[seat % len(SEATS)]
        ax.plot(plies, [m["after"]["win"][seat] for m in moves], color=colour, linewidth=1.4,
                label=names[seat])
        for m in moves:
            if m["seat"] == seat and m["judgement"] in MARKS:
                ax.scatter([m["ply"] + 1], [m["after"]["win"][seat]], s=28, zorder=3,
                           color=MARKS[m["judgement"]], edgecolors=colour, linewidths=1.0)
    ax.set_ylim(0, 100)
    ax.set_xlim(0, max(plies, default=1) + 1)
    ax.set_xlabel(v.t("move"))
    ax.set_ylabel(v.t("win chance, %"))
    ax.set_title(v.t("{game}: win chance after each move (budget {budget}, seed {seed})",
                     game=analysis["game"], budget=analysis["budget"], seed=analysis["seed"]),
                 fontsize=10)
    ax.grid(alpha=0.3)
    for key, colour in MARKS.items():
        ax.scatter([], [], color=colour, s=28, label=judgement(v, key))
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
