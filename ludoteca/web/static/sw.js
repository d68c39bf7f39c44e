// The service worker (served as /sw.js so its scope is the whole site): it shows the arena's Web
// Push notices and opens the right page when one is clicked. A notice is the JSON the server sent
// (ludoteca/server/push_channel.py), already in the player's language: {title, body, url, tag, lang}.
// It does nothing else: no caching, no fetch handler. Classic script (not a module) so every
// browser runs it; the handlers are plain functions so tests can call them (tests/webunit).
"use strict";

const ICON = "/static/favicon.svg";

/** The notice to show for a push message's text; a message we cannot read still says something. */
function noticeOf(text) {
  let data = {};
  try { data = JSON.parse(text || "{}"); } catch { data = {}; }
  const url = typeof data.url === "string" && data.url.startsWith("/") && !data.url.startsWith("//") ? data.url : "/";
  return {
    title: typeof data.title === "string" && data.title ? data.title : "Ludoteca",
    options: { body: typeof data.body === "string" ? data.body : "", tag: typeof data.tag === "string" ? data.tag : undefined,
      lang: typeof data.lang === "string" ? data.lang : undefined, icon: ICON, badge: ICON, data: { url } },
  };
}

function onPush(scope, event) {
  const notice = noticeOf(event.data ? event.data.text() : "");
  event.waitUntil(scope.registration.showNotification(notice.title, notice.options));
}

/** The page the notice names: a tab of ours already open goes there (and comes forward), else a new one. */
async function openPage(scope, path) {
  const url = new URL(path, scope.registration.scope).href;
  const windows = await scope.clients.matchAll({ type: "window", includeUncontrolled: true });
  const mine = windows.find((c) => new URL(c.url).origin === new URL(url).origin);
  if (!mine) return scope.clients.openWindow(url);
  let shown = mine;
  try { shown = (await mine.navigate(url)) || mine; } catch { return scope.clients.openWindow(url); } // not ours to steer
  try { await shown.focus(); } catch { /* focus needs the click's activation; the page is there anyway */ }
  return shown;
}

function onClick(scope, event) {
  event.notification.close();
  const path = event.notification.data && event.notification.data.url;
  event.waitUntil(openPage(scope, typeof path === "string" ? path : "/"));
}

if (typeof ServiceWorkerGlobalScope !== "undefined" && self instanceof ServiceWorkerGlobalScope) {
  self.addEventListener("install", () => self.skipWaiting());
  self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
  self.addEventListener("push", (event) => onPush(self, event));
  self.addEventListener("notificationclick", (event) => onClick(self, event));
}
