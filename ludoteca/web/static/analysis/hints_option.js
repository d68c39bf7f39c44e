// The new-table form's "Allow hints" box (the coach, issue 25). Hints and "Rated" exclude each
// other (the server refuses both: hints_rated), so ticking one unticks the other, and the words
// under the box say so.
import { h } from "../dom.js";
import { t } from "../i18n.js";

/** The field, beside the form's `rated` checkbox; read() is the `hints` the table is made with. */
export function hintsField(rated) {
  const box = h("input", { type: "checkbox", name: "hints", id: "new-hints", "aria-describedby": "new-hints-why", "data-testid": "new-hints" });
  box.addEventListener("change", () => { if (box.checked) rated.checked = false; });
  rated.addEventListener("change", () => { if (rated.checked) box.checked = false; });
  const el = h("div", { class: "field check" }, box, h("label", { for: "new-hints" }, t("coach.option")),
    h("span", { class: "hint", id: "new-hints-why" }, t("coach.option_why")));
  return { el, read: () => box.checked };
}
