"""The ``rl-train`` extra (torch, Stable-Baselines3, sb3-contrib) for the tests that train.

``pip install -e '.[test]'`` alone must collect and run the suite: a module that needs the
extra calls ``require_training()`` before importing it, and is skipped with the reason. Under
``LUDOTECA_REQUIRE_SERVICES=1`` (CI, ``.ci/run``, which installs the extra with ``make
install-test``) a missing package fails instead, as a missing Chromium does for the browser
tests (tests/web/conftest.py)."""

from __future__ import annotations

import os
from importlib import import_module

import pytest

TRAINING = ("torch", "stable_baselines3", "sb3_contrib")


def require_training() -> None:
    """Skip the calling test module without the training extra (fail when it is required)."""
    try:
        for name in TRAINING:
            import_module(name)
    except ImportError as exc:
        why = (f"the training extra is not installed ({exc}): "
               "pip install -e '.[rl-train]'")
        if os.environ.get("LUDOTECA_REQUIRE_SERVICES") == "1":
            pytest.fail(f"{why} (required: LUDOTECA_REQUIRE_SERVICES=1)", pytrace=False)
        pytest.skip(why, allow_module_level=True)
