"""Suite-wide settings: Hypothesis profiles, and where shared test helpers live.

``.ci/run`` selects the ``ci`` profile (``HYPOTHESIS_PROFILE=ci``): property tests written with
``max_examples=examples(n)`` then search ``CI_FACTOR`` times harder than on a laptop, where the
``dev`` profile keeps the suite around a minute.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent / "support"))

settings.register_profile("dev", deadline=None, print_blob=True)
settings.register_profile("ci", deadline=None, print_blob=True, derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
