// Small DOM helpers shared by the shell's pages. Text always goes in as text, never as HTML.
// The element builders h and svg live in dom.js (shared with the game renderers).
import { h } from "./dom.js";
import { t } from "./i18n.js";

export { h, svg } from "./dom.js";

/** Shows a message for a few seconds (kind: error, info). */
export function toast(text, kind = "error") {
  const box = document.getElementById("toasts");
  const item = h("div", { class: `toast toast-${kind}`, "data-testid": `toast-${kind}` }, text,
    h("button", { class: "toast-close", "aria-label": t("common.close"), onclick: () => item.remove() }, "×"));
  box.append(item);
  setTimeout(() => item.remove(), kind === "error" ? 8000 : 5000);
  return item;
}

/** The server HTML-escapes chat lines; turn them back into plain text for textContent. */
export function unescapeHtml(text) {
  const doc = new DOMParser().parseFromString(`<!doctype html><body>${text}`, "text/html");
  return doc.body.textContent;
}

/** Seconds as h:mm:ss or m:ss; turn-based clocks over a day as "2 d 3 h". */
export function formatClock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  if (s >= 86400) return t("clock.days", { d: Math.floor(s / 86400), h: Math.floor((s % 86400) / 3600) });
  const hh = Math.floor(s / 3600), mm = Math.floor((s % 3600) / 60), ss = s % 60;
  const pad = (n) => String(n).padStart(2, "0");
  return hh ? `${hh}:${pad(mm)}:${pad(ss)}` : `${mm}:${pad(ss)}`;
}

export function formatDate(iso) {
  if (!iso) return "";
  return new Date(iso).toLocaleString(document.documentElement.lang || undefined,
    { dateStyle: "medium", timeStyle: "short" });
}

/** Appends children as h() takes them: arrays flattened, null, undefined and false left out
 * (Element.append would write "null"). */
export function put(el, ...children) {
  el.append(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

export function clear(el) {
  el.replaceChildren();
  return el;
}
