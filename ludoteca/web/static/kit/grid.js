// An SVG grid with clickable targets, for boards of squares (kingdoms, Buttons boards). It
// lays out cells and makes targets keyboard-reachable buttons; which cells are targets, and
// what a target does, the renderer says from `legal`.
import { svg } from "../dom.js";

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
