"""A script of the repository (``benchmarks/``, ``examples/``) imported as a module, for tests
that call its functions: they are not packages, so they are loaded from their file."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def load_script(relative: str) -> ModuleType:
    """``relative`` (from the repository's root) loaded as a module named after its file and
    registered in ``sys.modules`` under that name (so pickling and patching find it)."""
    path = ROOT / relative
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module
