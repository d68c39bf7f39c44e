"""Rewards shared by the RL adapters (docs/rl.md, "Rewards").

Three schemes, chosen with ``reward=`` when an environment is made:

- ``"win"`` (default): 0 until the end, then the side's rank as ``final_rewards`` gives it
  (+1 win, -1 loss, 0 tie with two sides).
- ``"margin"``: 0 until the end, then the final score margin of the seat's side over the mean
  of the other sides, divided by the game's score scale and clipped to [-1, 1].
- ``"shaped"``: the win reward plus potential-based shaping (Ng, Harada & Russell 1999) on
  the same score margin: each transition of a seat from one of its decisions to the next
  earns ``gamma * phi(next) - phi(now)``, with ``phi`` the scaled margin now and 0 at the
  end. Over an episode the terms add up to ``gamma``-discounted ``phi(end) - phi(start)``,
  whatever is played, so the policies that are best for the win reward stay best; the
  points scored along the way only tell a learner sooner which moves pay.

The scores come from the game's registry entry (``GameEntry.rl_score``): each seat's score
now and a typical winning score to scale it by (Kingdomino and Queendomino 100 a game,
Buttons the 12-star trigger, Kami and Goita the target).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ludoteca.engine.errors import OptionError
from ludoteca.engine.game import Game, Outcome
from ludoteca.engine.parts import side_index
from ludoteca.engine.registry import resolve

REWARDS = ("win", "margin", "shaped")
ScoresNow = Callable[[Any], tuple[tuple[int, ...], float]]


def sides_of(game: Game[Any, Any], state: Any, players: int) -> list[int]:
    """Each seat's side, as the game's public view says (its ``teams``; a game whose view has
    none plays one seat per side): partners share one."""
    return side_index(game.view(state, None).get("teams") or (), players)


def final_rewards(outcome: Outcome) -> list[float]:
    """Per seat: (sides ranked below its side - sides ranked above) / (sides - 1), so +1 / -1 /
    0 with two sides, and the rewards of all seats add up to 0. The sides are the outcome's
    ``teams``; partners share their side's rank."""
    side_of = outcome.side_of
    rank_of: dict[int, int] = {}
    for seat, side in enumerate(side_of):
        rank_of[side] = outcome.ranks[seat]
    count = len(rank_of)
    if count < 2:
        return [0.0] * len(side_of)
    out = []
    for side in side_of:
        mine = rank_of[side]
        below = sum(1 for r in rank_of.values() if r > mine)
        above = sum(1 for r in rank_of.values() if r < mine)
        out.append((below - above) / (count - 1))
    return out


def margins(scores: Sequence[float], side_of: Sequence[int], scale: float) -> list[float]:
    """Per seat: (its side's score - the mean score of the other sides) / ``scale``. With
    two sides the margins are opposite; over all sides they add up to 0."""
    side_score: dict[int, float] = {}
    for seat, side in enumerate(side_of):
        side_score[side] = float(scores[seat])
    count = len(side_score)
    if count < 2:
        return [0.0] * len(side_of)
    total = sum(side_score.values())
    return [(side_score[side] - (total - side_score[side]) / (count - 1)) / scale
            for side in side_of]


@dataclass(frozen=True)
class Reward:
    """A reward scheme: ``kind`` one of ``REWARDS``; ``gamma`` the discount of the shaping
    terms (give the learner's own, 0.99 for Stable-Baselines3's PPO by default; with 1 the
    shaped episode return equals the win return exactly, every game starting at 0 points)."""

    kind: str = "win"
    gamma: float = 1.0

    def __post_init__(self) -> None:
        if self.kind not in REWARDS:
            raise OptionError(f"reward must be one of {', '.join(REWARDS)}, not {self.kind!r}")
        if not 0.0 < self.gamma <= 1.0:
            raise OptionError(f"the shaping discount gamma must be in (0, 1], not {self.gamma}")


def reward_of(spec: str | Reward) -> Reward:
    """``"win"``, ``"margin"``, ``"shaped"`` or a ``Reward`` -> a ``Reward``."""
    return spec if isinstance(spec, Reward) else Reward(str(spec).strip().lower())


class Rewarder:
    """One environment's rewards: final rewards by its scheme, and the shaping potential."""

    def __init__(self, game: Game[Any, Any], spec: str | Reward) -> None:
        from ludoteca.games import entry

        self.reward = reward_of(spec)
        self.kind = self.reward.kind
        self.gamma = self.reward.gamma
        self.scores_now: ScoresNow | None = None
        if self.kind != "win":
            ref = entry(game.spec.name).rl_score
            if ref is None:
                raise OptionError(
                    f"{game.spec.name} does not say its scores during play, so only "
                    f"reward='win' is offered")
            self.scores_now = resolve(ref)
        self.shaped = self.kind == "shaped"

    def final(self, outcome: Outcome, state: Any) -> list[float]:
        """Each seat's reward at the end (``state`` the final one): the win reward, or the
        clipped margin."""
        if self.scores_now is None or self.kind != "margin":
            return final_rewards(outcome)
        scale = self.scores_now(state)[1]
        return [max(-1.0, min(1.0, m)) for m in margins(outcome.scores, outcome.side_of, scale)]

    def potentials(self, state: Any, side_of: Sequence[int]) -> list[float]:
        """Each seat's shaping potential now: its side's scaled score margin."""
        assert self.scores_now is not None
        scores, scale = self.scores_now(state)
        return margins(scores, side_of, scale)


class Shaping:
    """The shaping terms of each seat, paid from one of its decisions to its next (or to the
    end): ``gamma * phi(now) - phi(then)``, ``phi`` 0 at the end. ``start`` at the deal,
    ``collect`` whenever seats reach a decision or the match ends."""

    def __init__(self, rewarder: Rewarder, side_of: Sequence[int]) -> None:
        self.rewarder = rewarder
        self.side_of = list(side_of)
        self.last: list[float] = [0.0] * len(side_of)
        self.total: list[float] = [0.0] * len(side_of)
        """Every term paid so far, per seat (the tests check the telescoping sum)."""

    def start(self, state: Any) -> None:
        self.last = self.rewarder.potentials(state, self.side_of)
        self.total = [0.0] * len(self.side_of)

    def collect(self, state: Any, seats: Sequence[int], over: bool) -> dict[int, float]:
        """The term each of ``seats`` earns now (at a new decision, or at the end when
        ``over``), remembering ``phi`` now as the start of its next term."""
        gamma = self.rewarder.gamma
        now = [0.0] * len(self.side_of) if over else self.rewarder.potentials(
            state, self.side_of)
        out: dict[int, float] = {}
        for seat in seats:
            term = gamma * now[seat] - self.last[seat]
            self.last[seat] = now[seat]
            self.total[seat] += term
            out[seat] = term
        return out
