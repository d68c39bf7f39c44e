// `node --import ./register.mjs --test`: the /static/ URLs resolve (hooks.mjs) and a DOM
// (happy-dom, a test-only dependency) stands in for the browser's.
import { register } from "node:module";
import { Window } from "happy-dom";

register("./hooks.mjs", import.meta.url);

const window = new Window({
  url: "http://ludoteca.test/",
  settings: { disableCSSFileLoading: true, disableJavaScriptFileLoading: true, disableIframePageLoading: true },
});
for (const name of ["window", "document", "Node", "Element", "HTMLElement", "SVGElement", "Event", "KeyboardEvent",
  "MouseEvent", "CSS", "DOMParser", "localStorage", "navigator", "location", "history", "getComputedStyle"]) {
  if (name === "window") globalThis.window = window;
  else if (name in globalThis && name === "navigator") Object.defineProperty(globalThis, "navigator", { value: window.navigator, configurable: true });
  else globalThis[name] = window[name];
}
if (!globalThis.CSS?.escape) globalThis.CSS = { escape: (s) => String(s).replace(/[^\w-]/g, (c) => `\\${c}`) };
