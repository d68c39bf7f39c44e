// The chat: lines as typed (the server escaped them; they are unescaped and shown as text), the
// account name beside a display name so nobody passes for someone else, and the form.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { clear, unescapeHtml } from "../ui.js";

function line(entry) {
  const account = entry.user && entry.user !== entry.name ? h("span", { class: "chat-account" }, ` @${entry.user}`) : null;
  return h("li", {}, h("strong", {}, entry.name), account, ": ", unescapeHtml(entry.text));
}

/** The chat form; `send(message)` is true when the line went out. */
export function chatForm(send) {
  const input = h("input", { type: "text", maxlength: 500, "aria-label": t("chat.label"), placeholder: t("chat.placeholder") });
  return h("form", { class: "chat-form", onsubmit: (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (text && send({ type: "chat", text })) input.value = "";
  } }, input, h("button", { type: "submit" }, t("chat.send")));
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
