// What the shell-page tests (pages, tournaments) share: a fake fetch answering from a table of
// routes, a page to mount into, and waiting for the page's promises to settle.
import assert from "node:assert/strict";

/** fetch answering from `routes` ("METHOD path" -> body, or a function giving the body each
 * time it is asked), recording each request. */
export function fakeFetch(routes) {
  const requests = [];
  globalThis.fetch = async (path, init) => {
    const key = `${init.method} ${path}`;
    requests.push({ key, body: init.body ? JSON.parse(init.body) : undefined });
    const found = key in routes;
    const answer = typeof routes[key] === "function" ? routes[key]() : routes[key];
    return { ok: found, status: found ? 200 : 404, json: async () => (found ? answer : { code: "not_found", message: key }) };
  };
  return requests;
}

export const settle = () => new Promise((resolve) => setImmediate(resolve));
export const until = async (check) => { for (let i = 0; i < 50 && !check(); i += 1) await settle(); assert.ok(check()); };
/** A fresh page: the toasts' box and the `main` a page mounts into. */
export const main = () => {
  document.body.replaceChildren();
  document.body.append(Object.assign(document.createElement("div"), { id: "toasts" }));
  return document.body.appendChild(document.createElement("main"));
};
export const by = (root, id) => root.querySelector(`[data-testid="${id}"]`);
export const submit = (form) => form.dispatchEvent(new window.Event("submit", { bubbles: true, cancelable: true }));
