"""Which core plays: the native one (the ``ludoteca-native`` distribution, C++17, built from
``native/`` where a compiler exists) or the Python engines, the reference and the fallback.

``LUDOTECA_CORE`` chooses (docs/engine.md, "The native core"):

- ``auto`` (default): the native core when it is installed, else the Python engines;
- ``native``: the native core, and a clear ``CoreUnavailable`` when it is not installed;
- ``python``: the Python engines, even where the native core is installed.

The first answer is logged once (``ludoteca.core``), so a run says which core it played on. The
module is returned untyped (``Any``): the main package type-checks with or without the build.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from importlib import import_module
from typing import Any

from ludoteca.engine.playout import Policy, Until
from ludoteca.engine.rng import Rng

log = logging.getLogger("ludoteca.core")

CORES = ("auto", "native", "python")
MODULE = "ludoteca_native._core"
BUILD_HINT = "pip install ./native (needs a C++17 compiler and CMake; `make install` does it)"

_chosen: tuple[str, str] | None = None
"""(the setting, the core it chose), so the choice is logged once per setting."""


class CoreUnavailable(RuntimeError):
    """``LUDOTECA_CORE=native`` where the native core is not installed, or a bad setting."""


def core_setting(environ: Mapping[str, str] | None = None) -> str:
    """``LUDOTECA_CORE``, checked: one of ``CORES`` (``auto`` when unset or empty)."""
    env = os.environ if environ is None else environ
    value = env.get("LUDOTECA_CORE", "").strip().lower() or "auto"
    if value not in CORES:
        raise CoreUnavailable(
            f"LUDOTECA_CORE must be one of {', '.join(CORES)}, not {value!r}"
        )
    return value


def load_native() -> Any:
    """The compiled module, or None when it is not installed (or fails to load: said why)."""
    try:
        return import_module(MODULE)
    except ImportError as exc:
        log.debug("the native core is not importable: %s", exc)
        return None


def which_core(environ: Mapping[str, str] | None = None) -> str:
    """``"native"`` or ``"python"``, as ``LUDOTECA_CORE`` and the installation decide."""
    setting = core_setting(environ)
    if setting == "python":
        return "python"
    if load_native() is not None:
        return "native"
    if setting == "native":
        raise CoreUnavailable(
            f"LUDOTECA_CORE=native but the native core ({MODULE}) is not installed: {BUILD_HINT}"
        )
    return "python"


def chosen_core() -> str:
    """``which_core()`` for this process, logged once (again only if ``LUDOTECA_CORE`` changes)."""
    global _chosen
    setting = core_setting()
    if _chosen is None or _chosen[0] != setting:
        core = which_core()
        _chosen = (setting, core)
        if core == "native":
            log.info("engine core: native (%s)", MODULE)
        else:
            why = "LUDOTECA_CORE=python" if setting == "python" else "not installed"
            log.info("engine core: python (the native core: %s)", why)
    return _chosen[1]


@contextmanager
def using_core(setting: str) -> Iterator[None]:
    """``LUDOTECA_CORE`` set to ``setting`` for a while (the core is chosen at each call, so a
    measurement or a bot can run on one core beside code on the other), then as it was."""
    was = os.environ.get("LUDOTECA_CORE")
    os.environ["LUDOTECA_CORE"] = setting
    try:
        yield
    finally:
        if was is None:
            del os.environ["LUDOTECA_CORE"]
        else:
            os.environ["LUDOTECA_CORE"] = was


def native_core() -> Any:
    """The native module, or ``CoreUnavailable`` saying how to build it."""
    module = load_native()
    if module is None:
        raise CoreUnavailable(f"the native core ({MODULE}) is not installed: {BUILD_HINT}")
    return module


def native_game(name: str) -> Any:
    """The native module's submodule of one game (``ludoteca_native._core.buttons``), or
    ``CoreUnavailable`` saying how to build the core, or to rebuild one built before the game
    was native (an installed core is not rebuilt when ``native/`` changes: ``make native``)."""
    game = getattr(native_core(), name, None)
    if game is None:
        raise CoreUnavailable(
            f"the installed native core ({MODULE}) has no {name}: it was built before {name} was "
            f"native; rebuild it ({BUILD_HINT})"
        )
    return game


def playout_kind(policy: Policy, until: Until, trace: object, kinds: Mapping[Policy, int],
                 untils: tuple[Until, ...] = (Until.END,)) -> int | None:
    """The native policy (``kinds[policy]``) that plays a ``Game.playout`` on the native core,
    or None when it stays in Python: a policy the native side does not have, a stop it does not
    make (``untils``: the end only, unless the game says), a trace wanted, or the Python core
    chosen (docs/engine.md, "Playouts on the native core"). A game checks what else its native
    side cannot reproduce (a finished match...)."""
    if until not in untils or trace is not None:
        return None
    native = kinds.get(policy)
    if native is None or chosen_core() != "native":
        return None
    return native


def played_after(load: Callable[[], Any], seat: int | None, actions: Sequence[Any],
                 kind: int | None, rng: Rng, side_of: Sequence[int]
                 ) -> list[tuple[Sequence[int], Sequence[int], Sequence[int]]] | None:
    """A game's ``SearchProfile.playouts_after`` on the native core: the state read in once
    (``load()``), each action (None for none) applied to a copy and played to the end with
    ``kind`` from a copy of ``rng``, in one native call, as the analysis reads it: per action,
    every seat's rank, score and side. None where the analysis plays one by one instead: the
    Python core chosen, a policy with no native ``kind``, a state the native core refuses
    (``load``'s ValueError), a native core built before that call. The game checks a match
    over (and whatever else its native side does not play) before."""
    if kind is None or chosen_core() != "native":
        return None
    try:
        native = load()
    except ValueError:
        return None
    after = getattr(native, "playouts_after", None)
    if after is None:
        return None
    indices = [-1 if a is None else a.index for a in actions]
    flat = after(-1 if seat is None else seat, indices, kind, rng.state)
    n = len(side_of)
    return [(flat[i:i + n], flat[i + n:i + 2 * n], side_of) for i in range(0, len(flat), 2 * n)]


def random_batch_steps(game: Any, cfg: Any, players: int, size: int, steps: int) -> int:
    """Step a native ``Batch`` of ``size`` matches of ``game`` (a native submodule) with
    ``cfg`` ``steps`` times as an RL loop does: the acting seats' observations, random choices
    drawn natively, then the step writing masks, rewards and dones, all into numpy arrays (a
    finished match is dealt again at once); the match-steps (every game's benchmark row)."""
    import numpy as np  # the native core's dependency, not the main package's

    batch = game.Batch(cfg, size, seed=1)
    batch.reset(np.arange(size, dtype=np.uint64))
    dealt = size
    actions = np.zeros(size, dtype=np.int64)
    masks = np.zeros((size, game.NUM_ACTIONS), dtype=np.uint8)
    rewards = np.zeros((size, players), dtype=np.float32)
    dones = np.zeros(size, dtype=np.uint8)
    seats = np.zeros(size, dtype=np.int32)
    observations = np.zeros((size, cfg.observation_size), dtype=np.float32)
    for _ in range(steps):
        batch.to_act(seats)
        # a Goita deal may end the match at once (B5, both partners with five Shi): seat -1
        batch.observe(np.maximum(seats, 0), observations)
        batch.sample(game.RANDOM, actions)
        batch.step(actions, masks, rewards, dones)
        for i in np.flatnonzero(dones):
            batch.reset_one(int(i), dealt)
            dealt += 1
    return size * steps
