// The end of a match: the result (score.js), the rematch offer as it stands (who offered, who
// accepted, who is awaited, who declined: all from the server's summary), its buttons for the
// seated people, and the ways on: the replay and back to the lobby.
import { attempt, post } from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { renderResult } from "../score.js";
import { clear } from "../ui.js";

/** update(state) for the `box`. deps: {id}. The page itself follows a made rematch. */
export function resultView(box, deps) {
  let drawn = null;
  const names = (table) => table.seats.map((s) => s.name ?? t("seat.free"));
  const answer = (accept) => attempt(async () => {
    const fresh = await post(`/api/tables/${deps.id}/rematch`, { accept });
    if (fresh.rematch && accept) location.hash = `#/table/${fresh.rematch}`;
  });
  const button = (testid, text, onclick, secondary = false) =>
    h("button", { type: "button", class: secondary ? "secondary" : "", "data-testid": testid, onclick }, text);

  /** The open offer, as everyone sees it, and what this seat may answer. */
  function offerRow(offer, you, who) {
    const row = h("div", { class: "rematch-offer", "data-testid": "rematch-offer" },
      h("p", {}, t("table.rematch_offered", { name: who(offer.by) })),
      h("p", { "data-testid": "rematch-accepted" }, t("table.rematch_accepted", { names: offer.accepted.map(who).join(", ") })));
    if (offer.waiting.length) {
      row.append(h("p", { "data-testid": "rematch-waiting" }, t("table.rematch_awaited", { names: offer.waiting.map(who).join(", ") })));
    }
    if (you === null) return row;
    if (offer.waiting.includes(you)) {
      row.append(h("p", { class: "row" }, button("rematch", t("table.rematch_accept"), () => answer(true)), " ",
        button("rematch-decline", t("table.rematch_decline"), () => answer(false), true)));
    } else if (offer.by === you) {
      row.append(h("p", {}, button("rematch-decline", t("table.rematch_withdraw"), () => answer(false), true)));
    }
    return row;
  }

  function rematchPart(state, table) {
    const seated = state.you !== null;
    const who = (s) => names(table)[s] ?? "?";
    if (table.status !== "finished") return null;
    if (table.rematch) {
      return h("p", {}, h("a", { class: "button", href: `#/table/${table.rematch}`, "data-testid": "rematch-link" }, t("table.rematch_ready")));
    }
    if (table.rematch_offer) return offerRow(table.rematch_offer, state.you, who);
    const row = h("p", { class: "row" });
    if (table.rematch_declined !== null && table.rematch_declined !== undefined) {
      row.append(h("span", { "data-testid": "rematch-declined" }, t("table.rematch_declined", { name: who(table.rematch_declined) })), " ");
    }
    if (seated) row.append(button("rematch", t("table.rematch"), () => answer(true)));
    return row.childNodes.length ? row : null;
  }

  function onward(state) {
    const q = state.invite ? `?invite=${encodeURIComponent(state.invite)}` : "";
    return h("p", { class: "after-game row" },
      h("a", { class: "button secondary", href: `#/replay/${deps.id}${q}`, "data-testid": "replay-link" }, t("table.replay")), " ",
      h("a", { class: "button secondary", href: "#/", "data-testid": "back-to-lobby" }, t("table.back_to_lobby")));
  }

  return function update(state) {
    const table = state.table;
    const result = state.seq === null ? null : state.result || table?.result;
    if (drawn && drawn.table === table && drawn.result === result && drawn.you === state.you) return;
    drawn = { table, result, you: state.you };
    clear(box);
    if (!table || !result) return;
    box.append(renderResult(result, names(table)));
    const rematch = rematchPart(state, table);
    if (rematch) box.append(rematch);
    box.append(onward(state));
  };
}
