// The end of a match: the result (score.js) and, for seated people, the rematch offer and its
// answers; then the link to the replay.
import { attempt, post } from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { renderResult } from "../score.js";
import { clear } from "../ui.js";

/** update(state) for the `box`. deps: {id, follow(accepted)}: the page follows an accepted
 * rematch to its new table. */
export function resultView(box, deps) {
  let drawn = null;
  const names = (table) => table.seats.map((s) => s.name ?? t("seat.free"));
  const answer = (accept) => attempt(async () => {
    deps.follow(accept);
    const fresh = await post(`/api/tables/${deps.id}/rematch`, { accept });
    if (fresh.rematch && accept) location.hash = `#/table/${fresh.rematch}`;
  });

  function rematchRow(state, table) {
    const row = h("p", { class: "after-game" });
    const you = state.you;
    const seated = you !== null;
    const finished = table.status === "finished";
    const offer = table.rematch_offer;
    const who = (s) => names(table)[s] ?? "?";
    if (table.rematch) {
      row.append(h("a", { class: "button", href: `#/table/${table.rematch}`, "data-testid": "rematch-link" }, t("table.rematch_ready")));
    } else if (seated && finished && offer && offer.waiting.includes(you)) {
      row.append(t("table.rematch_offered", { name: who(offer.by) }), " ",
        h("button", { type: "button", "data-testid": "rematch", onclick: () => answer(true) }, t("table.rematch_accept")), " ",
        h("button", { type: "button", "data-testid": "rematch-decline", onclick: () => answer(false) }, t("table.rematch_decline")));
    } else if (seated && finished && offer) {
      row.append(h("span", { "data-testid": "rematch-waiting" },
        t("table.rematch_waiting", { names: offer.waiting.map(who).join(", ") })));
    } else if (seated && finished) {
      row.append(h("button", { type: "button", "data-testid": "rematch", onclick: () => answer(true) }, t("table.rematch")));
    }
    const q = state.invite ? `?invite=${encodeURIComponent(state.invite)}` : "";
    row.append(" ", h("a", { href: `#/replay/${deps.id}${q}` }, t("table.replay")));
    return row;
  }

  return function update(state) {
    const table = state.table;
    const result = state.seq === null ? null : state.result || table?.result;
    if (drawn && drawn.table === table && drawn.result === result && drawn.you === state.you) return;
    drawn = { table, result, you: state.you };
    clear(box);
    if (!table || !result) return;
    box.append(renderResult(result, names(table)), rematchRow(state, table));
  };
}
