// A game's fields, as the new-table and new-tournament forms both offer them: the game, its
// player count and its options at that count (a locked value where the rules allow only one),
// each option in the game's own words (its folder's labels, sent by /api/games).
import { getLang, t } from "./i18n.js";
import { clear, h } from "./ui.js";

/** The fields for `games`; `changed()` runs after the game or the player count changes (the
 * form redraws what depends on them). `prefix` keeps two forms' ids apart. */
export function gameFields(games, { changed = () => {}, prefix = "new" } = {}) {
  const gameSelect = h("select", { name: "game", "data-testid": `${prefix}-game` }, games.map((g) => h("option", { value: g.name }, g.title)));
  const players = h("select", { name: "players", "data-testid": `${prefix}-players` });
  const optionsBox = h("fieldset", { class: "options" });
  const game = () => games.find((g) => g.name === gameSelect.value);

  function fillPlayers() {
    const g = game();
    const keep = Number(players.value) || g.min_players;
    clear(players).append(...range(g.min_players, g.max_players).map((n) => h("option", { value: n }, String(n))));
    players.value = String(Math.min(Math.max(keep, g.min_players), g.max_players));
  }

  function fillOptions() {
    const g = game();
    const n = Number(players.value);
    const previous = readOptions();
    clear(optionsBox).append(h("legend", {}, t("new.options")));
    for (const o of g.options) {
      if (o.players.length && !o.players.includes(n)) continue;
      const id = `${prefix === "new" ? "opt" : `${prefix}-opt`}-${g.name}-${o.name}`;
      let input;
      if (o.type === "bool") input = h("input", { type: "checkbox", id, checked: previous[o.name] ?? o.default });
      else if (o.choices.length) {
        input = h("select", { id }, o.choices.map((c) => h("option", { value: c }, optionWord(g, `${o.name}.${c}`, String(c)))));
        input.value = String(previous[o.name] ?? o.default);
      } else if (o.type === "int") input = h("input", { type: "number", id, min: o.min ?? "", max: o.max ?? "", step: 1, value: previous[o.name] ?? o.default });
      else input = h("input", { type: "text", id, value: previous[o.name] ?? o.default ?? "" });
      const fixed = o.fixed?.[String(n)]; // the rules allow one value at this count: shown, locked
      if (fixed !== undefined) {
        if (o.type === "bool") input.checked = fixed;
        else input.value = String(fixed);
        input.disabled = true;
      }
      input.dataset.option = o.name;
      input.dataset.kind = o.type;
      const label = h("label", { for: id, class: "option-name" }, optionWord(g, o.name, o.name.replace(/_/g, " ")));
      const hint = h("span", { class: "hint", id: `${id}-hint` }, optionWord(g, `${o.name}.hint`, o.description));
      input.setAttribute("aria-describedby", `${id}-hint`);
      optionsBox.append(h("div", { class: o.type === "bool" ? "field check" : "field" },
        o.type === "bool" ? [input, label] : [label, input], hint));
    }
    if (optionsBox.children.length === 1) optionsBox.append(h("p", { class: "hint" }, t("new.no_options")));
  }

  function readOptions() {
    const out = {};
    for (const input of optionsBox.querySelectorAll("[data-option]")) {
      const kind = input.dataset.kind;
      out[input.dataset.option] = kind === "bool" ? input.checked : kind === "int" ? Number(input.value) : input.value;
    }
    return out;
  }

  gameSelect.addEventListener("change", () => { fillPlayers(); fillOptions(); changed(); });
  players.addEventListener("change", () => { fillOptions(); changed(); });
  if (games.length) { fillPlayers(); fillOptions(); }
  return { gameSelect, players, optionsBox, game, readOptions };
}

/** The game's own words for an option (its folder's labels, sent by /api/games) in the page's
 * language, else English, else fallback (the engine's name or description). */
export function optionWord(game, key, fallback) {
  const labels = game.labels || {};
  return labels[getLang()]?.[key] ?? labels.en?.[key] ?? fallback;
}

export function labelled(text, input) {
  return h("label", { class: "field" }, h("span", {}, text), input);
}

function range(a, b) {
  return Array.from({ length: b - a + 1 }, (_, i) => a + i);
}
