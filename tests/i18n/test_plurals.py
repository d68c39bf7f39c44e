"""Counted words take the form their count needs, in English and Spanish ("1 crown",
"2 crowns"): the engine's plural message records (``engine/parts.nt``) in score parts, and the
web catalogs' plural entries read by ``i18n.js`` (run in Node, which is on every machine here)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from ludoteca.engine.parts import nt, render_parts, say_record
from ludoteca.games import get_game
from ludoteca.games.kingdomino import scoring as kingdomino_scoring
from ludoteca.games.queendomino import scoring as queendomino_scoring

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "ludoteca" / "web" / "static"
KINGDOMINO, QUEENDOMINO = get_game("kingdomino"), get_game("queendomino")


@pytest.mark.parametrize(("lang", "one", "two"), [("en", "1 crown", "2 crowns"),
                                                    ("es", "1 corona", "2 coronas")])
def test_a_plural_record_is_said_in_the_form_for_its_count(lang: str, one: str, two: str) -> None:
    voice = KINGDOMINO.voice(lang)
    assert say_record(nt("{n} crown", "{n} crowns", 1), voice) == one
    assert say_record(nt("{n} crown", "{n} crowns", 2), voice) == two
    assert voice.catalog.missing == set()


def territory(squares: int, crowns: int, lang: str) -> str:
    parts = kingdomino_scoring.territory_parts(
        [{"terrain": "wheat", "squares": squares, "crowns": crowns,
          "points": squares * crowns}])
    said = render_parts([p.to_json() for p in parts], KINGDOMINO.voice(lang))
    return str(said[0]["text"])


def test_territory_parts_say_one_crown_and_one_square() -> None:
    assert territory(3, 1, "en") == "wheat: 3 squares × 1 crown"
    assert territory(1, 2, "en") == "wheat: 1 square × 2 crowns"
    assert territory(3, 1, "es") == "trigo: 3 casillas × 1 corona"
    assert territory(1, 3, "es") == "trigo: 1 casilla × 3 coronas"
    largest = kingdomino_scoring.tiebreak(1, 1, True)
    said = render_parts([t.to_json() for t in largest], KINGDOMINO.voice("es"))
    assert [t["text"] for t in said] == ["territorio mayor: 1 casilla", "coronas del reino: 1"]


def test_queendomino_parts_say_one_coin() -> None:
    result = {"wealth": {"coins": 1, "points": 0}, "territories": [], "buildings": []}
    parts = queendomino_scoring.parts(result)
    for lang, text in (("en", "Wealth: 1 coin, 1 point per 3"),
                       ("es", "Riqueza: 1 moneda, 1 punto por cada 3")):
        said = render_parts([p.to_json() for p in parts], QUEENDOMINO.voice(lang))
        assert said[0]["text"] == text


def plural_entries(catalog: dict[str, object]) -> dict[str, dict[str, str]]:
    return {k: v for k, v in catalog.items() if isinstance(v, dict)}


def test_the_web_catalogs_plural_entries_have_their_forms() -> None:
    en = json.loads((WEB / "i18n" / "en.json").read_text())
    es = json.loads((WEB / "i18n" / "es.json").read_text())
    assert set(en) == set(es)
    assert plural_entries(en), "the shell says counted words"
    assert set(plural_entries(en)) == set(plural_entries(es))
    for catalog in (en, es):
        for key, forms in plural_entries(catalog).items():
            assert {"one", "other"} <= set(forms), key
            assert all("{n}" in text for text in forms.values()), key


def test_the_browser_picks_the_form_for_the_count() -> None:
    node = shutil.which("node")
    assert node, "Node is needed for the web client's unit tests"
    script = f"""
import {{ translator }} from {json.dumps((WEB / "i18n.js").as_uri())};
const m = {{ en: JSON.parse({json.dumps((WEB / "i18n" / "en.json").read_text())}),
            es: JSON.parse({json.dumps((WEB / "i18n" / "es.json").read_text())}) }};
const out = [];
for (const lang of ["en", "es"]) for (const n of [0, 1, 2])
  for (const key of ["nav.waiting", "account.others_done"])
    out.push(translator(m, lang)(key, {{ n }}));
// a key with no Spanish falls back to English
out.push(translator({{ en: {{ x: "plain {{n}}" }} }}, "es")("x", {{ n: 1 }}));
console.log(JSON.stringify(out));
"""
    run = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True,
                         text=True, timeout=60, check=True)
    said = json.loads(run.stdout)
    assert said == [
        "0 turn-based tables waiting for your move", "0 sessions ended.",
        "1 turn-based table waiting for your move", "1 session ended.",
        "2 turn-based tables waiting for your move", "2 sessions ended.",
        "0 mesas por turnos esperan tu jugada", "Se han cerrado 0 sesiones.",
        "1 mesa por turnos espera tu jugada", "Se ha cerrado 1 sesión.",
        "2 mesas por turnos esperan tu jugada", "Se han cerrado 2 sesiones.",
        "plain 1",
    ]
