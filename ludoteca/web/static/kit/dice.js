// Dice as SVG: a face with its pips, in a <figure> with a caption. The renderer gives colours
// and words.
import { h, svg } from "../dom.js";

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
