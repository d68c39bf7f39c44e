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

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "support"))

from extra_games import register

register()
