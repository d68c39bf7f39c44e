"""Every game as a PettingZoo environment (DESIGN.md §5; docs/rl.md).

``env(game, **options)`` is an AEC environment; ``parallel_env(game, **options)`` the same match
through the Parallel API (natural for Buttons, whose dice answers are simultaneous; it works for
every game, the seats not to act being ignored). Both drive a ``Match`` (engine/match.py), the
one loop that advances a game, with ``narrate=False``: no events are built.

- Agents ``player_0`` .. ``player_{n-1}`` are the seats.
- Observations: ``{"observation": Box(0, 1, (size,), float32), "action_mask": Box(0, 1,
  (num_actions,), int8)}``. The vector encodes exactly what that seat may know
  (``ludoteca.rl.encode``); the mask marks its legal actions now, all zero when it is not to act.
- Actions: ``Discrete(num_actions)``, the game's stable action indices (``action.index``).
- Rewards (``reward="win"``, the default): 0 until the end; then per side (a team shares one,
  Kami/Goita's partnerships and Queendomino's teams) ``(sides ranked below - sides ranked
  above) / (sides - 1)``: +1 win, -1 loss, 0 tie with two sides; spread evenly between +1 and
  -1 with more. ``reward="margin"`` pays the final score margin instead, ``"shaped"`` adds
  potential-based shaping on the score margin (``ludoteca/rl/rewards.py``).
- An action outside the mask ends the episode with -1 for the offender's side and 0 for the
  others (PettingZoo's classic convention), or raises ``IllegalAction`` with ``illegal="raise"``.
- ``reset(seed=s)`` deals the match with engine seed ``s``: the same seed and actions give the
  same episode. A reset without a seed takes the next seed from a generator seeded by the last
  seed given (from the OS at first).
- Simultaneous steps (Buttons): AEC lets the deciding seats act one after the other, lowest seat
  first; each answers the decision it was shown (its ``seq``), which the match accepts after
  others answered, and a seat's observation does not change while others answer. The Parallel
  API takes all their answers at once.
- ``render_mode``: ``"ansi"`` returns the game's terminal renderer drawing the spectator's
  view as plain text, ``"rgb_array"`` the game's picture of it (an H×W×3 uint8 array),
  ``"human"`` shows that picture in a window (or prints the text without a display); public
  information only (``ludoteca.rl.render``).
"""

from __future__ import annotations

import operator
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]  # no py.typed

from ludoteca.engine.errors import IllegalAction, OptionError
from ludoteca.engine.game import Game, Seat
from ludoteca.engine.match import Match
from ludoteca.rl.encode import Encoder, encoder_factory
from ludoteca.rl.render import Window, check_mode, modes, picture, text
from ludoteca.rl.rewards import Reward, Rewarder, Shaping, sides_of

AgentID = str
Obs = dict[str, npt.NDArray[Any]]
Mask = npt.NDArray[np.int8]
ILLEGAL_MODES = ("lose", "raise")


class _Table:
    """What the AEC and Parallel environments share: the game, its encoder and spaces, the
    match, and the per-step caches of masks and observations."""

    def __init__(
        self, game: str | Game[Any, Any], players: int | None, illegal: str, checked: bool,
        options: Mapping[str, object], reward: str | Reward = "win",
    ) -> None:
        from ludoteca.games import get_game

        self.game: Game[Any, Any] = get_game(game) if isinstance(game, str) else game
        spec = self.game.spec
        self.players = spec.min_players if players is None else players
        self.options = self.game.validate(options, self.players)
        if illegal not in ILLEGAL_MODES:
            raise OptionError(f"illegal must be one of {', '.join(ILLEGAL_MODES)}, not {illegal!r}")
        self.illegal = illegal
        self.checked = checked
        self.rewarder = Rewarder(self.game, reward)
        self.shaping: Shaping | None = None
        self._paid_at: dict[Seat, int | None] = {}
        """Per seat, the decision its last shaping term was paid at."""
        self.encoder: Encoder = encoder_factory(self.game)(
            self.game, self.options, self.players)
        self.num_actions = spec.num_actions
        self.agent_names = [f"player_{i}" for i in range(self.players)]
        self.seat_of = {name: i for i, name in enumerate(self.agent_names)}
        self.obs_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, self.encoder.shape, np.float32),
                "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
            })
            for a in self.agent_names
        }
        self.act_spaces = {a: spaces.Discrete(self.num_actions) for a in self.agent_names}
        self.seeds = random.Random()
        self.match: Match | None = None
        self.side_of: list[int] = list(range(self.players))
        self.to_act: frozenset[Seat] = frozenset()
        """The seats to act now (kept as the match moves: every move goes through ``act``)."""
        self.no_actions: Mask = np.zeros(self.num_actions, dtype=np.int8)
        self._masks: dict[Seat, Mask] = {}
        self._legal: dict[Seat, bytearray] = {}
        """The bytes under each mask of ``_masks`` (read by ``act``: cheaper than numpy)."""
        self._obs: dict[Seat, Obs] = {}
        """This decision point's masks and observations by seat, cleared at every move."""
        self._actions: dict[int, Any] = {}
        """Actions by index, as ``action_from_index`` gives them (shared immutable values)."""

    def deal(self, seed: int | None) -> Match:
        if seed is not None:
            seed = operator.index(seed)  # numpy integers too
            self.seeds = random.Random(seed)
        else:
            seed = self.seeds.getrandbits(63)
        match = Match.new(self.game, self.options, self.players, seed, narrate=False)
        self.match = match
        self.to_act = match.to_act()
        self._masks.clear()
        self._legal.clear()
        self._obs.clear()
        self.side_of = sides_of(self.game, match.state, self.players)
        if self.rewarder.shaped:
            self.shaping = Shaping(self.rewarder, self.side_of)
            self.shaping.start(match.state)
            self._paid_at = {s: match.decision(s) for s in self.to_act}
        return match

    def mask(self, seat: Seat) -> Mask:
        """``seat``'s legal actions now as 0/1 (``Game.legal_indices``: no action objects are
        built), once per decision point, and only when asked for (``observe``,
        ``action_mask``, or a step checking its action). Written byte
        by byte into a new buffer that becomes the array (numpy's fancy indexing costs more
        than the few writes): a new array at every move, so a mask handed out never changes,
        and nothing else is allocated."""
        mask = self._masks.get(seat)
        if mask is None:
            raw = self._legal[seat] = bytearray(self.num_actions)
            if seat in self.to_act:
                assert self.match is not None
                for i in self.game.legal_indices(self.match.state, seat):
                    raw[i] = 1
            mask = self._masks[seat] = np.frombuffer(raw, dtype=np.int8)
        return mask

    def observe(self, seat: Seat) -> Obs:
        got = self._obs.get(seat)
        if got is None:
            assert self.match is not None
            got = self._obs[seat] = {"observation": self.encoder.encode(self.match.state, seat),
                                     "action_mask": self.mask(seat)}
        return got

    def act(self, seat: Seat, action: Any, seq: int | None) -> bool:
        """Apply ``seat``'s action index through the match; False if it was not legal (and
        ``illegal`` is "lose"). ``seq`` is the decision the seat answers: with ``checked`` the
        match checks it and the action again (``Match.step``); otherwise the mask of the
        current decision has checked the action and the trusted path applies it."""
        match = self.match
        assert match is not None
        if type(action) is int:
            index = action
        else:
            try:
                index = operator.index(action)  # a numpy integer too, never a float
            except TypeError:
                index = -1
        legal = self._legal.get(seat)
        if legal is None:
            self.mask(seat)
            legal = self._legal[seat]
        if not 0 <= index < self.num_actions or not legal[index]:
            if self.illegal == "raise":
                raise IllegalAction(
                    f"action {action!r} is not legal for player_{seat} now "
                    f"(legal: {np.flatnonzero(self.mask(seat)).tolist()})")
            return False
        action_of = self._actions.get(index)
        if action_of is None:
            action_of = self._actions[index] = self.game.action_from_index(index)
        if self.checked:
            match.step(seat, action_of, seq)
            self.to_act = match.to_act()
        else:
            self.to_act = match.step_trusted(seat, action_of)
        self._masks.clear()
        self._legal.clear()
        self._obs.clear()
        return True

    def rewards(self, offender: Seat | None = None) -> list[float]:
        """Final rewards: the outcome's, or -1 for the offender's side and 0 for the rest."""
        if offender is not None:
            side = self.side_of[offender]
            return [-1.0 if s == side else 0.0 for s in self.side_of]
        assert self.match is not None
        outcome = self.match.outcome
        assert outcome is not None
        return self.rewarder.final(outcome, self.match.state)

    def shaping_terms(self) -> dict[Seat, float]:
        """With ``reward="shaped"``: the shaping term each seat earns now, one that reached a
        new decision since its last term (every seat at the end); empty otherwise."""
        shaping, match = self.shaping, self.match
        if shaping is None or match is None:
            return {}
        if not self.to_act:
            return shaping.collect(match.state, range(self.players), True)
        fresh = [s for s in sorted(self.to_act) if match.decision(s) != self._paid_at.get(s)]
        for s in fresh:
            self._paid_at[s] = match.decision(s)
        return shaping.collect(match.state, fresh, False)

    def render(self, mode: str | None = "ansi", window: Window | None = None) -> Any:
        """What ``render()`` returns in ``mode`` (text by default), from the spectator's view
        (public only); ``human`` shows it in ``window`` (a new one if none is given)."""
        if mode is None:
            return None
        assert self.match is not None, "reset() before render()"
        view = self.match.view(None)
        if mode == "ansi":
            return text(self.game, view)
        if mode == "rgb_array":
            return picture(self.game, view)
        (window or Window()).show(self.game, view)
        return None


class _TableSpaces:
    """The spaces both environments read off their ``_Table``."""

    table: _Table

    def observation_space(self, agent: AgentID) -> spaces.Space[Any]:
        return self.table.obs_spaces[agent]

    def action_space(self, agent: AgentID) -> spaces.Space[Any]:
        return self.table.act_spaces[agent]


def _metadata(table: _Table) -> dict[str, Any]:
    return {"name": f"ludoteca_{table.game.spec.name}_v0", "render_modes": modes(table.game)}


class LudotecaEnv(_TableSpaces, AECEnv[AgentID, Obs, int]):  # type: ignore[misc]  # untyped
    """A Ludoteca game as a PettingZoo AEC environment (module docstring)."""

    def __init__(
        self, game: str | Game[Any, Any], render_mode: str | None = None, *,
        players: int | None = None, illegal: str = "lose", checked: bool = False,
        reward: str | Reward = "win", **options: object,
    ) -> None:
        super().__init__()
        self.table = _Table(game, players, illegal, checked, options, reward)
        self.render_mode = check_mode(render_mode)
        self.window = Window() if render_mode == "human" else None
        self.metadata = {**_metadata(self.table), "is_parallelizable": False}
        self.possible_agents = list(self.table.agent_names)
        self.agents: list[AgentID] = []

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match dealt from ``seed`` (game options are fixed when the env is made)."""
        self.table.deal(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[AgentID, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        if self.table.to_act:
            self.agent_selection = self._next_agent()
            return
        # the deal itself ended the match (Goita: partners dealt five Shi between them): every
        # agent is done at once, with the outcome's rewards, and only steps with None remain
        self.agent_selection = self.agents[0]
        rewards = self.table.rewards()
        for i, name in enumerate(self.agents):
            self.rewards[name] = rewards[i]
            self.terminations[name] = True
        self._accumulate_rewards()

    def _next_agent(self) -> AgentID:
        return self.table.agent_names[min(self.table.to_act)]

    def observe(self, agent: AgentID) -> Obs:
        return self.table.observe(self.table.seat_of[agent])

    def last(self, observe: bool = True) -> tuple[Obs | None, float, bool, bool, dict[str, Any]]:
        """``AECEnv.last`` with one call less per step."""
        agent = self.agent_selection
        table = self.table
        return (table.observe(table.seat_of[agent]) if observe else None,
                self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def action_mask(self, agent: AgentID) -> Mask:
        """The agent's action mask alone (``observe(agent)["action_mask"]`` without encoding
        the observation): for scripted or random opponents that read nothing else."""
        return self.table.mask(self.table.seat_of[agent])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        match = table.match
        assert match is not None
        seat = table.seat_of[agent]
        # with "win" and "margin", rewards stay 0 until the end: nothing to reset or add
        legal = table.act(seat, action, match.decision(seat) if table.checked else None)
        shaped = table.shaping_terms() if legal and table.shaping is not None else {}
        if table.shaping is not None:  # this agent collected its terms with ``last``
            self._cumulative_rewards[agent] = 0.0
            self._clear_rewards()
            for s, term in shaped.items():
                self.rewards[table.agent_names[s]] = term
        if legal and table.to_act:
            self.agent_selection = table.agent_names[min(table.to_act)]
            if shaped:
                self._accumulate_rewards()
            return
        rewards = table.rewards(None if legal else seat)
        for i, name in enumerate(self.agents):
            self.rewards[name] = rewards[i] + shaped.get(i, 0.0)
            self.terminations[name] = True
        if not legal:
            self.infos[agent] = {"illegal_action": action}
        self._accumulate_rewards()

    def render(self) -> Any:
        """Text (``ansi``), an H×W×3 uint8 picture (``rgb_array``), or None (``human``: shown,
        or printed without a display; no render mode: nothing)."""
        return self.table.render(self.render_mode, self.window)

    def close(self) -> None:
        """Closes the window of ``render_mode="human"``, if one was opened."""
        if self.window is not None:
            self.window.close()


class LudotecaParallelEnv(_TableSpaces, ParallelEnv[AgentID, Obs, int]):  # type: ignore[misc]  # untyped
    """A Ludoteca game through PettingZoo's Parallel API: each ``step`` takes the answers of
    every seat to act now (Buttons' simultaneous dice answers all at once); actions of seats
    not to act are ignored, and a seat to act left out of the dict keeps its decision open.
    Observations, spaces, rewards, seeding and illegal actions are the AEC env's."""

    def __init__(
        self, game: str | Game[Any, Any], render_mode: str | None = None, *,
        players: int | None = None, illegal: str = "lose", checked: bool = False,
        reward: str | Reward = "win", **options: object,
    ) -> None:
        self.table = _Table(game, players, illegal, checked, options, reward)
        self.render_mode = check_mode(render_mode)
        self.window = Window() if render_mode == "human" else None
        self.metadata = _metadata(self.table)
        self.possible_agents = list(self.table.agent_names)
        self.agents: list[AgentID] = []

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[AgentID, Obs], dict[AgentID, dict[str, Any]]]:
        self.table.deal(seed)
        self.agents = list(self.possible_agents)
        return self._observations(), {a: {} for a in self.agents}

    def _observations(self) -> dict[AgentID, Obs]:
        table = self.table
        return {a: table.observe(table.seat_of[a]) for a in self.agents}

    def step(self, actions: dict[AgentID, int]) -> tuple[
        dict[AgentID, Obs], dict[AgentID, float], dict[AgentID, bool], dict[AgentID, bool],
        dict[AgentID, dict[str, Any]],
    ]:
        table = self.table
        match = table.match
        assert match is not None
        agents = self.agents
        deciding = [(s, match.decision(s)) for s in sorted(match.to_act())]
        for seat in [s for s, _ in deciding]:
            table.mask(seat)  # every answer is checked against the moment it was given
        offender: Seat | None = None
        for seat, seq in deciding:
            name = table.agent_names[seat]
            if name not in actions:
                continue
            if match.decision(seat) != seq:
                continue  # another answer changed this seat's decision: it is asked again
            if not table.act(seat, actions[name], seq):
                offender = seat
                break
        infos: dict[AgentID, dict[str, Any]] = {a: {} for a in agents}
        over = offender is not None or match.is_over()
        shaped = table.shaping_terms() if offender is None else {}
        if over:
            rewards = table.rewards(offender)
            reward = {a: rewards[table.seat_of[a]] for a in agents}
            if offender is not None:
                name = table.agent_names[offender]
                infos[name]["illegal_action"] = actions[name]
        else:
            reward = dict.fromkeys(agents, 0.0)
        for s, term in shaped.items():
            reward[table.agent_names[s]] += term
        obs = self._observations()
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, False)
        if over:
            self.agents = []
        return obs, reward, terminations, truncations, infos

    def render(self) -> Any:
        """Text (``ansi``), an H×W×3 uint8 picture (``rgb_array``), or None (``human``: shown,
        or printed without a display; no render mode: nothing)."""
        return self.table.render(self.render_mode, self.window)

    def close(self) -> None:
        """Closes the window of ``render_mode="human"``, if one was opened."""
        if self.window is not None:
            self.window.close()


def env(
    game: str | Game[Any, Any], render_mode: str | None = None, *, players: int | None = None,
    illegal: str = "lose", checked: bool = False, reward: str | Reward = "win",
    **options: object,
) -> LudotecaEnv:
    """The AEC environment of ``game`` (a registry name or a Game). ``players=`` sets the player
    count (default: the game's least), ``illegal=`` "lose" (default) or "raise", ``checked=True``
    applies actions through ``Match.step`` with every check (slower; the default applies an
    action the mask allows on the trusted path), ``reward=`` "win" (default), "margin",
    "shaped" or a ``rewards.Reward``, and every other keyword is a game option (``ludoteca
    games`` lists them), validated here."""
    return LudotecaEnv(game, render_mode, players=players, illegal=illegal, checked=checked,
                       reward=reward, **options)


def parallel_env(
    game: str | Game[Any, Any], render_mode: str | None = None, *, players: int | None = None,
    illegal: str = "lose", checked: bool = False, reward: str | Reward = "win",
    **options: object,
) -> LudotecaParallelEnv:
    """The Parallel API environment of ``game``; the same keywords as ``env``."""
    return LudotecaParallelEnv(game, render_mode, players=players, illegal=illegal,
                               checked=checked, reward=reward, **options)
