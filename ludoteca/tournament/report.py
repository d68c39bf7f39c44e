"""Tournament results as people read them: tables for the terminal, results.md/.csv/.json."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rich.markup import escape
from rich.table import Table as RichTable

from ludoteca.tables import fold_long_words
from ludoteca.tournament.runner import searches
from ludoteca.tournament.stats import BotStats, Result, RoundRobinResult, TournamentResult

Table = tuple[list[str], list[list[str]]]
"""Headers and rows, as strings."""

FOOTNOTE = "A shared win counts 1/k for each of k winners; intervals are 95%."


def _win(s: BotStats) -> str:
    lo, hi = s.win_interval
    return f"{s.win_rate:.1%} ({100 * lo:.1f}-{100 * hi:.1f})"


def _score(s: BotStats) -> str:
    mean, lo, hi = s.score_interval
    return f"{mean:.1f} ({lo:.1f}-{hi:.1f})"


def stats_table(stats: Iterable[BotStats], first: str = "bot") -> Table:
    """Headers and rows for a per-bot table (the terminal, results.md); intervals in brackets
    so the table fits a terminal. ``games`` counts the games a bot played in, not its seats."""
    stats = list(stats)
    headers = [first, "games", "win rate (95% CI)", "mean score (95% CI)", "ms/move"]
    forfeits = any(s.forfeits for s in stats)
    if forfeits:
        headers.append("forfeits")
    rows = []
    for s in stats:
        row = [s.name, str(s.games), _win(s), _score(s), f"{s.mean_move_ms:.2f}"]
        if forfeits:
            row.append(str(s.forfeits))
        rows.append(row)
    return headers, rows


def pairing_table(result: RoundRobinResult) -> Table:
    """Headers and rows for the per-pairing table."""
    headers = [
        "A", "vs B", "games", "A win rate (95% CI)", "A score (95% CI)", "B score (95% CI)",
        "ms/move A / B",
    ]
    forfeits = any(p.a_stats.forfeits or p.b_stats.forfeits for p in result.pairings)
    if forfeits:
        headers.append("forfeits A / B")
    rows = []
    for p in result.pairings:
        a, b = p.a_stats, p.b_stats
        row = [
            p.a, p.b_label, str(p.games), _win(a), _score(a), _score(b),
            f"{a.mean_move_ms:.2f} / {b.mean_move_ms:.2f}",
        ]
        if forfeits:
            row.append(f"{a.forfeits} / {b.forfeits}")
        rows.append(row)
    return headers, rows


def forfeit_notes(result: Result) -> list[str]:
    """One line per bot that forfeited games, with the first reason: what went wrong, plainly."""
    stats = result.stats if isinstance(result, TournamentResult) else result.overall
    return [
        f"{s.name} forfeited {s.forfeits} seat-game{'s' * (s.forfeits != 1)} "
        f"(first: {s.forfeit_notes[0]})"
        for s in stats.values()
        if s.forfeits
    ]


def rich_table(title: str, table: Table) -> RichTable:
    """A table for the terminal: names left-aligned, figures right-aligned; cells wrap at
    spaces in a narrow terminal and never lose a word's end (``ludoteca.tables``)."""
    headers, rows = table
    rich = RichTable(title=escape(title))
    for i, col in enumerate(headers):
        rich.add_column(col, justify="left" if i == 0 or col == "vs B" else "right")
    for row in rows:
        rich.add_row(*(escape(cell) for cell in row))
    return fold_long_words(rich)


def terminal_tables(result: Result) -> list[RichTable]:
    """The tables ``ludoteca tournament`` prints, titled."""
    if isinstance(result, RoundRobinResult):
        return [
            rich_table("Pairings: A in one seat, B in the others", pairing_table(result)),
            rich_table("Overall", stats_table(result.overall.values(), "entrant")),
        ]
    return [rich_table(describe(result), stats_table(result.stats.values()))]


def _markdown(table: Table) -> str:
    headers, rows = table
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _csv_row(kind: str, s: BotStats, opponent: str, other: BotStats | None) -> dict[str, Any]:
    lo, hi = s.win_interval
    mean, slo, shi = s.score_interval
    om, olo, ohi = other.score_interval if other else ("", "", "")
    return {
        "kind": kind, "bot": s.name, "opponent": opponent, "games": s.games, "wins": s.wins,
        "win_rate": s.win_rate, "win_ci95_lo": lo, "win_ci95_hi": hi, "mean_score": mean,
        "score_ci95_lo": slo, "score_ci95_hi": shi, "opponent_mean_score": om,
        "opponent_score_ci95_lo": olo, "opponent_score_ci95_hi": ohi,
        "ms_per_move": s.mean_move_ms,
        "opponent_ms_per_move": other.mean_move_ms if other else "",
        "forfeits": s.forfeits, "opponent_forfeits": other.forfeits if other else "",
    }


def _games(n: int) -> str:
    return f"{n} game{'s' * (n != 1)}"


def describe(result: Result) -> str:
    """One line saying what was played."""
    note = f"{result.seconds:.1f} s{_workers_note(result)}"
    if isinstance(result, RoundRobinResult):
        return (
            f"{result.game}: round-robin of {len(result.entrants)}, {result.players} players, "
            f"{_games(result.games_per_pairing)} per pairing ({_games(result.games)}, {note})"
        )
    return (
        f"{result.game}: {_games(result.games)}, {result.players} players, seats rotated "
        f"({note})"
    )


def _workers_note(result: Result) -> str:
    """The search processes, said only when a search bot (medium, hard) used them."""
    if result.workers > 1 and any(searches(name) for name in result.entrants):
        return f", {result.workers} search processes per bot"
    return ""


def write_results(result: Result, out_dir: Path) -> list[Path]:
    """results.json (everything), results.csv (one tidy row per pairing side and per entrant)
    and results.md (the tables as printed, ready to paste into docs). OSError if unwritable."""
    out_dir.mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, Any]] = []
    sections = [f"# {describe(result)}", ""]
    if isinstance(result, RoundRobinResult):
        for p in result.pairings:
            rows.append(_csv_row("pairing", p.a_stats, p.b_label, p.b_stats))
        rows += [_csv_row("overall", s, "all", None) for s in result.overall.values()]
        sections += [
            "## Pairings", "", _markdown(pairing_table(result)), "",
            "## Overall", "", _markdown(stats_table(result.overall.values(), "entrant")),
        ]
    else:
        rows += [_csv_row("bot", s, "", None) for s in result.stats.values()]
        sections.append(_markdown(stats_table(result.stats.values())))
    sections += ["", FOOTNOTE]
    notes = forfeit_notes(result)
    if notes:
        sections += ["", "Forfeits (docs/bot-protocol.md):", ""] + [f"- {n}" for n in notes]
    paths = [out_dir / name for name in ("results.json", "results.csv", "results.md")]
    paths[0].write_text(json.dumps(result.to_json(), indent=1) + "\n", encoding="utf-8")
    with paths[1].open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    paths[2].write_text("\n".join(sections) + "\n", encoding="utf-8")
    return paths
