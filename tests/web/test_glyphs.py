"""The browser client draws its symbols with characters the fonts of a plain Debian desktop have
(DejaVu, which Debian's Chromium falls back to): the media-control symbols ⏮ ⏭ ⏸ and the
emoji ✋ 👁 🔔 showed as empty boxes there. Kami's kanji are drawn only when the browser has a
font for them (``kami_cards.js`` checks), so they are left out here."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "ludoteca"
SOURCES = [*ROOT.glob("web/static/**/*.js"), *ROOT.glob("web/static/**/*.json"),
           *ROOT.glob("games/*/web/*.js"), *ROOT.glob("games/*/web/i18n/*.json")]
KANJI = set("し香馬銀金飛角王")


def symbols() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in SOURCES:
        for ch in path.read_text(encoding="utf-8"):
            if ord(ch) >= 0x2000 and ch not in KANJI:
                found.setdefault(ch, path)
    return found


def test_every_symbol_is_in_an_installed_font() -> None:
    """Each symbol has a font on this machine (fontconfig comes with Chromium)."""
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        if os.environ.get("LUDOTECA_REQUIRE_SERVICES") == "1":
            pytest.fail("fc-list (fontconfig, installed with chromium) is required")
        pytest.skip("no fontconfig here: no browser fonts to check the symbols against")
    missing = {}
    for ch, path in symbols().items():
        out = subprocess.run([fc_list, f":charset={ord(ch):x}", "family"], capture_output=True,
                             text=True, timeout=30).stdout.strip()
        if not out:
            missing[ch] = str(path)
    assert missing == {}
