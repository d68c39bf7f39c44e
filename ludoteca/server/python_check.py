"""Whether this Python parses cookies in quadratic time (CVE-2024-7592: the standard library's
``http.cookies._unquote``, which Starlette uses, before 3.11.10, 3.12.6 and 3.13.0).

The arena is safe either way (``http_limits.py`` and ``web_security.safe_cookies`` keep large
and quoted cookies away from it), but an operator should know, and ``make run`` uses this to
choose a fixed Python when the machine has one (``tools/safe_python.py``). Standard library
only, so that it runs before anything is installed.
"""

from __future__ import annotations

import sys

FIXED = {(3, 8): 20, (3, 9): 20, (3, 10): 15, (3, 11): 10, (3, 12): 6}
"""The first patch release of each affected minor version with the fix; 3.13 and later have it."""


def cookie_parser_is_quadratic(version: tuple[int, ...] = tuple(sys.version_info[:3])) -> bool:
    major, minor, micro = (*version, 0, 0, 0)[:3]
    if (major, minor) >= (3, 13):
        return False
    first = FIXED.get((major, minor))
    return first is None or micro < first


def warning() -> str | None:
    """The one line the server logs at start on an affected Python; None on a fixed one."""
    if not cookie_parser_is_quadratic():
        return None
    here = ".".join(str(p) for p in sys.version_info[:3])
    return (f"Python {here} parses cookies in quadratic time (CVE-2024-7592): the arena keeps "
            "large and quoted cookies away from the parser, but run it on Python 3.11.10, "
            "3.12.6, 3.13 or newer")
