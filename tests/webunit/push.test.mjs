// Web Push's page parts (push.js: the table page's offer, the settings page's panel, the helpers)
// and the service worker's handlers (sw.js, run in a vm context with a fake scope: its push and
// notificationclick handlers are plain functions). No catalog is loaded: t() answers with its key.
// Real delivery needs a push service, which no headless browser reaches: the server side is tested
// end to end in tests/server/test_push.py, the worker in Chromium in tests/web/test_push_page.py.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";
import vm from "node:vm";

import { deviceLabel, keyBytes, offerView, offerWanted, pushPanel, pushSupported } from "/static/push.js";

import { by, fakeFetch, main, until } from "./page_harness.mjs";

const SW = readFileSync(new URL("../../ludoteca/web/static/sw.js", import.meta.url), "utf8");

/** A browser window as push.js sees it. */
function browserLike({ permission = "default", dismissed = false, secure = true } = {}) {
  return { navigator: { serviceWorker: {} }, PushManager: function PushManager() {}, isSecureContext: secure,
    Notification: { permission }, localStorage: { getItem: () => (dismissed ? "1" : null) } };
}

const TURN_TABLE = { table: { mode: "turn", seats: [{ name: "ana" }, { name: "bot" }] } };

test("the offer comes at a seat of mine at a turn-based table, once, and never where push cannot work", () => {
  const ana = { name: "ana", guest: false };
  assert.equal(offerWanted(TURN_TABLE, ana, browserLike()), true);
  assert.equal(offerWanted({ table: { ...TURN_TABLE.table, mode: "live" } }, ana, browserLike()), false);
  assert.equal(offerWanted(TURN_TABLE, { name: "eva", guest: false }, browserLike()), false); // watching
  assert.equal(offerWanted(TURN_TABLE, { name: "ana", guest: true }, browserLike()), false);
  assert.equal(offerWanted(TURN_TABLE, null, browserLike()), false);
  assert.equal(offerWanted(TURN_TABLE, ana, browserLike({ permission: "granted" })), false);
  assert.equal(offerWanted(TURN_TABLE, ana, browserLike({ permission: "denied" })), false);
  assert.equal(offerWanted(TURN_TABLE, ana, browserLike({ dismissed: true })), false);
  assert.equal(offerWanted(TURN_TABLE, ana, browserLike({ secure: false })), false); // plain http
  assert.equal(pushSupported({ navigator: {} }), false);
});

test("no offer in a browser without push (the first visit asks nothing either)", () => {
  const box = main().appendChild(document.createElement("div"));
  box.hidden = true;
  offerView(box, { name: "ana", guest: false })(TURN_TABLE); // happy-dom has no service worker
  assert.equal(box.hidden, true);
  assert.equal(box.childElementCount, 0);
});

test("device labels and the key's bytes", () => {
  assert.equal(deviceLabel("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36"), "Chrome · Linux");
  assert.equal(deviceLabel("Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0"), "Firefox · Android");
  assert.equal(deviceLabel("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1"), "Safari · iOS");
  assert.equal(deviceLabel("curl/8"), "Browser");
  assert.deepEqual([...keyBytes("BAEC_-8")], [4, 1, 2, 255, 239]);
});

test("the settings panel lists the devices and removes one; here push is not possible and it says so", async () => {
  let devices = [{ id: 3, label: "Chrome · Linux", created_at: "2026-12-06T07:00:00+00:00", endpoint_host: "push.example" }];
  const requests = fakeFetch({ "GET /api/push/devices": () => ({ devices }), "DELETE /api/push/devices/3": () => { devices = []; return { ok: true }; } });
  const root = main();
  let reloaded = 0;
  root.append(pushPanel(() => { reloaded += 1; }));
  await until(() => by(root, "push-device-3"));
  assert.match(by(root, "push-device-3").textContent, /Chrome · Linux/);
  assert.equal(by(root, "push-state").textContent, "push.unsupported");
  by(root, "push-remove-3").click();
  await until(() => reloaded === 1);
  assert.ok(requests.some((r) => r.key === "DELETE /api/push/devices/3"));
  const again = main();
  again.append(pushPanel(() => {}));
  await until(() => by(again, "push-devices").textContent === "push.none");
});

/** sw.js in a context of its own, with a fake worker scope; its handlers and what they did. */
function worker(windows = []) {
  const shown = [];
  const opened = [];
  const scope = {
    registration: { scope: "https://arena.test/", showNotification: async (title, options) => shown.push({ title, options }) },
    clients: { matchAll: async () => windows, openWindow: async (url) => opened.push(url) },
  };
  const context = vm.createContext({ URL, JSON });
  vm.runInContext(SW, context);
  const wait = [];
  const event = (extra) => ({ waitUntil: (p) => wait.push(p), ...extra });
  return { context, scope, shown, opened, event, settled: () => Promise.all(wait) };
}

test("the worker shows the notice as sent, in its language, and refuses a link elsewhere", async () => {
  const w = worker();
  const data = { title: "Tu jugada en Kami", body: "Tu mesa de Kami espera tu jugada.", url: "/#/table/abc", tag: "turn-abc", lang: "es" };
  w.context.onPush(w.scope, w.event({ data: { text: () => JSON.stringify(data) } }));
  w.context.onPush(w.scope, w.event({ data: { text: () => JSON.stringify({ ...data, url: "https://evil.test/" }) } }));
  w.context.onPush(w.scope, w.event({ data: { text: () => "not json" } }));
  await w.settled();
  assert.equal(w.shown[0].title, "Tu jugada en Kami");
  assert.deepEqual({ ...w.shown[0].options, data: { ...w.shown[0].options.data } }, { body: data.body, tag: "turn-abc", lang: "es",
    icon: "/static/favicon.svg", badge: "/static/favicon.svg", data: { url: "/#/table/abc" } });
  assert.equal(w.shown[1].options.data.url, "/");
  assert.equal(w.shown[2].title, "Ludoteca");
});

test("a click opens the page: an open tab of ours goes there and comes forward, else a new tab", async () => {
  const went = [];
  const tab = { url: "https://arena.test/#/", navigate: async (url) => { went.push(url); return tab; }, focus: async () => { went.push("focus"); } };
  const w = worker([{ url: "https://other.test/", navigate: async () => assert.fail("not ours") }, tab]);
  let closed = false;
  w.context.onClick(w.scope, w.event({ notification: { close: () => { closed = true; }, data: { url: "/#/table/abc" } } }));
  await w.settled();
  assert.equal(closed, true);
  assert.deepEqual(went, ["https://arena.test/#/table/abc", "focus"]);
  const none = worker([]);
  none.context.onClick(none.scope, none.event({ notification: { close() {}, data: { url: "/#/table/abc" } } }));
  await none.settled();
  assert.deepEqual(none.opened, ["https://arena.test/#/table/abc"]);
});
