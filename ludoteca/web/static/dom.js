// DOM builders shared by the shell (through ui.js) and the game renderers (games/<game>/web/ import
// "/static/dom.js"). No imports of its own, so a renderer does not pull in the shell. Text always goes
// in as text, never as HTML.
//
//   h("button", {class: "x", onclick: f, disabled: true, "data-testid": "y"}, "label", child, [more])
//   svg("rect", {x: 0, width: 10, class: "c", text: "…"}, child…)
//
// Attributes: null, undefined and false are left out; true gives an empty (boolean) attribute;
// `text` sets textContent (before the children); `on<event>` with a function adds a listener;
// `class` sets the class attribute; `dataset` ({actionIndex: "1"}) is merged into el.dataset;
// on HTML elements a non-string value whose key is an element property (checked, value: 10,
// disabled, hidden…) is assigned to the property; anything else is set as an attribute (String).
// Children: arrays are flattened to any depth, null/undefined/false are skipped, nodes are
// appended as they are and anything else as text (so 0 shows "0").

const SVG_NS = "http://www.w3.org/2000/svg";

/** An HTML element with attributes and children. */
export function h(tag, attrs, ...children) {
  return build(document.createElement(tag), true, attrs, children);
}

/** An SVG element with attributes and children. */
export function svg(tag, attrs, ...children) {
  return build(document.createElementNS(SVG_NS, tag), false, attrs, children);
}

function build(el, html, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") el.textContent = value;
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "class") el.setAttribute("class", value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (html && key in el && typeof value !== "string") el[key] = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

const linked = new Set(); // the hrefs ensureCss has linked
const loadingCss = new Set(); // the links ensureCss added whose sheet has not arrived (or failed)

/**
 * Link a stylesheet once: `url` is absolute or a URL, usually new URL("x.css", import.meta.url)
 * from the renderer that owns it. Does nothing outside a browser. Until the sheet arrives the
 * host keeps the game area hidden (cssSettled): unstyled, a card's SVG is as wide as the page.
 */
export function ensureCss(url) {
  if (typeof document === "undefined") return;
  const href = new URL(url, document.baseURI).href;
  if (linked.has(href) || [...document.querySelectorAll("link[rel=stylesheet]")].some((l) => l.href === href)) return;
  linked.add(href);
  const link = h("link", { rel: "stylesheet", href });
  const settle = () => loadingCss.delete(link);
  link.addEventListener("load", settle, { once: true });
  link.addEventListener("error", settle, { once: true }); // drawn unstyled rather than never
  loadingCss.add(link);
  document.head.append(link);
}

/** Null when every sheet ensureCss linked has arrived (or failed); else a promise of that. */
export function cssSettled() {
  if (!loadingCss.size) return null;
  return Promise.all([...loadingCss].map((link) => new Promise((done) => {
    link.addEventListener("load", done, { once: true });
    link.addEventListener("error", done, { once: true });
  }))).then(() => undefined);
}
