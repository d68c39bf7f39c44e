// The notification settings page and the pages emailed links open, mounted alone with a fake
// shell and a fake fetch (page_harness.mjs). No catalog is loaded: t() answers with its key.
import assert from "node:assert/strict";
import test from "node:test";

import { mount, mountConfirm, mountReset } from "/static/settings.js";
import { mountSignIn } from "/static/lobby.js";

import { by, fakeFetch, main, submit, until } from "./page_harness.mjs";

globalThis.FormData = window.FormData;

const PREFS = (over = {}) => ({
  email_enabled: true, email: null, events: ["turn", "finished", "rematch", "tournament_table"],
  channels: ["page", "email", "webhook"], time_zone: "UTC", quiet_start: null, quiet_end: null, webhook_url: null,
  prefs: {
    turn: { page: true, email: true, webhook: true }, finished: { page: true, email: false, webhook: false },
    rematch: { page: true, email: true, webhook: false }, tournament_table: { page: true, email: true, webhook: false },
  },
  ...over,
});

function shell(me) {
  const asked = [];
  return { asked, me, games: [], email: true, notify: null, navigate(hash) { asked.push(["navigate", hash]); },
    async refreshMe() { asked.push(["refreshMe"]); } };
}

test("the settings page saves each event's channels, quiet hours and the time zone", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const saved = PREFS({ time_zone: "Europe/Madrid", quiet_start: "22:00", quiet_end: "08:00" });
  saved.prefs.finished.email = true;
  const requests = fakeFetch({ "GET /api/notifications": PREFS(), "PUT /api/notifications": saved });
  const page = shell({ name: "ana", display_name: "Ana", guest: false });
  const root = main();
  mount(root, {}, page);
  await until(() => by(root, "notify-form"));
  assert.equal(by(root, "email-state").textContent, "settings.email_none");
  assert.equal(by(root, "notify-turn-email").checked, true);
  assert.equal(by(root, "notify-finished-email").checked, false);
  by(root, "notify-finished-email").checked = true;
  by(root, "notify-turn-page").checked = false;
  by(root, "quiet-start").value = "22:00";
  by(root, "quiet-end").value = "08:00";
  const zone = by(root, "time-zone");
  zone.append(Object.assign(document.createElement("option"), { value: "Europe/Madrid" }));
  zone.value = "Europe/Madrid";
  submit(by(root, "notify-form"));
  await until(() => requests.some((r) => r.key === "PUT /api/notifications"));
  const body = requests.find((r) => r.key === "PUT /api/notifications").body;
  assert.equal(body.events.finished.email, true);
  assert.equal(body.events.turn.page, false);
  assert.deepEqual([body.quiet_start, body.quiet_end, body.time_zone], ["22:00", "08:00", "Europe/Madrid"]);
  await until(() => page.notify !== null);
  assert.equal(page.notify.finished.email, true);
});

test("adding an address says a link was sent; with email off nothing about email shows", async () => {
  const requests = fakeFetch({ "GET /api/notifications": PREFS(), "POST /api/email": { ok: true, pending: "ana@x.test" } });
  const root = main();
  mount(root, {}, shell({ name: "ana", display_name: "Ana", guest: false }));
  await until(() => by(root, "email-form"));
  by(root, "email-input").value = "ana@x.test";
  submit(by(root, "email-form"));
  await until(() => by(root, "email-pending").textContent !== "");
  assert.deepEqual(requests.find((r) => r.key === "POST /api/email").body, { email: "ana@x.test" });

  fakeFetch({ "GET /api/notifications": PREFS({ email_enabled: false }) });
  const off = main();
  mount(off, {}, shell({ name: "ana", display_name: "Ana", guest: false }));
  await until(() => by(off, "notify-form"));
  assert.equal(by(off, "email-panel"), null);
  assert.equal(by(off, "notify-turn-email"), null);
  assert.ok(by(off, "notify-turn-webhook"));

  const signin = main();
  mountSignIn(signin, {}, { ...shell(null), email: false });
  assert.equal(by(signin, "forgot-link"), null);
  const withMail = main();
  mountSignIn(withMail, {}, shell(null));
  assert.ok(by(withMail, "forgot-link"));
});

test("the confirmation and reset links post their token", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const requests = fakeFetch({ "POST /api/email/confirm": { ok: true, email: "ana@x.test" },
    "POST /api/password/reset": { ok: true, name: "ana" } });
  const root = main();
  mountConfirm(root, { query: new URLSearchParams("token=abc") });
  await until(() => by(root, "confirm-done"));
  assert.deepEqual(requests[0].body, { token: "abc" });
  const page = shell(null);
  const reset = main();
  mountReset(reset, { query: new URLSearchParams("token=xyz") }, page);
  by(reset, "reset-form").querySelector('[name="password"]').value = "a new password";
  submit(by(reset, "reset-form"));
  await until(() => page.asked.length === 2);
  assert.deepEqual(requests[1].body, { token: "xyz", password: "a new password" });
  assert.deepEqual(page.asked, [["refreshMe"], ["navigate", "#/signin"]]);
});
