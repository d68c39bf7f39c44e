// The table's own controls above the board: undo (when the server says it would be accepted)
// and, at turn-based tables, asking for desktop notifications.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { clear } from "../ui.js";

/** update(state) for the `box`; `send(message)` goes to the socket. */
export function controlsView(box, send) {
  let drawn = null;
  function draw(state) {
    clear(box);
    if (state.seq === null) return;
    if (state.undo) {
      box.append(h("button", { type: "button", "data-testid": "undo", onclick: () => send({ type: "undo", seq: state.seq }) },
        "↶ " + t("table.undo")));
    }
    if (state.table?.mode === "turn" && state.you !== null && "Notification" in window && Notification.permission === "default"
        && state.status === "playing") {
      box.append(h("button", { type: "button", class: "secondary", onclick: async () => {
        await Notification.requestPermission();
        draw(state);
      } }, "🔔 " + t("notify.ask")));
    }
  }
  return function update(state) {
    const key = `${state.seq}|${state.undo}|${state.status}|${state.you}|${state.table?.mode}`;
    if (key === drawn) return;
    drawn = key;
    draw(state);
  };
}
