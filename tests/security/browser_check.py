"""The browser half of ``test_web.py``, run in its own process: Playwright's sync API allows
one instance per thread, and ``tests/web`` may hold one for the whole session.

    python tests/security/browser_check.py BASE_URL CHROMIUM

Opens the browser client, signs in as a guest (a same-origin POST that Chromium marks with
``Origin``), then ``/docs`` until Swagger UI has drawn the API; prints one JSON object: the
CSP violations the pages reported, their console errors, the hosts they requested, and the
docs page's title."""

from __future__ import annotations

import json
import re
import sys
from typing import Any

WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) =>
  window.__violations.push(e.violatedDirective + " " + e.blockedURI));
"""


def check(base: str, chromium: str) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    errors: list[str] = []
    hosts: set[str] = set()
    violations: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            context = browser.new_context(base_url=base)
            context.set_default_timeout(30_000)
            context.add_init_script(WATCH)  # through DevTools: not subject to the CSP
            page = context.new_page()
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("request", lambda r: hosts.add(re.sub(r"^\w+://([^/]+).*", r"\1", r.url)))
            page.goto("/")
            page.get_by_test_id("guest").click()
            page.get_by_test_id("signout").wait_for()
            violations += page.evaluate("() => window.__violations")
            page.goto("/docs")
            title = page.locator(".swagger-ui .info .title")
            title.wait_for()
            page.locator(".opblock").first.wait_for()
            violations += page.evaluate("() => window.__violations")
            return {"violations": violations, "errors": errors, "hosts": sorted(hosts),
                    "title": title.inner_text()}
        finally:
            browser.close()


if __name__ == "__main__":
    print(json.dumps(check(sys.argv[1], sys.argv[2])))
