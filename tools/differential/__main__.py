"""``python -m tools.differential``: run.py's command."""

from __future__ import annotations

import sys

from tools.differential.run import main

sys.exit(main())
