"""Import cycles among the browser client's ES modules (DESIGN.md §1: "never a cycle").

The modules are the shell's (``ludoteca/web/static``, served at ``/static/``) and every game's web
folder (served at ``/static/games/<game>/``; the registry says which folder serves which game, so
Goita's URLs are Kami's files). Every import with a literal path counts: static
``import … from "x"`` and ``import "x"``, ``export … from "x"``, and dynamic ``import("x")``,
since a page that imports another at run time still needs it to load. A dynamic import of a
computed URL (the host loading a renderer) is deliberately late and not counted. Comments are
skipped; the source is read as text, nothing runs.

A cycle is a strongly connected component of more than one module, or a module importing
itself (``tools.import_cycles.cycles``). Run ``python -m tools.js_import_cycles``; ``make lint``
runs it.
"""

from __future__ import annotations

import argparse
import posixpath
import re
from collections.abc import Iterator
from pathlib import Path

from tools.import_cycles import ROOT, Edge, cycles, describe

STATIC = ROOT / "ludoteca" / "web" / "static"
GAMES_PREFIX = "/static/games/"

_STATIC_IMPORT = re.compile(
    r"(?:^|[;}\n])\s*(?:import|export)\b(?:[^;\"'`()]*?\bfrom)?\s*([\"'])([^\"'\n]+)\1")
_DYNAMIC_IMPORT = re.compile(r"(?<![\w$.])import\s*\(\s*([\"'`])([^\"'`$\n]+)\1\s*\)")
_REGEX_BEFORE = set("(,=:[!&|?{};+-*%<>~^") | {""}


def strip_comments(source: str) -> str:
    """``source`` with its comments blanked (newlines kept, so line numbers hold); strings,
    template literals and regular expression literals are kept as they are."""
    out: list[str] = []
    i, n = 0, len(source)
    last = ""  # the last significant character outside comments (tells a regex from a division)
    while i < n:
        c = source[i]
        two = source[i:i + 2]
        if two == "//":
            end = source.find("\n", i)
            i = n if end < 0 else end
            continue
        if two == "/*":
            end = source.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append("".join(ch if ch == "\n" else " " for ch in source[i:end]))
            i = end
            continue
        if c in "\"'`" or (c == "/" and last in _REGEX_BEFORE):
            j = _literal_end(source, i)
            out.append(source[i:j])
            last = c
            i = j
            continue
        out.append(c)
        if not c.isspace():
            last = c
        i += 1
    return "".join(out)


def _literal_end(source: str, start: int) -> int:
    """The index just past the string, template or regex literal opening at ``start``
    (a template's ``${…}`` is read through, nesting included)."""
    quote = source[start]
    i, n = start + 1, len(source)
    in_class = False  # inside a regex's [...]
    while i < n:
        c = source[i]
        if c == "\\":
            i += 2
            continue
        if quote == "`" and source.startswith("${", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if source[i] in "\"'`":
                    i = _literal_end(source, i)
                    continue
                depth += {"{": 1, "}": -1}.get(source[i], 0)
                i += 1
            continue
        if quote == "/" and c == "[":
            in_class = True
        elif quote == "/" and c == "]":
            in_class = False
        elif c == quote and not in_class:
            return i + 1
        elif c == "\n" and quote != "`":
            return i  # an unterminated string or a division after all: stop at the line
        i += 1
    return n


def specifiers(source: str) -> Iterator[tuple[str, int, str]]:
    """Every literal import path in ``source``: (path, line, "static" or "dynamic")."""
    text = strip_comments(source)
    for pattern, kind in ((_STATIC_IMPORT, "static"), (_DYNAMIC_IMPORT, "dynamic")):
        for m in pattern.finditer(text):
            yield m.group(2), text.count("\n", 0, m.start(2)) + 1, kind


def default_game_folders() -> dict[str, Path]:
    """Each registered game's web folder by game name (several names may share one)."""
    from ludoteca.games import entry, game_names

    out = {}
    for name in game_names():
        web = entry(name).web_file()
        if web is not None:
            out[name] = web.parent
    return out


def _file_at(url: str, static: Path, games: dict[str, Path]) -> Path | None:
    """The file the server serves at the absolute path ``url`` (None: not one of ours)."""
    if url.startswith(GAMES_PREFIX):
        game, _, rest = url[len(GAMES_PREFIX):].partition("/")
        return games[game] / rest if game in games else None
    if url.startswith("/static/"):
        return static / url[len("/static/"):]
    return None


def _served_at(path: Path, static: Path, games: dict[str, Path]) -> str:
    """The URL the browser loads ``path`` from (relative imports resolve against it)."""
    for game, folder in sorted(games.items()):
        if path.is_relative_to(folder):
            return GAMES_PREFIX + game + "/" + path.relative_to(folder).as_posix()
    return "/static/" + path.relative_to(static).as_posix()


def import_graph(static: Path = STATIC, games: dict[str, Path] | None = None,
                 root: Path = ROOT) -> list[Edge]:
    """Every import edge between the shell's and the games' modules, named by their path
    under ``root``."""
    games = default_game_folders() if games is None else games
    modules = sorted({*static.rglob("*.js"), *(p for f in games.values() for p in f.rglob("*.js"))})
    name = {p.resolve(): p.resolve().relative_to(root.resolve()).as_posix() for p in modules}
    edges: set[Edge] = set()
    for path in modules:
        base = _served_at(path, static, games)
        for spec, line, kind in specifiers(path.read_text(encoding="utf-8")):
            if spec.startswith("."):
                spec = posixpath.normpath(posixpath.join(posixpath.dirname(base), spec))
            target = _file_at(spec, static, games)
            if target is not None and target.resolve() in name:
                edges.add(Edge(name[path.resolve()], name[target.resolve()], line, kind))
    return sorted(edges)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.parse_args(argv)
    edges = import_graph()
    found = cycles(edges)
    for c in found:
        print("JS import cycle:", describe(c, edges))
    if found:
        print(f"{len(found)} JS import cycle(s) in the browser client")
        return 1
    importing = len({e.source for e in edges})
    print(f"no JS import cycle in the browser client ({importing} importing modules)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
