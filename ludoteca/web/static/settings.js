// Notification settings (#/settings: GET/PUT /api/notifications): the email address and whether it
// is confirmed (POST/DELETE /api/email), which events reach you on which channel, quiet hours and
// the time zone they are counted in. And the pages emailed links open: #/email/confirm?token=
// (POST /api/email/confirm), #/forgot (POST /api/password/forgot) and #/reset?token= (POST
// /api/password/reset). With no SMTP server (email_enabled false) nothing about email is shown.
// Web Push (push.js): the push column, this browser's state and the account's devices.
import { attempt, del, get, post, putJson } from "./api.js";
import { t } from "./i18n.js";
import { pushPanel } from "./push.js";
import { clear, h, put, toast } from "./ui.js";

const field = (label, attrs) => h("label", { class: "field" }, h("span", {}, label), h("input", { required: true, ...attrs }));

function zones() {
  try { return Intl.supportedValuesOf("timeZone"); } catch { return ["UTC"]; }
}

function emailPanel(prefs, reload) {
  const panel = h("section", { class: "panel", "data-testid": "email-panel" }, h("h2", {}, t("settings.email")));
  put(panel, prefs.email
    ? h("p", { "data-testid": "email-state" }, t("settings.email_confirmed", { email: prefs.email }))
    : h("p", { "data-testid": "email-state" }, t("settings.email_none")));
  const form = h("form", { "data-testid": "email-form", onsubmit: async (e) => {
    e.preventDefault();
    const address = new FormData(form).get("email");
    const done = await attempt(() => post("/api/email", { email: address }));
    if (!done) return;
    form.reset();
    pending.textContent = t("settings.email_pending", { email: done.pending });
  } }, field(t("settings.email_address"), { name: "email", type: "email", autocomplete: "email", maxlength: 254, "data-testid": "email-input" }),
  h("button", { type: "submit", "data-testid": "email-save" }, prefs.email ? t("settings.email_change") : t("settings.email_add")));
  const pending = h("p", { class: "hint", role: "status", "data-testid": "email-pending" });
  put(panel, form, pending, prefs.email ? h("button", { type: "button", class: "secondary", "data-testid": "email-remove", onclick: async () => {
    if (await attempt(() => del("/api/email"))) reload();
  } }, t("settings.email_remove")) : null);
  return panel;
}

const ALWAYS_SHOWN = ["finished", "rematch"];

function choices(prefs) {
  const channels = prefs.channels.filter((c) => c !== "email" || prefs.email_enabled);
  const boxes = [];
  const table = h("table", { class: "data", "data-testid": "notify-choices" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("settings.event")),
      channels.map((c) => h("th", { scope: "col" }, t(`settings.channel.${c}`))))),
    h("tbody", {}, prefs.events.map((event) => h("tr", {}, h("th", { scope: "row" }, t(`settings.event.${event}`)),
      channels.map((channel) => {
        // the table page itself shows a match's end and a rematch offer: always on there
        const fixed = channel === "page" && ALWAYS_SHOWN.includes(event);
        const box = h("input", { type: "checkbox", checked: fixed || prefs.prefs[event][channel], disabled: fixed,
          title: fixed ? t("settings.always_shown") : null, "data-testid": `notify-${event}-${channel}`,
          "aria-label": `${t(`settings.event.${event}`)}: ${t(`settings.channel.${channel}`)}` });
        if (!fixed) boxes.push([event, channel, box]);
        return h("td", {}, box);
      })))));
  const read = () => {
    const events = {};
    for (const [event, channel, box] of boxes) (events[event] ||= {})[channel] = box.checked;
    return events;
  };
  return [h("div", { class: "scroll-x" }, table), read];
}

export function mount(main, _params, shell) {
  if (!shell.me || shell.me.guest) {
    clear(main).append(h("h1", {}, t("settings.title")), h("p", {}, t("settings.sign_in")));
    return;
  }
  const load = () => get("/api/notifications").then((prefs) => show(prefs),
    (error) => clear(main).append(h("h1", {}, t("settings.title")), h("p", { class: "error", "data-testid": "fatal" }, error.message)));
  function show(prefs) {
    const [table, read] = choices(prefs);
    const zone = h("select", { name: "time_zone", "data-testid": "time-zone" },
      [...new Set(["UTC", prefs.time_zone, ...zones()])].map((z) => h("option", { value: z }, z)));
    zone.value = prefs.time_zone;
    const time = (name, value) => h("input", { type: "time", name, value: value || "", "data-testid": name.replace("_", "-") });
    const start = time("quiet_start", prefs.quiet_start);
    const end = time("quiet_end", prefs.quiet_end);
    const form = h("form", { class: "panel", "data-testid": "notify-form", onsubmit: async (e) => {
      e.preventDefault();
      const quiet = start.value && end.value ? { quiet_start: start.value, quiet_end: end.value } : { quiet_start: null, quiet_end: null };
      const saved = await attempt(() => putJson("/api/notifications", { events: read(), time_zone: zone.value, ...quiet }));
      if (!saved) return;
      shell.notify = saved.prefs;
      toast(t("settings.saved"), "info");
    } }, h("h2", {}, t("settings.choices")), h("p", { class: "hint" }, t("settings.choices_text")), table,
    h("h3", {}, t("settings.quiet")), h("p", { class: "hint" }, t("settings.quiet_text")),
    h("div", { class: "row" }, h("label", { class: "field" }, h("span", {}, t("settings.quiet_start")), start),
      h("label", { class: "field" }, h("span", {}, t("settings.quiet_end")), end)),
    h("label", { class: "field" }, h("span", {}, t("settings.time_zone")), zone),
    h("button", { type: "submit", "data-testid": "notify-save" }, t("settings.save")));
    put(clear(main), h("h1", {}, t("settings.title")), prefs.email_enabled ? emailPanel(prefs, load) : null, pushPanel(load), form);
  }
  clear(main).append(h("h1", {}, t("settings.title")), h("p", { class: "hint" }, t("common.loading")));
  load();
}

/** #/email/confirm?token=: the emailed link; works signed in or not. */
export function mountConfirm(main, { query }) {
  clear(main).append(h("h1", {}, t("confirm.title")), h("p", { class: "hint" }, t("common.loading")));
  post("/api/email/confirm", { token: query.get("token") || "" }).then(
    (done) => clear(main).append(h("h1", {}, t("confirm.title")), h("p", { "data-testid": "confirm-done" }, t("confirm.done", { email: done.email }))),
    (error) => clear(main).append(h("h1", {}, t("confirm.title")), h("p", { class: "error", "data-testid": "confirm-failed" }, error.message)));
}

/** #/forgot: ask for a reset link; the answer is the same whether or not the address is known. */
export function mountForgot(main) {
  const form = h("form", { class: "panel", "data-testid": "forgot-form", onsubmit: async (e) => {
    e.preventDefault();
    const done = await attempt(() => post("/api/password/forgot", { email: new FormData(form).get("email") }));
    if (done) put(clear(form), h("p", { "data-testid": "forgot-sent" }, t("forgot.sent")));
  } }, h("p", {}, t("forgot.text")),
  field(t("settings.email_address"), { name: "email", type: "email", autocomplete: "email", maxlength: 254 }),
  h("button", { type: "submit" }, t("forgot.submit")));
  clear(main).append(h("h1", {}, t("forgot.title")), form);
}

/** #/reset?token=: choose a new password; then sign in with it (every session ended). */
export function mountReset(main, { query }, shell) {
  const form = h("form", { class: "panel", "data-testid": "reset-form", onsubmit: async (e) => {
    e.preventDefault();
    const password = new FormData(form).get("password");
    const done = await attempt(() => post("/api/password/reset", { token: query.get("token") || "", password }));
    if (!done) return;
    await shell.refreshMe();
    toast(t("reset.done", { name: done.name }), "info");
    shell.navigate("#/signin");
  } }, field(t("account.new"), { name: "password", type: "password", autocomplete: "new-password", minlength: 8, maxlength: 128 }),
  h("button", { type: "submit", "data-testid": "reset-submit" }, t("reset.submit")));
  clear(main).append(h("h1", {}, t("reset.title")), form);
}
