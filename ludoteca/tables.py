"""Rich tables that keep their words whole at any width (an 80-column terminal included).

Rich shrinks a table that is too wide by narrowing its wrapping columns, and a word longer
than its column is then cut with an ellipsis (``inaccura…``). Folding it onto the next line
instead keeps every letter; the tables that use this also keep their short, one-word columns
``no_wrap`` so that Rich narrows only the columns of names and sentences."""

from __future__ import annotations

from rich.table import Table


def fold_long_words(table: Table) -> Table:
    """``table``, its wrapping columns folding a word too long for them instead of cutting it."""
    for column in table.columns:
        if not column.no_wrap:
            column.overflow = "fold"
    return table
