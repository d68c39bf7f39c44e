"""Observation encoders: what one seat may know, as a flat float32 vector (docs/rl.md).

An encoder is built once per (game, validated options, player count) and turns a state and a
seat into a fixed-size vector with every value in [0, 1]. Encoders read the state directly (a
view is JSON built for people and costs far more), and read only what ``game.view(state,
seat)`` shows: ``tests/rl/test_leaks.py`` re-deals everything hidden from the seat
(``game.determinize`` of its view) and requires the same vector. ``encode_view`` gives the same
vector from a view alone, for clients that hold no state.

Each game names its encoder in its registry entry (``GameEntry.rl_observation``; it lives in the
game's folder, ``games/<game>/observation.py``), so nothing here lists games. Encoders list seats
relative to the observer: slot 0 is the observer, slot 1 the next seat in seat order, and so on
(sides likewise), so one policy serves every seat. An encoder's ``layout`` names every slice of the
vector; ``python -m ludoteca.rl.encode GAME [PLAYERS] [name=value ...]`` prints it (docs/rl.md shows
them).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from ludoteca.engine.errors import OptionError
from ludoteca.engine.game import JSON, Game, Seat
from ludoteca.engine.registry import resolve
from ludoteca.engine.rng import Rng

Vector = npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class Field:
    """One named slice of an observation: ``size`` values from ``start``."""

    name: str
    start: int
    size: int
    doc: str

    @property
    def stop(self) -> int:
        return self.start + self.size


class Layout:
    """The slices of an observation vector, in order; encoders write at ``layout[name]``."""

    def __init__(self) -> None:
        self.fields: list[Field] = []
        self._by_name: dict[str, Field] = {}
        self.size = 0

    def add(self, name: str, size: int, doc: str) -> int:
        """Append a slice of ``size`` values and return where it starts."""
        f = Field(name, self.size, size, doc)
        self.fields.append(f)
        self._by_name[name] = f
        self.size += size
        return f.start

    def __getitem__(self, name: str) -> Field:
        return self._by_name[name]

    def markdown(self) -> str:
        """The layout as a Markdown table (docs/rl.md)."""
        rows = ["| slice | size | holds |", "| --- | --- | --- |"]
        for f in self.fields:
            if f.size:
                rows.append(f"| `{f.name}` [{f.start}:{f.stop}] | {f.size} | {f.doc} |")
        rows.append(f"| total | {self.size} | |")
        return "\n".join(rows)


class Encoder(Protocol):
    """Per game, options and player count: ``encode(state, seat)`` -> ``shape`` float32."""

    layout: Layout
    shape: tuple[int]

    def encode(self, state: Any, seat: Seat) -> Vector: ...


class Fills:
    """Base of encoders that write each observation into a buffer of their own (``fill``,
    which returns it: valid until the next ``fill``, never handed out): ``encode`` returns a
    copy, a new array the caller may keep; ``encode_into`` copies into the caller's array
    and allocates nothing (a preallocated batch row, OpenSpiel's observer tensor)."""

    shape: tuple[int]

    def fill(self, state: Any, seat: Seat) -> Vector:
        raise NotImplementedError

    def encode(self, state: Any, seat: Seat) -> Vector:
        """``seat``'s observation in ``state``: a new float32 array of ``shape``."""
        return self.fill(state, seat).copy()

    def encode_into(self, state: Any, seat: Seat, out: Vector) -> None:
        """The same values written into ``out`` (float32, ``shape``); nothing is allocated."""
        out[...] = self.fill(state, seat)


def encode_into(enc: Encoder, state: Any, seat: Seat, out: Vector) -> None:
    """``enc.encode_into`` where the encoder has it (every shipped game's does), else a copy of
    ``enc.encode``: an encoder need only implement the ``Encoder`` protocol."""
    fast = getattr(enc, "encode_into", None)
    if fast is not None:
        fast(state, seat, out)
    else:
        out[...] = enc.encode(state, seat)


class EncoderFactory(Protocol):
    def __call__(self, game: Game[Any, Any], options: dict[str, Any], players: int) -> Encoder:
        ...


def unit(x: float, scale: float) -> float:
    """``x / scale`` clipped to [0, 1]: counts whose maximum is not fixed (scores, coins)."""
    v = x / scale
    return 0.0 if v < 0 else 1.0 if v > 1 else v


def bit_array(mask: int, count: int) -> npt.NDArray[np.uint8]:
    """The low ``count`` bits of ``mask`` as 0/1 bytes, bit 0 first."""
    raw = mask.to_bytes((count + 7) // 8, "little")
    return np.unpackbits(np.frombuffer(raw, dtype=np.uint8), count=count, bitorder="little")


def encoder_factory(game: Game[Any, Any]) -> EncoderFactory:
    """The game's encoder class, named by its registry entry (OptionError if it has none)."""
    from ludoteca.games import entry

    ref = entry(game.spec.name).rl_observation
    if ref is None:
        raise OptionError(f"{game.spec.name} has no RL observation encoder yet")
    factory: EncoderFactory = resolve(ref)
    return factory


def encoder(
    game: Game[Any, Any] | str, options: Mapping[str, object] | None = None, players: int = 2
) -> Encoder:
    """The encoder of ``game`` (a Game or its name) for these options and player count."""
    if isinstance(game, str):
        from ludoteca.games import get_game

        game = get_game(game)
    opts = game.validate(options, players)
    return encoder_factory(game)(game, opts, players)


def observation(game: Game[Any, Any], state: Any, seat: Seat) -> Vector:
    """One-off: the observation of ``seat`` in ``state`` (build an ``encoder`` for loops)."""
    return _cached(game, state).encode(state, seat)


def observation_from_view(game: Game[Any, Any], view: JSON, seat: Seat) -> Vector:
    """The same vector from ``seat``'s view alone: any state consistent with the view encodes
    the same (the leak test's property), so one determinized sample stands for it."""
    state = game.determinize(view, seat, Rng(0))
    return observation(game, state, seat)


_ENCODERS: dict[tuple[str, tuple[tuple[str, Any], ...], int], Encoder] = {}


def _cached(game: Game[Any, Any], state: Any) -> Encoder:
    cfg = getattr(state, "cfg", None)  # every shipped game keeps its options there
    if cfg is not None:
        options, players = dict(cfg.options), int(cfg.players)
    else:
        public = game.view(state, None)
        options, players = dict(public["options"]), int(public["players"])
    key = (game.spec.name, tuple(sorted(options.items())), players)
    found = _ENCODERS.get(key)
    if found is None:
        found = _ENCODERS[key] = encoder(game, options, players)
    return found


def main(argv: list[str]) -> None:
    """Print the layout of a game's observation: ``GAME [PLAYERS] [name=value ...]``."""
    from ludoteca.games import get_game

    game = get_game(argv[0])
    players = int(argv[1]) if len(argv) > 1 else game.spec.min_players
    opts = game.spec.options
    given: dict[str, object] = {}
    for word in argv[2:]:
        name, _, text = word.partition("=")
        opt = next(o for o in opts if o.name == name)
        given[name] = opt.parse(text)
    print(encoder(game, given, players).layout.markdown())


if __name__ == "__main__":
    main(sys.argv[1:])
