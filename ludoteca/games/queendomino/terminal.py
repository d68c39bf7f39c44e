"""Queendomino in the terminal: kingdoms with towns, buildings and knights, the builders' board,
the two lines, and typed moves.

Coordinates are the engine's (castle-relative, x right, y down), as in the Kingdomino renderer,
whose terrain colours, direction words and labels are reused. A square reads without colour:
terrain letter, crowns, then ``k`` for a knight, ``b`` for a building, ``*`` for both.

What a person types (one command per action; the steps of a turn go in order A-E, and an
optional step is skipped by typing a later one):

- ``x y dir`` (or ``place x y dir``) · ``discard``  — step A
- ``knight x y``                                   — step B
- ``build space x y``                              — step C (space = its price, 0-5)
- ``dragon space``                                 — step D
- ``claim n`` (the printed number) · ``pass``      — step E / end of the last round

Screen layout: the viewer's own kingdom (titled ``YOURS``) is drawn last, with the next line, its
coins and knights beside it and the builders' board and the turn below, so that with the hint
and the prompt it fits an 80×24 terminal (issue 12 item 7); the other kingdoms and the current
line are above and scroll away first. In team play (rules §7.6) a kingdom is a team's, titled
with both partners, and a partner is marked as such; with more than four kingdoms the others
are drawn only as far as they reach, to keep the table short.
"""

from __future__ import annotations

import re
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ludoteca.engine.i18n import N_, nt, t
from ludoteca.games.kingdomino.terminal import (
    CASTLE_STYLE,
    DIRECTION_NAMES,
    DIRECTION_WORDS,
    TERRAIN_HELP,
    YOURS,
    placement_summary,
    seat_label,
    side_by_side,
)
from ludoteca.games.kingdomino.terminal import TERRAIN_STYLE as KINGDOMINO_STYLE
from ludoteca.games.kingdomino.terminal import kingdom_grid as kingdomino_grid
from ludoteca.games.kingdomino.terminal import kingdom_panel as kingdomino_panel
from ludoteca.games.queendomino.actions import (
    Build,
    Claim,
    Discard,
    Dragon,
    Knight,
    Pass,
    Place,
)

TERRAIN_STYLE = {**KINGDOMINO_STYLE, "town": ("T", "bright_white on red3")}
STEP_LETTERS = {"place": "A", "tax": "B", "build": "C", "dragon": "D", "claim": "E"}


def who(view: dict[str, Any], s: int, seat: int | None) -> str:
    """A seat as the viewer reads it: ``P4 (you)``, ``P4 (partner)`` in team play, ``P4``."""
    teams = view["options"].get("teams")
    if teams and seat is not None and s != seat and view["sides"][s] == view["sides"][seat]:
        return f"P{s + 1} ({t('partner')})"
    return seat_label(s, seat)


def side_label(view: dict[str, Any], side: int, seat: int | None) -> str:
    """Whose kingdom ``side`` is: one player, or both partners (``P1 (you) + P4``)."""
    return " + ".join(seat_label(s, seat) for s, sd in enumerate(view["sides"]) if sd == side)


def side_order(view: dict[str, Any], seat: int | None) -> list[int]:
    """The kingdoms in drawing order: the viewer's own first, then the others in seat order."""
    own = view["sides"][seat] if seat is not None else -1
    return sorted(range(len(view["kingdoms"])), key=lambda side: side != own)


def square(terrain: str | None, crowns: int, mark: str = " ") -> Text:
    """One 3-character cell: terrain letter, crowns, and a knight/building mark."""
    if terrain is None:
        return Text(" C ", style=CASTLE_STYLE)
    letter, style = TERRAIN_STYLE[terrain]
    return Text(f"{letter}{crowns if crowns else ' '}{mark}", style=style)


def domino_label(d: dict[str, Any]) -> str:
    """The printed number, with a K for the Kingdomino box in Royal Wedding."""
    return ("K" if d["box"] == "kingdomino" else "") + str(d["number"])


def domino_text(d: dict[str, Any]) -> Text:
    text = Text()
    for terrain, crowns in zip(d["terrains"], d["crowns"], strict=True):
        text.append_text(square(terrain, crowns))
    return text


def extent(kingdom: dict[str, Any]) -> int:
    """The side of the square that holds a kingdom as it is now (castle included): passed as
    the frame, it draws only what is built, not every square it could still grow into."""
    xs = [0, *(int(sq["x"]) for sq in kingdom["squares"])]
    ys = [0, *(int(sq["y"]) for sq in kingdom["squares"])]
    return max(max(xs) - min(xs), max(ys) - min(ys)) + 1


def kingdom_grid(kingdom: dict[str, Any], frame: int) -> Text:
    """The kingdom grid of ``games/kingdomino/terminal.py`` with knights (k) and buildings (b)."""
    knights = {tuple(xy) for xy in kingdom["knight_squares"]}
    built = {(b["x"], b["y"]) for b in kingdom["buildings"]}

    def draw(sq: dict[str, Any]) -> Text:
        xy = (sq["x"], sq["y"])
        k, b = xy in knights, xy in built
        mark = "*" if k and b else "k" if k else "b" if b else " "
        return square(sq["terrain"], sq["crowns"], mark)

    return kingdomino_grid(kingdom, frame, draw)


def effects(b: dict[str, Any]) -> str:
    """A building's symbols in words: now / each tax / at the end."""
    now = []
    if b["knights"]:
        now.append(t("+{n} knight", n=b["knights"]))
    if b["towers"]:
        now.append(t("+{n} tower", n=b["towers"]))
    tax = []
    if b["coin_per_knight"]:
        tax.append(t("+{n}/knight", n=b["coin_per_knight"]))
    if b["coin_per_tower"]:
        tax.append(t("+{n}/tower", n=b["coin_per_tower"]))
    end = []
    if b["crowns"]:
        end.append(nt("{n} crown", "{n} crowns", b["crowns"]))
    if b["points"]:
        end.append(t("{score} pts", score=b["points"]))
    if b["per_territory"]:
        end.append(t("{n}/{terrain} territory", n=b["per_territory"], terrain=t(b["terrain"])))
    if b["per_tower"]:
        end.append(t("{n}/tower", n=b["per_tower"]))
    if b["per_knight"]:
        end.append(t("{n}/knight", n=b["per_knight"]))
    parts = [", ".join(now) or "-", t("tax {effects}", effects=", ".join(tax)) if tax else "",
             ", ".join(end)]
    text = " · ".join(p for p in parts if p)
    return text + (" " + t("(inferred)") if b["inferred"] else "")


def board_table(view: dict[str, Any]) -> Table:
    """The builders' board, dearest space first, labelled in a left column so that it takes
    no title line."""
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold")
    table.add_column(justify="right")
    table.add_column()
    table.add_column()
    label = [t("Builders'"), t("board"), t("(pile {n})", n=view["building_pile"]), "", "", ""]
    for row, space in enumerate(reversed(view["board"])):
        b = space["building"]
        if space["dragon"]:
            cells: tuple[Text | str, str] = (Text(t("the Dragon"), style="red"), t("burnt"))
        elif b is None:
            cells = (Text(t("empty"), style="dim"), "")
        else:
            cells = (t(b["name"]), effects(b))
        table.add_row(label[row], str(space["space"]), *cells)
    return table


def line_table(view: dict[str, Any], which: str, seat: int | None) -> Group:
    """One line, a domino a row: label, domino, king, and where the turn is."""
    current = which == "current_line"
    title = t("Current line") if current else t("Next line")
    if view["phase"] == "draft":
        title = t("First line")
    table = Table.grid(padding=(0, 1))
    table.add_column(justify="right")
    for _ in range(3):
        table.add_column()
    playing = view["phase"] == "play"
    for i, d in enumerate(view[which]):
        king = "-" if d["king"] is None else who(view, d["king"], seat)
        note = ""
        if current and playing:
            if i == view["acting"]:
                note = "◀ " + t("step {letter}", letter=STEP_LETTERS[view["step"]])
            elif i < view["acting"]:
                note = t("done")
        elif not current and d["king"] is None:
            note = t("free")
        table.add_row(domino_label(d), domino_text(d), king, note)
    return Group(Text(title, style="bold underline"), table)


def status(view: dict[str, Any], seat: int | None, short: bool = False) -> Text:
    """Whose turn and which steps, with the domino to place in step A; ``short`` names the
    steps by their letters only (beside the viewer's kingdom; the hint says the rest)."""
    if view["phase"] == "over":
        return Text(t("The game is over."), style="bold")
    actors = view["to_act"]
    now = t("Your turn") if seat in actors else ", ".join(who(view, s, seat) for s in actors)
    if view["phase"] == "draft":
        where = t("claim from the first line") if short else t(
            "claim a domino of the first line")
        return Text(f"{now}: {where}", style="bold")
    step = view["step"]
    if step == "place":
        n = view["acting_domino"]
        doing = t("step A, place {n}", n=n) if short else t("step A, place domino {n}", n=n)
        text = Text(f"{now}: {doing} ", style="bold")
        line = view["current_line"]
        if 0 <= view["acting"] < len(line):
            text.append_text(domino_text(line[view["acting"]]))
        return text
    names = {"tax": N_("B knights / C build / D dragon / E claim"),
             "build": N_("C build / D dragon / E claim"), "dragon": N_("D dragon / E claim"),
             "claim": N_("E claim")}
    letters = {"tax": N_("step B, C, D or E"), "build": N_("step C, D or E"),
               "dragon": N_("step D or E"), "claim": N_("step E, claim")}
    return Text(f"{now}: {t((letters if short else names)[step])}", style="bold")


def header(view: dict[str, Any], seat: int | None) -> Text:
    head = Text(t("Queendomino · {players} players", players=view["players"]), style="bold")
    if view["options"].get("royal_wedding"):
        head.append(" · " + t("Royal Wedding"))
    if view["options"].get("teams"):
        head.append(" · " + t("teams of 2"))
    head.append(" · " + (t("first draft") if view["phase"] == "draft"
                         else t("round {round}/{rounds}", round=view["round"],
                                rounds=view["rounds"])))
    head.append(" · " + t("{n} dominoes in the pile", n=view["deck_remaining"]))
    queen = view["queen"]
    head.append(" · " + t("Queen: {where}", where=t("beside the board") if queen is None
                          else side_label(view, queen, seat)))
    head.append(" · " + t("{frame}×{frame} kingdoms", frame=view["frame"]), style="dim")
    return head


def panel(view: dict[str, Any], side: int, seat: int | None, compact: bool) -> Panel:
    """Kingdom ``side``: titled with its owners, score and the Queen; another's coins, knights
    (free+placed) and towers below. ``compact`` draws it only as far as it reaches."""
    k = view["kingdoms"][side]
    own = seat is not None and view["sides"][seat] == side
    name = f"{t(YOURS)} ({side_label(view, side, None)})" if own else side_label(view, side, seat)
    title = f"{name} · {t('{score} pts', score=k['score'])}" + (" · ♛" if k["queen"] else "")
    grid = kingdom_grid(k, extent(k) if compact else view["frame"])
    style = "bold cyan" if any(view["sides"][s] == side for s in view["to_act"]) else ""
    if own:
        return kingdomino_panel(grid, title, style)
    placed = len(k["knight_squares"])  # free+placed: the viewer's own says it in words
    info = t("{coins} coins · knights {free}+{placed} · towers {towers}", coins=k["coins"],
             free=k["knights"], placed=placed, towers=k["towers"])
    grid.append("\n")
    grid.append(info, style="dim")
    return kingdomino_panel(grid, title, style)


def own_info(view: dict[str, Any], side: int) -> Text:
    """The viewer's coins, knights and towers (two short lines beside their kingdom)."""
    k = view["kingdoms"][side]
    placed = len(k["knight_squares"])
    return Text(t("{coins} coins · towers {towers}", coins=k["coins"], towers=k["towers"])
                + "\n" + t("knights {free} free, {placed} placed", free=k["knights"],
                            placed=placed))


def draft_order(view: dict[str, Any], seat: int | None) -> Text:
    order = [who(view, s, seat) for s in view["draft_order"]]
    order[view["draft_pos"]] = f"[{order[view['draft_pos']]}]"
    return Text(t("Draft order: {order}", order=", ".join(order)))


def render(view: dict[str, Any], seat: int | None) -> RenderableType:
    """The whole table as ``seat`` sees it: the other kingdoms and the current line above;
    last, the viewer's own kingdom with the next line beside it, the builders' board and the
    turn, so that with the hint and the prompt it fits 80×24 (issue 12 item 7)."""
    parts: list[RenderableType] = [header(view, seat)]
    if view["burnt"]:
        parts.append(Text(t("Burnt: {buildings}", buildings=", ".join(
            t(b["name"]) for b in view["burnt"])), "dim"))
    own = view["sides"][seat] if seat is not None and 0 <= seat < len(view["sides"]) else None
    many = len(view["kingdoms"]) > 4
    others = [panel(view, side, seat, many) for side in range(len(view["kingdoms"]))
              if side != own]
    if others:
        parts.append(Columns(others))
    if own is None:
        parts.append(board_table(view))
        lines: list[RenderableType] = [
            line_table(view, which, seat) for which in ("current_line", "next_line")
            if view[which]
        ]
        if view["phase"] == "draft":
            lines.append(draft_order(view, seat))
        parts.append(Columns(lines, padding=(0, 4)))
        parts.append(status(view, seat))
        return Group(*parts)
    building = view["phase"] == "play" and view["step"] in ("tax", "build", "dragon")
    if not building:  # placing or claiming: the board is not needed under the kingdom
        parts.append(board_table(view))
    if view["current_line"]:
        parts.append(line_table(view, "current_line", seat))
    beside: list[RenderableType] = []
    if view["next_line"]:
        beside.append(line_table(view, "next_line", seat))
    if view["phase"] == "draft":
        beside.append(draft_order(view, seat))
    beside.append(own_info(view, own))
    beside.append(status(view, seat, short=True))
    parts.append(side_by_side(panel(view, own, seat, False), Group(*beside)))
    if building:
        parts.append(board_table(view))
    return Group(*parts)


# ---- typing moves ----------------------------------------------------------------------------
def _number(view: dict[str, Any], domino: int) -> str:
    for d in view["next_line"]:
        if d["id"] == domino:
            return domino_label(d)
    return str(domino)


def typed(action: Any, view: dict[str, Any]) -> str:
    """The canonical text a person types for ``action`` (``parse`` reads it back)."""
    if isinstance(action, Place):
        return f"{action.x} {action.y} {action.dir}"
    if isinstance(action, Discard):
        return t("discard")
    if isinstance(action, Knight):
        return t("knight {x} {y}", x=action.x, y=action.y)
    if isinstance(action, Build):
        return t("build {space} {x} {y}", space=action.space, x=action.x, y=action.y)
    if isinstance(action, Dragon):
        return t("dragon {space}", space=action.space)
    if isinstance(action, Claim):
        return t("claim {n}", n=_number(view, action.domino))
    return t("pass")


def spans(numbers: list[int]) -> str:
    """Whole numbers, runs of three or more shortened: ``0-2, 4, 5``."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs)


def hint(view: dict[str, Any], legal: list[Any]) -> str:
    """What may be typed now, with the legal choices, in as few lines as will do (`help`
    explains the rest): it sits under the viewer's kingdom on an 80×24 screen."""
    if not legal:
        return t("Nothing to do now.")
    if isinstance(legal[0], Discard):
        return t("Domino {n} fits nowhere in your kingdom: type `discard`.",
                 n=view["acting_domino"])
    if isinstance(legal[0], Place):
        return t(
            "Step A: place domino {n}: type `x y dir` (first half on (x, y)), e.g. `{example}`.",
            n=view["acting_domino"], example=typed(legal[0], view),
        ) + "\n" + t("Legal: {moves}", moves=placement_summary(legal))
    lines = []
    knights = [typed(a, view) for a in legal if isinstance(a, Knight)]
    if knights:
        lines.append("B: " + " | ".join(knights))
    builds: dict[int, list[str]] = {}
    for a in legal:
        if isinstance(a, Build):
            builds.setdefault(a.space, []).append(f"({a.x},{a.y})")
    where: dict[str, list[int]] = {}  # the same town squares for every space, mostly
    for space, cells in builds.items():
        where.setdefault(" ".join(cells), []).append(space)
    if where:
        lines.append(t("C: build <space> <x> <y>: {choices}", choices="; ".join(
            t("{spaces} on {cells}", spaces=spans(spaces), cells=cells)
            for cells, spaces in where.items())))
    dragons = [a.space for a in legal if isinstance(a, Dragon)]
    if dragons:
        lines.append(t("D: dragon <space>: {spaces} (1 coin)", spaces=spans(dragons)))
    claims = [_number(view, a.domino) for a in legal if isinstance(a, Claim)]
    if claims:
        lines.append(t("E: claim <number>: {numbers}", numbers=", ".join(claims)))
    if any(isinstance(a, Pass) for a in legal):
        lines.append(t("E: pass (the last round: end your turn)"))
    packed: list[str] = []  # steps share a line when they fit in 80 columns
    for line in lines:
        if packed and len(packed[-1]) + 3 + len(line) <= 80:
            packed[-1] += " · " + line
        else:
            packed.append(line)
    return "\n".join(packed)


def help_text(view: dict[str, Any]) -> str:
    """What the letters, marks and step letters mean and how moves are typed (plain text,
    lines of at most 80 columns)."""
    frame = view["frame"]
    return t(TERRAIN_HELP) + "\n" + t(
        "  T town (red): buildings go on town squares.\n"
        "After the crowns, a mark: `k` a knight, `b` a building, `*` both.\n"
        "Coordinates: (x, y) from your castle at (0, 0), x to the right, y downwards.\n"
        "A kingdom must fit in {frame}×{frame} squares (docs/rules/queendomino.md).\n"
        "A turn is steps A-E in order; B, C, D are optional (type a later step to skip):\n"
        "  A place   `x y dir`: first half on (x, y), second half E, S, W or N;\n"
        "            `discard` only when the domino fits nowhere\n"
        "  B knight  `knight x y` on a square of the domino just placed: it collects\n"
        "            1 coin per square of that territory (at most 2 knights a turn)\n"
        "  C build   `build space x y`: buy the building on board space 0-5 (price =\n"
        "            space, 1 less with the Queen) and put it on a free town square\n"
        "  D dragon  `dragon space`: pay 1 coin to burn a building (once a round;\n"
        "            not while you host the Queen)\n"
        "  E claim   `claim n` puts your king on domino n of the next line (`K12` is the\n"
        "            Kingdomino box's 12); `pass` ends your turn in the last round.\n"
        "In the legal list, `(1,0):E,S` means first half on (1, 0), second half east or\n"
        "south; `0-2` means 0, 1 or 2.", frame=frame)


def _ints(words: list[str], count: int, usage: str) -> list[int]:
    if len(words) != count:
        raise ValueError(t("type `{usage}`", usage=usage))
    try:
        return [int(w) for w in words]
    except ValueError:
        raise ValueError(t("type `{usage}` with whole numbers", usage=usage)) from None


def _pick(legal: list[Any], wanted: Any, why: str) -> Any:
    for a in legal:
        if a == wanted:
            return a
    raise ValueError(why)


def parse(text: str, view: dict[str, Any], legal: list[Any]) -> Any:
    """The action typed, if legal now; ValueError with a message to show otherwise."""
    words = re.sub(r"[(),;]", " ", text.strip().lower()).split()
    if not words:
        raise ValueError(t("type a move (or `help`)"))
    head, rest = words[0], words[1:]
    if head in ("knight", "k", "caballero"):
        x, y = _ints(rest, 2, t("knight x y"))
        if abs(x) > 6 or abs(y) > 6:
            raise ValueError(t("({x}, {y}) is off the board", x=x, y=y))
        return _pick(legal, Knight(x, y), t(
            "a knight on ({x}, {y}) is not legal now: knights go on the squares of "
            "the domino just placed, in step B, one per square", x=x, y=y))
    if head in ("build", "b", "construir", "construye"):
        space, x, y = _ints(rest, 3, t("build space x y"))
        if not 0 <= space <= 5 or abs(x) > 6 or abs(y) > 6:
            raise ValueError(t("the space is 0-5 and x, y are -6..6"))
        return _pick(legal, Build(space, x, y), t(
            "you cannot build from space {space} on ({x}, {y}) now: you need the "
            "price in coins, a tile there, an empty town square, and one build a turn",
            space=space, x=x, y=y))
    if head in ("dragon", "d", "dragón"):
        (space,) = _ints(rest, 1, t("dragon space"))
        if not 0 <= space <= 5:
            raise ValueError(t("the space is 0-5"))
        return _pick(legal, Dragon(space), t(
            "the Dragon cannot burn space {space} now: once a round, 1 coin, not "
            "while you host the Queen, and the space must hold a tile", space=space))
    if head in ("pass", "end", "done", "pasar", "paso"):
        return _pick(legal, Pass(), t("you must claim a domino of the next line (`claim n`)"))
    if head in ("discard", "descartar", "descarta"):
        if isinstance(legal[0], Discard):
            return legal[0]
        raise ValueError(t("only a domino that fits nowhere may be discarded"))
    claim_words = ("claim", "c", "take", "reclamar", "reclama")
    if head in claim_words or (len(words) == 1 and head.lstrip("k").isdigit()):
        label = rest[0] if head in claim_words and rest else head
        return _claim(label.upper(), view, legal)
    if head in ("place", "colocar", "coloca"):
        words = rest
    if len(words) == 3 and words[2] in DIRECTION_WORDS:
        x, y = _ints(words[:2], 2, "x y dir")
        direction = DIRECTION_WORDS[words[2]]
        for a in legal:
            if isinstance(a, Place) and (a.x, a.y, a.dir) == (x, y, direction):
                return a
        if view["phase"] == "draft":
            raise ValueError(t("first draft: claim a domino of the first line (`claim n`)"))
        if not any(isinstance(a, Place) for a in legal):
            raise ValueError(t("this turn's domino is already placed (step A is over)"))
        raise ValueError(t(
            "({x}, {y}) facing {dir} is not a legal placement; legal: {moves}", x=x, y=y,
            dir=t(DIRECTION_NAMES[direction]), moves=placement_summary(legal)))
    raise ValueError(t(
        "cannot read {text!r}; type `x y dir`, `knight x y`, `build space x y`, "
        "`dragon space`, `claim n` or `pass`", text=text.strip()))


def _claim(label: str, view: dict[str, Any], legal: list[Any]) -> Any:
    claims = {_number(view, a.domino): a for a in legal if isinstance(a, Claim)}
    if not claims:
        if not view["next_line"]:
            raise ValueError(t("there is no next line in the last round: type `pass`"))
        raise ValueError(t("place domino {n} first", n=view["acting_domino"]))
    if label in claims:
        return claims[label]
    if any(domino_label(d) == label for d in view["next_line"]):
        raise ValueError(t("domino {n} is already claimed", n=label))
    raise ValueError(t("domino {n} is not in the next line; free: {free}", n=label,
                       free=", ".join(claims)))
