"""Browser tests: Debian's Chromium driven by Playwright for Python against a real
``ludoteca serve`` (SQLite) on a free port.

Without Chromium these tests skip with a reason, except under ``LUDOTECA_REQUIRE_SERVICES=1``
(CI), where they fail. ``.ci/run`` installs it with ``apt-get install -y chromium``; Playwright's
own browser download is never used. Screenshots go to ``test-artifacts/`` at the repository root.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import io
import json
import os
import shutil
import tarfile
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from arena_process import ServerProcess, sqlite_arena

REQUIRED = os.environ.get("LUDOTECA_REQUIRE_SERVICES") == "1"
CHROMIUM = os.environ.get("LUDOTECA_CHROMIUM", "/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 360, "height": 740}

AXE_VERSION = "4.14.1"
AXE_TARBALL = f"https://registry.npmjs.org/axe-core/-/axe-core-{AXE_VERSION}.tgz"
AXE_INTEGRITY = ("sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuF"
                 "ooJpZe37OgudVGtQ==")
"""The npm registry's own integrity string for that tarball (``npm view axe-core dist``)."""


def _unavailable(why: str) -> None:
    if REQUIRED:
        pytest.fail(f"{why} (required: LUDOTECA_REQUIRE_SERVICES=1)")
    pytest.skip(why)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        _unavailable(f"no Chromium at {CHROMIUM} (apt-get install -y chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("Playwright for Python is not installed (pip install -e '.[test]')")
    with sync_playwright() as p:
        found = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield found
        finally:
            found.close()


@pytest.fixture(scope="session")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with sqlite_arena(tmp_path_factory.mktemp("arena")) as server:
        yield server


class Console:
    """Every console error and uncaught page error of a page, so a test can require none."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def watch(self, page: Any) -> None:
        page.on("console", lambda m: self.errors.append(f"console: {m.text}")
                if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))


@pytest.fixture
def console() -> Console:
    """The console errors of this test's pages (a test that causes some on purpose, such as a
    refused WebSocket while the server is down, removes exactly those)."""
    return Console()


@pytest.fixture
def open_page(browser: Any, arena: ServerProcess, console: Console
              ) -> Iterator[Callable[..., Any]]:
    """Make a page in a fresh browser context (its own cookies) at ``path`` of the arena (or of
    ``base``); at the end, fail if any page logged a console error or threw."""
    contexts: list[Any] = []

    def make(path: str = "/", lang: str = "en", viewport: dict[str, int] | None = None,
             base: str | None = None) -> Any:
        base = base or arena.base
        context = browser.new_context(locale={"en": "en-GB", "es": "es-ES"}[lang],
                                      viewport=viewport or DESKTOP, base_url=base)
        context.set_default_timeout(20_000)
        contexts.append(context)
        page = context.new_page()
        console.watch(page)
        page.goto(base + path)
        page.wait_for_selector("#header nav, #header a, #header button")
        return page

    yield make
    for context in contexts:
        context.close()
    assert console.errors == []


HIDDEN_CULPRITS = """(width) => {
    const found = [];
    for (const e of document.querySelectorAll("body *")) {
        const was = e.style.display;
        e.style.display = "none";
        const fits = document.documentElement.scrollWidth <= width;
        e.style.display = was;
        if (fits) found.push(e);
    }
    const deepest = found.filter((e) => !found.some((o) => o !== e && e.contains(o)));
    return deepest.slice(0, 8).map((e) => `hiding ${e.tagName} (`
        + `${e.getAttribute("data-testid") ?? ""}) makes it fit: ${e.outerHTML.slice(0, 160)}`);
}"""
"""What makes a page too wide when no box or text reaches past the edge (a pseudo-element, an
SVG stroke): the deepest elements whose hiding makes it fit."""


def shoot(page: Any, name: str) -> None:
    """Screenshots at desktop and phone width: test-artifacts/<name>-desktop.png and -phone.png
    (the page is left at its desktop width)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    ARTIFACTS.mkdir(exist_ok=True)
    size = page.viewport_size
    page.screenshot(path=str(ARTIFACTS / f"{name}-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(150)
    # The measure is of the settled page: a full-page screenshot resizes the page for a moment,
    # and a chart redrawn on resize lays out a frame later (scrollWidth was 361 once with
    # nothing past 360); a page that stays too wide still fails below, with its culprits.
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(
            "(w) => document.documentElement.scrollWidth <= w", arg=PHONE["width"], timeout=3000)
    page.screenshot(path=str(ARTIFACTS / f"{name}-phone.png"), full_page=True)
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(
            "(w) => document.documentElement.scrollWidth <= w", arg=PHONE["width"], timeout=3000)
    # Usable on a phone: nothing makes the page wider than the screen (no sideways scrolling).
    # (text past its box counts too: a word wider than its column widens the page)
    # (in the page's coordinates: a page scrolled sideways by its overflow would otherwise
    # hide the element that makes it, as a 361 px page with no culprit once did)
    wide = page.evaluate("""() => {
        const x = window.scrollX;
        const past = [...document.querySelectorAll("body *")].filter((e) =>
            e.getBoundingClientRect().right + x > 360
            && getComputedStyle(e).position !== "fixed")
            .map((e) => `${e.tagName}.${e.className}@${e.getBoundingClientRect().right + x}`);
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        const range = document.createRange();
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            range.selectNodeContents(node);
            const right = range.getBoundingClientRect().right + x;
            if (right > 360) past.push(`text ${JSON.stringify(node.textContent.slice(0, 40))} in `
                + node.parentElement.tagName + "." + node.parentElement.className + "@" + right);
        }
        return [document.documentElement.scrollWidth, past.slice(0, 8).concat([`scrollX ${x}`])];
    }""")
    if wide[0] > PHONE["width"] and len(wide[1]) == 1:  # no box or text past the edge:
        wide[1] += page.evaluate(HIDDEN_CULPRITS, PHONE["width"])  # found by hiding each
    assert wide[0] <= PHONE["width"], f"{name} is {wide[0]} px wide at 360 px: {wide[1]}"
    page.set_viewport_size(size)
    page.wait_for_timeout(150)


@pytest.fixture(scope="session")
def axe_source(tmp_path_factory: pytest.TempPathFactory) -> str:
    """axe-core's ``axe.min.js`` from the npm registry, checked against its integrity string
    (cached in build/ so a second run needs no network)."""
    cache = ROOT / "build" / f"axe-core-{AXE_VERSION}.min.js"
    if cache.exists():
        return cache.read_text()
    try:
        with urllib.request.urlopen(AXE_TARBALL, timeout=60) as response:
            data = response.read()
    except OSError as exc:
        _unavailable(f"cannot fetch axe-core from the npm registry: {exc}")
    algorithm, _, digest = AXE_INTEGRITY.partition("-")
    assert base64.b64encode(hashlib.new(algorithm, data).digest()).decode() == digest
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        member = tar.extractfile("package/axe.min.js")
        assert member is not None
        source = member.read().decode()
    cache.parent.mkdir(exist_ok=True)
    cache.write_text(source)
    return source


def axe_violations(page: Any, source: str) -> list[dict[str, Any]]:
    """Serious and critical axe-core violations of the page as it is now."""
    # evaluated through the DevTools protocol: the page's CSP forbids inline scripts, so
    # add_script_tag(content=...) would be blocked
    page.evaluate(source + "\n;0")
    found = page.evaluate("""async () => {
        const r = await axe.run(document, { resultTypes: ["violations"] });
        return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ") + " :: "
                + n.failureSummary + " :: " + n.html.slice(0, 300)) }));
    }""")
    return [v for v in found if v["impact"] in ("serious", "critical")]


def dump(value: Any) -> str:
    return json.dumps(value, indent=1, ensure_ascii=False)
