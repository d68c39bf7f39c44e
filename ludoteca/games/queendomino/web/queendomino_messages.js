// The Queendomino renderer's words, English and Spanish, over the Kingdomino family's; building
// names in both languages.
import { DOMINO_MESSAGES } from "../kingdomino/domino_messages.js";

const BUILDINGS_ES = {
  "Bakery": "Panadería", "Big Tavern": "Taberna grande", "Church": "Iglesia",
  "Fishmonger's": "Pescadería", "Fortified Castle": "Castillo fortificado", "Foundry": "Fundición",
  "Guardtower": "Torre de guardia", "Magic School": "Escuela de magia",
  "Queen's Tower": "Torre de la Reina", "Safe (knight variant)": "Caja fuerte (con caballero)",
  "Safe (tower variant)": "Caja fuerte (con torre)", "Sawmill": "Aserradero",
  "Small Tavern": "Taberna pequeña", "Statue": "Estatua", "Training Camp": "Campo de entrenamiento",
  "Travelling Castle": "Castillo itinerante", "Weaving Shop": "Taller de tejidos",
};
const bkey = (name) => "b_" + name.replace(/[^A-Za-z]+/g, "_");

export const OWN = {
  en: {
    coins: { one: "{n} coin", other: "{n} coins" }, knights_free: { one: "{n} knight to place", other: "{n} knights to place" },
    knights_placed: "{n} placed",
    towers: { one: "{n} tower", other: "{n} towers" }, queen_here: "hosts the Queen",
    board_title: "Builders' board", price: "Price {n}", price_q: "Price {n} (−1 with the Queen: {m})",
    empty_space: "empty", dragon_here: "the Dragon burnt this space",
    build_select: "⌂ Build…", build_selected: "⌂ Selected", burn: "♨ Burn (1 coin)",
    pile: { one: "Pile: {n} tile", other: "Pile: {n} tiles" }, burnt: "Burnt: {list}",
    queen_at: "The Queen: with {name}", queen_none: "The Queen: beside the board",
    dragon_cave: "The Dragon: in its cave", dragon_out: "The Dragon: on space {n} this round",
    steps_hint: "Optional: {steps}; then {end}.", steps_none: "Nothing else to do this turn: {end}.",
    step_knight: "put knights on the domino you just placed (squares marked ♞)", step_build: "build", step_dragon: "use the Dragon",
    end_claim: "choose a domino in the next line", end_pass: "end your turn",
    build_pick_cell: "Choose a town square (marked ⌂) for {name}.",
    build_cancel: "✗ Cancel building",
    pass: "» End my turn",
    knight_on: "Put a knight on {x}, {y}",
    build_on: "Build {name} on {x}, {y}",
    build_label: "Choose {name} from space {space} to build",
    burn_label: "Burn {name} on space {space} with the Dragon (1 coin)",
    building_at: "{name} (building)", knight_mark: "knight", towns_hint: "Squares marked ♞ take a knight.",
    act_knight: "send a knight to {x}, {y}", act_build: "build the building of space {space} at {x}, {y}", act_dragon: "hire the dragon against space {space}", act_pass: "pass",
  },
  es: {
    coins: { one: "{n} moneda", other: "{n} monedas" }, knights_free: { one: "{n} caballero por colocar", other: "{n} caballeros por colocar" },
    knights_placed: { one: "{n} colocado", other: "{n} colocados" },
    towers: { one: "{n} torre", other: "{n} torres" }, queen_here: "acoge a la Reina",
    board_title: "Tablero de constructores", price: "Precio {n}", price_q: "Precio {n} (−1 con la Reina: {m})",
    empty_space: "vacío", dragon_here: "el Dragón quemó este espacio",
    build_select: "⌂ Construir…", build_selected: "⌂ Elegido", burn: "♨ Quemar (1 moneda)",
    pile: { one: "Pila: {n} loseta", other: "Pila: {n} losetas" }, burnt: "Quemadas: {list}",
    queen_at: "La Reina: con {name}", queen_none: "La Reina: junto al tablero",
    dragon_cave: "El Dragón: en su cueva", dragon_out: "El Dragón: en el espacio {n} esta ronda",
    steps_hint: "Opcional: {steps}; después {end}.", steps_none: "No queda nada más por hacer este turno: {end}.",
    step_knight: "pon caballeros en el dominó que acabas de colocar (casillas con ♞)", step_build: "construye", step_dragon: "usa el Dragón",
    end_claim: "elige un dominó de la línea siguiente", end_pass: "termina tu turno",
    build_pick_cell: "Elige una casilla de pueblo (marcada ⌂) para {name}.",
    build_cancel: "✗ Cancelar el edificio",
    pass: "» Terminar mi turno",
    knight_on: "Poner un caballero en {x}, {y}",
    build_on: "Construir {name} en {x}, {y}",
    build_label: "Elegir {name} del espacio {space} para construir",
    burn_label: "Quemar {name} del espacio {space} con el Dragón (1 moneda)",
    building_at: "{name} (edificio)", knight_mark: "caballero", towns_hint: "Las casillas con ♞ admiten un caballero.",
    act_knight: "enviar un caballero a {x}, {y}", act_build: "construir el edificio del espacio {space} en {x}, {y}", act_dragon: "contratar al dragón contra el espacio {space}", act_pass: "pasar",
  },
};
for (const [en, es] of Object.entries(BUILDINGS_ES)) { OWN.en[bkey(en)] = en; OWN.es[bkey(en)] = es; }

export const messages = {
  en: { ...DOMINO_MESSAGES.en, ...OWN.en },
  es: { ...DOMINO_MESSAGES.es, ...OWN.es },
};

/** A building's name: the server's, in the viewer's language (``title``), else the table's. */
export const bname = (t, b) => b.title?.text || (OWN.en[bkey(b.name)] ? t(bkey(b.name)) : b.name);
