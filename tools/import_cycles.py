"""Import cycles in a package, type-only ones included (DESIGN.md §1: "never a cycle").

Builds the import graph of every module under the package from its source (AST, nothing is
imported): every ``import`` and ``from … import`` anywhere in a file counts, at the top, inside a
function and inside ``if TYPE_CHECKING:`` alike, since each is a dependency someone must keep in
their head. Importing ``a.b.c`` also runs the ``__init__`` of ``a.b`` (unless the importer is
itself inside it), and ``from a.b import name`` depends on ``a.b.name`` when that is a module,
else on ``a.b``'s ``__init__``. Dynamic imports (``import_module``, the registry's
``"module:attribute"`` strings) are deliberately late and not counted.

A cycle is a strongly connected component of more than one module, or a module importing
itself. The check fails on any, naming the imports that close it. Run
``python -m tools.import_cycles`` (``--help`` for the options); ``make lint`` runs it.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True, order=True)
class Edge:
    """``source`` imports ``target`` at ``line``; ``kind`` is top, function or type-only."""

    source: str
    target: str
    line: int
    kind: str


def module_names(package_dir: Path) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    base = package_dir.parent
    out = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = list(path.relative_to(base).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.Module) -> Iterator[tuple[ast.Import | ast.ImportFrom, str]]:
    """Every import statement with where it sits: top, function or type-only."""

    def walk(node: ast.AST, kind: str) -> Iterator[tuple[ast.Import | ast.ImportFrom, str]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child, kind
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                for stmt in child.body:
                    yield from walk(ast.Module(body=[stmt], type_ignores=[]), "type-only")
                for stmt in child.orelse:
                    yield from walk(ast.Module(body=[stmt], type_ignores=[]), kind)
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                yield from walk(child, "type-only" if kind == "type-only" else "function")
            else:
                yield from walk(child, kind)

    yield from walk(tree, "top")


def _resolve(source: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module a ``from`` import names (relative imports resolved)."""
    if not node.level:
        return node.module or ""
    base = source.split(".") if is_package else source.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _ancestors(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def import_graph(package_dir: Path) -> list[Edge]:
    """Every import edge between the package's own modules."""
    modules = module_names(package_dir)
    edges: set[Edge] = set()
    for source, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        is_package = path.name == "__init__.py"
        mine = set(_ancestors(source)) | ({source} if is_package else set())
        for node, kind in _imports(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = _resolve(source, is_package, node)
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    targets.append(sub if sub in modules else base)
            for target in targets:
                while target and target not in modules:  # ``import a.b.attr`` style
                    target = target.rpartition(".")[0]
                if not target:
                    continue
                for name in [*_ancestors(target), target]:
                    if name in modules and (name not in mine or name == target):
                        edges.add(Edge(source, name, node.lineno, kind))
    return sorted(edges)


def cycles(edges: Iterable[Edge]) -> list[list[str]]:
    """Strongly connected components of more than one module, and modules importing
    themselves, each sorted, in order (Tarjan's algorithm)."""
    graph: dict[str, set[str]] = {}
    for e in edges:
        graph.setdefault(e.source, set()).add(e.target)
        graph.setdefault(e.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph[v]:
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(graph) + 100))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def describe(cycle: list[str], edges: list[Edge]) -> str:
    """A cycle and the imports that close it, one per line, with line numbers and kinds."""
    inside = set(cycle)
    lines = [" <-> ".join(cycle)]
    for e in edges:
        if e.source in inside and e.target in inside:
            lines.append(f"    {e.source}:{e.line} imports {e.target} ({e.kind})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("package", nargs="?", default=str(ROOT / "ludoteca"),
                        help="the package folder (default: ludoteca)")
    args = parser.parse_args(argv)
    package = Path(args.package)
    edges = import_graph(package)
    found = cycles(edges)
    for c in found:
        print("import cycle:", describe(c, edges))
    if found:
        print(f"{len(found)} import cycle(s) in {package.name}")
        return 1
    print(f"no import cycle in {package.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
