"""How hard property tests search: ``examples(n)`` is ``n`` on a laptop and ``CI_FACTOR * n``
under the ``ci`` Hypothesis profile that ``.ci/run`` selects."""

from __future__ import annotations

import os

CI_FACTOR = 4


def examples(n: int) -> int:
    return n * CI_FACTOR if os.environ.get("HYPOTHESIS_PROFILE") == "ci" else n
