// The seats panel: who sits where, bots, take-overs, whose turn, the clocks, and before the start
// the seat controls (sit, add a bot, the host frees a seat), the table's terms, the invite link
// and "leave". The clocks count down on the page's own monotonic clock from the `seconds` the
// server sent (docs/protocol.md, "Clocks"), never from the wall clock, which may be off.
import { attempt, del, post } from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { clear, formatClock, toast } from "../ui.js";

/**
 * The panel on `box`. deps: {me, games (session.games), id, invite (the page's own), store}.
 * Returns update(state): redraw when the summary, the turn or the clocks changed.
 */
export function seatsView(box, deps) {
  const { me, id, store } = deps;
  const seatedHere = (table) => !!me && table.seats.some((s) => s.user === me.name);
  const replace = (table) => store.dispatch({ type: "table", table });

  function freeSeatControls(table, seat) {
    const span = h("span", { class: "seat-actions" });
    if (!me) {
      span.append(h("a", { href: `#/signin?next=${encodeURIComponent(location.hash)}` }, t("table.signin_to_join")));
      return span;
    }
    if (!seatedHere(table)) {
      span.append(h("button", { type: "button", "data-testid": `join-${seat}`, onclick: () => attempt(async () => {
        replace(await post(`/api/tables/${id}/join`, { seat, invite: deps.invite || undefined }));
      }) }, t("table.sit")));
      return span;
    }
    const levels = deps.games.find((g) => g.name === table.game)?.bots || ["greedy"];
    const select = h("select", { "aria-label": t("table.bot_level") }, levels.map((lv) => h("option", { value: lv }, t(`bot.${lv}`))));
    select.value = levels.includes("greedy") ? "greedy" : levels[0];
    span.append(select, h("button", { type: "button", "data-testid": `bot-${seat}`, onclick: () => attempt(async () => {
      replace(await post(`/api/tables/${id}/bots`, { level: select.value, seat }));
    }) }, t("table.add_bot")));
    return span;
  }

  /** The host frees a stranger's seat or a bot's before the start. */
  function removeControl(seat) {
    return h("span", { class: "seat-actions" }, h("button", { type: "button", class: "secondary",
      "data-testid": `remove-${seat.seat}`, "aria-label": t("table.remove_seat", { n: seat.seat + 1 }),
      onclick: () => attempt(async () => replace(await del(`/api/tables/${id}/seats/${seat.seat}`))) }, t("table.remove")));
  }

  async function leave() {
    const table = store.state.table;
    if (table.status === "playing" && !confirm(t("table.leave_confirm"))) return;
    const summary = await attempt(() => post(`/api/tables/${id}/leave`));
    if (summary) replace(summary);
  }

  function seatItem(state, table, seat) {
    const clock = state.clocks?.find((c) => c.seat === seat.seat);
    const acting = state.status === "playing" && state.to_act.includes(seat.seat);
    const you = state.seq !== null && state.you === seat.seat;
    const item = h("li", { class: `seat${acting ? " acting" : ""}${you ? " you" : ""}`, "data-testid": `seat-${seat.seat}` },
      h("span", { class: "seat-no" }, `${seat.seat + 1}`),
      h("span", { class: "seat-name" }, seat.user
        ? h("a", { href: `#/player/${encodeURIComponent(seat.user)}` }, seat.name)
        : seat.name ?? t("seat.free")),
      seat.bot ? h("span", { class: "tag" }, t("seat.bot", { level: t(`bot.${seat.bot}`) })) : null,
      seat.zombie ? h("span", { class: "tag warn" }, t("seat.zombie")) : null,
      you ? h("span", { class: "tag" }, t("seat.you")) : null,
      acting ? h("span", { class: "tag turn", "aria-label": t("seat.to_act") }, "▶ " + t("seat.to_act")) : null,
      clock && state.status === "playing"
        ? h("span", { class: `clock${clock.running ? " running" : ""}`, "data-clock-seat": clock.seat },
          formatClock(clockSeconds(clock, state.clockAt)))
        : null);
    const open = table.status === "open";
    if (open && seat.name === null) item.append(freeSeatControls(table, seat.seat));
    else if (open && me && table.host === me.name && seat.user !== me.name) item.append(removeControl(seat));
    return item;
  }

  function terms(table) {
    return [t(table.mode === "turn" ? "table.mode_turn" : "table.mode_live", {
      bank: Math.round(table.bank_seconds / 60), inc: table.increment_seconds, hours: table.turn_hours }),
    table.rated ? t("table.rated") : t("table.unrated"), table.private ? t("table.private") : null].filter(Boolean).join(" · ");
  }

  function inviteLink(table, invite) {
    const link = `${location.origin}${location.pathname}#/table/${table.id}?invite=${encodeURIComponent(invite)}`;
    return h("p", { class: "invite" }, h("label", {}, t("table.invite_link"),
      h("input", { type: "text", readonly: true, value: link, "data-testid": "invite-link", onfocus: (e) => e.target.select() })),
    h("button", { type: "button", onclick: () => navigator.clipboard?.writeText(link).then(() => toast(t("table.copied"), "info")) }, t("table.copy")));
  }

  return function update(state, previous) {
    const table = state.table;
    if (!table) return;
    if (previous && previous.table === table && previous.to_act === state.to_act && previous.clocks === state.clocks
        && previous.status === state.status && previous.you === state.you) return;
    clear(box).append(h("h2", {}, t("table.seats")));
    box.append(h("ul", { class: "seat-list" }, table.seats.map((seat) => seatItem(state, table, seat))));
    box.append(h("p", { class: "hint" }, terms(table)));
    if (table.private && state.invite) box.append(inviteLink(table, state.invite));
    if (seatedHere(table) && (table.status === "open" || table.status === "playing")) {
      box.append(h("button", { type: "button", class: "secondary", "data-testid": "leave", onclick: leave }, t("table.leave")));
    }
  };
}

/** Seconds left on `clock` now, its `seconds` having been true at `since` (ms, monotonic). */
export function clockSeconds(clock, since, now = performance.now()) {
  if (!clock.running) return clock.seconds;
  return clock.seconds - (now - since) / 1000;
}

/** Keep the clock numbers of `box` (the seats panel) running; returns a stop function. */
export function runClocks(box, store, every = 250) {
  const tick = () => {
    const state = store.state;
    for (const clock of state.clocks || []) {
      const el = box.querySelector(`[data-clock-seat="${clock.seat}"]`);
      if (!el) continue;
      const left = clockSeconds(clock, state.clockAt);
      el.textContent = formatClock(left);
      el.classList.toggle("low", clock.running && left < 30 && state.table?.mode === "live");
    }
  };
  const timer = setInterval(tick, every);
  return () => clearInterval(timer);
}
