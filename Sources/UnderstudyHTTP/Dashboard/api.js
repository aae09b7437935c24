// The only way the page talks to the server: the control API under /_understudy/, with the control token (when
// the server has one) in the X-Understudy-Token header, never in a URL.

const tokenKey = "understudy-control-token";
let token = sessionStorage.getItem(tokenKey) || "";
let onTokenNeeded = () => {};

/** Called when the server answers 401 CONTROL_TOKEN_REQUIRED. */
export function whenTokenNeeded(callback) { onTokenNeeded = callback; }

export function setToken(value) {
  token = value;
  if (value) sessionStorage.setItem(tokenKey, value); else sessionStorage.removeItem(tokenKey);
}

/** An error the control API answered: `code` is its `error`, `message` names the field. */
export class ControlError extends Error {
  constructor(status, code, message, details) {
    super(message);
    this.status = status;
    this.code = code;
    /** The whole reply (a Lua error's `traceback`, `location` and `output`). */
    this.details = details || {};
  }
}

/** Sends a control request: `path` after /_understudy, `query` an object, `body` an object (JSON) or a string (Lua). */
export async function control(method, path, { query, body } = {}) {
  const url = new URL("/_understudy" + path, location.origin);
  for (const [name, value] of Object.entries(query || {})) {
    if (value !== undefined && value !== null && value !== "") url.searchParams.set(name, String(value));
  }
  const headers = {};
  if (token) headers["X-Understudy-Token"] = token;
  let payload;
  if (typeof body === "string") {
    headers["Content-Type"] = "text/plain; charset=utf-8";
    payload = body;
  } else if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  const response = await fetch(url, { method, headers, body: payload, cache: "no-store", credentials: "omit" });
  const text = await response.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch (_) { json = null; }
  if (!response.ok) {
    const code = json && json.error ? json.error : String(response.status);
    if (response.status === 401 && code === "CONTROL_TOKEN_REQUIRED") onTokenNeeded();
    throw new ControlError(response.status, code, json && json.message ? json.message : text, json);
  }
  return json;
}

/** Sends a control GET whose answer is text (the exported world, the recorded scenario): the text, or a ControlError. */
export async function controlText(path, { query } = {}) {
  const url = new URL("/_understudy" + path, location.origin);
  for (const [name, value] of Object.entries(query || {})) {
    if (value !== undefined && value !== null && value !== "") url.searchParams.set(name, String(value));
  }
  const headers = {};
  if (token) headers["X-Understudy-Token"] = token;
  const response = await fetch(url, { method: "GET", headers, cache: "no-store", credentials: "omit" });
  const text = await response.text();
  if (!response.ok) {
    let json = null;
    try { json = JSON.parse(text); } catch (_) { json = null; }
    const code = json && json.error ? json.error : String(response.status);
    if (response.status === 401 && code === "CONTROL_TOKEN_REQUIRED") onTokenNeeded();
    throw new ControlError(response.status, code, json && json.message ? json.message : text, json);
  }
  return text;
}
