"""Suite-wide settings: Hypothesis profiles, and where shared test helpers live.

``.ci/run`` selects the ``ci`` profile (``HYPOTHESIS_PROFILE=ci``): property tests written with
``max_examples=examples(n)`` then search ``CI_FACTOR`` times harder than on a laptop, where the
``dev`` profile keeps the suite around a minute.

The test game, Nim (``tests/fifth_game/nim``, a package outside Ludoteca), is registered for the
whole run the way an operator adds a game, with ``LUDOTECA_GAMES`` (docs/engine.md): every
suite that runs "for every game" asks the registry and so plays it too, in this process and in
every process a test starts (``ludoteca serve``, its bot processes, the commands), which
inherit the variable and the Python path.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent / "support"))

from extra_games import register  # from tests/support, just put on the path

register()

settings.register_profile("dev", deadline=None, print_blob=True)
settings.register_profile("ci", deadline=None, print_blob=True, derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
