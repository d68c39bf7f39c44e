"""Every game as an OpenSpiel Python game (DESIGN.md §5, docs/rl.md).

Importing this module registers each game that has an RL observation encoder as
``ludoteca_<name>``::

    import pyspiel
    import ludoteca.rl.openspiel  # registers the games
    game = pyspiel.load_game("ludoteca_kami", {"players": 2, "target": 10})

Parameters are ``players`` and the game's own options (``ludoteca games`` lists them).

**Chance is explicit.** The engines draw shuffles, deals and dice from the ``Rng`` in their
state; here that generator is a ``ChanceRng`` (``ludoteca/rl/chance.py``), so every draw is a
chance node with uniform outcomes, in the order the engine draws: the whole deck order at setup
(Kingdomino, Queendomino), each deal (Kami, Goita), each die (Buttons). A player's action that
draws waits at those chance nodes and completes after the last of them. The games are imperfect
information: what a seat may not know is what its view leaves out (``Game.view``).

**Observations.** The observation tensor is the game's RL encoder (``ludoteca/rl/encode.py``,
the same vector as the PettingZoo environments) and the observation string is the seat's view as
JSON: both Markov, exactly what the seat may know now. The information-state string (perfect
recall) is every event the seat was told since the deal, one JSON line per action, as the server
tells them (``Game.narrate``, ``for_viewer``), then its own move if that move waits at chance
nodes, then the view. There is no information-state tensor: asking for one raises
``NotImplementedError`` saying to use the observation tensor (docs/rl.md says why).
``private_info=NONE`` observes as a spectator (string only).

**Returns** (terminal only): per seat, (sides ranked below its side − sides ranked above) /
(sides − 1), sides being seats or teams (4-player Kami and Goita, Queendomino's teams): +1 / −1 /
0 with two sides. Zero-sum.

States share the engine state they hold and copy it only when an action is applied, so cloning
is cheap (MCTS clones at every step). ``resample_from_infostate`` draws a world consistent with
the player's view through the game's ``determinizer``; in a resampled world the information
state of the resampling player is kept, so OpenSpiel's IS-MCTS can key its nodes by either
string (the observation string is cheaper).
"""

from __future__ import annotations

import json
import operator
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]  # no type information shipped

from ludoteca.engine.events import Event, for_viewer
from ludoteca.engine.game import Game, Seat
from ludoteca.engine.rng import Rng
from ludoteca.rl.chance import MAX_OUTCOMES, ChanceRng, NeedChance
from ludoteca.rl.encode import Encoder, encode_into, encoder_factory
from ludoteca.rl.rewards import final_rewards

PREFIX = "ludoteca_"
NO_INFOSTATE_TENSOR = (
    "the Ludoteca games provide no information-state tensor (an exact perfect-recall one would "
    "encode the whole history: millions of values): use observation_tensor() (everything the "
    "seat may know now, Markov; rl_environment's ObservationType.OBSERVATION) or "
    "information_state_string() (perfect recall)")
"""What asking for an information-state tensor says, whichever way it is asked."""
SETUP = -1
"""The seat of the pending "action" that deals the game."""


# ---- the history a seat was told ----------------------------------------------------------


class _Told:
    """One applied action (or the deal) in a chain back to the deal: what each viewer was told
    is narrated when first asked for and kept. Shared by every state that descends from it."""

    __slots__ = ("_events", "action", "after", "before", "known", "lines", "prev", "seat")

    def __init__(self, prev: _Told | None, seat: Seat, action: Any, before: Any, after: Any,
                 known: Mapping[Seat, str] | None = None) -> None:
        self.prev = prev
        self.seat = seat
        self.action = action
        self.before = before
        self.after = after
        self.known = dict(known or {})
        """For a resampled world's root: the information state each seat had at resampling."""
        self.lines: dict[Seat | None, str] = {}
        self._events: list[Event] | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as a flat list from the deal (a long chain would overflow pickle's stack)."""
        nodes = []
        node: _Told | None = self
        while node is not None:
            nodes.append((node.seat, node.action, node.before, node.after, node.known))
            node = node.prev
        nodes.reverse()
        return (_chain, (nodes,))

    def line(self, game: Game[Any, Any], viewer: Seat | None) -> str:
        found = self.lines.get(viewer)
        if found is None:
            if self._events is None:
                self._events = (game.opening(self.after) if self.seat == SETUP
                                else game.narrate(self.before, self.seat, self.action, self.after))
            found = self.lines[viewer] = json.dumps(for_viewer(self._events, viewer),
                                                    sort_keys=True, ensure_ascii=False)
        return found

    def story(self, game: Game[Any, Any], viewer: Seat | None) -> list[str]:
        """Every line ``viewer`` was told, oldest first."""
        out: list[str] = []
        node: _Told | None = self
        while node is not None:
            if node.seat == SETUP and node.before is None and node.known:  # a resampled root
                out.append(node.known.get(viewer, "(resampled)") if viewer is not None
                           else "(resampled)")
                break
            out.append(node.line(game, viewer))
            node = node.prev
        out.reverse()
        return out


def _chain(nodes: list[tuple[Any, ...]]) -> _Told | None:
    told = None
    for seat, action, before, after, known in nodes:
        told = _Told(told, seat, action, before, after, known)
    return told


# ---- one position ---------------------------------------------------------------------------


class _Position:
    """Everything a state holds. Never changed once made (but for the caches of who acts and
    what is legal), so clones share it: OpenSpiel clones a Python state by deep-copying its
    attributes, and a deep copy of a position is the position itself."""

    __slots__ = ("engine", "legal", "need", "pending", "player", "script", "spiel", "then",
                 "told")

    def __init__(self, spiel: LudotecaGame, engine: Any, told: _Told | None,
                 pending: tuple[Seat, Any] | None, script: tuple[int, ...] = (),
                 need: int = 0, then: tuple[int, ...] = ()) -> None:
        self.spiel = spiel
        self.engine = engine
        """The engine state after the last completed action; None before the deal completes."""
        self.told = told
        self.pending = pending
        """The action (or the deal, seat SETUP) that waits for chance outcomes."""
        self.script = script
        """The chance outcomes chosen so far for the pending action."""
        self.need = need
        """Outcomes of the chance node now (pending only)."""
        self.then = then
        """Outcomes of the chance nodes known to follow before the action can go on."""
        self.player: int | None = None
        self.legal: list[int] | None = None

    def current_player(self) -> int:
        if self.player is None:
            if self.pending is not None:
                self.player = int(pyspiel.PlayerId.CHANCE)
            else:
                seats = self.spiel.engine.to_act(self.engine)
                self.player = min(seats) if seats else int(pyspiel.PlayerId.TERMINAL)
        return self.player

    def legal_indices(self) -> list[int]:
        """The current player's legal action indices, ascending (cached: do not change it)."""
        if self.legal is None:
            engine = self.spiel.engine
            self.legal = sorted(engine.legal_indices(self.engine, self.current_player()))
        return self.legal

    def waiting(self, script: tuple[int, ...], need: int, then: tuple[int, ...]) -> _Position:
        return _Position(self.spiel, self.engine, self.told, self.pending, script, need, then)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        return self


class LudotecaState(pyspiel.State):  # type: ignore[misc]
    """A state of one of our games for OpenSpiel; see the module docstring."""

    def __init__(self, game: LudotecaGame, position: _Position | None = None) -> None:
        super().__init__(game)
        self._pos = position if position is not None else game.resume(
            _Position(spiel=game, engine=None, told=None, pending=(SETUP, None)))

    @property
    def _spiel(self) -> LudotecaGame:
        # Kept in the position, not in an attribute of its own: OpenSpiel clones a Python
        # state by deep-copying its attributes, and a deep copy of the game is a broken one.
        return self._pos.spiel

    # ---- OpenSpiel's API ----------------------------------------------------------------
    def current_player(self) -> int:
        return self._pos.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self._pos.legal_indices()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        n = self._pos.need
        if not n:
            raise ValueError("not a chance node: a player is to act, or the game is over")
        p = 1.0 / n
        return [(k, p) for k in range(n)]

    def _apply_action(self, action: int) -> None:
        pos = self._pos
        spiel = pos.spiel
        if pos.pending is not None:
            if not 0 <= action < pos.need:
                raise ValueError(f"chance outcome {action} is not one of 0-{pos.need - 1}")
            script = (*pos.script, action)
            if pos.then:  # more outcomes of the same shuffle or roll: no need to apply yet
                self._pos = pos.waiting(script, pos.then[0], pos.then[1:])
            else:
                self._pos = spiel.resume(pos.waiting(script, 0, ()))
            return
        if action not in pos.legal_indices():  # a short list: about as fast as a set
            raise ValueError(f"action {action} is not legal here")
        pending = (pos.current_player(), spiel.engine.action_from_index(action))
        self._pos = spiel.resume(_Position(spiel, pos.engine, pos.told, pending))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance outcome {action}"
        return self._spiel.engine.describe(self._spiel.engine.action_from_index(action))

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """Not provided (the game type says so): raises ``NotImplementedError``."""
        raise NotImplementedError(NO_INFOSTATE_TENSOR)

    def is_terminal(self) -> bool:
        return bool(self._pos.current_player() == pyspiel.PlayerId.TERMINAL)

    def returns(self) -> list[float]:
        pos = self._pos
        if not self.is_terminal():
            return [0.0] * self._spiel.players
        outcome = self._spiel.engine.outcome(pos.engine)
        assert outcome is not None
        return final_rewards(outcome)

    def __str__(self) -> str:
        """The whole position, hidden parts included (for debugging and OpenSpiel's tests):
        every seat's view, every field of the engine state but its generator, and what waits
        for chance."""
        pos = self._pos
        engine = self._spiel.engine
        views = ([] if pos.engine is None else
                 [engine.view(pos.engine, seat) for seat in range(self._spiel.players)])
        pending = None if pos.pending is None else [
            pos.pending[0], None if pos.pending[1] is None else pos.pending[1].to_json(),
            list(pos.script)]
        return json.dumps({"views": views, "pending": pending, "state": _fields(pos.engine)},
                          sort_keys=True)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> LudotecaState:
        """A world consistent with what ``player_id`` may know (``Game.determinizer``), with
        the same player to act. Its history is not this state's (it starts afresh), but the
        information state of ``player_id`` carries over."""
        pos = self._pos
        if pos.pending is not None or pos.engine is None:
            raise ValueError("resampling is only defined at a player's decision")
        engine = self._spiel.engine
        rng = Rng(int(float(probability_sampler()) * 2**53))
        world = engine.determinizer(engine.view(pos.engine, player_id), player_id)(rng)
        # In a simultaneous step (Buttons) the seats answer here lowest first, so the seats
        # before the one acting now have answered, though what they answered is hidden: answer
        # for them in the sampled world too, at random. The world's action count (``ply``, the
        # match's seq) came from the view and counts those answers already.
        acting = pos.current_player()
        ply = world.ply
        while (seats := engine.to_act(world)) and acting in seats and min(seats) < acting:
            seat = min(seats)
            actions = engine.legal_actions(world, seat)
            engine.apply_legal(world, seat, actions[rng.below(len(actions))])
        world.ply = ply
        known = {player_id: "\n".join(self.story(player_id))}
        told = _Told(None, SETUP, None, None, world, known=known)
        return LudotecaState(self._spiel, _Position(spiel=self._spiel, engine=world, told=told,
                                                    pending=None))

    # ---- for observers and tests -------------------------------------------------------
    @property
    def engine_state(self) -> Any:
        """The engine state after the last completed action (None while dealing). Read it,
        never change it: states share it. Its generator refuses to draw (chance belongs to
        OpenSpiel's chance nodes); to play on from it, clone it and give it an ``Rng``."""
        return self._pos.engine

    @property
    def pending_action(self) -> tuple[Seat, Any] | None:
        """The seat and action waiting at chance nodes (None at a decision, or while dealing)."""
        pending = self._pos.pending
        return None if pending is None or pending[0] == SETUP else pending

    def story(self, viewer: Seat | None) -> list[str]:
        """What ``viewer`` (a seat, or None: a spectator) was told, one JSON line per action."""
        told = self._pos.told
        return [] if told is None else told.story(self._spiel.engine, viewer)


def _fields(state: Any) -> dict[str, str]:
    """Every slot of an engine state but ``rng`` (whose draws are chance nodes here), as repr."""
    if state is None:
        return {}
    names = [n for cls in type(state).__mro__ for n in getattr(cls, "__slots__", ())]
    return {n: repr(getattr(state, n, None)) for n in names if n != "rng"}


# ---- the game -------------------------------------------------------------------------------


class LudotecaGame(pyspiel.Game):  # type: ignore[misc]
    """One of our games with its players and options, for OpenSpiel."""

    def __init__(self, engine: Game[Any, Any], game_type: Any,
                 params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        spec = engine.spec
        players = int(params.get("players", spec.min_players))
        given = {o.name: params[o.name] for o in spec.options
                 if o.name in params and params[o.name] != o.default}
        options = engine.validate(given, players)
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.num_actions,
            max_chance_outcomes=MAX_OUTCOMES,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=spec.max_length,
        )
        super().__init__(game_type, info, params)  # first: attributes set before it are lost
        self.engine = engine
        self.players = players
        self.options = options
        self.encoder: Encoder = encoder_factory(engine)(engine, options, players)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its name and parameters (OpenSpiel serializes states with pickle)."""
        return (pyspiel.load_game, (str(self),))

    def new_initial_state(self) -> LudotecaState:
        return LudotecaState(self)

    def information_state_tensor_shape(self) -> list[int]:
        raise NotImplementedError(NO_INFOSTATE_TENSOR)

    def information_state_tensor_size(self) -> int:
        raise NotImplementedError(NO_INFOSTATE_TENSOR)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: Mapping[str, Any] | None = None) -> Observer:
        return Observer(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                        params)

    def resume(self, pos: _Position) -> _Position:
        """Carry the pending action (or the deal) as far as the chance outcomes chosen so far
        allow: the completed position, or the same one waiting at its next chance node. Works
        on a copy: the engine state of ``pos`` is never changed."""
        assert pos.pending is not None
        seat, action = pos.pending
        engine = self.engine
        rng = ChanceRng(list(pos.script))
        try:
            if seat == SETUP:
                after = engine.start(self.options, self.players, rng=rng)
                told = _Told(None, SETUP, None, None, after)
            else:
                after = engine.clone(pos.engine)
                after.rng = rng
                engine.apply_legal(after, seat, action)
                told = _Told(pos.told, seat, action, pos.engine, after)
        except NeedChance as chance:
            return pos.waiting(pos.script, chance.outcomes, chance.then)
        after.rng = ChanceRng.closed()
        return _Position(spiel=self, engine=after, told=told, pending=None)


class Observer:
    """OpenSpiel's Python observer: the encoder's tensor and the view string (Markov), or the
    story of events (perfect recall, strings only); ``private_info=NONE`` is a spectator."""

    def __init__(self, game: LudotecaGame, iig_obs_type: Any,
                 params: Mapping[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {dict(params)}")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("an observation of every player's private information is not "
                             "offered: a seat sees its own view, a spectator the public one")
        self.game = game
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.public = private == pyspiel.PrivateInfoType.NONE
        self.tensor: np.ndarray[Any, np.dtype[np.float32]] | None
        if self.perfect_recall or self.public:
            self.tensor = None
            self.dict: dict[str, Any] = {}
        else:
            self.tensor = np.zeros(game.encoder.shape, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: LudotecaState, player: int) -> None:
        if self.perfect_recall and not self.public:  # what information_state_tensor asks
            raise NotImplementedError(NO_INFOSTATE_TENSOR)
        if self.tensor is None:
            return
        engine_state = state.engine_state
        if engine_state is None or player < 0:
            self.tensor.fill(0.0)
        else:
            encode_into(self.game.encoder, engine_state, player, self.tensor)

    def string_from(self, state: LudotecaState, player: int) -> str:
        engine_state = state.engine_state
        viewer = None if self.public else player
        view = "" if engine_state is None else json.dumps(
            self.game.engine.view(engine_state, viewer), sort_keys=True, ensure_ascii=False)
        if not self.perfect_recall:
            return view
        lines = state.story(viewer)
        pending = state.pending_action
        if pending is not None and viewer == pending[0]:  # its own move, waiting for chance
            lines = [*lines, json.dumps({"pending": pending[1].to_json()}, sort_keys=True)]
        return "\n".join([*lines, view])


# ---- registration ---------------------------------------------------------------------------


def game_type(engine: Game[Any, Any]) -> Any:
    """OpenSpiel's description of one of our games; its parameters are ``players`` and the
    game's options with their defaults."""
    spec = engine.spec
    params: dict[str, Any] = {"players": spec.min_players}
    for option in spec.options:
        params[option.name] = option.default
    return pyspiel.GameType(
        short_name=PREFIX + spec.name,
        long_name=f"Ludoteca {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def _game_class(engine: Game[Any, Any], kind: Any) -> type[LudotecaGame]:
    """A ``LudotecaGame`` subclass for one game, for OpenSpiel to construct from parameters.
    A class rather than a closure: OpenSpiel's registry outlives the interpreter, and a class
    (which refers to itself) is never freed at exit, where freeing a function would crash."""

    def __init__(self: LudotecaGame, params: Mapping[str, Any] | None = None) -> None:
        LudotecaGame.__init__(self, engine, kind, params)

    name = "".join(word.title() for word in engine.spec.name.split("_"))
    return type(f"{name}Game", (LudotecaGame,), {"__init__": __init__})


def register() -> list[str]:
    """Register every game that has an RL encoder (once); returns their OpenSpiel names."""
    from ludoteca.games import registry

    reg = registry()
    names = []
    registered = set(pyspiel.registered_names())
    for name in reg.names():
        if reg.entry(name).rl_observation is None:
            continue
        engine = reg.game(name)
        short = PREFIX + engine.spec.name
        if short not in registered:
            kind = game_type(engine)
            pyspiel.register_game(kind, _game_class(engine, kind))
        names.append(short)
    return names


NAMES = register()
"""The OpenSpiel names of our games (``ludoteca_kingdomino``, ...)."""


# ---- our bots as OpenSpiel bots ---------------------------------------------------------------


class LudotecaBot(pyspiel.Bot):  # type: ignore[misc]
    """One of our bots (``random``, ``greedy``/``easy``, ``medium``, ``hard``) playing ``seat``
    of an OpenSpiel game of ours, from that seat's view alone (``ludoteca.bots.make_bot``)."""

    def __init__(self, game: LudotecaGame, seat: Seat, level: str, seed: int = 0,
                 pool: Any = None) -> None:
        from ludoteca.bots import make_bot

        pyspiel.Bot.__init__(self)
        self.game = game
        self.seat = seat
        # numpy integers seed as any other (a numpy int64 would overflow the generator's
        # 64-bit arithmetic)
        self.bot = make_bot(level, game.engine.spec.name, operator.index(seed), pool=pool)

    def step(self, state: LudotecaState) -> int:
        engine = self.game.engine
        view = engine.view(state.engine_state, self.seat)
        action = self.bot.choose(engine, view, self.seat, None)
        return int(action.index)

    def restart_at(self, state: LudotecaState) -> None:
        """Nothing to forget: the bot reads the view at every step."""

    def inform_action(self, state: LudotecaState, player_id: int, action: int) -> None:
        """Nothing to learn: the bot reads the view at every step."""
