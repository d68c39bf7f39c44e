""""Your turn" browser notifications at turn-based tables (Notifications API).

A headless tab is never hidden (bringing another tab to the front does not hide it), so the test
says the tab is hidden by defining ``document.hidden``, and records the notifications the page
creates by wrapping the real ``Notification`` constructor; permission is granted by the browser
context, as a person's click on "allow" would."""

from __future__ import annotations

import random
from typing import Any

from tests.web.driver import open_table, shown, sign_in_as_guest, take_turns

SPY = """() => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
  const Real = window.Notification;
  window.__notes = [];
  window.Notification = class extends Real {
    constructor(title, options) {
      super(title, options);
      window.__notes.push({ title, body: options?.body });
    }
  };
  Object.defineProperty(window.Notification, "permission", { get: () => Real.permission });
}"""


def test_a_hidden_turn_based_table_notifies_your_turn(open_page: Any) -> None:
    page = open_page("/")
    sign_in_as_guest(page)
    page.get_by_test_id("new-mode").select_option("turn")
    open_table(page, "kingdomino", 2, ["greedy"])
    # Without permission the page offers to ask for it.
    page.get_by_role("button", name="Tell me when it is my turn").wait_for()

    page.context.grant_permissions(["notifications"])
    page.reload()
    page.wait_for_selector('[data-testid="table-page"][data-seq]')
    assert page.get_by_role("button", name="Tell me when it is my turn").count() == 0
    page.evaluate(SPY)
    rng = random.Random(4)
    take_turns(page, rng, 3)
    assert shown(page)["mine"] == "1"
    notes = page.evaluate("() => window.__notes")
    title = page.locator(".table-title").inner_text().split(" · ")[0]
    assert notes and all(n["title"] == "Your turn" and title in n["body"] for n in notes)
