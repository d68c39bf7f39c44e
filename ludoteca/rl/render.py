"""Rendering for the RL environments (docs/rl.md "Rendering"): text, pictures and a window.

Every mode draws the spectator's view (``game.view(state, None)``), so whatever is rendered is
public: no seat's hand, pile order or pending answer. ``ansi`` is the game's terminal renderer
(its registry entry's ``terminal``) as plain text; ``rgb_array`` the game's picture (its entry's
``rl_picture``, in the game's folder); ``human`` shows that picture in a matplotlib window when
there is a display and matplotlib is installed, and otherwise prints the text (a headless
machine, a test run).
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable
from typing import Any

from ludoteca.engine.errors import OptionError
from ludoteca.engine.game import JSON, Game
from ludoteca.engine.registry import resolve
from ludoteca.rl.picture import Image

MODES = ("ansi", "rgb_array", "human")


def check_mode(mode: str | None) -> str | None:
    """``mode`` if it is one of ``MODES`` or None, else OptionError."""
    if mode is not None and mode not in MODES:
        raise OptionError(f"render_mode must be one of {', '.join(MODES)} or None, not {mode!r}")
    return mode


def modes(game: Game[Any, Any]) -> list[str]:
    """The modes an environment of ``game`` advertises (``metadata["render_modes"]``):
    ``rgb_array`` only where the game's entry names a picture."""
    from ludoteca.games import entry

    pictured = entry(game.spec.name).rl_picture is not None
    return [m for m in MODES if m != "rgb_array" or pictured]


def text(game: Game[Any, Any], view: JSON) -> str:
    """The game's terminal renderer drawing ``view``, as plain text."""
    from rich.console import Console

    from ludoteca.terminal.session import load_renderer

    renderer = load_renderer(game.spec.name)
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, force_terminal=False)
    console.print(renderer.render(view, None))
    return out.getvalue()


_DRAWERS: dict[str, Callable[[JSON], Image]] = {}


def picture(game: Game[Any, Any], view: JSON) -> Image:
    """The game's picture of ``view``: an H×W×3 uint8 array."""
    name = game.spec.name
    draw = _DRAWERS.get(name)
    if draw is None:
        from ludoteca.games import entry

        ref = entry(name).rl_picture
        if ref is None:
            raise OptionError(f"{name} has no picture for render_mode='rgb_array' (its registry "
                              "entry names no rl_picture); use 'ansi'")
        draw = _DRAWERS[name] = resolve(ref)
    return draw(view)


def has_display() -> bool:
    """Whether a window can be shown: matplotlib is installed and, on Linux and the BSDs, an
    X11 or Wayland display is named (macOS and Windows always have one)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    if sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


NON_INTERACTIVE = frozenset({"agg", "cairo", "pdf", "pgf", "ps", "svg", "template"})
"""matplotlib backends that draw files, not windows (``agg`` is what it falls back to when a
display is named but no window toolkit works)."""


class Window:
    """``render_mode="human"``: the picture in a matplotlib window, redrawn at each
    ``show``; without a display (or a backend that can open a window), the text printed to
    standard output instead."""

    def __init__(self) -> None:
        self.figure: Any = None
        self.shown: Any = None

    def show(self, game: Game[Any, Any], view: JSON) -> None:
        if not has_display():
            print(text(game, view))
            return
        import matplotlib.pyplot as plt

        if plt.get_backend().lower() in NON_INTERACTIVE:
            print(text(game, view))
            return
        image = picture(game, view)
        if self.figure is None or not plt.fignum_exists(self.figure.number):
            plt.ion()
            self.figure, axes = plt.subplots(num=f"Ludoteca {game.spec.title}")
            axes.set_axis_off()
            self.shown = axes.imshow(image)
        else:
            self.shown.set_data(image)
        self.figure.canvas.draw_idle()
        plt.pause(0.001)

    def close(self) -> None:
        if self.figure is not None:
            import matplotlib.pyplot as plt

            plt.close(self.figure)
            self.figure = None
