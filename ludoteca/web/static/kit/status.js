// The status line: one live region saying what the viewer may do now, or whom the table waits
// for. Screen readers hear it change (role="status").
import { h } from "../dom.js";

/** A status element: tag (p or div), its attributes, and what it says. */
export function statusLine(tag, attrs, ...children) {
  return h(tag, { ...attrs, role: "status" }, ...children);
}

/** The names of the seats `seats`, joined for a sentence ("Ana, Luis"). */
export function namesOf(seats, name) {
  return seats.map(name).join(", ");
}
