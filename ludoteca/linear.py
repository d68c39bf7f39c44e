"""Small dense linear systems in plain Python: the rating ladder's fit (``ladder/fit.py``) and
the analysis's calibration table (``analysis/calibration.py``) each solve a few equations, too
few to be worth an array library's import."""

from __future__ import annotations


def solve(matrix: list[list[float]], vector: list[float],
          singular: str | None = None) -> list[float]:
    """``x`` with ``matrix @ x = vector``, by Gaussian elimination with partial pivoting. With
    ``singular``, a pivot under 1e-12 raises ``ValueError(singular)``."""
    k = len(vector)
    a = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(a[r][col]))
        if singular is not None and abs(a[pivot][col]) < 1e-12:
            raise ValueError(singular)
        a[col], a[pivot] = a[pivot], a[col]
        for row in range(col + 1, k):
            factor = a[row][col] / a[col][col]
            for c in range(col, k + 1):
                a[row][c] -= factor * a[col][c]
    x = [0.0] * k
    for row in range(k - 1, -1, -1):
        x[row] = (a[row][k] - sum(a[row][c] * x[c] for c in range(row + 1, k))) / a[row][row]
    return x
