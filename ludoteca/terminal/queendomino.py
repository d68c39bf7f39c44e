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
"""

from __future__ import annotations

import re
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ludoteca.games.queendomino.actions import (
    Build,
    Claim,
    Discard,
    Dragon,
    Knight,
    Pass,
    Place,
)
from ludoteca.terminal.kingdomino import (
    CASTLE_STYLE,
    DIRECTION_NAMES,
    DIRECTION_WORDS,
    placement_summary,
    seat_label,
)
from ludoteca.terminal.kingdomino import TERRAIN_STYLE as KINGDOMINO_STYLE
from ludoteca.terminal.kingdomino import kingdom_grid as kingdomino_grid

TERRAIN_STYLE = {**KINGDOMINO_STYLE, "town": ("T", "bright_white on red3")}
STEP_LETTERS = {"place": "A", "tax": "B", "build": "C", "dragon": "D", "claim": "E"}


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


def kingdom_grid(kingdom: dict[str, Any], frame: int) -> Text:
    """The kingdom grid of ``terminal/kingdomino.py`` with knights (k) and buildings (b)."""
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
        now.append(f"+{b['knights']} knight")
    if b["towers"]:
        now.append(f"+{b['towers']} tower")
    tax = []
    if b["coin_per_knight"]:
        tax.append(f"+{b['coin_per_knight']}/knight")
    if b["coin_per_tower"]:
        tax.append(f"+{b['coin_per_tower']}/tower")
    end = []
    if b["crowns"]:
        end.append(f"{b['crowns']} crown")
    if b["points"]:
        end.append(f"{b['points']} pts")
    if b["per_territory"]:
        end.append(f"{b['per_territory']}/{b['terrain']} territory")
    if b["per_tower"]:
        end.append(f"{b['per_tower']}/tower")
    if b["per_knight"]:
        end.append(f"{b['per_knight']}/knight")
    parts = [", ".join(now) or "-", "tax " + ", ".join(tax) if tax else "", ", ".join(end)]
    text = " · ".join(p for p in parts if p)
    return text + (" (inferred)" if b["inferred"] else "")


def board_table(view: dict[str, Any]) -> Table:
    table = Table(title=f"Builders' board · pile {view['building_pile']}", title_justify="left",
                  show_edge=False, pad_edge=False)
    table.add_column("space", justify="right")
    table.add_column("building")
    table.add_column("effects")
    for space in reversed(view["board"]):
        b = space["building"]
        if space["dragon"]:
            table.add_row(str(space["space"]), Text("the Dragon", style="red"), "burnt")
        elif b is None:
            table.add_row(str(space["space"]), Text("empty", style="dim"), "")
        else:
            table.add_row(str(space["space"]), b["name"], effects(b))
    return table


def line_table(view: dict[str, Any], which: str, seat: int | None) -> Table:
    current = which == "current_line"
    table = Table(title="Current line" if current else "Next line", title_justify="left",
                  show_edge=False, pad_edge=False)
    table.add_column("#", justify="right")
    table.add_column("domino")
    table.add_column("king")
    table.add_column("")
    playing = view["phase"] == "play"
    for i, d in enumerate(view[which]):
        king = "-" if d["king"] is None else seat_label(d["king"], seat)
        note = ""
        if current and playing:
            if i == view["acting"]:
                note = f"◀ step {STEP_LETTERS[view['step']]}"
            elif i < view["acting"]:
                note = "done"
        elif not current and d["king"] is None:
            note = "free"
        table.add_row(domino_label(d), domino_text(d), king, note)
    return table


def status(view: dict[str, Any], seat: int | None) -> str:
    if view["phase"] == "over":
        return "The game is over."
    actors = view["to_act"]
    who = "Your turn" if seat in actors else ", ".join(seat_label(s, seat) for s in actors)
    if view["phase"] == "draft":
        return f"{who}: claim a domino of the first line"
    step = view["step"]
    if step == "place":
        return f"{who}: step A, place domino {view['acting_domino']}"
    names = {"tax": "B knights / C build / D dragon / E claim",
             "build": "C build / D dragon / E claim", "dragon": "D dragon / E claim",
             "claim": "E claim"}
    return f"{who}: {names[step]}"


def render(view: dict[str, Any], seat: int | None) -> RenderableType:
    """The whole table as ``seat`` sees it."""
    head = Text(f"Queendomino · {view['players']} players", style="bold")
    if view["options"].get("royal_wedding"):
        head.append(" · Royal Wedding")
    head.append(" · first draft" if view["phase"] == "draft"
                else f" · round {view['round']}/{view['rounds']}")
    head.append(f" · {view['deck_remaining']} dominoes in the pile")
    queen = view["queen"]
    head.append(" · Queen: " + ("beside the board" if queen is None else seat_label(queen, seat)))
    panels = []
    for i, k in enumerate(view["kingdoms"]):
        title = f"{seat_label(i, seat)} · {k['score']} pts" + (" · ♛" if k["queen"] else "")
        info = Text(
            f"{k['coins']} coins · knights {k['knights']} free, {len(k['knight_squares'])} "
            f"placed · towers {k['towers']}",
            style="dim",
        )
        style = "bold cyan" if i in view["to_act"] else ""
        body = Group(kingdom_grid(k, view["frame"]), info)
        panels.append(Panel(body, title=title, border_style=style, expand=False))
    parts: list[RenderableType] = [head, Columns(panels)]
    tables: list[RenderableType] = [board_table(view)]
    if view["current_line"]:
        tables.append(line_table(view, "current_line", seat))
    if view["next_line"]:
        tables.append(line_table(view, "next_line", seat))
    parts.append(Columns(tables, padding=(0, 4)))
    if view["phase"] == "draft":
        order = [seat_label(s, seat) for s in view["draft_order"]]
        order[view["draft_pos"]] = f"[{order[view['draft_pos']]}]"
        parts.append(Text("First-draft order: " + ", ".join(order)))
    if view["burnt"]:
        parts.append(Text("Burnt: " + ", ".join(b["name"] for b in view["burnt"]), "dim"))
    parts.append(Text(status(view, seat), style="bold"))
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
        return "discard"
    if isinstance(action, Knight):
        return f"knight {action.x} {action.y}"
    if isinstance(action, Build):
        return f"build {action.space} {action.x} {action.y}"
    if isinstance(action, Dragon):
        return f"dragon {action.space}"
    if isinstance(action, Claim):
        return f"claim {_number(view, action.domino)}"
    return "pass"


def hint(view: dict[str, Any], legal: list[Any]) -> str:
    """What may be typed now, with the legal choices."""
    if not legal:
        return "Nothing to do now."
    if isinstance(legal[0], Discard):
        return f"Domino {view['acting_domino']} fits nowhere in your kingdom: type `discard`."
    if isinstance(legal[0], Place):
        first = legal[0]
        return (
            f"Step A: place domino {view['acting_domino']}: type `x y dir` (first half on "
            f"(x, y), second half one square E, S, W or N), e.g. `{typed(first, view)}`.\n"
            f"Legal (first half, directions): {placement_summary(legal)}"
        )
    lines = []
    knights = [typed(a, view) for a in legal if isinstance(a, Knight)]
    if knights:
        lines.append("B: " + " | ".join(knights))
    builds: dict[int, list[str]] = {}
    for a in legal:
        if isinstance(a, Build):
            builds.setdefault(a.space, []).append(f"({a.x},{a.y})")
    if builds:
        lines.append("C: build <space> <x> <y> — spaces " + "; ".join(
            f"{s} on {' '.join(cells)}" for s, cells in sorted(builds.items())))
    dragons = [str(a.space) for a in legal if isinstance(a, Dragon)]
    if dragons:
        lines.append(f"D: dragon <space> — {', '.join(dragons)} (1 coin)")
    claims = [_number(view, a.domino) for a in legal if isinstance(a, Claim)]
    if claims:
        lines.append(f"E: claim <number> — {', '.join(claims)}")
    if any(isinstance(a, Pass) for a in legal):
        lines.append("E: pass — end your turn (last round)")
    return "\n".join(lines)


def _ints(words: list[str], count: int, usage: str) -> list[int]:
    if len(words) != count:
        raise ValueError(f"type `{usage}`")
    try:
        return [int(w) for w in words]
    except ValueError:
        raise ValueError(f"type `{usage}` with whole numbers") from None


def _pick(legal: list[Any], wanted: Any, why: str) -> Any:
    for a in legal:
        if a == wanted:
            return a
    raise ValueError(why)


def parse(text: str, view: dict[str, Any], legal: list[Any]) -> Any:
    """The action typed, if legal now; ValueError with a message to show otherwise."""
    words = re.sub(r"[(),;]", " ", text.strip().lower()).split()
    if not words:
        raise ValueError("type a move (or `help`)")
    head, rest = words[0], words[1:]
    if head in ("knight", "k"):
        x, y = _ints(rest, 2, "knight x y")
        if abs(x) > 6 or abs(y) > 6:
            raise ValueError(f"({x}, {y}) is off the board")
        return _pick(legal, Knight(x, y),
                     f"a knight on ({x}, {y}) is not legal now: knights go on the squares of "
                     "the domino just placed, in step B, one per square")
    if head in ("build", "b"):
        space, x, y = _ints(rest, 3, "build space x y")
        if not 0 <= space <= 5 or abs(x) > 6 or abs(y) > 6:
            raise ValueError("the space is 0-5 and x, y are -6..6")
        return _pick(legal, Build(space, x, y),
                     f"you cannot build from space {space} on ({x}, {y}) now: you need the "
                     "price in coins, a tile there, an empty town square, and one build a turn")
    if head in ("dragon", "d"):
        (space,) = _ints(rest, 1, "dragon space")
        if not 0 <= space <= 5:
            raise ValueError("the space is 0-5")
        return _pick(legal, Dragon(space),
                     f"the Dragon cannot burn space {space} now: once a round, 1 coin, not "
                     "while you host the Queen, and the space must hold a tile")
    if head in ("pass", "end", "done"):
        return _pick(legal, Pass(), "you must claim a domino of the next line (`claim n`)")
    if head == "discard":
        if isinstance(legal[0], Discard):
            return legal[0]
        raise ValueError("only a domino that fits nowhere may be discarded")
    if head in ("claim", "c", "take") or (len(words) == 1 and head.lstrip("k").isdigit()):
        label = rest[0] if head in ("claim", "c", "take") and rest else head
        return _claim(label.upper(), view, legal)
    if head == "place":
        words = rest
    if len(words) == 3 and words[2] in DIRECTION_WORDS:
        x, y = _ints(words[:2], 2, "x y dir")
        direction = DIRECTION_WORDS[words[2]]
        for a in legal:
            if isinstance(a, Place) and (a.x, a.y, a.dir) == (x, y, direction):
                return a
        if view["phase"] == "draft":
            raise ValueError("first draft: claim a domino of the first line (`claim n`)")
        if not any(isinstance(a, Place) for a in legal):
            raise ValueError("this turn's domino is already placed (step A is over)")
        raise ValueError(
            f"({x}, {y}) facing {DIRECTION_NAMES[direction]} is not a legal placement; "
            f"legal: {placement_summary(legal)}"
        )
    raise ValueError(
        f"cannot read {text.strip()!r}; type `x y dir`, `knight x y`, `build space x y`, "
        "`dragon space`, `claim n` or `pass`"
    )


def _claim(label: str, view: dict[str, Any], legal: list[Any]) -> Any:
    claims = {_number(view, a.domino): a for a in legal if isinstance(a, Claim)}
    if not claims:
        if not view["next_line"]:
            raise ValueError("there is no next line in the last round: type `pass`")
        raise ValueError(f"place domino {view['acting_domino']} first")
    if label in claims:
        return claims[label]
    if any(domino_label(d) == label for d in view["next_line"]):
        raise ValueError(f"domino {label} is already claimed")
    raise ValueError(f"domino {label} is not in the next line; free: {', '.join(claims)}")


def describe(action: Any, view: dict[str, Any]) -> str:
    """What an action did, said with the view from just before it."""
    if isinstance(action, Place):
        return (f"placed domino {view['acting_domino']} at ({action.x}, {action.y}), second "
                f"half {DIRECTION_NAMES[action.dir]}")
    if isinstance(action, Discard):
        return f"discarded domino {view['acting_domino']} (it fitted nowhere)"
    if isinstance(action, Knight):
        return f"put a knight on ({action.x}, {action.y}) and collected tax"
    if isinstance(action, Build):
        b = view["board"][action.space]["building"]
        name = b["name"] if b else "?"
        return f"built {name} (space {action.space}) on ({action.x}, {action.y})"
    if isinstance(action, Dragon):
        b = view["board"][action.space]["building"]
        return f"sent the Dragon to burn {b['name'] if b else '?'} (space {action.space})"
    if isinstance(action, Claim):
        return f"claimed domino {_number(view, action.domino)}"
    return "ended the turn"


def final(view: dict[str, Any], outcome: dict[str, Any], seat: int | None = None) -> RenderableType:
    """Every seat's score explained: wealth, territories (with the Queen), buildings."""
    panels = []
    for i, r in enumerate(outcome["breakdown"]):
        table = Table(show_edge=False, pad_edge=False)
        table.add_column("what")
        table.add_column("detail")
        table.add_column("points", justify="right")
        table.add_row("wealth", f"{r['wealth']['coins']} coins ÷ 3", str(r["wealth"]["points"]))
        scoreless = 0
        for t in r["territories"]:
            if not t["points"]:
                scoreless += 1
                continue
            crowns = f"{t['crowns']}" + (" + Queen" if t["queen"] else "")
            table.add_row(Text(t["terrain"], style=TERRAIN_STYLE[t["terrain"]][1]),
                          f"{t['squares']} × ({crowns})", str(t["points"]))
        if scoreless:
            table.add_row(f"{scoreless} territories without crowns", "", "0")
        for b in r["buildings"]:
            detail = ", ".join(
                f"{p['count']} × {p['each']}" if "count" in p else "fixed" for p in b["parts"]
            )
            if b["crowns"]:
                detail = ", ".join(filter(None, [detail, f"{b['crowns']} crown in its town"]))
            table.add_row(b["name"], detail, str(b["points"]))
        table.add_row(Text("total", style="bold"), "", Text(str(r["total"]), style="bold"))
        rank = outcome["ranks"][i]
        title = f"{seat_label(i, seat)} · rank {rank} · {outcome['scores'][i]} pts"
        extra = Text(f"largest territory {r['largest_territory']}", style="dim")
        panels.append(Panel(Group(table, extra), title=title,
                            border_style="bold green" if rank == 1 else "", expand=False))
    return Columns(panels)
