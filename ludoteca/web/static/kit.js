// The kit: rule-free widgets every game renderer uses (RENDERERS.md). One module, so a renderer
// costs one request for all of them. Nothing here knows a game: choices come from `legal`,
// words and colours from the renderer.
//
//   choice   a compound choice that narrows the legal actions by successive picks
//   grid     an SVG board of squares, and targets (keyboard-reachable SVG buttons)
//   cards    card faces and backs
//   dice     a die face with its pips
//   status   the status line
//   zoom     the board's −, fit and + control, remembered per game
import { h, svg } from "./dom.js";

// ---- choice ------------------------------------------------------------------------------------

// A compound choice: the legal actions the server sent, narrowed by successive picks (a domino's
// square, then its direction; a defence card, then the attack; a building, then a town square).
// It knows no rule: an action is possible when it is in `legal` and agrees with every pick.
//
//   const choice = createChoice(legal, { cell: (a) => `${a.x},${a.y}`, dir: (a) => a.dir },
//     { only: (a) => a.type === "place", picks: saved });
//   choice.options("cell")   // Map value -> [indices in legal] among actions agreeing with the other picks
//   choice.pick("cell", "2,1") // false when no such action: nothing changes
//   choice.chosen()          // the index in legal once the picks leave exactly one action, else -1
//
// Picks are plain data ({step: value}) so a renderer keeps them across redraws (`picks`) and
// hands them back; a pick the new `legal` no longer allows is dropped.

/** The index of the first legal action `pred` accepts, or -1. */
export function indexOf(legal, pred) {
  for (let i = 0; i < legal.length; i++) if (pred(legal[i])) return i;
  return -1;
}

export function createChoice(legal, steps, { only = () => true, picks = {} } = {}) {
  const names = Object.keys(steps);
  const pool = [];
  legal.forEach((action, index) => { if (only(action)) pool.push(index); });
  const chosen = {};

  const agrees = (index, except) => names.every((step) =>
    step === except || !(step in chosen) || steps[step](legal[index]) === chosen[step]);

  const choice = {
    /** The current picks ({step: value}); keep it to restore the choice after a redraw. */
    get picks() { return { ...chosen }; },
    /** Every action index of the pool (the actions this choice is about). */
    get pool() { return pool.slice(); },
    /** Indices agreeing with every pick (but `except`'s). */
    matching(except = null) {
      return pool.filter((index) => agrees(index, except));
    },
    /** Value -> indices for `step`, among the actions agreeing with the other picks. */
    options(step) {
      const out = new Map();
      for (const index of choice.matching(step)) {
        const value = steps[step](legal[index]);
        if (!out.has(value)) out.set(value, []);
        out.get(value).push(index);
      }
      return out;
    },
    has(step) { return step in chosen; },
    value(step) { return chosen[step]; },
    /** Pick `value` for `step`; false (and no change) when no action agrees with it. */
    pick(step, value) {
      if (!choice.options(step).has(value)) return false;
      chosen[step] = value;
      return true;
    },
    /** Pick `value` for `step` and drop the other picks that no longer fit with it. */
    force(step, value) {
      const previous = { ...chosen };
      for (const other of names) if (other !== step) delete chosen[other];
      if (!choice.pick(step, value)) { Object.assign(chosen, previous); return false; }
      for (const other of names) if (other !== step && other in previous) choice.pick(other, previous[other]);
      return true;
    },
    drop(step) { delete chosen[step]; },
    clear() { for (const step of names) delete chosen[step]; },
    /** The one action left once every step is picked, else -1. */
    chosen() {
      if (!names.every((step) => step in chosen)) return -1;
      const left = choice.matching();
      return left.length === 1 ? left[0] : -1;
    },
  };
  for (const step of names) if (step in picks) choice.pick(step, picks[step]);
  return choice;
}

// ---- grid --------------------------------------------------------------------------------------

// An SVG grid with clickable targets, for boards of squares (kingdoms, patchwork boards). It
// lays out cells and makes targets keyboard-reachable buttons; which cells are targets, and
// what a target does, the renderer says from `legal`.

/**
 * An <svg> of cols x rows squares of `size`, the cell at grid (x, y) drawn by
 * `cell(x, y, X, Y)` (X, Y: its top-left corner in the viewBox; return an element or null).
 * origin: the grid coordinates of the top-left cell; offset: where that cell's corner is drawn
 * (room for labels); pad: room around everything; viewBox: instead of the computed one;
 * attrs: the <svg>'s own attributes; under: elements drawn first (a background, labels).
 */
export function svgGrid({ cols, rows, size, origin = [0, 0], offset = [0, 0], pad = 0, viewBox = null, attrs = {}, under = [], cell }) {
  const width = cols * size, height = rows * size;
  const box = viewBox ?? `${-pad} ${-pad} ${width + 2 * pad} ${height + 2 * pad}`;
  const root = svg("svg", { viewBox: box, ...attrs }, under);
  for (let y = origin[1]; y < origin[1] + rows; y++) {
    for (let x = origin[0]; x < origin[0] + cols; x++) {
      const el = cell(x, y, offset[0] + (x - origin[0]) * size, offset[1] + (y - origin[1]) * size);
      if (el) root.append(el);
    }
  }
  return root;
}

/** Make an SVG element a keyboard-reachable button named `label`; `fn` runs on click, Enter
 * and Space. `title`: also give it a tooltip. `cls`: a class marking it active. */
export function target(el, label, fn, { title = true, cls = null, stop = true } = {}) {
  el.setAttribute("tabindex", "0");
  el.setAttribute("role", "button");
  el.setAttribute("aria-label", label);
  if (cls) el.classList.add(cls);
  el.addEventListener("click", (e) => { if (stop) e.stopPropagation(); fn(e); });
  el.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); fn(e); }
  });
  if (title) el.append(svg("title", {}, label));
  return el;
}

/**
 * Move the letters and numbers drawn inside targets (role="button") of `root` to a top layer
 * that ignores the pointer and assistive tech: a control's accessible name must contain the
 * text inside it (voice control users say what they see), and its label already says what the
 * letters say. Coordinates are absolute in the SVG, so the text stays where it was drawn.
 */
export function liftTargetText(root, cls) {
  const ink = svg("g", { class: cls, "aria-hidden": "true", "pointer-events": "none" });
  for (const text of root.querySelectorAll('[role="button"] text')) ink.append(text);
  if (ink.childNodes.length) root.append(ink);
  return root;
}

// ---- cards -------------------------------------------------------------------------------------

// Cards as HTML: a face (corner value, glyph, name) or a back, each an image with a label.
// The renderer gives the classes (its stylesheet draws them) and the words.

/** A card face. cls: its classes; label: what it is called (aria-label and tooltip);
 * corner, glyph, name: the three marks printed on it (hidden from assistive tech). */
export function cardFace({ cls, label, corner, glyph, name, prefix = "kc" }) {
  return h("span", { class: cls, title: label, "aria-label": label, role: "img" },
    h("span", { class: `${prefix}-pts`, "aria-hidden": "true", text: String(corner) }),
    h("span", { class: `${prefix}-glyph`, "aria-hidden": "true", text: glyph }),
    h("span", { class: `${prefix}-name`, "aria-hidden": "true", text: name }));
}

/** A card's back: nothing shown but that it is there. */
export function cardBack({ cls, label }) {
  return h("span", { class: cls, role: "img", "aria-label": label, title: label });
}

/** Identical cards grouped: [[card, count]] in first-seen order. */
export function grouped(cards) {
  const counts = new Map();
  for (const c of cards) counts.set(c, (counts.get(c) || 0) + 1);
  return [...counts];
}

// ---- dice --------------------------------------------------------------------------------------

// Dice as SVG: a face with its pips, in a <figure> with a caption. The renderer gives colours
// and words.

/** Pip positions on a 3x3 lattice (-1, 0, 1) for each face. */
export const PIPS = {
  1: [[0, 0]],
  2: [[-1, -1], [1, 1]],
  3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

/** A die showing `n`. look: {face, pip, stroke, strokeWidth}; label: its name for everyone;
 * caption: the children of its visible caption; cls: the figure's classes. */
export function die({ n, look, label, caption, cls }) {
  const pips = PIPS[n].map(([x, y]) => svg("circle", { cx: 20 + x * 9, cy: 20 + y * 9, r: 3.6, fill: look.pip }));
  return h("figure", { class: cls, "aria-label": label, title: label, role: "img" },
    svg("svg", { viewBox: "0 0 40 40", "aria-hidden": "true" },
      svg("rect", { x: 2, y: 2, width: 36, height: 36, rx: 7, fill: look.face, stroke: look.stroke, "stroke-width": look.strokeWidth }),
      ...pips),
    h("figcaption", { "aria-hidden": "true" }, caption));
}

// ---- status ------------------------------------------------------------------------------------

// The status line: one live region saying what the viewer may do now, or whom the table waits
// for. Screen readers hear it change (role="status").

/** A status element: tag (p or div), its attributes, and what it says. */
export function statusLine(tag, attrs, ...children) {
  return h(tag, { ...attrs, role: "status" }, ...children);
}

/** The names of the seats `seats`, joined for a sentence ("Ana, Luis"). */
export function namesOf(seats, name) {
  return seats.map(name).join(", ");
}

// ---- zoom --------------------------------------------------------------------------------------

// The zoom control every board uses: −, fit and + buttons that set the CSS variable --zoom (1:
// the board fits its place) on the game area, remembered per game in localStorage. It knows no
// game: the renderer gives the words and the element, and its stylesheet decides what --zoom
// scales.

export const ZOOM_LEVELS = [0.5, 0.65, 0.8, 1, 1.25, 1.5, 1.8, 2.2];
const FIT = 1;
const storeKey = (key) => `ludoteca.zoom.${key}`;

/** The remembered level for `key` (FIT when none, or when what is stored is not a level). */
export function zoomLevel(key, storage = globalThis.localStorage) {
  let value = NaN;
  try { value = Number(storage?.getItem(storeKey(key))); } catch { /* storage refused: not remembered */ }
  return ZOOM_LEVELS.includes(value) ? value : FIT;
}

/** Set `level` on `el` (the --zoom variable, and data-zoom for tests and styles). */
export function applyZoom(el, level) {
  el.style.setProperty("--zoom", String(level));
  el.dataset.zoom = String(level);
}

/**
 * The control for the board in `el` (usually the renderer's root), named by `key` (the game).
 * words: {group, zoomIn, zoomOut, fit} in the reader's language. Applies the remembered level
 * at once. Returns the control (a labelled group of three buttons).
 */
export function zoomControl(el, key, words, storage = globalThis.localStorage) {
  let level = zoomLevel(key, storage);
  const out = h("button", { type: "button", class: "zoom-btn", "data-testid": "zoom-out", "aria-label": words.zoomOut, title: words.zoomOut }, "−");
  const fit = h("button", { type: "button", class: "zoom-btn zoom-fit", "data-testid": "zoom-fit", title: words.fit }, words.fit);
  const more = h("button", { type: "button", class: "zoom-btn", "data-testid": "zoom-in", "aria-label": words.zoomIn, title: words.zoomIn }, "+");
  const set = (next) => {
    level = next;
    applyZoom(el, level);
    try { storage?.setItem(storeKey(key), String(level)); } catch { /* not remembered */ }
    const i = ZOOM_LEVELS.indexOf(level);
    out.disabled = i <= 0;
    more.disabled = i >= ZOOM_LEVELS.length - 1;
    fit.setAttribute("aria-pressed", String(level === FIT));
  };
  const step = (by) => set(ZOOM_LEVELS[Math.min(ZOOM_LEVELS.length - 1, Math.max(0, ZOOM_LEVELS.indexOf(level) + by))]);
  out.addEventListener("click", () => step(-1));
  more.addEventListener("click", () => step(1));
  fit.addEventListener("click", () => set(FIT));
  set(level);
  return h("div", { class: "zoom", role: "group", "aria-label": words.group, "data-testid": "zoom" }, out, fit, more);
}
