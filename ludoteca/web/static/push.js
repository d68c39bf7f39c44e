// Web Push in the page: whether this browser can get push notices, turning them on for it (the
// browser's permission, then /sw.js's subscription sent to POST /api/push/devices), the offer made at
// a player's first turn-based table (never on a first visit: a button the player presses, so the
// browser's question comes from their click), and the settings page's device list.
import { attempt, del, get, post } from "./api.js";
import { t } from "./i18n.js";
import { h, put, toast } from "./ui.js";

const DISMISSED = "ludoteca.push-offer"; // localStorage: the offer was answered, never shown again

export function pushSupported(w = globalThis) {
  return Boolean(w.navigator?.serviceWorker && w.PushManager && w.Notification && w.isSecureContext);
}

/** "Chrome · Linux": a name for this browser in the device list. */
export function deviceLabel(ua) {
  const browser = /Edg\//.test(ua) ? "Edge" : /Firefox\//.test(ua) ? "Firefox" : /Chrome\//.test(ua) ? "Chrome"
    : /Safari\//.test(ua) ? "Safari" : "Browser";
  const system = /Android/.test(ua) ? "Android" : /iPhone|iPad/.test(ua) ? "iOS" : /Windows/.test(ua) ? "Windows"
    : /Mac OS X/.test(ua) ? "macOS" : /Linux/.test(ua) ? "Linux" : "";
  return system ? `${browser} · ${system}` : browser;
}

/** The server's base64url public key as the bytes PushManager.subscribe wants. */
export function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

export function worker() {
  return navigator.serviceWorker.register("/sw.js", { scope: "/" });
}

/** This browser's subscription endpoint, if it has one. */
export async function currentEndpoint() {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration("/");
  const subscription = await registration?.pushManager.getSubscription();
  return subscription?.endpoint ?? null;
}

/** Ask the browser (from a click), subscribe, tell the server: true when on. */
export async function turnOn() {
  if ((await Notification.requestPermission()) !== "granted") {
    toast(t("push.denied"));
    return false;
  }
  let json;
  try {
    const registration = await worker();
    await navigator.serviceWorker.ready;
    const { public_key: key } = await get("/api/push");
    let subscription = await registration.pushManager.getSubscription();
    if (!subscription) subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
    json = subscription.toJSON();
  } catch { // no push service reachable from this browser (or it refused): said, nothing kept
    toast(t("push.failed"));
    return false;
  }
  return Boolean(await attempt(() => post("/api/push/devices", { endpoint: json.endpoint, keys: json.keys, label: deviceLabel(navigator.userAgent) })));
}

/** Whether the offer belongs on this table page: a seat of mine at a turn-based table, push possible
 * here, the browser not asked yet, the offer not answered before. */
export function offerWanted(state, me, w = globalThis) {
  if (!me || me.guest || state.table?.mode !== "turn" || !pushSupported(w)) return false;
  if (w.Notification.permission !== "default" || w.localStorage?.getItem(DISMISSED)) return false;
  return (state.table.seats || []).some((s) => s?.name === me.name);
}

/** The table page's offer: shown once, in ``box``; either button answers it for good. */
export function offerView(box, me) {
  let shown = false;
  return (state) => {
    if (shown || !offerWanted(state, me)) return;
    shown = true;
    const done = () => { localStorage.setItem(DISMISSED, "1"); box.hidden = true; };
    put(box, h("p", {}, t("push.offer")),
      h("button", { type: "button", "data-testid": "push-offer-yes", onclick: async () => {
        done();
        if (await turnOn()) toast(t("push.on"), "info");
      } }, t("push.offer_yes")),
      h("button", { type: "button", class: "secondary", "data-testid": "push-offer-no", onclick: done }, t("push.offer_no")));
    box.hidden = false;
  };
}

/** The settings page's panel: this browser's state and the account's devices, each removable. */
export function pushPanel(reload) {
  const panel = h("section", { class: "panel", "data-testid": "push-panel" }, h("h2", {}, t("push.title")));
  const list = h("ul", { class: "devices", "data-testid": "push-devices" });
  const state = h("p", { class: "hint", "data-testid": "push-state" });
  put(panel, state, list);
  if (pushSupported()) worker().catch(() => {}); // no question asked: the worker only shows notices
  Promise.all([get("/api/push/devices"), currentEndpoint().catch(() => null)]).then(([{ devices }, endpoint]) => {
    put(list, devices.length ? devices.map((d) => h("li", { "data-testid": `push-device-${d.id}` }, d.label, " ",
      h("button", { type: "button", class: "secondary", "data-testid": `push-remove-${d.id}`, onclick: async () => {
        if (await attempt(() => del(`/api/push/devices/${d.id}`))) reload();
      } }, t("push.remove")))) : h("li", { class: "hint" }, t("push.none")));
    if (!pushSupported()) state.textContent = t("push.unsupported");
    else if (Notification.permission === "denied") state.textContent = t("push.blocked");
    else if (endpoint) state.textContent = t("push.this_on");
    else put(state, h("button", { type: "button", "data-testid": "push-on", onclick: async () => {
      if (await turnOn()) reload();
    } }, t("push.turn_on")));
  }, (error) => { state.textContent = error.message; });
  return panel;
}
