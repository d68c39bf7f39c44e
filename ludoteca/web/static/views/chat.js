// The chat: lines as typed (the server escaped them; they are unescaped and shown as text), the
// account name beside a display name so nobody passes for someone else, each line's time, and
// the form with a count of the characters left.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { clear, unescapeHtml } from "../ui.js";

const LIMIT = 500; // the server's limit on a chat line (docs/protocol.md)

/** When the line was said, as the reader's clock shows it (nothing for a line without a time). */
function said(at) {
  const when = at ? new Date(at) : null;
  if (!when || Number.isNaN(when.getTime())) return null;
  const shown = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  return h("time", { class: "chat-time", datetime: at }, ` ${shown}`);
}

function line(entry) {
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
    for (const entry of lines.slice(count)) list.append(line(entry));
    shown = lines;
    count = lines.length;
    list.scrollTop = list.scrollHeight;
  };
}
