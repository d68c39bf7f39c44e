// Whose turn: the banner, the document title (● when it is yours), the data-* attributes tests
// and tools read (data-seq, data-status, data-mine), and a desktop notification when a
// turn-based decision of yours begins while the tab is hidden.
import { t } from "../i18n.js";
import { mustAct } from "../store.js";

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
