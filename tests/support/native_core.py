"""The native core (``native/``, ``ludoteca_native._core``) for the tests that compare it with
the Python engines.

Without it a module calling ``require_native()`` is skipped with the reason; under
``LUDOTECA_REQUIRE_SERVICES=1`` (CI, ``.ci/run``, whose ``make test`` builds it) a missing core
fails instead, as a missing training extra does (training_extra.py)."""

from __future__ import annotations

import os
from typing import Any

import pytest

from ludoteca.engine.native import BUILD_HINT, MODULE, load_native


def require_native(game: str | None = None, feature: str | None = None) -> Any:
    """The native module; skip the calling test module without it, without ``game``'s
    submodule (a core built before that game was native) or without that submodule's
    ``feature``, and fail when required."""
    module = load_native()
    why = ""
    if module is None:
        why = f"the native core ({MODULE}) is not installed: {BUILD_HINT}"
    elif game is not None and not hasattr(module, game):
        why = f"the installed native core ({MODULE}) predates {game}: rebuild it, {BUILD_HINT}"
    elif game is not None and feature is not None and not hasattr(getattr(module, game), feature):
        why = (f"the installed native core ({MODULE}) predates {game}.{feature}: rebuild it, "
               f"{BUILD_HINT}")
    if why:
        if os.environ.get("LUDOTECA_REQUIRE_SERVICES") == "1":
            pytest.fail(f"{why} (required: LUDOTECA_REQUIRE_SERVICES=1)", pytrace=False)
        pytest.skip(why, allow_module_level=True)
    return module
