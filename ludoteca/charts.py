"""The tournament chart: win rates with their 95% intervals and mean scores, as one PNG.

matplotlib is an optional extra (``pip install 'ludoteca[charts]'``): a tournament without it
still writes its tables, and :class:`ChartsUnavailable` lets the caller say how to get the chart.
The Agg backend draws without a display, so this works on a headless server or in a worker.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ludoteca.tournament import BotStats, RoundRobinResult, TournamentResult

INSTALL_HINT = "pip install 'ludoteca[charts]'"


class ChartsUnavailable(RuntimeError):
    """matplotlib is not installed."""


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise ChartsUnavailable(f"matplotlib is not installed; {INSTALL_HINT}") from None
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def _win_panel(
    ax: Any, labels: list[str], stats: list[BotStats], baseline: float, title: str
) -> None:
    """Horizontal bars of win rate, error bars from the Wilson interval, the chance line."""
    y = list(range(len(labels)))
    rates = [100 * s.win_rate for s in stats]
    # max(0, …): at 0% or 100% rounding can put the Wilson bound a hair inside the rate
    lo = [max(0.0, 100 * (s.win_rate - s.win_interval[0])) for s in stats]
    hi = [max(0.0, 100 * (s.win_interval[1] - s.win_rate)) for s in stats]
    ax.barh(y, rates, xerr=[lo, hi], color="#4C72B0", capsize=4, height=0.6)
    ax.axvline(100 * baseline, color="grey", linestyle="--", linewidth=1)
    for yi, rate in zip(y, rates, strict=True):
        ax.text(min(rate + 2, 90), yi + 0.32, f"{rate:.0f}%", va="center", fontsize=8)
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("win rate, % (95% interval; dashed: chance)")
    ax.set_title(title)


def _score_panel(
    ax: Any, labels: list[str], series: list[tuple[str, list[BotStats], str]], title: str
) -> None:
    """Grouped horizontal bars of mean score with 95% interval error bars."""
    y = list(range(len(labels)))
    height = 0.8 / len(series)
    for k, (name, stats, colour) in enumerate(series):
        offs = [yi - 0.4 + height * (k + 0.5) for yi in y]
        means = [s.score_interval[0] for s in stats]
        errs = [[max(0.0, m - s.score_interval[1]) for m, s in zip(means, stats, strict=True)],
                [max(0.0, s.score_interval[2] - m) for m, s in zip(means, stats, strict=True)]]
        ax.barh(offs, means, height=height, xerr=errs, capsize=3, color=colour, label=name)
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set_xlabel("mean score (95% interval)")
    ax.set_title(title)
    if len(series) > 1:
        # outside the plot, on the right: never on top of a bar
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))


def _short(name: str, limit: int = 26) -> str:
    """A label that leaves room for the bars: paths in a ``cmd:`` entry lose their folders."""
    if name.startswith("cmd:"):
        name = "cmd:" + " ".join(part.rsplit("/", 1)[-1] for part in name[4:].split())
    return name if len(name) <= limit else name[: limit - 1] + "…"


def write_chart(result: TournamentResult | RoundRobinResult, path: Path) -> Path:
    """Draw ``result`` to ``path`` (PNG). ChartsUnavailable without matplotlib; OSError if the
    file cannot be written."""
    plt = _pyplot()
    baseline = 1 / result.players
    if isinstance(result, RoundRobinResult):
        pairs = result.pairings
        entrants = list(result.overall.values())
        rows = max(len(pairs), 1) + max(len(entrants), 1)
        fig, axes = plt.subplots(
            2, 2, figsize=(12, 2.2 + 0.45 * rows),
            gridspec_kw={"height_ratios": [max(len(pairs), 1), max(len(entrants), 1)]},
            squeeze=False,
        )
        copies = "" if result.players == 2 else f"{result.players - 1}× "
        labels = [f"{_short(p.a)} vs {copies}{_short(p.b)}" for p in pairs]
        _win_panel(axes[0][0], labels, [p.a_stats for p in pairs], baseline, "A's wins per pairing")
        _score_panel(
            axes[0][1], labels,
            [("A", [p.a_stats for p in pairs], "#4C72B0"),
             ("B" if result.players == 2 else "B (mean\nof its seats)",
              [p.b_stats for p in pairs], "#DD8452")],
            "mean score per pairing",
        )
        names = [_short(s.name) for s in entrants]
        lone = "" if result.players == 2 else " (lone seat)"
        _win_panel(axes[1][0], names, entrants, baseline, f"overall wins{lone}")
        _score_panel(axes[1][1], names, [("", entrants, "#55A868")], f"overall mean score{lone}")
    else:
        stats = list(result.stats.values())
        fig, axes = plt.subplots(1, 2, figsize=(12, 2.2 + 0.45 * len(stats)), squeeze=False)
        names = [_short(s.name) for s in stats]
        _win_panel(axes[0][0], names, stats, baseline, "wins (pooled over seats)")
        _score_panel(axes[0][1], names, [("", stats, "#55A868")], "mean score")
    shown = {k: v for k, v in result.options.items() if v is not False and v is not None}
    options = ", ".join(f"{k}={v}" for k, v in shown.items())
    fig.suptitle(
        f"{result.game}, {result.players} players, {result.games} games"
        + (f" · {options}" if options else ""),
        fontsize=11,
    )
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=110)
    finally:
        plt.close(fig)
    return path
