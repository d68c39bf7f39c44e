// The renderer host, shared by the table page and the replay: loads a game's renderer from the
// URL /api/games gives (its `web`), mounts it on the game area, updates it with each new
// (view, legal), and destroys it when the page goes. Without a renderer, or when one throws,
// the plain fallback lists the legal actions as buttons and shows the view as JSON.
// The contract a renderer meets is in RENDERERS.md, beside this file.
import { h } from "./dom.js";
import { translator } from "./i18n.js";

const loaded = new Map(); // URL -> Promise<renderer | null>

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

/**
 * A host on `root` for one game. options: {game, url, t (the shell's translator), notify(text),
 * importer}. `draw({view, legal, you, names, lang, act, pending, fallbackWhy})` renders; calls
 * made while the renderer loads are kept and the newest one is drawn when it arrives.
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

  function paint(frame) {
    root.toggleAttribute("aria-busy", !!frame.pending);
    if (renderer) {
      const ctx = {
        view: frame.view, legal: frame.legal, you: frame.you, names: frame.names, lang: frame.lang,
        t: translator(renderer.messages, frame.lang), act: frame.act, notify: options.notify,
        pending: !!frame.pending,
      };
      try {
        renderer.render(root, ctx);
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
    /** Draw a frame (now, or as soon as the renderer has loaded). */
    draw(frame) {
      latest = frame;
      if (renderer !== undefined && !destroyed) paint(frame);
    },
    destroy() {
      destroyed = true;
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
