"""Ludoteca's native core (C++17, nanobind): ``ludoteca_native._core``.

Pick it through ``ludoteca.engine.native`` (``LUDOTECA_CORE``), not directly: the Python
engines stay the reference and the fallback (docs/engine.md, "The native core").
"""
