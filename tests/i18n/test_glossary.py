"""One Spanish word per concept: every catalog (the server's, the engine's, the web shell's,
each game's messages, option labels and renderer words) follows
``ludoteca/locale/glossary.json``."""

from __future__ import annotations

import os

import pytest

from tests.i18n.glossary import (
    GLOSSARY,
    Concept,
    Pair,
    breaks,
    concepts,
    pairs,
    renderer_catalogs,
    violations,
)


def test_every_catalog_follows_the_glossary() -> None:
    assert violations() == []


def test_the_game_renderers_words_follow_the_glossary() -> None:
    """The renderers' own words (``games/<game>/web/*_messages.js``, read by Node)."""
    renderers = renderer_catalogs()
    if renderers is None:
        why = "Node and tests/webunit's DOM (make node-test) are needed to read the renderers"
        if os.environ.get("LUDOTECA_REQUIRE_SERVICES") == "1":
            pytest.fail(why)
        pytest.skip(why)
    assert {"kingdomino/web/domino_messages.js", "queendomino/web/queendomino_messages.js",
            "buttons/web/buttons_messages.js", "kami/web/kami_messages.js"} <= set(renderers)
    assert violations(renderers) == []


def test_the_glossary_names_the_issues_concepts() -> None:
    found = {c.name for c in concepts()}
    for concept in ("line", "domino", "Middle Kingdom", "round", "crown", "building", "knight",
                    "tower", "queen", "dragon"):
        assert concept in found, concept
    assert GLOSSARY.name == "glossary.json"


def test_every_catalog_is_read() -> None:
    catalogs = {p.catalog for p in pairs()}
    assert {"locale/es.po", "server/locale/es.po", "web/static/i18n",
            "games/kingdomino/locale/es.po", "games/kingdomino/web/i18n",
            "games/queendomino/locale/es.po", "games/queendomino/web/i18n",
            "games/kami/locale/es.po", "games/buttons/locale/es.po"} <= catalogs
    # plural forms are read as well (a po entry's second form, a JSON entry's forms)
    keys = {(p.catalog, p.key) for p in pairs()}
    assert ("web/static/i18n", "nav.waiting#other") in keys
    # a game's how-to lines are its own words (issue 38), held to its scope's concepts
    assert {"games/buttons/web/i18n", "games/kami/web/i18n"} <= catalogs
    scoped = {(p.scope, p.key) for p in pairs()}
    assert {("kingdomino", "kingdomino.howto.1"), ("kami", "goita.howto.4")} <= scoped
    shell = [k for c, k in keys if c == "web/static/i18n"]
    assert not [k for k in shell if k.startswith(("howto.", "analysis.act")) and k != "howto.title"]


def by_name(name: str) -> Concept:
    return next(c for c in concepts() if c.name == name)


def test_the_check_catches_a_synonym_and_a_missing_term() -> None:
    """The check is not vacuous: a synonym, or a translation that drops the term, fails."""
    line, domino = by_name("line"), by_name("domino")
    good = Pair("x", "kingdomino", "k", "Printed: 36 dominoes in lines of 3.",
                "Impreso: 36 dominós en líneas de 3.")
    assert breaks(good, line) is None and breaks(good, domino) is None
    synonym = Pair("x", "kingdomino", "k", "Printed: 36 dominoes in lines of 3.",
                   "Impreso: 36 fichas en filas de 3.")
    assert breaks(synonym, line) and breaks(synonym, domino)
    dropped = Pair("x", "queendomino", "k", "New line: dominoes {dominoes}.",
                   "Nueva tanda: {dominoes}.")
    assert "line" in (breaks(dropped, line) or "")
    # fields are not words ({round} is no round), and a concept keeps to its scope: a Buttons
    # row is a "fila"
    assert breaks(Pair("x", "arena", "k", "Move {round}", "Jugada {round}"),
                  by_name("round")) is None
    assert breaks(Pair("x", "buttons", "k", "row {row}", "fila {row}"), line) is None
