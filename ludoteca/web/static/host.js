// The renderer host, shared by the table page and the replay: loads a game's renderer from the
// URL /api/games gives (its `web`), mounts it on the game area, updates it with each new
// (view, legal), and destroys it when the page goes. Without a renderer, or when one throws,
// the plain fallback lists the legal actions as buttons and shows the view as JSON. Around each
// render it marks what the new view changed (data-key / data-sig, `just-changed`; below).
// The contract a renderer meets is in RENDERERS.md, beside this file.
import { cssSettled, h } from "./dom.js";
import { translator } from "./i18n.js";

const loaded = new Map(); // URL -> Promise<renderer | null>
const showers = new Map(); // URL -> Promise<show function> (a renderer's `show` module)

/** A renderer's `show` given as its module's URL, loaded the first time the analysis's moves are
 * drawn: a table page without hints never fetches it. */
function loadShow(url, importer) {
  if (!showers.has(url)) {
    showers.set(url, importer(url).then((m) => m.show, (error) => {
      console.error(`no show at ${url} (${error?.message})`);
      return () => {};
    }));
  }
  return showers.get(url);
}

/** The renderer module at `url` (null: none, or it failed to load; the fallback draws). */
export function loadRenderer(url, importer = (u) => import(u)) {
  if (!url) return Promise.resolve(null);
  if (!loaded.has(url)) {
    loaded.set(url, importer(url).then((m) => m.default ?? null, (error) => {
      console.info(`no renderer at ${url} (${error?.message}); using the fallback`);
      return null;
    }));
  }
  return loaded.get(url);
}

/** A redraw removed the focused element: focus its namesake, else the first control of the
 * new view, else the game itself, so a keyboard player goes on from the board, not the page's
 * top. */
function keepFocus(root, testid) {
  const again = (testid && root.querySelector(`[data-testid="${CSS.escape(testid)}"]`))
    || root.querySelector('[data-action-index]:not([disabled]), [data-target="1"], [data-source]');
  if (again) { again.focus({ preventScroll: true }); return; }
  if (!root.hasAttribute("tabindex")) root.setAttribute("tabindex", "-1");
  root.focus({ preventScroll: true });
}

/**
 * A host on `root` for one game. options: {game, url, t (the shell's translator), notify(text),
 * importer}. `draw({view, legal, you, own, names, lang, act, pending, seq, fallbackWhy})` renders
 * (`own`, the viewer's own seat, defaults to `you`: only the replay tells them apart); calls
 * made while the renderer loads are kept and the newest one is drawn when it arrives. `seq` (else
 * the view's `ply`) tells a new view from a redraw of the same one, for the last-move marks.
 */
export function createHost(root, options) {
  const { t } = options;
  let renderer; // undefined: loading; null: fallback
  let latest = null;
  let destroyed = false;
  const ready = loadRenderer(options.url, options.importer).then((found) => {
    renderer = found;
    if (!destroyed && latest) paint(latest);
    return found;
  });
  root.classList.add(`game-${options.game}`);
  const marks = createMarks(root);
  let shower = null; // the renderer's show(root, ctx), once loaded

  /** The analysis's moves on the board: `renderer.show` is the function or its module's URL. */
  function show(ctx) {
    const spec = renderer.show;
    if (typeof spec === "function") return spec(root, ctx);
    if (shower) return shower(root, ctx);
    loadShow(spec, options.importer ?? ((u) => import(u))).then((found) => {
      shower = found;
      if (!destroyed && latest) paint(latest); // drawn again, now with the moves
    });
  }

  function paint(frame) {
    const id = frame.seq ?? frame.view?.ply ?? null;
    const focused = document.activeElement;
    const hadFocus = focused !== root && root.contains(focused);
    const testid = hadFocus ? focused.dataset?.testid : undefined;
    marks.before(id);
    draw(frame);
    if (cssSettled()) showWhenStyled();
    marks.after(id);
    if (hadFocus && !root.contains(document.activeElement)) keepFocus(root, testid);
  }

  /** A sheet the renderer just linked is on its way: the game is shown once styled, not as a
   * flash of raw SVG (a card as wide as the page). */
  function showWhenStyled() {
    const styling = cssSettled();
    root.style.visibility = styling ? "hidden" : "";
    if (styling) styling.then(showWhenStyled);
  }

  function draw(frame) {
    root.toggleAttribute("aria-busy", !!frame.pending);
    if (renderer) {
      const ctx = {
        view: frame.view, legal: frame.legal, you: frame.you, own: frame.own ?? frame.you ?? null,
        names: frame.names, lang: frame.lang,
        t: translator(renderer.messages, frame.lang), act: frame.act, notify: options.notify,
        pending: !!frame.pending, show: frame.show ?? null,
      };
      try {
        renderer.render(root, ctx);
        if (ctx.show && renderer.show) show(ctx); // the analysis's moves (RENDERERS.md)
        return;
      } catch (error) {
        console.error(error);
        fallback(root, frame, t("table.renderer_failed"), t);
        return;
      }
    }
    fallback(root, frame, frame.fallbackWhy ?? t(frame.legal.length ? "table.fallback" : "table.fallback_watch"), t);
  }

  return {
    ready,
    /** An action in the renderer's own words (its optional `describe`), or null: the shell
     * then says it generically (analysis/words.js). */
    describe(action, lang) {
      if (!renderer?.describe) return null;
      try { return renderer.describe(action, translator(renderer.messages, lang)) ?? null; } catch { return null; }
    },
    /** Draw a frame (now, or as soon as the renderer has loaded). */
    draw(frame) {
      latest = frame;
      if (renderer !== undefined && !destroyed) paint(frame);
    },
    destroy() {
      destroyed = true;
      marks.stop();
      if (renderer?.destroy) renderer.destroy(root);
    },
  };
}

/** The plain renderer: every legal action as a button, and the view as JSON. */
export function fallback(root, frame, why, t) {
  root.replaceChildren(h("p", { class: "hint" }, why));
  if (frame.legal.length) {
    root.append(h("div", { class: "fallback-actions", role: "group", "aria-label": t("table.legal") },
      frame.legal.map((action, i) => h("button", { type: "button", class: "action", dataset: { actionIndex: String(i) },
        onclick: () => frame.act(action) }, JSON.stringify(action)))));
  }
  root.append(h("details", { class: "view-json" }, h("summary", {}, t("table.view_json")),
    h("pre", {}, JSON.stringify(frame.view, null, 1))));
}

// ---- what just happened ------------------------------------------------------------------------
// Last-move marks (RENDERERS.md, "What just happened"): the host compares the keyed elements
// (data-key, data-sig) of a new view with the previous view's; what is new or changed gets the
// class `just-changed` until the next new view, and what moved on screen slides from its old
// place (FLIP, the Web Animations API) unless the reader asked for reduced motion; a new
// element may name in `data-from` the keyed element it came from, and slides from there. No
// game knowledge here: keys and sigs are the renderer's.

export const MARK = "just-changed";
const DURATION = 250; // ms

/** The keyed elements under `root`: key -> {sig, x, y} (x, y: on-screen top-left). */
export function snapshot(root) {
  const out = new Map();
  for (const el of root.querySelectorAll("[data-key]")) {
    const box = el.getBoundingClientRect ? el.getBoundingClientRect() : null;
    out.set(el.getAttribute("data-key"), { sig: el.getAttribute("data-sig") ?? "", x: box?.left ?? 0, y: box?.top ?? 0 });
  }
  return out;
}

/** The keys whose element is new in `after` or whose sig changed since `before`. */
export function changedKeys(before, after) {
  const keys = new Set();
  for (const [key, now] of after) {
    const was = before.get(key);
    if (!was || was.sig !== now.sig) keys.add(key);
  }
  return keys;
}

/** Put the mark on the elements of `keys` under `root` (and only on them). */
export function applyMarks(root, keys) {
  for (const el of root.querySelectorAll(`.${MARK}`)) {
    if (!keys.has(el.getAttribute("data-key"))) el.classList.remove(MARK);
  }
  if (!keys.size) return;
  for (const el of root.querySelectorAll("[data-key]")) {
    if (keys.has(el.getAttribute("data-key"))) el.classList.add(MARK);
  }
}

/** True when the reader asked for reduced motion (then nothing slides). */
export function reducedMotion(win = globalThis.window) {
  return !!win?.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
}

/**
 * Slide every keyed element of `after` whose on-screen place differs from `before`'s from the
 * old place to the new (FLIP: the inverse offset as a transform, animated to none). An element
 * whose key is new but that names in `data-from` a key of `before` (a placed domino's squares,
 * from the domino in its line) starts from that element's old place; several elements from
 * the same key move as one piece (their common top-left starts there, so their layout holds).
 * SVG elements take the offset in their own user units. Returns the animations started.
 */
export function slide(root, before, { duration = DURATION } = {}) {
  const moves = []; // [element, its box, the old place it starts from]
  const corners = new Map(); // data-from key -> the top-left of the new elements coming from it
  for (const el of root.querySelectorAll("[data-key]")) {
    if (typeof el.animate !== "function") continue;
    const was = before.get(el.getAttribute("data-key"));
    const from = was ? null : el.getAttribute("data-from");
    if (!was && !before.has(from)) continue; // new, and from nowhere on screen: nothing slides
    const box = el.getBoundingClientRect();
    if (was) { moves.push([el, box, was]); continue; }
    const c = corners.get(from) ?? { x: Infinity, y: Infinity };
    corners.set(from, { x: Math.min(c.x, box.left), y: Math.min(c.y, box.top) });
    moves.push([el, box, null, from]);
  }
  // Every offset is read before any animation starts: reading a layout after an animate()
  // call would lay the page out again, once per moving element.
  const offsets = [];
  for (const [el, box, was, from] of moves) {
    // from another key: every element of the piece takes the offset of their common corner
    const at = was ? { x: box.left, y: box.top } : corners.get(from);
    const old = was ?? before.get(from);
    let dx = old.x - at.x, dy = old.y - at.y;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    const ctm = el.ownerSVGElement?.getScreenCTM?.();
    if (ctm && ctm.a && ctm.d) { dx /= ctm.a; dy /= ctm.d; }
    offsets.push([el, dx, dy]);
  }
  return offsets.map(([el, dx, dy]) => el.animate(
    [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], { duration, easing: "ease-out" }));
}

/**
 * The marks of one game area. Call `before(id)` just before a render and `after(id)` just
 * after it; `id` names the view (its seq or ply): a new id marks what changed since the last
 * view, the same id (a redraw) keeps the marks as they were. The first view marks nothing.
 * Marks survive the renderer redrawing on its own (a picked square) through a
 * MutationObserver. `stop()` drops the observer.
 */
export function createMarks(root, { win = globalThis.window } = {}) {
  let shown = null; // the id of the view on screen, null before the first
  let previous = null; // snapshot of the view on screen, taken before the new one rendered
  let marked = new Set();
  let fresh = false;
  const Observer = win?.MutationObserver ?? globalThis.MutationObserver;
  const observer = Observer ? new Observer(() => { if (marked.size) applyMarks(root, marked); }) : null;
  observer?.observe(root, { childList: true, subtree: true });

  return {
    get marked() { return new Set(marked); },
    before(id) {
      fresh = shown !== null && id !== shown;
      previous = fresh ? snapshot(root) : null;
    },
    after(id) {
      if (fresh) {
        marked = changedKeys(previous, snapshot(root));
        if (!reducedMotion(win)) slide(root, previous);
      } else if (shown === null || id !== shown) {
        marked = new Set();
      }
      shown = id;
      previous = null;
      fresh = false;
      applyMarks(root, marked);
      observer?.takeRecords();
    },
    stop() { observer?.disconnect(); },
  };
}
