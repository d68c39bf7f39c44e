// The replay viewer: a finished match after its first N actions (GET /api/tables/{id}/replay?at=N),
// drawn by the game's renderer as the server's chosen seat saw it (yours; once the match is over
// any seat's, picked in "Seen by"), with step, play/pause, jump and download; the arrow keys
// step, Home and End go to the start and the end.
import { get } from "./api.js";
import { analysisPanel } from "./analysis/panel.js";
import { useRendererWords } from "./analysis/words.js";
import { createHost } from "./host.js";
import { getLang, t } from "./i18n.js";
import { renderResult } from "./score.js";
import { clear, h, toast } from "./ui.js";

export function mount(main, { id, query }, session) {
  const invite = query.get("invite") || "";
  const suffix = invite ? `&invite=${encodeURIComponent(invite)}` : "";
  let at = Number(query.get("at") || 0);
  let want = at; // the move last asked for: steps count from it, so two quick steps make two
  let total = null;
  let table = null;
  let timer = 0;
  let host = null;
  let closed = false;
  let loading = 0;
  let seat = query.get("seat") ?? ""; // "" lets the server choose: your own seat, else a spectator

  const title = h("h1", {}, t("replay.title"));
  const position = h("p", { class: "replay-position", "aria-live": "polite", "data-testid": "replay-position" });
  const events = h("p", { class: "replay-events" });
  const gameRoot = h("div", { class: "game", "data-testid": "game-root" });
  const resultBox = h("div", {});
  const jump = h("input", { type: "number", min: 0, value: at, "aria-label": t("replay.jump_to"), "data-testid": "replay-jump" });
  const button = (label, text, fn, testid) => h("button", { type: "button", "aria-label": label, title: label, onclick: fn, "data-testid": testid }, text);
  /** A button whose words are shown beside its symbol, not only to screen readers. */
  const labelled = (label, text, fn, testid, after = false) => h("button", { type: "button", onclick: fn, "data-testid": testid },
    after ? `${label} ${text}` : `${text} ${label}`);
  const playButton = button(t("replay.play"), "▶", toggle, "replay-play");
  const download = h("a", { class: "button secondary", href: `/api/tables/${encodeURIComponent(id)}/record${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`,
    download: `ludoteca-${id}.json`, "data-testid": "replay-download" }, t("replay.download"));
  const bar = h("div", { class: "replay-bar row", role: "toolbar", "aria-label": t("replay.controls") },
    labelled(t("replay.first"), "⇤", () => show(0), "replay-first"),
    button(t("replay.back"), "◀", () => show(want - 1), "replay-back"),
    playButton,
    button(t("replay.forward"), "▶|", () => show(want + 1), "replay-forward"),
    labelled(t("replay.last"), "⇥", () => show(total ?? 1e9), "replay-last", true),
    h("form", { class: "row", onsubmit: (e) => { e.preventDefault(); show(Number(jump.value)); } },
      jump, h("button", { type: "submit" }, t("replay.jump"))),
    download);
  let shown = null; // the view drawn: drawn again with the analysis's moves once it comes
  const analysis = analysisPanel({ id, invite, session, jump: (n) => { stop(); show(n); }, redraw: () => shown && draw(shown) });
  const seenBy = seatPicker();
  clear(main).append(title, bar, seenBy.box, position, events, gameRoot, resultBox, analysis.el,
    h("p", {}, h("a", { href: `#/table/${id}${invite ? `?invite=${encodeURIComponent(invite)}` : ""}` }, t("replay.back_to_table"))));

  function toggle() {
    if (timer) stop();
    else {
      if (total !== null && at >= total) show(0);
      timer = setInterval(() => {
        if (total !== null && at >= total) stop();
        else show(at + 1);
      }, 1200);
      playButton.textContent = "❚❚";
      playButton.setAttribute("aria-label", t("replay.pause"));
    }
  }

  function stop() {
    clearInterval(timer);
    timer = 0;
    playButton.textContent = "▶";
    playButton.setAttribute("aria-label", t("replay.play"));
  }

  async function show(n) {
    n = Math.max(0, Math.min(Math.floor(Number(n) || 0), total ?? Number.MAX_SAFE_INTEGER));
    want = n;
    const ticket = ++loading;
    let data;
    try {
      data = await get(`/api/tables/${encodeURIComponent(id)}/replay?at=${n}${seat === "" ? "" : `&seat=${seat}`}${suffix}`);
    } catch (error) {
      want = at;
      stop();
      if (total === null) clear(gameRoot).append(h("p", { class: "error", "data-testid": "fatal" }, error.message));
      else toast(error.message);
      return;
    }
    if (closed || ticket !== loading) return;
    at = data.at;
    total = data.total;
    table = data.table;
    jump.max = total;
    jump.value = at;
    title.textContent = t("replay.heading", { title: table.title, id: table.id });
    position.textContent = t("replay.position", { at, total });
    events.textContent = (data.events || []).map((e) => e.text).join(" ");
    history.replaceState(null, "", `#/replay/${id}?at=${at}${seat === "" ? "" : `&seat=${seat}`}${suffix}`);
    seenBy.update(data);
    analysis.el.hidden = table.status !== "finished"; // a match being played has no analysis yet
    if (!analysis.el.hidden) analysis.step(at, table, data.hints);
    await draw(data.view);
    clear(resultBox);
    if (at === total && table.result) resultBox.append(renderResult(table.result, names()));
  }

  const names = () => table.seats.map((s) => s.name ?? t("seat.free"));
  /** The signed-in reader's own seat at this table (account names are unique), else null: the
   * view shown may be another seat's ("Seen by"), and a renderer says "your" only of their own. */
  const ownSeat = () => {
    const mine = table.seats.find((s) => s.user != null && s.user === session.me?.name);
    return mine ? mine.seat : null;
  };

  /** "Seen by": once the match is over, whose view (and hand) to show; hidden before, when the
   * server shows only your own. */
  function seatPicker() {
    const select = h("select", { id: "replay-seat", "data-testid": "replay-seat",
      onchange: () => { seat = select.value; show(want); } });
    const box = h("p", { class: "row replay-seat", hidden: true },
      h("label", { for: "replay-seat" }, t("replay.seen_by")), select,
      h("span", { class: "hint" }, t("replay.seen_by_hint")));
    return {
      box,
      update(data) {
        box.hidden = data.table.status !== "finished";
        if (!box.hidden && !select.options.length) {
          select.append(h("option", { value: "" }, t("replay.spectator")),
            ...names().map((name, s) => h("option", { value: String(s) }, name)));
        }
        select.value = String(data.viewer ?? "");
      },
    };
  }

  /** The position through the renderer host, as the server's chosen seat saw it: nothing to choose. */
  async function draw(view) {
    if (!host) {
      const web = session.games.find((g) => g.name === table.game)?.web; // in the game's folder
      host = createHost(gameRoot, { game: table.game, url: web, t, notify: (text) => toast(text, "info") });
      useRendererWords((action) => host.describe(action, getLang())); // the game says its actions (a card by its name)
      host.ready.then(() => { if (!closed) analysis.reword(); }); // words said before it loaded were generic
    }
    shown = view;
    host.draw({ view, legal: [], you: null, own: ownSeat(), names: names(), lang: getLang(), act: () => false, pending: null,
      show: analysis.show(at) });
    await host.ready;
  }

  /** ← and → step a move, Home and End jump, unless the keys are typing somewhere. */
  function onKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.target?.closest?.("input, textarea, select, [contenteditable]")) return;
    const to = { ArrowLeft: want - 1, ArrowRight: want + 1, Home: 0, End: total ?? 1e9 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    stop();
    show(to);
  }
  document.addEventListener("keydown", onKey);

  show(at);
  return () => {
    closed = true;
    document.removeEventListener("keydown", onKey);
    stop();
    analysis.destroy();
    host?.destroy();
    useRendererWords(null);
  };
}
