"""One seat of a game against the arena's bots, as a single-agent Gymnasium environment
(docs/rl.md, "Playing against the bots").

``make(game, players=2, opponents="greedy", seat="random", reward="win")`` gives a
``gymnasium.Env``: the learner plays one seat, and every other seat is played inside ``step`` by
an opponent, so each observation is the learner's own decision.

- Observation: the learner's vector, ``Box(0, 1, (size,), float32)`` (the PettingZoo env's
  encoder, ``ludoteca.rl.encode``); ``action_masks()`` its legal actions now as a bool array,
  as sb3-contrib's ``MaskablePPO`` reads them (also ``info["action_mask"]``).
- Action: ``Discrete(num_actions)``, the game's stable action indices.
- Opponents: a bot level (``"random"``, ``"greedy"``/``"easy"``, ``"medium"``, ``"hard"``,
  through ``ludoteca.bots.make_bot`` as tournaments do: each chooses from its seat's view), a
  ``Bot``, a callable ``policy(observation, mask) -> action index`` (a trained policy as an
  opponent), or a mixture ``{"random": 0.5, "greedy": 0.5}`` drawn for each opponent seat at
  each reset; a list gives each opponent seat its own, in seat order after the learner's.
- Simultaneous answers (Buttons): the opponents deciding at the same moment answer first, each
  from its own view, which never shows another seat's pending answer; then the learner is asked.
- Seeding: ``reset(seed=s)`` deals with engine seed ``s`` (any integer, numpy's too) and draws
  the learner's seat, the mixture and the bots' seeds from the environment's generator seeded by
  ``s``: the same seed gives the same episode, the bots' choices included (the search levels
  ``medium`` and ``hard`` stop by the clock, so their choices are not reproducible).
- A deal that ends the match before the learner's first decision (a Goita deal of five Shi,
  or opponents finishing the game) is dealt again from the generator.
- Rendering: ``render_mode`` ``"ansi"``, ``"rgb_array"`` or ``"human"``, the PettingZoo env's
  pictures of the spectator's view (``ludoteca/rl/render.py``).
- Rewards: ``reward=`` ``"win"`` (default), ``"margin"`` or ``"shaped"`` (``rewards.py``); the
  learner's side's reward comes with the step that ends the match. An action outside the mask
  ends the episode with -1 (``illegal="lose"``, as Gymnasium's checker needs) or raises
  ``IllegalAction`` (``illegal="raise"``).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ludoteca.bots import make_bot
from ludoteca.bots.base import Bot
from ludoteca.engine.errors import IllegalAction, OptionError
from ludoteca.engine.game import Game, Seat
from ludoteca.rl.encode import Vector
from ludoteca.rl.pettingzoo import _Table
from ludoteca.rl.render import Window, check_mode, modes
from ludoteca.rl.rewards import Reward, Shaping

Policy = Callable[[Vector, npt.NDArray[np.int8]], int]
"""An opponent policy: (its observation vector, its 0/1 action mask) -> an action index."""
Opponent = str | Bot | Policy
Opponents = Opponent | Mapping[Any, float] | Sequence[Opponent | Mapping[Any, float]]


class _Mixture:
    """Opponents drawn with their weights."""

    def __init__(self, weights: Mapping[Any, float]) -> None:
        if not weights or any(w < 0 for w in weights.values()) or sum(weights.values()) <= 0:
            raise OptionError("a mixture of opponents needs positive weights, e.g. "
                              "{'random': 0.5, 'greedy': 0.5}")
        self.choices = list(weights)
        total = float(sum(weights.values()))
        self.p = np.array([weights[c] / total for c in self.choices])

    def draw(self, rng: np.random.Generator) -> Opponent:
        chosen: Opponent = self.choices[int(rng.choice(len(self.choices), p=self.p))]
        return chosen


def _check(opponent: Any, game: str) -> None:
    if isinstance(opponent, str):
        make_bot(opponent, game).close()  # OptionError for an unknown level or game
    elif not (isinstance(opponent, Bot) or callable(opponent)):
        raise OptionError(f"an opponent is a bot level, a Bot or a policy(observation, mask), "
                          f"not {opponent!r}")


def seat_choice(seat: str | int, players: int) -> str | int:
    """The learner's seat as asked: ``"random"`` (drawn per episode) or a checked seat number."""
    if seat == "random":
        return seat
    try:
        chosen = operator.index(seat)  # type: ignore[arg-type]
    except TypeError:
        raise OptionError(f"seat must be 'random' or a seat number, not {seat!r}") from None
    if not 0 <= chosen < players:
        raise OptionError(f"seat must be between 0 and {players - 1}, not {chosen}")
    return chosen


def per_seat(opponents: Any, count: int) -> list[Any]:
    """One opponent spec per other seat: a sequence of ``count`` specs, or one for all."""
    if isinstance(opponents, Sequence) and not isinstance(opponents, str):
        if len(opponents) != count:
            raise OptionError(f"{len(opponents)} opponents for {count} opponent seats")
        return list(opponents)
    return [opponents] * count


class BotEnv(gymnasium.Env[Vector, np.int64]):
    """One seat of a game against opponents played inside ``step`` (module docstring)."""

    def __init__(
        self, game: str | Game[Any, Any], *, players: int | None = None,
        opponents: Opponents = "greedy", seat: str | int = "random",
        reward: str | Reward = "win", render_mode: str | None = None, illegal: str = "lose",
        **options: object,
    ) -> None:
        self.table = _Table(game, players, illegal, False, options, reward)
        table = self.table
        name = table.game.spec.name
        self.render_mode = check_mode(render_mode)
        self.window = Window() if render_mode == "human" else None
        self.metadata = {"render_modes": modes(table.game), "name": f"ludoteca_{name}_v0"}
        self.seat_choice = seat_choice(seat, table.players)
        self._specs: list[Opponent | _Mixture] = []
        for spec in per_seat(opponents, table.players - 1):
            if isinstance(spec, Mapping):
                mixture = _Mixture(spec)
                for choice in mixture.choices:
                    _check(choice, name)
                self._specs.append(mixture)
            else:
                _check(spec, name)
                self._specs.append(spec)
        self.observation_space = spaces.Box(0.0, 1.0, table.encoder.shape, np.float32)
        self.action_space = spaces.Discrete(table.num_actions)
        self.seat: Seat = 0
        """The learner's seat in the current episode."""
        self.opponents: dict[Seat, Opponent] = {}
        """The opponent playing each other seat in the current episode."""
        self._bots: dict[Seat, Bot] = {}
        self.bot_seeds: dict[Seat, int] = {}
        """The seed of each bot-level opponent in the current episode (``make_bot``'s)."""
        self.shaping: Shaping | None = None

    # ---- the episode ----------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Vector, dict[str, Any]]:
        if seed is not None:
            seed = operator.index(seed)  # numpy integers too
        super().reset(seed=seed)
        rng = self.np_random
        deal = seed if seed is not None else int(rng.integers(2**63))
        while True:
            self._deal(deal, rng)
            if self.seat in self.table.to_act:
                break
            deal = int(rng.integers(2**63))  # over before the learner's first decision
        if self.table.rewarder.shaped:
            assert self.table.match is not None
            self.shaping = Shaping(self.table.rewarder, self.table.side_of)
            self.shaping.start(self.table.match.state)
        return self._observation(), self._info()

    def _deal(self, deal: int, rng: np.random.Generator) -> None:
        table = self.table
        self._close_bots()
        table.deal(deal)
        self.seat = (int(rng.integers(table.players)) if self.seat_choice == "random"
                     else int(self.seat_choice))
        others = [(self.seat + k) % table.players for k in range(1, table.players)]
        self.opponents = {}
        self.bot_seeds = {}
        name = table.game.spec.name
        for s, spec in zip(others, self._specs, strict=True):
            chosen = spec.draw(rng) if isinstance(spec, _Mixture) else spec
            self.opponents[s] = chosen
            if isinstance(chosen, str):
                self.bot_seeds[s] = int(rng.integers(2**31))
                self._bots[s] = make_bot(chosen, name, self.bot_seeds[s])
        self._play_opponents()

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[Vector, float, bool, bool, dict[str, Any]]:
        table = self.table
        me = self.seat
        if not table.to_act:
            raise IllegalAction("the episode is over: reset() first")
        if not table.act(me, action, None):  # illegal="lose"
            info = self._info()
            info["illegal_action"] = action
            return self._observation(), table.rewards(me)[me], True, False, info
        self._play_opponents()
        over = not table.to_act
        reward = 0.0
        if self.shaping is not None:
            assert table.match is not None
            reward += self.shaping.collect(table.match.state, [me], over)[me]
        if over:
            reward += table.rewards()[me]
        return self._observation(), reward, over, False, self._info()

    def _play_opponents(self) -> None:
        """Let the opponents act until the learner is to act alone or the match is over."""
        table = self.table
        me = self.seat
        while others := sorted(s for s in table.to_act if s != me):
            for s in others:
                if s in table.to_act:
                    index = self._choose(s)
                    if not table.act(s, index, None):
                        raise IllegalAction(f"the opponent of seat {s} chose action {index}, "
                                            f"which is not legal")

    def _choose(self, seat: Seat) -> int:
        table = self.table
        match = table.match
        assert match is not None
        bot = self._bots.get(seat)
        player = self.opponents[seat]
        if bot is None and isinstance(player, Bot):
            bot = player
        if bot is not None:
            return int(bot.choose(table.game, match.view(seat), seat, None).index)
        assert callable(player)
        return int(player(table.encoder.encode(match.state, seat), table.mask(seat)))

    # ---- what the learner reads -------------------------------------------------------------
    def _observation(self) -> Vector:
        assert self.table.match is not None  # a copy: Gymnasium lets callers keep each one
        return self.table.observe(self.seat)["observation"].copy()

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"seat": self.seat, "action_mask": self.action_masks()}
        match = self.table.match
        assert match is not None
        outcome = match.outcome
        if outcome is not None:
            info["scores"] = outcome.scores
            info["won"] = outcome.ranks[self.seat] == 1
        return info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions now, as bools (all False once the match is over)."""
        return self.table.mask(self.seat).astype(bool)

    def render(self) -> Any:
        """The spectator's view as the PettingZoo env draws it in ``render_mode`` (text,
        an RGB array, or a window), None without a render mode."""
        return self.table.render(self.render_mode, self.window)

    def _close_bots(self) -> None:
        for bot in self._bots.values():
            bot.close()
        self._bots = {}

    def close(self) -> None:
        self._close_bots()
        if self.window is not None:
            self.window.close()


def make(
    game: str | Game[Any, Any], *, players: int | None = None, opponents: Opponents = "greedy",
    seat: str | int = "random", reward: str | Reward = "win", render_mode: str | None = None,
    illegal: str = "lose", **options: object,
) -> BotEnv:
    """The single-agent environment of ``game`` (a registry name or a Game) against
    ``opponents``; every other keyword is a game option (``ludoteca games`` lists them)."""
    return BotEnv(game, players=players, opponents=opponents, seat=seat, reward=reward,
                  render_mode=render_mode, illegal=illegal, **options)
