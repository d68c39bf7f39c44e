"""Every message the code can say has a Spanish translation, with the same ``{fields}``.

Messages are extracted from the sources the way ``make messages`` does (Babel's Python
extractor with the keywords ``t``, ``nt`` and ``N_``), per catalog: the engine's and terminal's
(``ludoteca/locale``) and each game's (``ludoteca/games/<game>/locale``).
"""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2] / "ludoteca"
KEYWORDS = {"t": None, "nt": (1, 2), "N_": None}
METHOD_MAP = [("**.py", "python")]

ENGINE_SOURCES = [ROOT / "engine", ROOT / "terminal" / "session.py", ROOT / "cli",
                  ROOT / "analysis" / "terminal.py", ROOT / "analysis" / "chart.py",
                  ROOT / "tournament"]
GAME_LOCALES = sorted(p.parent for p in ROOT.glob("games/*/locale/es.po"))


def extracted(path: Path) -> set[str]:
    """Message ids (singular) used in a file or a folder's Python files."""
    if path.is_file():
        found = extract_from_dir(path.parent, METHOD_MAP, keywords=KEYWORDS)
        return {m[2] if isinstance(m[2], str) else m[2][0] for m in found if m[0] == path.name}
    out = set()
    for _, _, message, _, _ in extract_from_dir(path, METHOD_MAP, keywords=KEYWORDS):
        out.add(message if isinstance(message, str) else message[0])
    return out


def translations(folder: Path) -> dict[str, str | tuple[str, ...]]:
    with (folder / "es.po").open("rb") as f:
        catalog = read_po(f)
    out: dict[str, str | tuple[str, ...]] = {}
    for m in catalog:
        if m.id:
            key = m.id if isinstance(m.id, str) else m.id[0]
            out[key] = m.string if isinstance(m.string, str) else tuple(m.string)
    return out


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def check(ids: set[str], es: dict[str, str | tuple[str, ...]]) -> None:
    missing = sorted(i for i in ids if not es.get(i) or not all(es[i]))
    assert not missing, f"no Spanish for: {missing}"
    for msgid in ids:
        for text in (es[msgid],) if isinstance(es[msgid], str) else es[msgid]:
            assert isinstance(text, str)
            extra = fields(text) - fields(msgid) - {"n"}
            assert not extra, f"{msgid!r} -> {text!r} uses unknown fields {extra}"


def test_engine_and_terminal_messages_are_all_translated() -> None:
    ids: set[str] = set()
    for source in ENGINE_SOURCES:
        ids |= extracted(source)
    assert "It is not {player}'s turn." in ids and "Final ranks" in ids
    check(ids, translations(ROOT / "locale"))


@pytest.mark.parametrize("folder", GAME_LOCALES, ids=[p.parent.name for p in GAME_LOCALES])
def test_each_games_messages_are_all_translated(folder: Path) -> None:
    ids = extracted(folder.parent)
    assert ids, "a game with a catalog narrates its events through it"
    check(ids, translations(folder))


def test_every_game_has_a_catalog() -> None:
    games = {p.name for p in (ROOT / "games").iterdir() if (p / "rules.py").exists()}
    assert {p.parent.name for p in GAME_LOCALES} == games


def test_spanish_is_not_english() -> None:
    """A catalog that copies the English would pass the checks above; most entries must differ."""
    for folder in [ROOT / "locale", *GAME_LOCALES]:
        es = translations(folder)
        same = [k for k, v in es.items() if v == k and re.search(r"[a-z]{4}", k)]
        assert len(same) <= max(2, len(es) // 10), f"{folder}: untranslated {same[:10]}"


def test_the_default_language_follows_the_locale_in_gettexts_order() -> None:
    from ludoteca.engine.i18n import check_language, language_from_env

    assert language_from_env({"LANG": "es_ES.UTF-8"}) == "es"
    assert language_from_env({"LANGUAGE": "es:en", "LANG": "en_US.UTF-8"}) == "es"
    assert language_from_env({"LC_ALL": "de_DE.UTF-8"}) == "en"
    assert language_from_env({}) == "en"
    assert check_language(" ES ") == "es"
    with pytest.raises(ValueError, match="unknown language"):
        check_language("fr")


def test_every_game_labels_its_options_from_its_own_folder() -> None:
    """The browser's words for a game's options come from the game's folder (served by
    ``/api/games``): every option and choice in both languages, none in the shell's catalogs."""
    import json

    from ludoteca.games import entry, game_names, get_game

    for name in game_names():
        labels = entry(name).web_labels()
        for option in get_game(name).spec.options:
            keys = [option.name, f"{option.name}.hint"]
            keys += [f"{option.name}.{choice}" for choice in option.choices]
            for lang in ("en", "es"):
                missing = [k for k in keys if not labels[lang].get(k)]
                assert not missing, f"{name} has no {lang} label for {missing}"
    for lang in ("en", "es"):
        shell = json.loads((ROOT / "web" / "static" / "i18n" / f"{lang}.json").read_text("utf-8"))
        assert not [k for k in shell if k.startswith("opt.")]
