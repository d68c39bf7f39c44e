"""No import cycle among the browser client's ES modules (the shell's and the games'), as for
Python; and the checker finds static, re-export and dynamic cycles, across a game's folder and
the shell, and ignores imports written in comments or computed at run time."""

from __future__ import annotations

from pathlib import Path

from tools.js_import_cycles import cycles, import_graph, main, specifiers


def test_the_browser_client_has_no_import_cycle() -> None:
    edges = import_graph()
    assert cycles(edges) == []
    # the graph is real: the shell's router and the games' renderers are in it
    assert any(e.source == "ludoteca/web/static/app.js" and e.kind == "dynamic" for e in edges)
    assert any(e.source.startswith("ludoteca/games/")
               and e.target.startswith("ludoteca/web/static/") for e in edges)
    assert main([]) == 0


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_static_reexport_dynamic_and_cross_folder_cycles_are_found(tmp_path: Path) -> None:
    write(tmp_path, {
        # app -> page (dynamic) -> app (static): the cycle issue 38 found
        "static/app.js": 'const routes = [() => import("./page.js").then((m) => m.mount)];\n',
        "static/page.js": 'import { navigate } from "./app.js";\n',
        # a re-export closing a cycle through a subfolder
        "static/views/a.js": 'export { b } from "../views/b.js";\n',
        "static/views/b.js": 'import {\n  a,\n} from "/static/views/a.js";\nexport const b = 1;\n',
        # a game's renderer and a shell module, by absolute URL; the second game shares the folder
        "static/kit.js": 'import "/static/games/two/board.js";\n',
        "games/one/web/board.js": 'import { x } from "/static/kit.js";\n',
        # not counted: a commented import, a computed one, a string that looks like one
        "static/leaf.js": ('// import { y } from "./quiet.js";\n/* import("./quiet.js") */\n'
                           'const load = (u) => import(u);\nconst s = "import(\\"./quiet.js\\")";\n'
                           'const r = /\\/\\/ "x"/; export default load;\n'),
        "static/quiet.js": 'import load from "./leaf.js";\n',
    })
    games = {"one": tmp_path / "games/one/web", "two": tmp_path / "games/one/web"}
    edges = import_graph(tmp_path / "static", games, tmp_path)
    assert cycles(edges) == [
        ["games/one/web/board.js", "static/kit.js"],
        ["static/app.js", "static/page.js"],
        ["static/views/a.js", "static/views/b.js"],
    ]
    kinds = {(e.source, e.target): (e.kind, e.line) for e in edges}
    assert kinds[("static/app.js", "static/page.js")] == ("dynamic", 1)
    assert kinds[("static/views/b.js", "static/views/a.js")] == ("static", 3)
    assert not any(e.source == "static/leaf.js" for e in edges)


def test_every_import_form_is_read() -> None:
    source = ('import a from "./a.js";\nimport "./b.css";\nexport * from "./c.js";\n'
              'export { d } from "./d.js"; import { e as f } from \'./e.js\';\n'
              'const g = await import(`./g.js`);\nconst url = `/x/${n}.js`; import(url);\n'
              'export function h() { return "from"; }\n')
    assert [s for s, _, _ in specifiers(source)] == [
        "./a.js", "./b.css", "./c.js", "./d.js", "./e.js", "./g.js"]
