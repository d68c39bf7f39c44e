// fetch wrapper: same-origin cookies, JSON bodies, Accept-Language of the chosen language, and the
// server's typed errors ({code, message}) turned into ApiError with a message ready to show.
import { getLang, t } from "./i18n.js";
import { toast } from "./ui.js";

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

export async function api(method, path, body) {
  const headers = { "Accept-Language": getLang(), Accept: "application/json" };
  const init = { method, headers, credentials: "same-origin" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError("network", t("error.network"), 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    if (data && typeof data.message === "string") throw new ApiError(data.code, data.message, response.status);
    throw new ApiError("http", t("error.http", { status: response.status }), response.status);
  }
  return data;
}

export const get = (path) => api("GET", path);
export const post = (path, body) => api("POST", path, body);
export const patch = (path, body) => api("PATCH", path, body);
export const putJson = (path, body) => api("PUT", path, body);
export const del = (path, body) => api("DELETE", path, body);

/** Shows an error visibly (a toast), whatever threw it. */
export function showError(error) {
  toast(error instanceof ApiError || error?.message ? error.message : t("error.unknown"), "error");
}

/** Runs an async action and shows its error, if any; returns its result or undefined. */
export async function attempt(fn) {
  try {
    return await fn();
  } catch (error) {
    showError(error);
    return undefined;
  }
}
