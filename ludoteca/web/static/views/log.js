// The move log: each entry's event sentences, newest last, at most 300 lines kept on the page.
import { h } from "../dom.js";
import { clear } from "../ui.js";

const KEEP = 300;

function line(entry) {
  const text = entry.events.map((e) => e.text).filter(Boolean).join(" ");
  return text ? h("li", { class: entry.seat === null ? "notice-entry" : "" }, text) : null;
}

/** The log on `list`; update(state) appends what is new, or redraws after a `full`. */
export function logView(list) {
  let shown = null; // the log array drawn, and how much of it
  let count = 0;
  return function update(state) {
    const log = state.log;
    if (log === shown) return;
    const grows = shown && log.length >= count && log[0] === shown[0] && log[count - 1] === shown[count - 1];
    if (!grows) { clear(list); count = 0; }
    for (const entry of log.slice(count)) {
      const item = line(entry);
      if (item) list.append(item);
    }
    while (list.children.length > KEEP) list.firstElementChild.remove();
    shown = log;
    count = log.length;
    list.scrollTop = list.scrollHeight;
  };
}
