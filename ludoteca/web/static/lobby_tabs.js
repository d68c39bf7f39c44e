// The lobby's two tabs: its tables (#/) and its tournaments (#/tournaments). They are links,
// each its own address (the back button and a shared link keep the tab), the shown one marked
// aria-current.
import { t } from "./i18n.js";
import { h } from "./ui.js";

export function lobbyTabs(current) {
  const tab = (name, href) => h("a", { href, class: current === name ? "tab current" : "tab",
    "aria-current": current === name ? "page" : null, "data-testid": `tab-${name}` }, t(`lobby.tab_${name}`));
  return h("nav", { class: "tabs", "aria-label": t("lobby.tabs") }, tab("tables", "#/"), tab("tournaments", "#/tournaments"));
}
