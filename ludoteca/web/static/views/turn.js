// Whose turn: the banner, the document title (● when it is yours), the data-* attributes tests
// and tools read (data-seq, data-status, data-mine), and a desktop notification when a
// turn-based decision of yours begins while the tab is hidden. And the table's own controls
// above the board: undo (when the server says it would be accepted) and, at turn-based tables,
// asking for desktop notifications.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { mustAct } from "../store.js";
import { clear } from "../ui.js";

const names = (state) => (state.table?.seats || []).map((s) => s.name ?? t("seat.free"));

/** The banner's words for `state`. */
export function turnText(state) {
  if (state.status === "open") return t("table.waiting_players");
  if (state.status === "finished") return t("table.finished");
  if (state.status === "abandoned") return t("table.abandoned");
  if (mustAct(state)) return t("table.your_turn");
  return t("table.turn_of", { names: state.to_act.map((s) => names(state)[s]).join(", ") });
}

/** update(state) for the page `root`, its `title` heading and the `banner`. */
export function turnView({ root, title, banner, id }) {
  let wasMine = false;
  return function update(state) {
    const table = state.table;
    const mine = mustAct(state);
    if (table) {
      title.textContent = t("table.heading", { title: table.title, id: table.id });
      document.title = `${mine ? "● " : ""}${table.title} · ${t("app.title")}`;
    }
    if (state.seq === null) return;
    banner.textContent = turnText(state);
    banner.classList.toggle("mine", mine);
    root.dataset.seq = String(state.seq);
    root.dataset.status = state.status;
    root.dataset.mine = mine ? "1" : "0";
    if (mine && !wasMine && document.hidden && table?.mode === "turn" && "Notification" in window
        && Notification.permission === "granted") {
      const note = new Notification(t("notify.title"), { body: t("notify.body", { title: table.title }), tag: `ludoteca-${id}` });
      note.onclick = () => { window.focus(); note.close(); };
    }
    wasMine = mine;
  };
}

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
      } }, t("notify.ask")));
    }
  }
  return function update(state) {
    const key = `${state.seq}|${state.undo}|${state.status}|${state.you}|${state.table?.mode}`;
    if (key === drawn) return;
    drawn = key;
    draw(state);
  };
}
