// The move log: each entry's event sentences, newest last, at most 300 lines kept on the page;
// and the live region a screen reader hears: each new entry's sentences (a move, a chat line,
// the end), once, never the whole log again after a reconnect redraws it. And the chat: lines as
// typed (the server escaped them; they are unescaped and shown as text), the account name beside
// a display name so nobody passes for someone else, each line's time, and the form with a count
// of the characters left.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { clear, unescapeHtml } from "../ui.js";

const KEEP = 300;

function sentence(entry) {
  return entry.events.map((e) => e.text).filter(Boolean).join(" ");
}

function line(entry) {
  const text = sentence(entry);
  return text ? h("li", { class: entry.seat === null ? "notice-entry" : "" }, text) : null;
}

/** What the live region says of an entry: its sentences, or, for a move this viewer may not
 * see (a hidden placement), that the seat moved. */
function heard(entry, table) {
  const text = sentence(entry);
  if (text || entry.seat === null || entry.seat === undefined) return text;
  return t("log.moved", { name: table?.seats?.[entry.seat]?.name ?? t("seat.n", { n: entry.seat + 1 }) });
}

/** A polite live region (visually hidden) and `say(text)`, which puts one sentence in it. */
export function liveRegion() {
  const region = h("p", { class: "sr-only", role: "status", "aria-live": "polite", "aria-atomic": "true", "data-testid": "live" });
  return { region, say: (text) => { if (text) region.textContent = text; } };
}

/** The log on `list`; update(state) appends what is new (and says it through `say`), or
 * redraws after a `full`. */
export function logView(list, say = () => {}) {
  let shown = null; // the log array drawn, and how much of it
  let count = 0;
  return function update(state) {
    const log = state.log;
    if (log === shown) return;
    const grows = shown && log.length >= count && log[0] === shown[0] && log[count - 1] === shown[count - 1];
    if (!grows) { clear(list); count = 0; }
    const fresh = log.slice(count);
    for (const entry of fresh) {
      const item = line(entry);
      if (item) list.append(item);
    }
    if (grows) say(fresh.map((entry) => heard(entry, state.table)).filter(Boolean).join(" "));
    while (list.children.length > KEEP) list.firstElementChild.remove();
    shown = log;
    count = log.length;
    list.scrollTop = list.scrollHeight;
  };
}

// ---- chat ------------------------------------------------------------------------------------

const LIMIT = 500; // the server's limit on a chat line (docs/protocol.md)

/** When the line was said, as the reader's clock shows it (nothing for a line without a time). */
function said(at) {
  const when = at ? new Date(at) : null;
  if (!when || Number.isNaN(when.getTime())) return null;
  const shown = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  return h("time", { class: "chat-time", datetime: at }, ` ${shown}`);
}

function chatLine(entry) {
  const account = entry.user && entry.user !== entry.name ? h("span", { class: "chat-account" }, ` @${entry.user}`) : null;
  return h("li", {}, h("strong", {}, entry.name), account, ": ", unescapeHtml(entry.text), said(entry.at));
}

/** The chat form; `send(message)` is true when the line went out. */
export function chatForm(send) {
  const counter = h("span", { class: "chat-count", id: "chat-count", "data-testid": "chat-count" }, `0/${LIMIT}`);
  const input = h("input", { type: "text", maxlength: LIMIT, "aria-label": t("chat.label"), placeholder: t("chat.placeholder"),
    "aria-describedby": "chat-count" });
  const count = () => { counter.textContent = `${input.value.length}/${LIMIT}`; };
  input.addEventListener("input", count);
  return h("form", { class: "chat-form", onsubmit: (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (text && send({ type: "chat", text })) input.value = "";
    count();
  } }, input, counter, h("button", { type: "submit" }, t("chat.send")));
}

/** The chat lines on `list`; update(state) appends new lines, or redraws after a `full`. */
export function chatView(list) {
  let shown = null;
  let count = 0;
  return function update(state) {
    const lines = state.chat;
    if (lines === shown) return;
    const grows = shown && lines.length >= count && lines[0] === shown[0];
    if (!grows) { clear(list); count = 0; }
    for (const entry of lines.slice(count)) list.append(chatLine(entry));
    shown = lines;
    count = lines.length;
    list.scrollTop = list.scrollHeight;
  };
}
