"""Web Push in Chromium (headless: no push service is reachable, so a real subscription and
delivery cannot happen here; the server's side is tested end to end against a loopback push
service in tests/server/test_push.py). What runs here: the offer at a player's first
turn-based table (not before; answered once), the service worker registered at /sw.js with
the whole site as its scope, its push handler showing the notice in the player's language and
its notificationclick handler taking the open tab to the notice's page; the settings page's
push column and device panel, in Spanish."""

from __future__ import annotations

import secrets
from typing import Any

from tests.web.test_email_settings import sign_up

NOTICE = {"title": "Tu jugada en Kami", "body": "Tu mesa de Kami espera tu jugada.",
          "url": "/#/settings", "tag": "turn-abc", "lang": "es"}


def test_offer_worker_and_settings_in_spanish(open_page: Any, arena: Any) -> None:
    page = open_page("/#/", lang="es")
    assert page.get_by_test_id("push-offer").count() == 0  # a first visit asks nothing
    sign_up(page, "Push" + secrets.token_hex(3))
    created = page.evaluate("""async () => {
        const r = await fetch('/api/tables', {method: 'POST',
          headers: {'Content-Type': 'application/json'},
          body: JSON.stringify({game: 'kami', players: 2, options: {target: 10},
                                mode: 'turn', turn_hours: 24, bots: ['random']})});
        return (await r.json()).id; }""")
    page.goto(f"{arena.base}/#/table/{created}")
    offer = page.get_by_test_id("push-offer")
    offer.filter(has_text="aunque la arena esté cerrada").wait_for()
    page.get_by_test_id("push-offer-no").click()
    offer.wait_for(state="hidden")
    page.reload()
    page.get_by_test_id("table-page").wait_for()
    page.wait_for_timeout(500)
    assert offer.is_hidden()  # answered once: never again

    page.context.grant_permissions(["notifications"])
    page.goto(f"{arena.base}/#/settings")
    page.get_by_test_id("push-panel").filter(has_text="Notificaciones push").wait_for()
    page.get_by_test_id("notify-turn-push").wait_for()
    assert page.get_by_test_id("notify-finished-push").is_checked() is False
    assert "Push (este dispositivo)" in page.get_by_test_id("notify-choices").inner_text()
    page.get_by_test_id("push-devices").filter(has_text="Ningún dispositivo").wait_for()
    page.get_by_test_id("push-on").wait_for()
    registration = page.evaluate("""async () => {
        const r = await navigator.serviceWorker.ready;
        return {script: r.active.scriptURL, scope: r.scope}; }""")
    assert registration == {"script": f"{arena.base}/sw.js", "scope": f"{arena.base}/"}
    answer = page.request.get(f"{arena.base}/sw.js")
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["service-worker-allowed"] == "/"
    assert answer.headers["cache-control"] == "no-cache"

    page.reload()  # the page is now the worker's (clients.claim): it may steer it
    page.get_by_test_id("push-panel").wait_for()
    page.goto(f"{arena.base}/#/")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    worker = page.context.service_workers[0]
    shown = worker.evaluate("""async (notice) => {
        const waits = [];
        onPush(self, {data: {text: () => JSON.stringify(notice)}, waitUntil: (p) => waits.push(p)});
        await Promise.all(waits);
        const found = await self.registration.getNotifications({tag: notice.tag});
        return found.map((n) => ({title: n.title, body: n.body, lang: n.lang, tag: n.tag,
                                  data: n.data})); }""",
        NOTICE)
    assert shown == [{"title": NOTICE["title"], "body": NOTICE["body"], "lang": "es",
                      "tag": "turn-abc", "data": {"url": "/#/settings"}}]
    worker.evaluate("""async () => {
        const [notice] = await self.registration.getNotifications({tag: 'turn-abc'});
        const waits = [];
        onClick(self, {notification: notice, waitUntil: (p) => waits.push(p)});
        await Promise.all(waits); }""")
    page.wait_for_url(f"{arena.base}/#/settings")
    page.get_by_test_id("push-panel").wait_for()
