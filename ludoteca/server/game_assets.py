"""Each game's web folder, served from the game's own package (DESIGN.md §1: everything about a
game lives in ``games/<game>/``, the browser shell holds none of it).

A registry entry's ``web`` names the renderer module; its folder (renderer, stylesheet, helpers,
``i18n/<lang>.json``) is served at ``/static/games/<game>/``, and ``/api/games`` gives each game
its renderer's URL and its option labels in every language, so the shell loads a renderer and
labels a game's options without knowing any game.
"""

from __future__ import annotations

from functools import cache

from starlette.applications import Starlette
from starlette.middleware.gzip import GZipMiddleware
from starlette.staticfiles import StaticFiles

from ludoteca.engine.game import JSON
from ludoteca.games import entry, game_names

PREFIX = "/static/games"


@cache
def web_info(name: str) -> JSON:
    """``{"web": renderer URL or None, "labels": {lang: {key: text}}}`` for ``/api/games``
    (read once per process: the files ship with the package)."""
    e = entry(name)
    web = e.web_file()
    return {"web": f"{PREFIX}/{e.name}/{web.name}" if web else None, "labels": e.web_labels()}


def mount_game_assets(app: Starlette) -> None:
    """Serve every registered game's web folder; call before the shell's ``/static`` mount,
    since routes match in order. Compressed like the shell's files."""
    for name in game_names():
        web = entry(name).web_file()
        if web is not None:
            files = StaticFiles(directory=web.parent)
            app.mount(f"{PREFIX}/{name}", GZipMiddleware(files, minimum_size=256))
