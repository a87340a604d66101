// The lobby API (docs/protocol.md): JSON over HTTP with the session cookie and the CSRF token.
// A refusal with a ``code`` is shown in the page's language (``err.<code>`` in i18n.js).

import { t } from "./i18n.js";

let csrf = "";

/** The message of a refusal: its translation when the hall gave a known code. */
function refusalText(data, status) {
  const message = (data && data.error) || `HTTP ${status}`;
  const key = data && typeof data.code === "string" ? `err.${data.code}` : "";
  const text = key ? t(key, { msg: message }) : key;
  return text && text !== key ? text : message;
}

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

export function setCsrf(token) {
  csrf = token || "";
}

export async function api(method, path, body) {
  const headers = { Accept: "application/json" };
  const init = { method, headers, credentials: "same-origin" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  if (method !== "GET" && csrf) headers["X-CSRF-Token"] = csrf;
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, String(err.message || err));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    throw new ApiError(response.status, refusalText(data, response.status));
  }
  return data;
}

export const get = (path) => api("GET", path);
export const post = (path, body = {}) => api("POST", path, body);
export const patch = (path, body = {}) => api("PATCH", path, body);
