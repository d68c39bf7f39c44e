"""The vector environments on the native core (docs/rl.md, "On the native core"):
``self_play(..., core="native")`` and ``make_vec(..., core="native")``.

Same spaces, same Gymnasium vector API, same infos and same seeding as ``vector.py``'s Python
environments; the matches live in a native ``Batch`` (docs/engine.md, "The native core") that
steps them and writes observations, masks and rewards into arrays allocated once.

- Self-play is the Python env step for step: slot ``i`` is dealt from seed ``s + i`` and its
  later matches from ``random.Random(s + i)``'s 63-bit draws, as ``_Table.deal`` does, so the
  same seed and actions give the same observations, masks, rewards and episode ends
  (``tests/rl/test_native_vector.py``).
- Against bots, every slot is a ``Batch`` of one match (a batch steps all its matches, and
  opponents move in some slots while others wait for the learner), its opponents drawn by the
  native ``sample``: the bot levels a game's core lists in ``batch_policies()`` (``random``,
  and ``greedy`` where the core has the greedy evaluator). The deal, the learner's seat and the
  mixture draws come from the slot's generator in ``BotEnv``'s order, so they are the Python
  env's; the opponents' own choices draw from the slot's native generator instead.
- Rewards: self-play the ``win`` reward only; against bots every scheme (``win``, ``margin``,
  ``shaped``): the native core writes the win reward, and the margin and the shaping terms are
  computed here from the scores the ``Batch`` reports (``Batch.scores``, the game's
  ``scores_now``) by ``rewards.py``'s formulas, as ``BotEnv`` pays them.

A game plugs in through its registry entry's ``native`` module: ``batch(options, players, size,
seed)`` and ``batch_policies()`` (``ludoteca/engine/registry.py``). Its ``Batch`` must have one
seat to act per match (-1 once over; the lowest of several), as every native game's does.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils.seeding import np_random
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ludoteca.bots import level_name
from ludoteca.engine.errors import IllegalAction, OptionError
from ludoteca.engine.game import Game
from ludoteca.engine.native import CoreUnavailable, chosen_core, native_core
from ludoteca.engine.registry import resolve
from ludoteca.rl.encode import encoder
from ludoteca.rl.rewards import Reward, Rewarder, margins, reward_of, sides_of
from ludoteca.rl.slots import slot_count, slot_seeds

log = logging.getLogger("ludoteca.rl")

CORES = ("python", "native", "auto")
SEEDS = 1 << 63
Batch = npt.NDArray[np.float32]
Masks = npt.NDArray[np.bool_]
Step = tuple[Batch, npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], dict[str, Any]]


def _game(game: str | Game[Any, Any]) -> Game[Any, Any]:
    from ludoteca.games import get_game

    return get_game(game) if isinstance(game, str) else game


def _core(game: Game[Any, Any]) -> Any:
    """The game's native module if it has a ``Batch`` (else None)."""
    from ludoteca.games import entry

    ref = entry(game.spec.name).native
    found = resolve(ref) if ref else None
    return found if found is not None and hasattr(found, "batch") else None


def _levels(opponents: Any) -> list[Any]:
    """Every opponent named in a spec (a level, a mixture, or a list of them)."""
    if isinstance(opponents, Sequence) and not isinstance(opponents, str):
        return [x for o in opponents for x in _levels(o)]
    if isinstance(opponents, Mapping):
        return list(opponents)
    return [opponents]


def why_not_native(game: str | Game[Any, Any], reward: str | Reward,
                   opponents: Any = None) -> str | None:
    """Why the native core cannot run these environments (None: it can), the native core not
    being installed (or built before the game was native) among the reasons. ``opponents``
    None asks for self-play, which takes the ``win`` reward only; against bots the ``margin``
    and ``shaped`` rewards are computed from the native scores."""
    g = _game(game)
    core = _core(g)
    if core is None:
        return f"{g.spec.name} has no native Batch"
    kind = reward_of(reward).kind
    if kind != "win" and opponents is None:
        return f"native self-play computes the 'win' reward only, not {kind!r}"
    try:
        playable = core.batch_policies()
    except CoreUnavailable as exc:  # not installed, or built before the game was native
        return str(exc)
    if opponents is not None:
        for o in _levels(opponents):
            name = level_name(o) if isinstance(o, str) else None
            if name not in playable:
                return (f"the native core plays the opponents {', '.join(playable)} for "
                        f"{g.spec.name}, not {o!r}")
    return None


def use_native(core: str, game: str | Game[Any, Any], reward: str | Reward,
               opponents: Any = None) -> bool:
    """``core=`` decided: ``"python"`` never, ``"native"`` always (``CoreUnavailable`` when
    the native core is not installed, ``OptionError`` saying why when it cannot run these
    environments), ``"auto"`` where it is chosen (``LUDOTECA_CORE``) and can run them."""
    if core not in CORES:
        raise OptionError(f"core must be one of {', '.join(CORES)}, not {core!r}")
    if core == "python":
        return False
    if core == "native":
        native_core()
    elif chosen_core() != "native":
        return False
    why = why_not_native(game, reward, opponents)
    if why is None:
        return True
    if core == "native":
        raise OptionError(f"core='native': {why} (core='python' or 'auto' plays in Python)")
    log.info("vector env on the Python core: %s", why)
    return False


def _exact(reward: float, players: int) -> float:
    """A ``win`` reward the native core wrote as float32, as the Python float it stands for:
    a fraction (ranks below - ranks above) / (sides - 1) with at most ``players`` sides, so
    the nearest fraction of a denominator up to ``players`` is it (1/3, not 0.33333334)."""
    return float(Fraction(reward).limit_denominator(players)) if reward else 0.0


def _actions(actions: Any, n: int, num_actions: int) -> npt.NDArray[np.int64]:
    """The batch of action indices as int64, refusing what no index is (a float, a wrong
    shape) and any index out of range (the native core reads them as C ints)."""
    acts = np.asarray(actions)
    if acts.shape != (n,) or acts.dtype.kind not in "iu":
        raise IllegalAction(f"actions must be {n} integer indices, not {actions!r}")
    if n and (acts.min() < 0 or acts.max() >= num_actions):
        raise IllegalAction(f"an action index is outside 0..{num_actions - 1}: {actions!r}")
    return acts.astype(np.int64, copy=False)


class _Base(VectorEnv[Batch, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """The spaces, buffers and shared reading of a native vector env."""

    def __init__(self, game: str | Game[Any, Any], num_envs: int, players: int | None,
                 copy: bool, options: Mapping[str, object]) -> None:
        self.num_envs = n = slot_count(num_envs)
        self.game = _game(game)
        self.players = self.game.spec.min_players if players is None else players
        self.options = self.game.validate(options, self.players)
        self.native = _core(self.game)
        shape = encoder(self.game, self.options, self.players).shape
        self.num_actions = self.game.spec.num_actions
        self.copy = copy
        self.single_observation_space = spaces.Box(0.0, 1.0, shape, np.float32)
        self.single_action_space = spaces.Discrete(self.num_actions)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        self.metadata = {"autoreset_mode": AutoresetMode.SAME_STEP,
                         "name": f"ludoteca_{self.game.spec.name}_v0", "core": "native"}
        self._obs = np.zeros((n, *shape), np.float32)
        self._masks = np.zeros((n, self.num_actions), np.uint8)
        self._rewards = np.zeros((n, self.players), np.float32)
        self._dones = np.zeros(n, np.uint8)
        self._seats = np.zeros(n, np.int32)
        self._acts = np.zeros(n, np.int64)
        self._slots = np.arange(n)

    def _out(self) -> Batch:
        """The observations written into ``_obs``, copied out unless ``copy`` is off."""
        return self._obs.copy() if self.copy else self._obs

    def action_masks(self) -> Masks:
        """The legal actions of the seat asked in each slot, ``(num_envs, num_actions)``."""
        return self._masks.astype(np.bool_)

    def _final(self, state: Any, seat: int) -> tuple[Batch, tuple[int, ...], tuple[int, ...]]:
        """A finished match's observation for ``seat``, its scores and ranks."""
        obs = np.empty(self.single_observation_space.shape or (), np.float32)
        state.observe(seat, obs)
        scores, ranks, _ = state.outcome()
        return obs, tuple(int(s) for s in scores), tuple(int(r) for r in ranks)

    @staticmethod
    def _mask_row(state: Any, row: npt.NDArray[np.uint8]) -> None:
        row[:] = 0
        row[state.legal_indices(state.to_act())] = 1


class NativeSelfPlayVectorEnv(_Base):
    """``SelfPlayVectorEnv`` on a native ``Batch`` (module docstring): the same streams."""

    def __init__(self, game: str | Game[Any, Any], num_envs: int, *, players: int | None = None,
                 reward: str | Reward = "win", copy: bool = True, **options: object) -> None:
        use_native("native", game, reward)
        super().__init__(game, num_envs, players, copy, options)
        self.batch = self.native.batch(self.options, self.players, self.num_envs, 0)
        self.seeds = [random.Random() for _ in range(self.num_envs)]
        """Each slot's generator of deal seeds, as ``_Table.seeds``."""

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Batch, dict[str, Any]]:
        deals = np.zeros(self.num_envs, np.uint64)
        for i, s in enumerate(slot_seeds(seed, self.num_envs)):
            if s is not None:
                self.seeds[i] = random.Random(s)
                deals[i] = s & ((1 << 64) - 1)
            else:
                deals[i] = self.seeds[i].getrandbits(63)
        batch = self.batch
        batch.reset(deals)
        batch.to_act(self._seats)
        for over in np.flatnonzero(self._seats < 0):  # over at the deal (Goita): deal again
            self._redeal(int(over))
        batch.to_act(self._seats)
        batch.masks(self._masks)
        return self._observe(), {"seat": self._seats.astype(np.int64)}

    def _observe(self) -> Batch:
        """Every slot's observation, written by the native core straight into the array handed
        out: a new one with ``copy`` (no copy made: a fresh array costs less than copying), the
        env's own otherwise."""
        obs = np.empty_like(self._obs) if self.copy else self._obs
        self.batch.observe(self._seats, obs)
        return obs

    def _redeal(self, i: int) -> Any:
        """Deal slot ``i`` its next match (again while one ends at its deal); its state."""
        while True:
            self.batch.reset_one(i, self.seeds[i].getrandbits(63))
            state = self.batch.state(i)
            if state.to_act() >= 0:
                return state

    def step(self, actions: Any) -> Step:
        n = self.num_envs
        acts = _actions(actions, n, self.num_actions)
        acted = self._seats.astype(np.int64)
        batch = self.batch
        try:
            batch.step(acts, self._masks, self._rewards, self._dones)
        except ValueError as exc:  # checked before any match moved
            raise IllegalAction(str(exc)) from None
        every = self._rewards.astype(np.float64)
        terminated = self._dones.astype(np.bool_)
        infos: dict[str, Any] = {"acted": acted, "rewards": every}
        if terminated.any():
            final_obs = np.full(n, None, dtype=object)  # np.array(list) would read
            final_info = np.full(n, None, dtype=object)  # every value of every array
            for i in np.flatnonzero(terminated):
                every[i] = [_exact(r, self.players) for r in every[i]]
                final_obs[i], scores, _ = self._final(batch.state(i), int(acted[i]))
                final_info[i] = {"scores": scores, "rewards": every[i].copy()}
                self._mask_row(self._redeal(int(i)), self._masks[i])
            infos.update(final_obs=final_obs, _final_obs=terminated, final_info=final_info,
                         _final_info=terminated)
        batch.to_act(self._seats)
        obs = self._observe()
        infos["seat"] = self._seats.astype(np.int64)
        rewards = every[self._slots, acted]
        return obs, rewards, terminated, np.zeros(n, np.bool_), infos


class NativeBotVectorEnv(_Base):
    """``BotVectorEnv`` on the native core (module docstring): one ``Batch`` of one match per
    slot, the opponents played by its ``sample``."""

    def __init__(
        self, game: str | Game[Any, Any], num_envs: int, *, players: int | None = None,
        opponents: Any = "greedy", seat: str | int = "random", reward: str | Reward = "win",
        copy: bool = True, trace: bool = False, **options: object,
    ) -> None:
        from ludoteca.rl.gym import _Mixture, per_seat, seat_choice

        use_native("native", game, reward, opponents)
        super().__init__(game, num_envs, players, copy, options)
        self.seat_choice = seat_choice(seat, self.players)
        self._specs = [_Mixture(o) if isinstance(o, Mapping) else o
                       for o in per_seat(opponents, self.players - 1)]
        self._policy = {name: number for name, number in self.native.batch_policies().items()}
        n = self.num_envs
        self.batches = [self.native.batch(self.options, self.players, 1, 0) for _ in range(n)]
        self.rngs = [np_random(None)[0] for _ in range(n)]
        """Each slot's generator, drawn from as ``BotEnv``'s ``np_random``."""
        self.seat = np.zeros(n, np.int64)
        """The learner's seat in each slot's current match."""
        self.deals = [0] * n
        """The engine seed each slot's current match was dealt from."""
        self.opponents: list[dict[int, str]] = [{} for _ in range(n)]
        """Each slot's opponent level by seat in its current match."""
        self._plays: list[dict[int, int]] = [{} for _ in range(n)]
        self.traces: list[list[tuple[int, int]]] | None = [[] for _ in range(n)] if trace \
            else None
        """With ``trace=True`` (tests, debugging): the (seat, action) applied in each slot's
        current match, and the finished match's in its ``final_info["trace"]``."""
        self._rows = [(self._acts[i:i + 1], self._masks[i:i + 1], self._rewards[i:i + 1],
                       self._dones[i:i + 1], self._seats[i:i + 1], self._obs[i:i + 1])
                      for i in range(n)]
        self.rewarder = Rewarder(self.game, reward)
        self._scale = 1.0
        self._side_of = list(range(self.players))
        if self.rewarder.scores_now is not None:  # the scale and the sides are the options'
            first = self.game.start(self.options, self.players, 0)
            self._scale = self.rewarder.scores_now(first)[1]
            self._side_of = sides_of(self.game, first, self.players)
        self._scores = np.zeros((1, self.players), np.int32)
        self.potential = np.zeros(n, np.float64)
        """With ``reward="shaped"``: the learner's shaping potential (its side's scaled score
        margin) at its last decision in each slot, where its next term starts."""

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Batch, dict[str, Any]]:
        for i, s in enumerate(slot_seeds(seed, self.num_envs)):
            if s is not None:
                self.rngs[i] = np_random(s)[0]
            self._start(i, s)
        return self._out(), {"seat": self.seat.copy()}

    def _start(self, i: int, seed: int | None) -> None:
        """Deal slot ``i`` a match, as ``BotEnv.reset`` does, up to the learner's decision."""
        rng = self.rngs[i]
        deal = seed if seed is not None else int(rng.integers(SEEDS))
        while True:
            if self._deal(i, deal, rng):
                break
            deal = int(rng.integers(SEEDS))  # over before the learner's first decision
        _, masks, _, _, seats, obs = self._rows[i]
        self.batches[i].masks(masks)
        self.batches[i].observe(seats, obs)
        if self.rewarder.shaped:
            self.potential[i] = self._margin(i)

    def _margin(self, i: int) -> float:
        """The learner's side's score margin now in slot ``i``, scaled (``rewards.margins``
        on the native ``scores_now``)."""
        self.batches[i].scores(self._scores)
        return margins(self._scores[0], self._side_of, self._scale)[int(self.seat[i])]

    def _reward(self, i: int, me: int, over: bool, win: float, scores: tuple[int, ...]) -> float:
        """The learner's reward for its step in slot ``i``: ``BotEnv``'s, the shaping term
        (``gamma * phi(now) - phi(last decision)``, ``phi`` 0 at the end) plus at the end the
        win reward, or the clipped final margin (``Rewarder.final``)."""
        r = 0.0
        if self.rewarder.shaped:
            now = 0.0 if over else self._margin(i)
            r += self.rewarder.gamma * now - self.potential[i]
            self.potential[i] = now
        if over:
            if self.rewarder.kind == "margin":
                m = margins(scores, self._side_of, self._scale)[me]
                r += max(-1.0, min(1.0, m))
            else:
                r += win
        return r

    def _deal(self, i: int, deal: int, rng: np.random.Generator) -> bool:
        """``BotEnv._deal``'s draws, in its order; whether the learner is then to act."""
        players = self.players
        me = int(rng.integers(players)) if self.seat_choice == "random" \
            else int(self.seat_choice)
        chooser = None
        plays: dict[int, int] = {}
        names: dict[int, str] = {}
        for k, spec in enumerate(self._specs, start=1):
            s = (me + k) % players
            name = spec.draw(rng) if not isinstance(spec, str) else spec
            bot_seed = int(rng.integers(2**31))  # BotEnv seeds each level's bot with it
            chooser = bot_seed if chooser is None else chooser
            names[s] = str(name)
            plays[s] = self._policy[level_name(str(name))]
        self.seat[i] = me
        self.opponents[i] = names
        self._plays[i] = plays
        batch = self.batches[i] = self.native.batch(self.options, self.players, 1, chooser or 0)
        batch.reset_one(0, deal & ((1 << 64) - 1))
        self.deals[i] = deal
        if self.traces is not None:
            self.traces[i] = []
        return self._play_opponents(i) == me

    def _play_opponents(self, i: int) -> int:
        """Let slot ``i``'s opponents act until its learner is to act or the match is over:
        the seat to act then (-1 once over)."""
        acts, masks, rewards, dones, seats, _ = self._rows[i]
        batch = self.batches[i]
        me = int(self.seat[i])
        plays = self._plays[i]
        trace = self.traces[i] if self.traces is not None else None
        batch.to_act(seats)
        while (s := int(seats[0])) >= 0 and s != me:
            batch.sample(plays[s], acts)
            if trace is not None:
                trace.append((s, int(acts[0])))
            batch.step(acts, masks, rewards, dones)
            batch.to_act(seats)
        return s

    def step(self, actions: Any) -> Step:
        n = self.num_envs
        acts = _actions(actions, n, self.num_actions)
        rewards = np.zeros(n, np.float64)
        terminated = np.zeros(n, np.bool_)
        final_obs: Any = None
        final_info: Any = None
        for i in range(n):
            me = int(self.seat[i])
            action = int(acts[i])
            act, masks, reward, done, seats, obs = self._rows[i]
            batch = self.batches[i]
            info: dict[str, Any] = {"seat": me}
            if not masks[0, action]:  # illegal="lose", as BotEnv: -1, the episode ends
                over, r = True, -1.0
                info.update(action_mask=masks[0].astype(np.bool_), illegal_action=action)
            else:
                act[0] = action
                if self.traces is not None:
                    self.traces[i].append((me, action))
                batch.step(act, masks, reward, done)
                over = bool(done[0]) or self._play_opponents(i) < 0
                r = _exact(float(reward[0, me]), self.players)
            if not over:
                if self.rewarder.kind != "win":
                    rewards[i] = self._reward(i, me, False, 0.0, ())
                batch.observe(seats, obs)
                continue
            if final_obs is None:
                final_obs = np.full(n, None, dtype=object)
                final_info = np.full(n, None, dtype=object)
            if "illegal_action" in info:
                final_obs[i] = obs[0].copy()  # the match did not move
            else:
                final_obs[i], scores, ranks = self._final(batch.state(0), me)
                info.update(action_mask=np.zeros(self.num_actions, np.bool_), scores=scores,
                            won=ranks[me] == 1)
                r = self._reward(i, me, True, r, scores)
            if self.traces is not None:
                info["trace"] = self.traces[i]
            final_info[i] = info
            rewards[i] = r
            terminated[i] = True
            self._start(i, None)
        infos: dict[str, Any] = {"seat": self.seat.copy()}
        if final_obs is not None:
            infos.update(final_obs=final_obs, _final_obs=terminated, final_info=final_info,
                         _final_info=terminated)
        return self._out(), rewards, terminated, np.zeros(n, np.bool_), infos
