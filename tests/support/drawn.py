"""Hypothesis's draws as a differential driver's chooser (tools/differential: anything with
``below``), so the property tests step both cores with the drivers the command runs."""

from __future__ import annotations

from hypothesis import strategies as st


class Drawn:
    """``below(bound)`` drawn by Hypothesis: its shrinking heads for index 0 (the first legal
    action, the lowest seat)."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def below(self, bound: int) -> int:
        return self.data.draw(st.integers(min_value=0, max_value=bound - 1))
