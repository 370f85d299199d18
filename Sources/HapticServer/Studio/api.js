// hapticctl studio: the HTTP API (/v1): URLs carrying the page's access token, JSON requests
// (timed on request: the request and the JSON parse, for perf.js), and ApiError, which carries
// the server's own message, status, error code and field.

import { Perf } from "./perf.js";

/** A page opened with ?access_token=TOKEN passes it on (a server started with --token). */
const TOKEN = new URLSearchParams(location.search).get("access_token");

export class ApiError extends Error {
  constructor(message, status = 0, code = null, field = null) {
    super(message);
    Object.assign(this, { status, code, field });
  }
}

/** The URL of `path` on this server with `query` (null values left out) and the token. */
export function apiUrl(path, query = {}) {
  const url = new URL(path, location.origin);
  for (const [k, v] of Object.entries(query)) if (v != null) url.searchParams.set(k, String(v));
  if (TOKEN) url.searchParams.set("access_token", TOKEN);
  // A space as %20: the server decodes percent escapes only ("+" stays "+"; a real one is %2B).
  url.search = url.search.replaceAll("+", "%20");
  return url;
}

/**
 * JSON from `method path`; an ApiError with the server's own message when refused. With
 * `timing`, sets its requestMs (until the whole answer is in), parseMs, bytes (the answer's
 * characters) and, from resource timing, serverMs and transferMs.
 */
export async function api(method, path, { query = {}, body = undefined, timing = null } = {}) {
  const url = apiUrl(path, query), start = performance.now();
  let response;
  try {
    const headers = body === undefined ? {} : { "Content-Type": "application/json" };
    response = await fetch(url, { method, body, headers, cache: "no-store" });
  } catch (err) {
    throw new ApiError(`server unreachable (${method} ${path}): ${err.message}`, 0, "unreachable");
  }
  const text = await response.text(), received = performance.now();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { /* not JSON: reported below */ }
  if (timing) {
    Object.assign(timing, { requestMs: received - start, parseMs: performance.now() - received, bytes: text.length },
      Perf.network(url, start));
  }
  if (!response.ok) {
    const e = data?.error;
    throw new ApiError(e?.message ?? `${method} ${path}: HTTP ${response.status} ${text.slice(0, 200)}`,
      response.status, e?.code, e?.field);
  }
  if (data === null) throw new ApiError(`${method} ${path}: the answer is not JSON`, response.status);
  return data;
}
