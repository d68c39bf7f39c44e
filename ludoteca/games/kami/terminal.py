"""Kami (and Goita) in the terminal: the table as one seat sees it, and typed moves.

A move is typed as two cards, defense then attack: ``gold silver``. Cards may be shortened to any
unique prefix (``go si``); a mercenary stack is ``m3`` (or ``merc:3``); a lone attack with no
defense card (ruling C1) is ``- empress``. Other moves: ``pass``, ``reveal`` / ``quiet`` (the
demoralized question, A6) and ``redeal`` / ``on`` (the partner's answer).

Screen layout: a seat's own hand (the line starting ``YOURS``) and lines, the mercenaries and
whose turn it is come last, under the other seats, so that with the hint and the prompt they
fit an 80×24 terminal (issue 12 item 7).
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ludoteca.engine.i18n import N_, t
from ludoteca.games.kami.actions import (
    MERC,
    NO_DEFENSE,
    Decide,
    Declare,
    Pass,
    Play,
    action_from_index,
)
from ludoteca.games.kami.components import GOITA_TITLES, NAMES, TITLES

CARD_STYLE = {
    "soldier": "white", "spear": "cyan", "horseman": "green", "silver": "bright_white",
    "gold": "yellow", "tower": "magenta", "fool": "bright_magenta", "empress": "bold red",
}
YOURS = N_("Your hand")
"""How the viewer's own block begins (their hand, then their lines), in English: ``t(YOURS)``
says it in the session's language."""
TYPED = {"pass": N_("pass"), "reveal": N_("reveal"), "quiet": N_("quiet"),
         "redeal": N_("redeal"), "on": N_("on")}
"""The one-word moves, as typed in English; ``t`` gives the session language's word, and
``parse`` reads either."""
RULE_LABELS = (N_("B4"), N_("B4 (doubled)"), N_("A5.2"), N_("A5.3 Master Strike"),
               N_("B5 six Shi"), N_("B5 seven Shi"), N_("B5 eight Shi"),
               N_("B5 both partners hold five Shi"), N_("A6 redeal"), N_("B5 redeal"))
"""The history's rule labels (``scoring.rule_text``), for ``t`` to say them in the session's
language."""
CARD_WORDS = (N_("soldier"), N_("spear"), N_("horseman"), N_("silver"), N_("gold"), N_("tower"),
              N_("fool"), N_("empress"))
"""Kami's cards as typed (``NAMES``); ``t`` gives the session language's word."""
ALIASES = {t.lower(): NAMES[i] for i, t in enumerate(GOITA_TITLES)}
ALIASES.update({"lance": "spear", "rider": "horseman", "madman": "fool", "king": "empress",
                "gyoku": "empress", "fu": "soldier"})


def _titles(view: dict[str, Any]) -> tuple[str, ...]:
    return GOITA_TITLES if view.get("game") == "goita" else TITLES


def card_text(name: str | None, view: dict[str, Any], face_down: bool = False) -> Text:
    if name is None:
        return Text("[??]", style="dim")
    title = t(_titles(view)[NAMES.index(name)])
    label = f"({title})" if face_down else f"[{title}]"
    return Text(label, style="dim " + CARD_STYLE[name] if face_down else CARD_STYLE[name])


def has_teams(view: dict[str, Any]) -> bool:
    """Whether seats play in teams (4-player partnerships), as the view's ``teams`` say."""
    return any(len(team) > 1 for team in view["teams"])


def team_of(view: dict[str, Any], seat: int) -> int:
    """The index of ``seat``'s team in the view's ``teams`` (0 = team A)."""
    return next(i for i, team in enumerate(view["teams"]) if seat in team)


def partner_of(view: dict[str, Any], seat: int) -> int:
    """The other seat of ``seat``'s team."""
    return next(int(p) for p in view["teams"][team_of(view, seat)] if p != seat)


def seat_label(seat: int, view: dict[str, Any]) -> str:
    label = f"P{seat + 1}"
    if has_teams(view):
        label += " " + "AB"[team_of(view, seat)]
    if seat == view["seat"]:
        label += f" ({t('you')})"
    return label


def cards_text(entries: list[dict[str, Any]], view: dict[str, Any], face: bool) -> Text:
    """A line of played cards (defense ``face``-down ones in parentheses)."""
    return Text(" ").join(
        card_text(e["card"], view, face_down=face and not e["face_up"]) for e in entries
    )


def seats_table(view: dict[str, Any], seats: list[int]) -> Table:
    """Each seat's hand size and lines of defense and attack."""
    table = Table(show_header=True, header_style="bold", expand=False)
    table.add_column(t("seat"))
    table.add_column(t("cards"), justify="right")
    table.add_column(t("defense"))
    table.add_column(t("attack"))
    for p in seats:
        name = seat_label(p, view)
        if p in view["to_act"]:
            name = "▶ " + name
        if view["revealed"][p]:
            name += " " + shown(view, view["revealed"][p])
        table.add_row(name, str(view["hand_sizes"][p]),
                      cards_text(view["defense"][p], view, True),
                      cards_text(view["attack_lines"][p], view, False))
    return table


def shown(view: dict[str, Any], n: int) -> str:
    """``(5 Soldiers shown)``: what a seat revealed after the deal (A6, B5)."""
    if view["game"] == "goita":
        return t("({n} Shi shown)", n=n)
    return t("({n} Soldiers shown)", n=n)


def status_text(view: dict[str, Any]) -> Text:
    """Who must do what now."""
    titles = _titles(view)
    status = Text()
    if view["phase"] == "over":
        winners = [p + 1 for p in range(view["players"]) if view["sides"][p] == view["winner"]]
        status.append(t("Game over: {winners} won.", winners=" & ".join(
            f"P{w}" for w in winners)), style="bold")
    elif view["phase"] == "play":
        if view["attack"] is None or view["leading"]:
            status.append(t("{player} leads.", player=f"P{view['turn'] + 1}"))
        else:
            status.append(t("Attack by {player}: ", player=f"P{view['attacker'] + 1}"))
            status.append_text(card_text(view["attack"], view))
            status.append(" — " + t("{player} may counter or pass.",
                                    player=f"P{view['turn'] + 1}"))
        if view["empress_unlocked"]:
            status.append("  " + t("{card} unlocked.", card=t(titles[7])), style="red")
    elif view["phase"] == "declare":
        status.append(t("{player}: reveal 5+ Soldiers and ask your partner?",
                        player=f"P{view['asked'] + 1}"))
    elif view["game"] == "goita":
        status.append(t("{player}: your partner showed five Shi — redeal or play on?",
                        player=f"P{partner_of(view, view['asked']) + 1}"))
    else:
        status.append(t("{player}: your partner is demoralized — redeal or play on?",
                        player=f"P{partner_of(view, view['asked']) + 1}"))
    return status


def render(view: dict[str, Any], seat: int | None) -> RenderableType:
    """The table as ``seat`` sees it. A seat's own hand and lines, the mercenaries and whose
    turn it is come last, under the other seats, so that with the hint and the prompt they
    fit an 80×24 terminal (issue 12 item 7); a spectator sees every seat in one table."""
    titles = _titles(view)
    head = Text()
    head.append(t("{game} — round {round}", game="Goita" if view["game"] == "goita" else "Kami",
                  round=view["round"]) + "  ", style="bold")
    if has_teams(view):
        head.append(t("team A {a} · team B {b}", a=view["scores"][0], b=view["scores"][1]))
    else:
        head.append(" · ".join(f"P{p + 1} {s}" for p, s in enumerate(view["scores"])))
    head.append("   " + t("({mode} mode, target {target}, {direction})",
                          mode=t(view["end_mode"]), target=view["target"],
                          direction=t(view["direction"])), style="dim")
    mine = seat is not None and view["hand"] is not None
    seats = [p for p in range(view["players"]) if not mine or p != seat]
    parts: list[RenderableType] = [
        head, seats_table(view, seats), Text(t("(card) = face down, [??] = hidden from you"),
                                             "dim")
    ]
    if view["history"]:
        last = view["history"][-1]
        if last["kind"] == "redeal":
            parts.append(Text(t("Round {round}: redealt ({rule}).", round=last["round"],
                                rule=t(last["rule"])), style="dim"))
        else:
            card = t(titles[NAMES.index(last["card"])]) if last["card"] else "—"
            parts.append(Text(t(
                "Round {round}: {player} scored {points} ({card}, {rule}) → {after}.",
                round=last["round"], player=f"P{last['seat'] + 1}", points=last["points"],
                card=card, rule=t(last["rule"]), after=last["after"]), style="dim"))
    own: list[RenderableType] = []
    if mine:
        assert seat is not None
        team = " " + "AB"[team_of(view, seat)] if has_teams(view) else ""
        hand = Text(f"{t(YOURS)} (P{seat + 1}{team}): ",
                    style="bold cyan" if seat in view["to_act"] else "bold")
        hand.append_text(Text(" ").join(card_text(c, view) for c in view["hand"]))
        lines = Text(t("Your defense: "))
        lines.append_text(cards_text(view["defense"][seat], view, True) or Text("-"))
        lines.append(" · " + t("attack: "))
        lines.append_text(cards_text(view["attack_lines"][seat], view, False) or Text("-"))
        if view["revealed"][seat]:
            lines.append(" " + shown(view, view["revealed"][seat]))
        own += [hand, lines]
    if view["mercenaries"]:
        merc = Text(t("Mercenaries: "))
        for k, m in enumerate(view["mercenaries"]):
            merc.append(f"m{k} ")
            merc.append_text(card_text(m["top"], view) if m["top"] else Text(t("empty"), "dim"))
            merc.append("+1 " if m["below"] else "  ")
        own.append(merc)
    if view["unused"]:
        looked = Text(t("Out of play: {n} cards", n=view["unused"]))
        if view["looked"]:
            looked.append(" — " + t("you looked at") + " ")
            looked.append_text(card_text(view["looked"], view))
        own.append(looked)
    own.append(status_text(view))
    if mine:
        return Group(*parts, *own)
    return Panel(Group(*parts, *own), title=t("seat {player}", player=f"P{seat + 1}")
                 if seat is not None else t("spectator"))


GOITA_WORDS = tuple(t.lower() for t in GOITA_TITLES)


def _words(view: dict[str, Any]) -> tuple[str, ...]:
    """What a person types for each card type in this game (Goita's pieces by their names)."""
    return GOITA_WORDS if view.get("game") == "goita" else tuple(t(w) for w in CARD_WORDS)


def source_word(source: int, view: dict[str, Any] | None = None) -> str:
    if source >= MERC:
        return f"m{source - MERC}"
    return (_words(view) if view is not None else tuple(t(w) for w in CARD_WORDS))[source]


def typed(action: Any, view: dict[str, Any] | None = None) -> str:
    """What a person types for ``action`` (in Goita's words when ``view`` is Goita's);
    ``parse`` reads it back."""
    if isinstance(action, Pass):
        return t(TYPED["pass"])
    if isinstance(action, Declare):
        return t(TYPED["reveal"]) if action.reveal else t(TYPED["quiet"])
    if isinstance(action, Decide):
        return t(TYPED["redeal"]) if action.redeal else t(TYPED["on"])
    defense = "-" if action.defense == NO_DEFENSE else source_word(action.defense, view)
    return f"{defense} {source_word(action.attack, view)}"


def _sources(words: list[str]) -> str:
    """Sources joined by "/", runs of mercenary stacks shortened ("m0-m3")."""
    out: list[str] = []
    run: list[int] = []

    def flush() -> None:
        if run:
            out.append(f"m{run[0]}-m{run[-1]}" if len(run) > 2 else "/".join(f"m{k}" for k in run))
            run.clear()

    for w in words:
        if w[0] == "m" and w[1:].isdigit():
            if run and int(w[1:]) != run[-1] + 1:
                flush()
            run.append(int(w[1:]))
        else:
            flush()
            out.append(w)
    flush()
    return "/".join(out)


def legal_text(view: dict[str, Any], legal: list[Any]) -> str:
    """Every legal action as typed. Plays are grouped by their defense card ("gold
    silver/tower" means ``gold silver`` or ``gold tower``); a lead where any defense goes with
    any other attack card is said in one phrase, so 2 players' mercenaries stay short."""
    plays = [a for a in legal if isinstance(a, Play)]
    others = [typed(a, view) for a in legal if not isinstance(a, Play)]
    by_defense: dict[int, list[int]] = {}
    for a in plays:
        by_defense.setdefault(a.defense, []).append(a.attack)
    defenses = sorted(by_defense)
    attacks = sorted({a.attack for a in plays})

    def words(sources: list[int]) -> str:
        return _sources([source_word(x, view) for x in sources])

    pairs = [d for d in defenses if d in by_defense[d]]
    every = {(d, a) for d in defenses for a in attacks if a != d or d in pairs}
    if len(defenses) >= 3 and NO_DEFENSE not in by_defense and every == {
            (a.defense, a.attack) for a in plays}:
        text = t("any of {defenses} then any other of {attacks}", defenses=words(defenses),
                 attacks=words(attacks))
        if pairs:
            text += " " + t("(or a pair: {pairs})", pairs=words(pairs))
        return ", ".join([text, *others])
    parts = [f"{'-' if d == NO_DEFENSE else source_word(d, view)} {words(sorted(by_defense[d]))}"
             for d in defenses]
    return ", ".join(parts + others)


def hint(view: dict[str, Any], legal: list[Any]) -> str:
    """What may be typed now, then every legal action (plain text: the session wraps it)."""
    if not legal:
        return t("nothing to do: wait for the other players")
    goita = view.get("game") == "goita"
    kinds = {type(a) for a in legal}
    if Declare in kinds:
        if len(legal) == 1:
            return t("you have fewer than 5 Soldiers: type 'quiet'")
        return t("type 'reveal' (show your 5+ Soldiers, your partner decides) or 'quiet'")
    if Decide in kinds:
        if goita:
            return t("your partner showed five Shi: type 'redeal' to deal again or 'on' to play")
        return t("type 'redeal' to cancel the round or 'on' to play it")
    if kinds == {Pass}:
        return t("you cannot counter this attack: type 'pass'")
    plays = [a for a in legal if isinstance(a, Play)]
    example = typed(next((a for a in plays if a.defense != a.attack), plays[0]), view)
    lead = bool(view.get("leading"))
    parts = [t("type defense then attack, e.g. '{example}'", example=example)]
    if lead:
        parts[0] += " " + (t("(the defense piece goes face down)") if goita
                           else t("(the defense card goes face down)"))
    if any(isinstance(a, Play) and (a.attack >= MERC or a.defense >= MERC) for a in legal):
        parts.append(t("m0-m7 for a mercenary"))
    if Pass in kinds:
        parts.append(t("or 'pass'"))
    return "; ".join(parts) + "\n" + t("Legal: {moves}", moves=legal_text(view, legal))


def help_text(view: dict[str, Any]) -> str:
    """Card names and abbreviations, the marks on the table and the commands."""
    goita = view.get("game") == "goita"
    titles = _titles(view)
    words = _words(view)
    values = [view["card_values"][name] for name in NAMES]
    titles = tuple(t(title) for title in titles)
    names = ", ".join(f"{w} = {title} ({v})"
                      for w, title, v in zip(words, titles, values, strict=True))
    king = titles[7]
    if goita:
        lines = [t("Pieces (points): {names}. Type any unique beginning of a name: "
                   "hi = hisha, ka = kaku.", names=names),
                 t("[{title}] is face up; ({title}) is face down; [??] is a piece hidden from "
                   "you. The 'cards' column counts each hand.", title=titles[4])]
    else:
        lines = [t("Cards (points): {names}. Type any unique beginning of a name: "
                   "{example}.", names=names, example=t("go = gold, si = silver")),
                 t("[{title}] is face up; ({title}) is face down; [??] is a card hidden from "
                   "you. The 'cards' column counts each hand.", title=titles[4])]
    lines.append(t(
        "Moves: defense then attack, e.g. '{example}': to counter, the defense must match the "
        "attack ({king} counters anything but {first} and {second}); when you lead, the "
        "defense goes face down. 'pass' lets an attack go.", example=f"{words[4]} {words[3]}",
        king=king, first=titles[0], second=titles[1]))
    if not goita:
        lines.append(t("2 players: m0-m7 plays the top card of a mercenary stack ('m3 gold'); "
                       "'- empress' attacks with a lone last card (C1)."))
        lines.append(t("4 players: 'reveal' or 'quiet' after the deal (5+ Soldiers, A6); the "
                       "partner answers 'redeal' or 'on'."))
    else:
        lines.append(t("After a deal with five Shi the partner answers 'redeal' or 'on' (B5). "
                       "Kami's card names are accepted too."))
    lines.append(t("Also: 'help' shows this with your legal moves, 'board' redraws the table."))
    return "\n".join(lines)


def _source(word: str, view: dict[str, Any]) -> int:
    w = word.strip().lower()
    if w.startswith("merc:"):
        w = "m" + w[5:]
    if len(w) == 2 and w[0] == "m" and w[1].isdigit():
        return MERC + int(w[1])
    own = _words(view)
    if w in own:
        return own.index(w)
    if w in NAMES:
        return NAMES.index(w)
    spoken = tuple(t(c) for c in CARD_WORDS)  # Kami's words in the session's language
    if w in spoken:
        return spoken.index(w)
    if w in ALIASES:
        return NAMES.index(ALIASES[w])
    matches = [n for n in own if n.startswith(w)] if w else []
    if len(matches) != 1:
        if own is GOITA_WORDS:
            raise ValueError(t("{word!r} is not a piece: use {words} (or a unique beginning)",
                               word=word, words=", ".join(own)))
        raise ValueError(t("{word!r} is not a card: use {words} (or a unique beginning), or "
                           "m0-m7", word=word, words=", ".join(own)))
    return own.index(matches[0])


def parse(text: str, view: dict[str, Any], legal: list[Any]) -> Any:
    words = text.replace(",", " ").split()
    example = next((typed(a, view) for a in legal if isinstance(a, Play)),
                   "kin gin" if view.get("game") == "goita" else t("gold silver"))
    if not words:
        raise ValueError(t("type a move, e.g. '{example}' or 'pass'", example=example))
    first = words[0].lower()
    if first in ("play", "p", "jugar") and len(words) > 1:
        words, first = words[1:], words[1].lower()
    said = {word: t(typed_word) for word, typed_word in TYPED.items()}
    wanted: Any
    if len(words) == 1 and first in ("pass", "p", said["pass"]):
        wanted = Pass()
    elif len(words) == 1 and first in ("reveal", "quiet", "keep", said["reveal"], said["quiet"]):
        wanted = Declare(first in ("reveal", said["reveal"]))
    elif first in ("redeal", "cancel", said["redeal"]) or (
            first in ("on", "play", said["on"]) and len(words) <= 2):
        wanted = Decide(first in ("redeal", "cancel", said["redeal"]))
    elif len(words) == 2:
        defense = NO_DEFENSE if words[0] in ("-", "none") else _source(words[0], view)
        wanted = Play(defense, _source(words[1], view))
    else:
        raise ValueError(t("cannot read {text!r}: type defense then attack, e.g. '{example}'",
                           text=text, example=example))
    for a in legal:
        if a == wanted:
            return a
    return action_from_index(wanted.index)  # not legal now: the engine says why
