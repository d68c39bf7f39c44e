"""Message catalogs in English and Spanish (gettext ``.po`` files read with Babel).

English is the source language: a message id *is* the English sentence, with ``{named}`` fields
(``"{player} claimed domino {domino}."``). Spanish lives in ``locale/es.po`` files: one for the
engine and terminal (``ludoteca/locale``) and one per game, in the game's own folder
(``games/<game>/locale``), so a new game brings its own sentences.

``Voice`` renders messages in one language with player names substituted; renderers call
``voice.t(msgid, **fields)`` and ``voice.nt(singular, plural, n, **fields)`` so that
``pybabel extract -k t -k nt:1,2`` finds every message (``make messages``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

from babel.messages.catalog import Catalog as BabelCatalog
from babel.messages.pofile import read_po

LANGUAGES = ("en", "es")
DEFAULT_LANGUAGE = "en"
ENGINE_LOCALE = Path(__file__).resolve().parent.parent / "locale"


def N_(message: str) -> str:
    """Mark a message for extraction where it is defined but rendered later."""
    return message


def language_from_env(environ: dict[str, str] | None = None) -> str:
    """The language of the person's locale, looked up in gettext's order (``LANGUAGE``,
    ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), if it is one of ours."""
    env = os.environ if environ is None else environ
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key, "")
        if value:
            lang = value.split(":")[0].split("_")[0].split(".")[0].lower()
            return lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def check_language(lang: str) -> str:
    from ludoteca.engine.errors import OptionError

    code = lang.strip().lower()
    if code not in LANGUAGES:
        raise OptionError(
            msgid=N_("unknown language {language!r}; known: {known}"),
            language=lang,
            known=", ".join(LANGUAGES),
        )
    return code


@lru_cache(maxsize=64)
def _read(path: Path) -> dict[str, str | tuple[str, ...]]:
    if not path.is_file():
        return {}
    with path.open("rb") as f:
        po: BabelCatalog = read_po(f)
    out: dict[str, str | tuple[str, ...]] = {}
    for message in po:
        if not message.id or message.fuzzy:
            continue
        key = message.id[0] if isinstance(message.id, (list, tuple)) else message.id
        if isinstance(message.string, (list, tuple)):
            if all(message.string):
                out[key] = tuple(message.string)
        elif message.string:
            out[key] = message.string
    return out


class Catalog:
    """The messages of one language from several ``locale`` folders (later folders win).

    ``missing`` collects every message asked for and not found, so tests can demand complete
    translations; English needs no file and never misses."""

    def __init__(self, lang: str, folders: Iterable[Path]) -> None:
        self.lang = lang
        self.messages: dict[str, str | tuple[str, ...]] = {}
        if lang != "en":
            for folder in folders:
                self.messages.update(_read(Path(folder) / f"{lang}.po"))
        self.missing: set[str] = set()

    def gettext(self, msgid: str) -> str:
        if self.lang == "en":
            return msgid
        found = self.messages.get(msgid)
        if isinstance(found, str):
            return found
        self.missing.add(msgid)
        return msgid

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        if self.lang == "en":
            return singular if n == 1 else plural
        found = self.messages.get(singular)
        if isinstance(found, tuple) and len(found) >= 2:
            return found[0] if n == 1 else found[1]  # en and es: one form for 1, one for others
        self.missing.add(singular)
        return singular if n == 1 else plural


@lru_cache(maxsize=32)
def catalog(lang: str, folders: tuple[Path, ...]) -> Catalog:
    """A cached catalog (shared: do not rely on its ``missing`` set across callers)."""
    return Catalog(lang, folders)


class Voice:
    """Sentences in one language for one table: messages translated, fields filled in, seats
    named by the table's player names."""

    def __init__(
        self,
        lang: str = DEFAULT_LANGUAGE,
        names: Sequence[str] = (),
        folders: Iterable[Path] = (),
        catalog_: Catalog | None = None,
    ) -> None:
        self.lang = lang
        self.names = list(names)
        self.catalog = catalog_ or catalog(lang, (ENGINE_LOCALE, *folders))

    def t(self, msgid: str, /, **fields: object) -> str:
        """``msgid`` in this language with ``fields`` filled in."""
        text = self.catalog.gettext(msgid)
        return text.format(**fields) if fields else text

    def nt(self, singular: str, plural: str, n: int, /, **fields: object) -> str:
        """The singular or plural form for ``n`` (also available as ``{n}``)."""
        return self.catalog.ngettext(singular, plural, n).format(n=n, **fields)

    def name(self, seat: int) -> str:
        """The player at ``seat``: their name, else "P1", "P2"..."""
        if 0 <= seat < len(self.names) and self.names[seat]:
            return self.names[seat]
        return f"P{seat + 1}"

    def join(self, items: Sequence[str]) -> str:
        """``a, b and c`` in this language."""
        items = list(items)
        if len(items) <= 1:
            return "".join(items)
        return self.t("{first} and {last}", first=", ".join(items[:-1]), last=items[-1])


# ---- the terminal renderers' words ------------------------------------------------------------
# A game's terminal renderer draws a table from a view alone (``render(view, seat)``,
# ``hint(view, legal)``), as the browser renderers do; its words go through ``t`` and ``nt``
# here, which speak the language of the session drawing now (``speaking``), English outside
# one. The ``t``/``nt`` names are the ones ``make messages`` extracts.
_SPEAKING: ContextVar[Voice | None] = ContextVar("ludoteca_terminal_voice", default=None)


@contextmanager
def speaking(voice: Voice) -> Iterator[None]:
    """While the block runs, ``t`` and ``nt`` speak ``voice``'s language."""
    token = _SPEAKING.set(voice)
    try:
        yield
    finally:
        _SPEAKING.reset(token)


def t(msgid: str, /, **fields: object) -> str:
    """``msgid`` in the language being spoken (``speaking``), fields filled in."""
    voice = _SPEAKING.get()
    if voice is None:
        return msgid.format(**fields) if fields else msgid
    return voice.t(msgid, **fields)


def nt(singular: str, plural: str, n: int, /, **fields: object) -> str:
    """The singular or plural form for ``n`` in the language being spoken."""
    voice = _SPEAKING.get()
    if voice is None:
        return (singular if n == 1 else plural).format(n=n, **fields)
    return voice.nt(singular, plural, n, **fields)
