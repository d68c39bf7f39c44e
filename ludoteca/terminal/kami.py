"""Kami (and Goita) in the terminal: the table as one seat sees it, and typed moves.

A move is typed as two cards, defense then attack: ``gold silver``. Cards may be shortened to any
unique prefix (``go si``); a mercenary stack is ``m3`` (or ``merc:3``); a lone attack with no
defense card (ruling C1) is ``- empress``. Other moves: ``pass``, ``reveal`` / ``quiet`` (the
demoralized question, A6) and ``redeal`` / ``on`` (the partner's answer).
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ludoteca.games.kami.actions import MERC, NO_DEFENSE, Decide, Declare, Pass, Play
from ludoteca.games.kami.components import GOITA_TITLES, NAMES, TITLES

CARD_STYLE = {
    "soldier": "white", "spear": "cyan", "horseman": "green", "silver": "bright_white",
    "gold": "yellow", "tower": "magenta", "fool": "bright_magenta", "empress": "bold red",
}
ALIASES = {t.lower(): NAMES[i] for i, t in enumerate(GOITA_TITLES)}
ALIASES.update({"lance": "spear", "rider": "horseman", "madman": "fool", "king": "empress"})


def _titles(view: dict[str, Any]) -> tuple[str, ...]:
    return GOITA_TITLES if view.get("game") == "goita" else TITLES


def card_text(name: str | None, view: dict[str, Any], face_down: bool = False) -> Text:
    if name is None:
        return Text("[??]", style="dim")
    title = _titles(view)[NAMES.index(name)]
    label = f"({title})" if face_down else f"[{title}]"
    return Text(label, style="dim " + CARD_STYLE[name] if face_down else CARD_STYLE[name])


def seat_label(seat: int, view: dict[str, Any]) -> str:
    label = f"P{seat + 1}"
    if view["players"] == 4:
        label += " A" if view["sides"][seat] == 0 else " B"
    if seat == view["seat"]:
        label += " (you)"
    return label


def render(view: dict[str, Any], seat: int | None) -> RenderableType:
    titles = _titles(view)
    head = Text()
    head.append(f"{'Goita' if view['game'] == 'goita' else 'Kami'} — round {view['round']}  ",
                style="bold")
    if view["players"] == 4:
        head.append(f"team A {view['scores'][0]} · team B {view['scores'][1]}")
    else:
        head.append(" · ".join(f"P{p + 1} {s}" for p, s in enumerate(view["scores"])))
    head.append(f"   ({view['end_mode']} mode, target {view['target']}, {view['direction']})",
                style="dim")
    table = Table(show_header=True, header_style="bold", expand=False,
                  caption="(card) = face down, [??] = hidden from you")
    table.add_column("seat")
    table.add_column("cards", justify="right")
    table.add_column("defense")
    table.add_column("attack")
    for p in range(view["players"]):
        defense = Text(" ").join(
            card_text(e["card"], view, face_down=not e["face_up"]) for e in view["defense"][p]
        ) if view["defense"][p] else Text("")
        attack = Text(" ").join(card_text(e["card"], view) for e in view["attack_lines"][p]) \
            if view["attack_lines"][p] else Text("")
        name = seat_label(p, view)
        if p in view["to_act"]:
            name = "▶ " + name
        if view["revealed"][p]:
            name += f" ({view['revealed'][p]} Soldiers shown)"
        table.add_row(name, str(view["hand_sizes"][p]), defense, attack)
    parts: list[RenderableType] = [head, table]
    if view["mercenaries"]:
        merc = Text("Mercenaries: ")
        for k, m in enumerate(view["mercenaries"]):
            merc.append(f"m{k} ")
            merc.append_text(card_text(m["top"], view) if m["top"] else Text("empty", "dim"))
            merc.append("+1 " if m["below"] else "  ")
        parts.append(merc)
    if view["unused"]:
        looked = Text(f"Out of play: {view['unused']} cards")
        if view["looked"]:
            looked.append(" — you looked at ")
            looked.append_text(card_text(view["looked"], view))
        parts.append(looked)
    status = Text()
    if view["phase"] == "over":
        winners = [p + 1 for p in range(view["players"]) if view["sides"][p] == view["winner"]]
        status.append(f"Game over: {' & '.join(f'P{w}' for w in winners)} won.", style="bold")
    elif view["phase"] == "play":
        if view["attack"] is None or view["leading"]:
            status.append(f"P{view['turn'] + 1} leads.")
        else:
            status.append(f"Attack by P{view['attacker'] + 1}: ")
            status.append_text(card_text(view["attack"], view))
            status.append(f" — P{view['turn'] + 1} may counter or pass.")
        if view["empress_unlocked"]:
            status.append(f"  {titles[7]} unlocked.", style="red")
    elif view["phase"] == "declare":
        status.append(f"P{view['asked'] + 1}: reveal 5+ Soldiers and ask your partner?")
    else:
        status.append(f"P{(view['asked'] + 2) % 4 + 1}: your partner is demoralized — "
                      "redeal or play on?")
    parts.append(status)
    if view["hand"] is not None:
        hand = Text("Your hand: ")
        hand.append_text(Text(" ").join(card_text(c, view) for c in view["hand"]))
        parts.append(hand)
    if view["history"]:
        last = view["history"][-1]
        if last["kind"] == "redeal":
            parts.append(Text(f"Round {last['round']}: redealt ({last['rule']}).", style="dim"))
        else:
            card = titles[NAMES.index(last["card"])] if last["card"] else "—"
            parts.append(Text(
                f"Round {last['round']}: P{last['seat'] + 1} scored {last['points']} "
                f"({card}, {last['rule']}) → {last['after']}.", style="dim"))
    return Panel(Group(*parts), title=f"seat P{seat + 1}" if seat is not None else "spectator")


def source_word(source: int) -> str:
    return NAMES[source] if source < MERC else f"m{source - MERC}"


def typed(action: Any) -> str:
    """What a person types for ``action``; ``parse`` reads it back."""
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Declare):
        return "reveal" if action.reveal else "quiet"
    if isinstance(action, Decide):
        return "redeal" if action.redeal else "on"
    defense = "-" if action.defense == NO_DEFENSE else source_word(action.defense)
    return f"{defense} {source_word(action.attack)}"


def hint(view: dict[str, Any], legal: list[Any]) -> str:
    if not legal:
        return "nothing to do: wait for the other players"
    kinds = {type(a) for a in legal}
    if Declare in kinds:
        return "type 'reveal' (show 5+ Soldiers, your partner decides) or 'quiet'"
    if Decide in kinds:
        return "type 'redeal' to cancel the round or 'on' to play it"
    example = next((typed(a) for a in legal if isinstance(a, Play)), "gold silver")
    parts = ["type defense then attack, e.g. '" + example + "'"]
    if any(isinstance(a, Play) and (a.attack >= MERC or a.defense >= MERC) for a in legal):
        parts.append("m0-m7 for a mercenary")
    if Pass in kinds:
        parts.append("or 'pass'")
    return "; ".join(parts)


def _source(word: str) -> int:
    w = word.strip().lower()
    if w.startswith("merc:"):
        w = "m" + w[5:]
    if len(w) == 2 and w[0] == "m" and w[1].isdigit():
        return MERC + int(w[1])
    if w in ALIASES:
        return NAMES.index(ALIASES[w])
    matches = [n for n in NAMES if n.startswith(w)] if w else []
    if len(matches) != 1:
        raise ValueError(f"{word!r} is not a card: use {', '.join(NAMES)} (or a prefix), or m0-m7")
    return NAMES.index(matches[0])


def parse(text: str, view: dict[str, Any], legal: list[Any]) -> Any:
    words = text.replace(",", " ").split()
    if not words:
        raise ValueError("type a move, e.g. 'gold silver' or 'pass'")
    first = words[0].lower()
    if first in ("play", "p") and len(words) > 1:
        words, first = words[1:], words[1].lower()
    wanted: Any
    if len(words) == 1 and first in ("pass", "p"):
        wanted = Pass()
    elif len(words) == 1 and first in ("reveal", "quiet", "keep"):
        wanted = Declare(first == "reveal")
    elif first in ("redeal", "cancel") or (first in ("on", "play") and len(words) <= 2):
        wanted = Decide(first in ("redeal", "cancel"))
    elif len(words) == 2:
        defense = NO_DEFENSE if words[0] in ("-", "none") else _source(words[0])
        wanted = Play(defense, _source(words[1]))
    else:
        raise ValueError(f"cannot read {text!r}: type defense then attack, e.g. 'gold silver'")
    for a in legal:
        if a == wanted:
            return a
    raise ValueError(f"{typed(wanted)!r} is not legal now; {hint(view, legal)}")
