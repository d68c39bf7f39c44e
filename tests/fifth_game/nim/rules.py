"""Nim: players in turn take 1 to 3 stones from one pile; whoever takes the last stone wins."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ludoteca.engine.errors import MalformedAction, Reason, because
from ludoteca.engine.events import Event, event
from ludoteca.engine.game import (
    JSON,
    Game,
    GameSpec,
    Outcome,
    SlotState,
    require_int,
    require_json_object,
)
from ludoteca.engine.i18n import N_, Voice
from ludoteca.engine.options import Option
from ludoteca.engine.parts import Part
from ludoteca.engine.rng import Rng


@dataclass(frozen=True, slots=True)
class Take:
    count: int

    @property
    def index(self) -> int:
        return self.count - 1

    def to_json(self) -> JSON:
        return {"type": "take", "count": self.count}


TAKES = [Take(n) for n in (1, 2, 3)]


class NimState(SlotState):
    __slots__ = ("pile", "players", "ply", "rng", "stones", "turn", "winner")
    """``rng`` is never drawn from (Nim has no chance), but every state keeps one, so an adapter
    can put its own generator in (docs/engine.md)."""

    def clone(self) -> NimState:
        s = NimState.__new__(NimState)
        s.pile, s.players, s.ply, s.turn, s.winner = (
            self.pile, self.players, self.ply, self.turn, self.winner
        )
        s.rng, s.stones = self.rng.clone(), self.stones
        return s


class Nim(Game[NimState, Take]):
    spec = GameSpec(
        name="nim", title="Nim", min_players=2, max_players=4,
        options=(Option("stones", int, 21, "stones in the pile", min=4, max=99),),
        num_actions=3, max_length=99, chance=False,
    )
    locale = Path(__file__).parent / "locale"

    def _setup(self, options: dict[str, Any], players: int, rng: Rng) -> NimState:
        s = NimState.__new__(NimState)
        s.pile, s.players, s.ply, s.turn, s.winner = int(options["stones"]), players, 0, 0, -1
        s.rng, s.stones = rng, int(options["stones"])
        return s

    def to_act(self, state: NimState) -> frozenset[int]:
        return frozenset() if state.winner >= 0 else frozenset({state.turn})

    def legal_actions(self, state: NimState, seat: int) -> list[Take]:
        if seat != state.turn or state.winner >= 0:
            return []
        return TAKES[: min(3, state.pile)]

    def _apply(self, state: NimState, seat: int, action: Take) -> None:
        state.pile -= action.count
        if state.pile == 0:
            state.winner = seat
        state.turn = (seat + 1) % state.players

    def narrate(self, before: NimState, seat: int, action: Take, after: NimState) -> list[Event]:
        out = [event("take", seat=seat, count=action.count, left=after.pile)]
        if after.winner >= 0:
            out.append(event("win", seat=after.winner))
        return out

    def render_event(self, data: JSON, voice: Voice) -> str:
        who = voice.name(data["seat"])
        if data["type"] == "win":
            return voice.t("{player} took the last stone and wins.", player=who)
        return voice.nt("{player} took {n} stone; {left} left.",
                        "{player} took {n} stones; {left} left.",
                        data["count"], player=who, left=data["left"])

    def view(self, state: NimState, seat: int | None) -> JSON:
        return {"game": "nim", "ply": state.ply, "pile": state.pile, "turn": state.turn,
                "players": state.players, "winner": state.winner, "seat": seat,
                "options": {"stones": state.stones},
                "teams": [[s] for s in range(state.players)],
                "parts": [[p.to_json() for p in _parts(state, s)] for s in range(state.players)]}

    def outcome(self, state: NimState) -> Outcome | None:
        if state.winner < 0:
            return None
        ranks = tuple(1 if s == state.winner else 2 for s in range(state.players))
        return Outcome(scores=tuple(int(r == 1) for r in ranks), ranks=ranks,
                       parts=tuple(_parts(state, s) for s in range(state.players)),
                       tiebreaks=tuple(() for _ in range(state.players)),
                       tiebreak=tuple(() for _ in range(state.players)))

    def determinize(self, view: JSON, seat: int | None, rng: Rng) -> NimState:
        s = NimState.__new__(NimState)
        s.pile, s.players, s.ply = view["pile"], view["players"], view["ply"]
        s.turn, s.winner = view["turn"], view["winner"]
        s.rng, s.stones = rng, int(view["options"]["stones"])
        return s

    def action_from_json(self, data: object) -> Take:
        data = require_json_object(data)
        if data.get("type") != "take":
            raise MalformedAction(msgid=N_("a Nim action takes stones: type take, count 1-3"))
        count = require_int(data, "count")
        if not 1 <= count <= 3:
            raise MalformedAction(msgid=N_("take 1, 2 or 3 stones, not {count}"), count=count)
        return TAKES[count - 1]

    def action_from_index(self, index: int) -> Take:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < 3:
            raise MalformedAction(msgid=N_("action index must be 0-{last}, not {index!r}"),
                                  last=2, index=index)
        return TAKES[index]

    def _why_illegal(self, state: NimState, seat: int, action: Take) -> Reason | None:
        if action.count > state.pile:
            return because(N_("only {left} stones are left"), left=state.pile)
        return super()._why_illegal(state, seat, action)


def _parts(state: NimState, seat: int) -> tuple[Part, ...]:
    """A seat's score as parts: the point for the last stone, once someone has taken it."""
    return (Part("last_stone", N_("took the last stone"), 1),) if seat == state.winner else ()


GAME = Nim()
