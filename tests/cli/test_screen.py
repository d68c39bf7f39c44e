"""Issue 12 item 7: at every decision of a person, their own board stays on an 80×24 screen
with the hint and the prompt.

Each case plays seeded random games of a registered game through the match driver and, at every
decision of seat 0 with more than one legal action, draws the screen exactly as
``PlaySession.ask`` does: ``ui.render(view, 0)``, the hint wrapped by ``session.wrap``, then the
prompt line, on an 80-column console. No line may be wider than 80 columns, and the viewer's own
block must start within the last 24 lines.

How the own block is found: each renderer defines ``YOURS``, the words the viewer's own block
begins with ("Your kingdom" for Kingdomino and Queendomino, "Your board" for Buttons, "Your
hand" for Kami and Goita); the block runs from the first screen line holding them down to the
prompt. Everything else (the other boards, Queendomino's current line...) must come above it.
A spectator's table (``seat=None``) has no such block and no height limit.
"""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text

from ludoteca.engine.match import Match
from ludoteca.games import game_names, get_game
from ludoteca.terminal import session

WIDTH, HEIGHT = 80, 24
SEEDS = (1, 2)
VARIANTS: dict[str, list[tuple[dict[str, Any], int]]] = {
    # the tallest kingdom: 7×7 (rules/kingdomino.md, Mighty Duel)
    "kingdomino": [({"mighty_duel": True}, 2)],
    # 5-8 players are Royal Weddings already; teams share a 7×7 kingdom (rules/queendomino.md)
    "queendomino": [({"royal_wedding": True}, 4), ({"royal_wedding": True, "teams": True}, 6),
                    ({"royal_wedding": True, "teams": True}, 8)],
}


def cases() -> list[tuple[str, dict[str, Any], int]]:
    """Every registered game at every player count, and the variants that change the table."""
    out = []
    for name in game_names():
        spec = get_game(name).spec
        out += [(name, {}, n) for n in range(spec.min_players, spec.max_players + 1)]
        out += [(name, options, n) for options, n in VARIANTS.get(name, [])]
    return out


def screen(ui: Any, view: dict[str, Any], legal: list[Any]) -> list[str]:
    """The lines a person sees when asked for a move, as ``PlaySession.ask`` prints them."""
    console = Console(width=WIDTH, record=True, file=io.StringIO())
    console.print(ui.render(view, 0))
    console.print(Text(session.wrap(ui.hint(view, legal))))
    console.print("P1> ")
    return console.export_text().rstrip("\n").split("\n")


def spectator(ui: Any, view: dict[str, Any]) -> str:
    console = Console(width=WIDTH, record=True, file=io.StringIO())
    console.print(ui.render(view, None))
    return console.export_text()


@pytest.mark.parametrize(("name", "options", "players"), cases(),
                         ids=lambda v: str(v).replace(" ", ""))
def test_own_board_hint_and_prompt_fit_80_by_24(
    name: str, options: dict[str, Any], players: int
) -> None:
    ui = session.load_renderer(name)
    marker = ui.YOURS
    game = get_game(name)
    asked = 0
    for seed in SEEDS:
        match = Match.new(game, options, players, seed)
        rng = random.Random(seed)
        while not match.is_over():
            for seat in sorted(match.to_act()):
                if seat not in match.to_act():  # a simultaneous step already moved on
                    continue
                legal = match.legal(seat)
                if seat == 0 and len(legal) > 1:
                    view = match.view(0)
                    lines = screen(ui, view, legal)
                    where = f"{name} {options} {players}p seed {seed} ply {match.seq}"
                    assert max(len(line) for line in lines) <= WIDTH, where
                    top = next((i for i, line in enumerate(lines) if marker in line), None)
                    assert top is not None, f"{where}: no {marker!r} on screen"
                    shown = "\n".join(lines[top:])
                    assert len(lines) - top <= HEIGHT, f"{where}: {len(lines) - top} lines\n{shown}"
                    if asked % 25 == 0:  # a spectator's table: every seat alike, none "yours"
                        assert marker not in spectator(ui, match.view(None)), where
                    asked += 1
                match.step(seat, legal[rng.randrange(len(legal))])
        assert marker not in spectator(ui, match.view(None))
    assert asked > 0
