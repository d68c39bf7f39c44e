"""Players' names: the rules a sign-in or display name follows, the reserved ones, and the
folded form under which two names that look alike count as the same name.

Why fold: a display name is what other players read at a table and in chat, so ``Аna`` (with a
Cyrillic А), ``ANA`` or ``An4``-style tricks must not pass for ``Ana``. The fold is Unicode NFKC
(full-width and styled letters become plain ones), then casefold, then a small map of the
look-alikes people actually use (Cyrillic and Greek letters that look Latin, ``0`` for ``o``,
``1``/``l``/``|`` for ``i``, ``rn`` for ``m``, ``vv`` for ``w``), without the separators
(``.``, ``-``, ``_``, spaces, apostrophes: ``A.n.a`` is ``Ana``). It is deliberately coarse:
refusing a harmless name costs a player a second try, letting a look-alike through costs
trust.
"""

from __future__ import annotations

import re
import unicodedata

from ludoteca.server import errors as E
from ludoteca.server.errors import ServerError

SIGN_IN = re.compile(r"^[A-Za-z][A-Za-z0-9._-]{2,23}$")
"""Sign-in names: plain ASCII, so that they are easy to type and to tell apart."""

_LOOK_ALIKE = str.maketrans({
    # Cyrillic letters drawn like Latin ones
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
    "с": "c", "т": "t", "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "ԁ": "d",
    "ɡ": "g", "ԛ": "q", "ԝ": "w",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
    "τ": "t", "υ": "u", "χ": "x", "ζ": "z",
    # separators
    ".": "_", "-": "_", " ": "_", "'": "_",
})
_DIGIT_LIKE = str.maketrans({
    # digits and signs used as letters, and the letters hardest to tell apart
    "0": "o", "1": "i", "l": "i", "|": "i", "!": "i", "3": "e", "4": "a", "5": "s", "7": "t",
    "8": "b", "$": "s", "@": "a",
})
_PAIRS = (("rn", "m"), ("vv", "w"))

_RESERVED = frozenset({
    "admin", "administrator", "root", "system", "ludoteca", "moderator", "mod", "staff",
    "support", "server", "owner", "host", "bot", "guest", "deleted", "anonymous", "nobody",
})
"""Folded names nobody may take (with separators removed): they would pass for the arena or
its staff, or for the names the arena gives itself (guests, bots, deleted accounts)."""
_PREFIXES = ("guest", "deleted")
"""Folded prefixes of the names the arena gives: guests (guest_3fa2c1), deleted accounts."""
_BOT = re.compile(r"^bot_?\d+$")
"""Seat names (Bot 2), matched before digits fold into letters."""


def _letters(name: str) -> str:
    """NFKC, casefold, accents off, other scripts' Latin look-alikes mapped, one separator."""
    text = unicodedata.normalize("NFKC", name).casefold()
    text = "".join(c for c in unicodedata.normalize("NFKD", text)
                   if not unicodedata.combining(c))  # é, ñ and friends lose their marks
    return re.sub(r"_+", "_", text.translate(_LOOK_ALIKE)).strip("_")


def fold(name: str) -> str:
    """The form under which two names look the same (see the module's docstring)."""
    text = _letters(name).replace("_", "").translate(_DIGIT_LIKE)
    for pair, single in _PAIRS:
        text = text.replace(pair, single)
    return text


RESERVED = frozenset(fold(name) for name in _RESERVED)
PREFIXES = tuple(fold(prefix) for prefix in _PREFIXES)


def is_reserved(name: str) -> bool:
    folded = fold(name)
    return (folded in RESERVED or folded.startswith(PREFIXES)
            or bool(_BOT.match(_letters(name))))


def check_sign_in_name(name: str) -> str:
    """A new sign-in name as it is kept, or a refusal: its shape, then the reserved names."""
    name = name.strip()
    if not SIGN_IN.match(name):
        raise ServerError("bad_name", E.BAD_NAME)
    if is_reserved(name):
        raise ServerError("reserved_name", E.RESERVED_NAME, name=name)
    return name


def check_display_name(name: str) -> str:
    """A display name as it is kept (NFKC): 3 to 24 letters of any script, digits, spaces,
    dots, dashes, underscores or apostrophes, starting with a letter; not reserved."""
    name = " ".join(unicodedata.normalize("NFKC", name).split())
    if not 3 <= len(name) <= 24 or not name[0].isalpha() or not all(
            c.isalnum() or c in " ._-'" for c in name):
        raise ServerError("bad_name", E.BAD_DISPLAY_NAME)
    if is_reserved(name):
        raise ServerError("reserved_name", E.RESERVED_NAME, name=name)
    return name
