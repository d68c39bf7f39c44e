// The chat view (views/log.js): each line with its time, the account beside a display name,
// and the form's count of characters against the server's limit of 500.
import assert from "node:assert/strict";
import test from "node:test";

import { chatForm, chatView } from "/static/views/log.js";

test("a chat line shows who said it, the account behind a display name, and when", () => {
  const list = document.createElement("ul");
  const update = chatView(list);
  const at = "2026-11-27T06:05:00+00:00";
  update({ chat: [{ user: "ana", name: "Ana", text: "hola &amp; adiós", at }, { user: "ben", name: "ben", text: "hi", at: null }] });
  const [first, second] = list.querySelectorAll("li");
  assert.match(first.textContent, /^Ana @ana: hola & adiós \d\d:\d\d/);
  assert.equal(first.querySelector("time").getAttribute("datetime"), at);
  assert.equal(second.textContent, "ben: hi"); // no account twice, no time without one
});

test("the chat form counts the characters typed against the limit, and sends trimmed text", () => {
  const sent = [];
  const form = chatForm((message) => { sent.push(message); return true; });
  document.body.append(form);
  const input = form.querySelector("input");
  const counter = form.querySelector("[data-testid=chat-count]");
  assert.equal(counter.textContent, "0/500");
  assert.equal(input.getAttribute("aria-describedby"), counter.id);
  input.value = "  hello ";
  input.dispatchEvent(new Event("input"));
  assert.equal(counter.textContent, "8/500");
  form.dispatchEvent(new Event("submit", { cancelable: true }));
  assert.deepEqual(sent, [{ type: "chat", text: "hello" }]);
  assert.equal(counter.textContent, "0/500");
  form.remove();
});
