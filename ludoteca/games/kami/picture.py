"""Kami and Goita as a picture, for the RL environments' ``rgb_array`` mode (docs/rl.md
"Rendering").

Drawn from the spectator's view, so no hand is ever shown: per seat the size of its hand (card
backs and a count), its defense line (face-down cards as backs) above its attack line, each card
by type (a colour and a letter: Soldier, sPear, Horseman, silVer, Gold, Tower, Fool, Empress);
the scores, the attack to answer and the seat to play; with 2 players the mercenary stacks
(face-up top, a back below when there is a card under it); with 3 the unused cards' count.
"""

from __future__ import annotations

from ludoteca.engine.game import JSON
from ludoteca.rl.picture import HIGHLIGHT, INK, SEATS, Canvas, Colour, Image

TYPE_COLOURS: tuple[Colour, ...] = (
    (225, 220, 205), (170, 205, 150), (150, 190, 230), (200, 205, 215),
    (240, 200, 90), (200, 160, 220), (235, 150, 150), (250, 230, 110),
)
"""Card types in the view's ``card_values`` order (soldier .. empress)."""
LETTERS = "SPHVGTFE"
BACK: Colour = (39, 75, 122)
CARD_W, CARD_H = 16, 22
ROW = 2 * CARD_H + 14
LEFT = 104
MAX_CARDS = 12


def draw(view: JSON) -> Image:
    """The public picture of a Kami or Goita position (``view``: the spectator's view)."""
    n = int(view["players"])
    types = list(view["card_values"])
    mercs = view.get("mercenaries") or []
    height = 34 + n * ROW + (CARD_H + 20 if mercs else 0)
    c = Canvas(LEFT + MAX_CARDS * (CARD_W + 2) + 8, height)
    scores = " ".join(str(s) for s in view["scores"])
    c.text(8, 6, f"ROUND {view['round']}  SCORES {scores} / {view['target']}  "
                 f"{str(view['phase']).upper()}", INK)
    attack = view.get("attack")
    if attack is not None and view["phase"] == "play":
        x = c.text(8, 18, f"ATTACK P{int(view['attacker']) + 1}", INK) + 4
        card(c, x, 16, attack, types, small=True)
    turn = int(view["turn"])
    for seat in range(n):
        y = 34 + seat * ROW
        colour = SEATS[seat % len(SEATS)]
        side = view["sides"][seat] if view.get("sides") else seat
        c.text(8, y + 2, f"P{seat + 1}{'*' if seat == turn else ''} S{side + 1}", colour)
        size = int(view["hand_sizes"][seat])
        c.text(8, y + 16, f"HAND {size}", INK)
        for k in range(size):
            c.rect(8 + k * 8, y + 30, 6, 10, BACK)
        x = LEFT
        for entry in view["defense"][seat][:MAX_CARDS]:
            face = entry["card"] if entry["face_up"] or entry["mercenary"] else None
            card(c, x, y, face, types, mercenary=bool(entry["mercenary"]))
            x += CARD_W + 2
        x = LEFT
        for entry in view["attack_lines"][seat][:MAX_CARDS]:
            card(c, x, y + CARD_H + 4, entry["card"], types, mercenary=bool(entry["mercenary"]))
            x += CARD_W + 2
        if seat == turn and view["phase"] != "over":
            c.rect(2, y, 3, ROW - 8, HIGHLIGHT)
    y = 34 + n * ROW
    if mercs:
        c.text(8, y + 6, "MERCS", INK)
        for k, stack in enumerate(mercs):
            x = LEFT + k * (CARD_W + 6)
            if stack.get("below"):
                c.rect(x + 3, y + 3, CARD_W, CARD_H, BACK)
            if stack.get("top") is not None:
                card(c, x, y, stack["top"], types)
    if view.get("unused"):
        c.text(8, height - 10, f"UNUSED {view['unused']}", INK)
    return c.pixels


def card(c: Canvas, x: int, y: int, name: str | None, types: list[str], *,
         mercenary: bool = False, small: bool = False) -> None:
    """A card at (x, y): its type's colour and letter, or a back when ``name`` is None."""
    w, h = (CARD_W, CARD_H) if not small else (12, 14)
    if name is None:
        c.rect(x, y, w, h, BACK)
        c.outline(x, y, w, h, INK)
        return
    t = types.index(name) if name in types else 0
    c.rect(x, y, w, h, TYPE_COLOURS[t % len(TYPE_COLOURS)])
    c.outline(x, y, w, h, INK)
    c.text(x + (w - 6) // 2, y + (h - 10) // 2, LETTERS[t % len(LETTERS)], INK)
    if mercenary:
        c.rect(x + w - 5, y + 2, 3, 3, HIGHLIGHT)
