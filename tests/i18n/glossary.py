"""The glossary (``ludoteca/locale/glossary.json``: one Spanish word per concept) and every
catalog as pairs of English and Spanish, so tests can hold each translation to it.

A catalog belongs to a scope: ``arena`` for the engine's, the server's and the web shell's
messages, the game's folder name for a game's messages and option labels. A concept applies
to the scopes it names (or to all). A pair breaks the glossary when its English says the
concept's term and its Spanish does not say the Spanish one, or when its Spanish uses a word
the concept avoids.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2] / "ludoteca"
GLOSSARY = ROOT / "locale" / "glossary.json"
FIELD = re.compile(r"\{[^{}]*\}")


@dataclass(frozen=True)
class Concept:
    name: str
    en: re.Pattern[str]
    es: re.Pattern[str]
    avoid: re.Pattern[str] | None
    scope: frozenset[str] | None  # None: every scope

    def applies(self, scope: str) -> bool:
        return self.scope is None or scope in self.scope


@dataclass(frozen=True)
class Pair:
    catalog: str
    scope: str
    key: str
    en: str
    es: str


def _words(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w)(?:{pattern})(?!\w)", re.IGNORECASE)


def concepts(path: Path = GLOSSARY) -> list[Concept]:
    data = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for name, c in data["concepts"].items():
        scope = None if c["scope"] == "all" else frozenset(c["scope"])
        avoid = _words("|".join(c["avoid"])) if c["avoid"] else None
        out.append(Concept(name, _words(c["en"]), _words(c["es"]), avoid, scope))
    return out


def _po_pairs(path: Path, scope: str) -> Iterator[Pair]:
    with path.open("rb") as f:
        catalog = read_po(f)
    for m in catalog:
        if not m.id or m.fuzzy:
            continue
        ids = list(m.id) if isinstance(m.id, (list, tuple)) else [m.id]
        texts = list(m.string) if isinstance(m.string, (list, tuple)) else [m.string]
        for i, text in enumerate(texts):
            if text:
                yield Pair(_where(path), scope, ids[0], ids[min(i, len(ids) - 1)],
                           text)


def _flat(data: object, prefix: str = "") -> dict[str, str]:
    """A JSON catalog's strings by dotted key; plural forms as ``key#one``, ``key#other``."""
    out: dict[str, str] = {}
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, dict) and set(value) <= {"zero", "one", "two", "few", "many",
                                                          "other"}:
                out |= {f"{prefix}{key}#{form}": text for form, text in value.items()}
            else:
                out |= _flat(value, f"{prefix}{key}.")
    elif isinstance(data, str):
        out[prefix.rstrip(".")] = data
    return out


def _catalog_pairs(catalog: str, scope: str, en_data: object, es_data: object) -> Iterator[Pair]:
    """The pairs of one {en, es} catalog (a plural form pairs with its English form, or the
    English "other")."""
    en, es = _flat(en_data), _flat(es_data)
    for key, text in es.items():
        english = en.get(key) or en.get(key.split("#")[0] + "#other")
        if english is not None:
            yield Pair(catalog, scope, key, english, text)


def _json_pairs(folder: Path, scope: str) -> Iterator[Pair]:
    read = [json.loads((folder / f"{lang}.json").read_text(encoding="utf-8"))
            for lang in ("en", "es")]
    yield from _catalog_pairs(_where(folder), scope, *read)


WEBUNIT = ROOT.parent / "tests" / "webunit"


def renderer_catalogs() -> dict[str, dict[str, object]] | None:
    """Each game renderer's own words (``games/<game>/web/*_messages.js``, read by Node:
    ``tests/webunit/dump_messages.mjs``), or None where Node or the test DOM is missing."""
    node = shutil.which("node")
    if node is None or not (WEBUNIT / "node_modules" / "happy-dom").is_dir():
        return None
    run = subprocess.run([node, "--import", "./register.mjs", "dump_messages.mjs"],
                         cwd=WEBUNIT, capture_output=True, text=True, timeout=120, check=True)
    found: dict[str, dict[str, object]] = json.loads(run.stdout)
    return found


def _renderer_pairs(catalogs: dict[str, dict[str, object]]) -> Iterator[Pair]:
    for path, catalog in catalogs.items():
        yield from _catalog_pairs(f"games/{path}", path.split("/")[0], catalog["en"], catalog["es"])


def _where(path: Path) -> str:
    """``path`` as messages name it: inside the package, or from the checkout for a game added
    from outside (the test game)."""
    return str(path.relative_to(ROOT if path.is_relative_to(ROOT) else ROOT.parent))


def game_folders() -> list[Path]:
    """The folder of every registered game package with a catalog: the shipped ones and those
    ``LUDOTECA_GAMES`` adds (the run's test game)."""
    from importlib import import_module

    from ludoteca.games import PACKAGES, extra_packages

    folders = {Path(str(import_module(p).__file__)).parent for p in (*PACKAGES, *extra_packages())}
    return sorted(f for f in folders if (f / "locale").is_dir())


def pairs(renderers: dict[str, dict[str, object]] | None = None) -> Iterator[Pair]:
    """Every translated message of every catalog (with ``renderers``, the game renderers'
    own words too)."""
    yield from _po_pairs(ROOT / "locale" / "es.po", "arena")
    yield from _po_pairs(ROOT / "server" / "locale" / "es.po", "arena")
    yield from _json_pairs(ROOT / "web" / "static" / "i18n", "arena")
    for game in game_folders():
        yield from _po_pairs(game / "locale" / "es.po", game.name)
        if (game / "web" / "i18n").is_dir():
            yield from _json_pairs(game / "web" / "i18n", game.name)
    if renderers:
        yield from _renderer_pairs(renderers)


def identifiers(path: Path = GLOSSARY) -> list[str]:
    """Protocol words quoted as they are in both languages (an action's ``type``)."""
    found: list[str] = json.loads(path.read_text(encoding="utf-8"))["identifiers"]
    return found


def plain(text: str) -> str:
    """The words of a message: no ``{fields}`` and no quoted protocol words."""
    text = FIELD.sub(" ", text)
    for words in identifiers():
        text = text.replace(words, " ")
    return text


def breaks(pair: Pair, concept: Concept) -> str | None:
    """Why ``pair`` breaks ``concept``, or None."""
    if not concept.applies(pair.scope):
        return None
    english, spanish = plain(pair.en), plain(pair.es)
    if concept.en.search(english) and not concept.es.search(spanish):
        return f"says {concept.name!r} in English but not {concept.es.pattern!r} in Spanish"
    if concept.avoid is not None and (found := concept.avoid.search(spanish)):
        return f"uses {found.group(0)!r} for {concept.name!r}"
    return None


def violations(renderers: dict[str, dict[str, object]] | None = None) -> list[str]:
    found = concepts()
    out = []
    for pair in pairs(renderers):
        for concept in found:
            why = breaks(pair, concept)
            if why:
                out.append(f"{pair.catalog} [{pair.key}] {why}: {pair.en!r} -> {pair.es!r}")
    return out
