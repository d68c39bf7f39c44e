// DOM snapshots: an element's subtree as indented text (one element or text per line, attributes
// sorted), compared with snapshots/<name>.html. A difference fails the test; to accept an
// intended one, run with UPDATE_SNAPSHOTS=1 (make snapshots) and review the diff.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "snapshots");

export function serialize(node, depth = 0) {
  const pad = "  ".repeat(depth);
  if (node.nodeType === 3) {
    const text = node.textContent.replace(/\s+/g, " ").trim();
    return text ? `${pad}${JSON.stringify(text)}\n` : "";
  }
  if (node.nodeType !== 1) return "";
  const attrs = [...node.attributes].map((a) => [a.name, a.value]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => (v === "" ? ` ${k}` : ` ${k}="${v.replace(/"/g, "&quot;")}"`)).join("");
  const tag = node.tagName.toLowerCase();
  let out = `${pad}<${tag}${attrs}>\n`;
  for (const child of node.childNodes) out += serialize(child, depth + 1);
  return out;
}

/** Compare `root`'s children with the stored snapshot `name` (or write it, when updating). */
export function matchSnapshot(name, root) {
  const text = [...root.childNodes].map((n) => serialize(n)).join("");
  const file = path.join(DIR, `${name}.html`);
  if (process.env.UPDATE_SNAPSHOTS === "1") {
    fs.mkdirSync(DIR, { recursive: true });
    fs.writeFileSync(file, text);
    return;
  }
  assert.ok(fs.existsSync(file), `no snapshot ${name}.html: make snapshots writes it`);
  assert.equal(text, fs.readFileSync(file, "utf8"), `the DOM of ${name} changed (UPDATE_SNAPSHOTS=1 to accept)`);
}
