"""Kami and Goita events (DESIGN.md §2): what one applied action did, per viewer, and its
sentence in English or Spanish.

``narrate`` reads the states before and after an action. A lead's face-down defense card is
named only to its owner (a mercenary played face down was face up on its stack, so it is
public); a new deal tells each seat its own hand and, with 3 players, the set-aside card it
looked at (A3). Everything the engine resolves inside the action follows in order: the card
turned up on a mercenary stack, the Empress unlocked (A4.5, C2; Goita B3), the round won and its
score (A5, A8; Goita B4-B5), a redeal (A6, B5), each new deal and the end of the game.

Event types (fields after ``type``; docs/kami.md "Events"):

- ``lead``: seat, defense (None unless a mercenary; its owner gets the card), defense_stack,
  attack, attack_stack, no_defense (C1).
- ``counter``: seat, against, defense, defense_stack, attack, attack_stack.
- ``pass``: seat. ``all_passed``: seat (the attacker, who leads again, A4.3).
- ``mercenary_turned``: stack, card. ``unlocked``: seat.
- ``out``: seat, card, master_strike. ``score``: round, seat, partners, kind, card, points,
  doubled, before, after, end_mode, target.
- ``redeal``: round, seat, reason ("partner" or "shi5"), first.
- ``deal``: round, first, size, players (+ hand for each seat, of its own cards).
  ``look``: seat (+ card for that seat). ``mercenaries``: tops.
- ``reveal``: seat, soldiers, partner. ``quiet``: seat. ``decide``: seat, holder, redeal.
- ``game_over``: scores, ranks, winners, sides.
"""

from __future__ import annotations

from typing import Any

from ludoteca.engine.events import Event, event, secret
from ludoteca.engine.game import JSON
from ludoteca.engine.i18n import Voice
from ludoteca.games.kami.actions import MERC, NO_DEFENSE, Decide, Declare, Pass, Play
from ludoteca.games.kami.components import (
    GOITA_NAMES,
    KAMI_THE,
    KAMI_TITLES,
    NAME_INDEX,
    NAMES,
    unpack,
)
from ludoteca.games.kami.scoring import final_outcome
from ludoteca.games.kami.state import DECIDE, OVER, PLAY, KamiState

# ---- narration ----------------------------------------------------------------------------


def narrate(before: KamiState, seat: int, action: Any, after: KamiState) -> list[Event]:
    """The events of ``action`` by ``seat``, from ``before`` (a clone) to ``after``."""
    out: list[Event] = []
    ended = len(after.history) > len(before.history)
    if isinstance(action, Pass):
        out.append(event("pass", seat=seat))
        if after.phase == PLAY and after.turn == after.attacker:
            out.append(event("all_passed", seat=after.attacker))
    elif isinstance(action, Play):
        _play(before, seat, action, after, ended, out)
    elif isinstance(action, Declare):
        if action.reveal:
            out.append(event("reveal", seat=seat, soldiers=after.revealed[seat],
                             partner=(seat + 2) % 4))
        else:
            out.append(event("quiet", seat=seat))
    elif isinstance(action, Decide):
        out.append(event("decide", seat=seat, holder=before.asked, redeal=action.redeal))
    if ended:
        _aftermath(before, action, after, out)
    return out


def opening(s: KamiState) -> list[Event]:
    """The events of the first deal, which ``setup`` makes before any action: for a driver
    that narrates the start of a match (the same ``deal``, ``look``, ``mercenaries`` and
    Goita ``reveal`` events as any later deal; a B5 hand that ended the first deal at once is
    told by its ``score``)."""
    out: list[Event] = []
    if s.phase == OVER:
        out.append(_game_over(s))
    else:
        _deal(s, out)
    return out


def _play(before: KamiState, seat: int, action: Play, after: KamiState, ended: bool,
          out: list[Event]) -> None:
    d, a = action.defense, action.attack
    d_stack = d - MERC if d >= MERC else None
    a_stack = a - MERC if a >= MERC else None
    d_card = None if d == NO_DEFENSE else NAMES[d if d < MERC else before.merc_up[d - MERC]]
    a_card = NAMES[a if a < MERC else before.merc_up[a - MERC]]
    if seat != before.attacker:
        out.append(event("counter", seat=seat, against=NAMES[before.attack], defense=d_card,
                         defense_stack=d_stack, attack=a_card, attack_stack=a_stack))
    elif d_card is not None and d_stack is None:  # A4.1: face down, named to its owner only
        out.append(secret("lead", [seat], {"defense": d_card}, seat=seat, defense=None,
                          defense_stack=None, attack=a_card, attack_stack=a_stack,
                          no_defense=False))
    else:
        out.append(event("lead", seat=seat, defense=d_card, defense_stack=d_stack, attack=a_card,
                         attack_stack=a_stack, no_defense=d_card is None))
    if ended:
        return  # the next deal replaces the stacks and the lock: nothing more to see of this one
    for stack in (d_stack, a_stack):
        if stack is not None and after.merc_up[stack] >= 0:  # A5.4: the card beneath turns up
            out.append(event("mercenary_turned", stack=stack, card=NAMES[after.merc_up[stack]]))
    if after.unlocked and not before.unlocked:
        out.append(event("unlocked", seat=seat))


def _aftermath(before: KamiState, action: Any, after: KamiState, out: list[Event]) -> None:
    """Rounds scored or cancelled inside the action, each followed by a new deal or the end.

    Goita's B5 hands can chain several deals in one action; only the last deal is still in
    ``after``, so only it tells the seats their hands."""
    cfg = after.cfg
    entries = after.history[len(before.history):]
    first = before.first
    for i, (rnd, who, kind, card, master, gain, old, total) in enumerate(entries):
        if kind == "redeal":
            reason = "partner" if i == 0 and isinstance(action, Decide) else "shi5"
            out.append(event("redeal", round=rnd, seat=who, reason=reason, first=first))
        else:
            if kind == "out":
                out.append(event("out", seat=who, card=NAMES[card], master_strike=master))
            side = cfg.side_of[who]
            doubled = master or (kind in ("shi6", "shi7") and gain == 2 * cfg.values[card])
            out.append(event(
                "score", round=rnd, seat=who,
                partners=[p for p in range(cfg.players) if cfg.side_of[p] == side],
                kind=kind, card=NAMES[card], points=gain, doubled=doubled, before=old,
                after=total, end_mode=cfg.end_mode, target=cfg.target,
            ))
            first = who
        if i == len(entries) - 1:
            if after.phase == OVER:
                out.append(_game_over(after))
            else:
                _deal(after, out)
        elif i == len(entries) - 2 and after.phase == OVER and entries[-1][2] in SPECIAL:
            _deal(after, out)  # B5: a special hand ended the game at once; the deal stays shown
        else:
            out.append(event("deal", round=rnd if kind == "redeal" else rnd + 1, first=first,
                             size=10 if cfg.players == 3 else 8, players=cfg.players))


SPECIAL = ("shi6", "shi7", "shi8", "shi5x2")
"""Goita's B5 hands, scored right after the deal that made them (five Shi held by both partners
included: the team wins outright on that deal, which stays shown)."""


def _deal(s: KamiState, out: list[Event]) -> None:
    """The deal now on the table: each seat is told its own hand (A3)."""
    n = s.cfg.players
    public: JSON = {"type": "deal", "round": s.round, "first": s.first, "size": s.sizes[0],
                    "players": n}
    private = {p: {**public, "hand": [NAMES[t] for t in unpack(s.hands[p])]} for p in range(n)}
    out.append(Event(public, private))
    if n == 3:  # A3: the 2nd and 3rd players each look at one set-aside card
        for p in range(n):
            if s.looked[p] >= 0:
                out.append(secret("look", [p], {"card": NAMES[s.unused[s.looked[p]]]}, seat=p,
                                  card=None))
    if n == 2:
        out.append(event("mercenaries", tops=[NAMES[t] for t in s.merc_up]))
    if s.phase == DECIDE and s.cfg.goita:  # B5: five Shi are shown at once
        holder = s.asked
        out.append(event("reveal", seat=holder, soldiers=s.revealed[holder],
                         partner=(holder + 2) % 4))


def _game_over(s: KamiState) -> Event:
    result = final_outcome(s)
    return event("game_over", scores=list(result.scores), ranks=list(result.ranks),
                 winners=list(result.winners), sides=list(s.cfg.side_of))


# ---- sentences ----------------------------------------------------------------------------

class Words:
    """The card words of one game in one voice."""

    def __init__(self, goita: bool, voice: Voice) -> None:
        self.goita = goita
        self.v = voice

    def title(self, name: str) -> str:
        """A card's name alone, as in a list ("Gold Dragon", "Kin")."""
        t = NAME_INDEX[name]
        return self.v.t(GOITA_NAMES[t] if self.goita else KAMI_TITLES[t])

    def the(self, name: str) -> str:
        """A card inside a sentence ("the Gold Dragon", "el Dragón de Oro", "Kin")."""
        t = NAME_INDEX[name]
        return self.v.t(GOITA_NAMES[t] if self.goita else KAMI_THE[t])

    def source(self, name: str, stack: int | None) -> str:
        """A played card, with the mercenary stack it came from (A5.4)."""
        if stack is None:
            return self.the(name)
        return self.v.t("{card} (mercenary M{stack})", card=self.the(name), stack=stack + 1)

    def hand(self, names: list[str]) -> str:
        """A hand as "Soldier ×3, Tower", in card order."""
        parts = []
        for name in dict.fromkeys(names):
            k = names.count(name)
            parts.append(self.title(name) + (f" ×{k}" if k > 1 else ""))
        return ", ".join(parts)


def render(goita: bool, data: JSON, voice: Voice) -> str:
    """One event as one sentence."""
    w = Words(goita, voice)
    kind = data["type"]
    name = voice.name(int(data["seat"])) if "seat" in data else ""
    if kind == "pass":
        return voice.t("{player} passes.", player=name)
    if kind == "all_passed":
        return voice.t("Everyone has passed: {player} leads again.", player=name)
    if kind == "lead":
        attack = w.source(data["attack"], data["attack_stack"])
        if data["no_defense"]:
            return voice.t("{player} has no card left to defend with and attacks with {attack}.",
                           player=name, attack=attack)
        if data["defense"] is None:
            if goita:
                return voice.t("{player} leads a face-down piece and attacks with {attack}.",
                               player=name, attack=attack)
            return voice.t("{player} leads a face-down card and attacks with {attack}.",
                           player=name, attack=attack)
        return voice.t("{player} leads {defense} face down and attacks with {attack}.",
                       player=name, defense=w.source(data["defense"], data["defense_stack"]),
                       attack=attack)
    if kind == "counter":
        return voice.t("{player} counters {against} with {defense} and attacks with {attack}.",
                       player=name, against=w.the(data["against"]),
                       defense=w.source(data["defense"], data["defense_stack"]),
                       attack=w.source(data["attack"], data["attack_stack"]))
    if kind == "mercenary_turned":
        return voice.t("The card beneath mercenary stack M{stack} is turned face up: {card}.",
                       stack=data["stack"] + 1, card=w.title(data["card"]))
    if kind == "unlocked":
        if goita:
            return voice.t("An Ou has been shown face up: Ou may now attack.")
        return voice.t("An Empress is face up on a defense line: the other Empress may now "
                       "attack.")
    if kind == "out":
        card = w.the(data["card"])
        if data["master_strike"]:
            if goita:
                return voice.t("{player} goes out with {card}, the same as the face-down piece: "
                               "the score is doubled.", player=name, card=card)
            return voice.t("{player} goes out with a Master Strike: {card}, the same as the "
                           "face-down card.", player=name, card=card)
        return voice.t("{player} goes out with {card}.", player=name, card=card)
    if kind == "score":
        return _score(w, data, name)
    if kind == "redeal":
        first = voice.name(int(data["first"]))
        if data["reason"] == "shi5":
            return voice.t("Five Shi on each team: the pieces are dealt again and {first} "
                           "deals again.", first=first)
        if goita:
            return voice.t("The hand is cancelled: the pieces are dealt again and {first} "
                           "deals again.", first=first)
        return voice.t("The round is cancelled: the cards are dealt again and {first} is "
                       "still the first player.", first=first)
    if kind == "deal":
        return _deal_text(w, data)
    if kind == "look":
        if data["card"] is None:
            return voice.t("{player} looks at one of the two set-aside cards.", player=name)
        return voice.t("{player} looks at one of the two set-aside cards: {card}.",
                       player=name, card=w.title(data["card"]))
    if kind == "mercenaries":
        tops = ", ".join(f"m{k} {w.title(c)}" for k, c in enumerate(data["tops"]))
        return voice.t("Mercenaries face up: {tops}.", tops=tops)
    if kind == "reveal":
        partner = voice.name(int(data["partner"]))
        if goita:
            return voice.nt("{player} shows {n} Shi; the partner {partner} decides whether to "
                            "redeal.", "{player} shows {n} Shi; the partner {partner} decides "
                            "whether to redeal.", int(data["soldiers"]), player=name,
                            partner=partner)
        return voice.nt("{player} reveals {n} Soldier and asks the partner {partner}: redeal or "
                        "play on?", "{player} reveals {n} Soldiers and asks the partner "
                        "{partner}: redeal or play on?", int(data["soldiers"]), player=name,
                        partner=partner)
    if kind == "quiet":
        return voice.t("{player} reveals nothing.", player=name)
    if kind == "decide":
        if data["redeal"]:
            return voice.t("{player} chooses to redeal.", player=name)
        if goita:
            return voice.t("{player} chooses to play the hand.", player=name)
        return voice.t("{player} chooses to play the round on.", player=name)
    if kind == "game_over":
        return _game_over_text(voice, data)
    return voice.t("{player} acted.", player=name)


def _who(voice: Voice, seats: list[int]) -> str:
    """A side: one player, or both partners."""
    return voice.join([voice.name(p) for p in seats])


def _score(w: Words, data: JSON, player: str) -> str:
    """Points, who gets them, why, and the new total (A5.2-A5.3, A8; B4-B5)."""
    v = w.v
    card, kind, n = w.the(data["card"]), data["kind"], int(data["points"])
    who = _who(v, data["partners"])
    if kind == "shi5x2":
        return v.t("{team} were both dealt five Shi: their team wins outright with {total} "
                   "points.", team=who, total=data["after"])
    if kind == "out":
        if not data["doubled"]:
            why = v.t("last attack: {card}", card=card)
        elif w.goita:
            why = v.t("{card} doubled", card=card)
        else:
            why = v.t("{card} doubled by the Master Strike", card=card)
    elif kind == "shi6":
        why = v.t("{player} was dealt six Shi; the best other piece is {card}", player=player,
                  card=card)
        if data["doubled"]:
            why = v.t("{player} was dealt six Shi and a pair of {card}: doubled", player=player,
                      card=card)
    elif kind == "shi7":
        why = v.t("{player} was dealt seven Shi; the other piece, {card}, counts double",
                  player=player, card=card)
    else:  # shi8
        why = v.t("{player} was dealt eight Shi", player=player)
    before, total, target = int(data["before"]), int(data["after"]), int(data["target"])
    if before + n <= target or data["end_mode"] == "soldier":
        tally = v.t("total {total}", total=total)
    elif data["end_mode"] == "lord":
        tally = v.t("that passes {target}, so the excess comes off: total {total}",
                    target=target, total=total)
    else:
        tally = v.t("that passes {target}, so the total falls back to 0", target=target)
    return v.nt("{n} point for {who} ({why}); {tally}.", "{n} points for {who} ({why}); {tally}.",
                n, who=who, why=why, tally=tally)


def _deal_text(w: Words, data: JSON) -> str:
    v = w.v
    first = v.name(int(data["first"]))
    rnd, size = int(data["round"]), int(data["size"])
    if w.goita:
        if "hand" in data:
            return v.t("Hand {round}: {first} deals and leads; your pieces: {hand}.", round=rnd,
                       first=first, hand=w.hand(data["hand"]))
        return v.t("Hand {round}: {first} deals and leads, {size} pieces each.", round=rnd,
                   first=first, size=size)
    if "hand" in data:
        return v.t("Round {round}: {first} leads; your cards: {hand}.", round=rnd, first=first,
                   hand=w.hand(data["hand"]))
    return v.t("Round {round}: {size} cards each, {first} leads.", round=rnd, first=first,
               size=size)


def _game_over_text(v: Voice, data: JSON) -> str:
    scores, winners = data["scores"], data["winners"]
    if len(scores) == 4:  # teams (A2.2, B1)
        losers = [p for p in range(4) if p not in winners]
        return v.t("Game over: {winners} win, {score} points to {other}.",
                   winners=_who(v, winners), score=scores[winners[0]],
                   other=scores[losers[0]])
    others = ", ".join(f"{v.name(p)} {scores[p]}" for p in range(len(scores))
                       if p not in winners)
    return v.t("Game over: {winner} wins with {score} points ({others}).",
               winner=v.name(winners[0]), score=scores[winners[0]], others=others)


__all__ = ["narrate", "opening", "render"]
