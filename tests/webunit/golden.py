"""Golden views for the renderers' Node tests: positions of every game as the server sends them
to a browser (the match driver's view for one viewer, its score parts said in the viewer's
language as ``server/table/view.py`` says them, and that viewer's legal actions).

    python tests/webunit/golden.py          # rewrite tests/webunit/golden/*.json (make golden)

Each position is the first one of a seeded random game where a predicate holds for seat 0
(``you``), or the end as a spectator sees it. ``test_golden_views.py`` rebuilds them in memory
and fails when a file is out of date, so a change in a view shows up here as a diff, and the
renderers' snapshots (``renderers.test.mjs``) are then redrawn from the new views.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "golden"
sys.path.insert(0, str(HERE.parent.parent))
sys.path.insert(0, str(HERE.parent / "support"))
from extra_games import register  # noqa: E402

register()  # the test game too, as in the test run (tests/conftest.py)

Want = Callable[[dict[str, Any], list[dict[str, Any]]], bool]
"""Whether a position (seat 0's view and legal actions) is the one wanted."""


def _types(legal: list[dict[str, Any]]) -> set[str]:
    return {a["type"] for a in legal}


@dataclass(frozen=True)
class Setup:
    game: str
    players: int
    seed: int
    positions: dict[str, Want]
    options: dict[str, Any] = field(default_factory=dict)
    lang: str = "en"
    end: bool = True  # also the end as a spectator sees it (one per game and player count)


SETUPS = [
    Setup("kingdomino", 2, 11, {
        "draft": lambda v, legal: v["phase"] == "draft" and bool(legal),
        "place": lambda v, legal: "place" in _types(legal) and v["round"] >= 4,
        "claim": lambda v, legal: v["phase"] == "play" and "claim" in _types(legal),
    }),
    Setup("kingdomino", 3, 5, {
        "discard": lambda v, legal: _types(legal) == {"discard"},
    }, lang="es"),
    Setup("queendomino", 2, 4, {
        "place": lambda v, legal: "place" in _types(legal) and v["round"] >= 3,
        "build": lambda v, legal: "build" in _types(legal),
        "knight": lambda v, legal: "knight" in _types(legal),
        "queen": lambda v, legal: v["kingdoms"][v["sides"][0]]["queen"] and bool(legal),
    }),
    Setup("buttons", 2, 3, {
        "roll": lambda v, legal: "stop" in _types(legal),
        "place": lambda v, legal: "place" in _types(legal) and "decline" not in _types(legal),
        "gold": lambda v, legal: "decline" in _types(legal),
        "stars": lambda v, legal: "star" in _types(legal),
    }),
    Setup("kami", 2, 6, {
        "lead": lambda v, legal: bool(v.get("leading")) and len(legal) > 3,
        # a deal just ended: the recap (view last_round) over an untouched new deal
        "recap": lambda v, legal: bool(v.get("last_round")) and v["phase"] == "play"
        and not any(v["attack_lines"]) and bool(legal),
        "counter": lambda v, legal: not v.get("leading") and "pass" in _types(legal)
        and len(legal) > 1,
    }),
    Setup("nim", 3, 1, {  # the test game (tests/fifth_game), drawn like the shipped ones
        "take": lambda v, legal: len(legal) == 3 and v["pile"] < 13,
    }, options={"stones": 13}),
    Setup("goita", 4, 2, {
        "lead": lambda v, legal: bool(v.get("leading")) and len(legal) > 3,
        "counter": lambda v, legal: not v.get("leading") and "pass" in _types(legal)
        and len(legal) > 1,
    }, lang="es"),
    Setup("goita", 4, 56, {
        # a deal went out and the next ended at once (B5, six Shi): both in the recap
        "chain": lambda v, legal: bool(v.get("last_round")) and bool(v["last_round"]["earlier"])
        and not any(v["attack_lines"]) and bool(legal),
    }, end=False),
]


def positions(setup: Setup) -> dict[str, dict[str, Any]]:
    """``{name: golden}`` for one setup: its wanted positions and the end."""
    from ludoteca.engine.match import Match
    from ludoteca.engine.parts import render_parts
    from ludoteca.engine.rng import Rng
    from ludoteca.games import get_game
    from ludoteca.server.errors import voice

    game = get_game(setup.game)
    names = [f"P{s + 1}" for s in range(setup.players)]
    locale = game.locale
    folders = () if locale is None else (locale,) if isinstance(locale, Path) else locale
    say = voice(setup.lang, names, folders)
    match = Match.new(game, setup.options, setup.players, setup.seed, names=names)
    rng = Rng(setup.seed ^ 0x5DEECE66D)
    wanted = dict(setup.positions)
    found: dict[str, dict[str, Any]] = {}

    def shown(viewer: int | None) -> dict[str, Any]:
        legal = ([a.to_json() for a in match.legal(viewer)]
                 if viewer is not None and viewer in match.to_act() else [])
        return {"game": setup.game, "lang": setup.lang, "names": names, "you": viewer,
                "view": render_parts(match.view(viewer), say), "legal": legal}

    while seats := sorted(match.to_act()):
        if 0 in seats and wanted:
            now = shown(0)
            for name, want in list(wanted.items()):
                if want(now["view"], now["legal"]):
                    found[name] = now
                    del wanted[name]
        seat = seats[rng.below(len(seats))]
        legal = match.legal(seat)
        match.step(seat, legal[rng.below(len(legal))], match.decision(seat))
    assert not wanted, f"{setup.game} seed {setup.seed} never reached {sorted(wanted)}"
    if setup.end:
        found["end"] = shown(None)
    return found


def games() -> dict[str, dict[str, str | None]]:
    """Each game's renderer URL as /api/games gives it, and the folder served there (the tests'
    module resolution reads this: Goita's folder is Kami's)."""
    from ludoteca.games import entry, game_names
    from ludoteca.server.game_assets import web_info

    root = HERE.parent.parent
    found: dict[str, dict[str, str | None]] = {}
    for name in game_names():
        web = entry(name).web_file()
        found[name] = {"url": web_info(name)["web"],
                       "folder": web.parent.relative_to(root).as_posix() if web else None}
    return found


def files() -> dict[str, str]:
    """Every golden file's name and text."""
    out = {"games.json": json.dumps(games(), indent=1, sort_keys=True) + "\n"}
    for setup in SETUPS:
        for name, golden in positions(setup).items():
            key = f"{setup.game}-{setup.players}p-{name}"
            text = json.dumps(golden, ensure_ascii=False, indent=1, sort_keys=True)
            out[f"{key}.json"] = text + "\n"
    return out


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    made = files()
    for old in GOLDEN.glob("*.json"):
        if old.name not in made:
            old.unlink()
    for name, text in made.items():
        (GOLDEN / name).write_text(text, encoding="utf-8")
    print(f"{len(made)} golden views in {GOLDEN}")


if __name__ == "__main__":
    main()
