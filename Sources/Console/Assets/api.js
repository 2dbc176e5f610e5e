// The API, called with the bearer token of this tab. The token lives in sessionStorage only (gone when
// the tab closes, never shared with other tabs) and travels only in the Authorization header.

const tokenKey = 'urlsessiond.token';

export const token = {
  get: () => sessionStorage.getItem(tokenKey),
  set: (value) => sessionStorage.setItem(tokenKey, value),
  clear: () => sessionStorage.removeItem(tokenKey),
};

/** An answer that was not 2xx: `problem` is its problem+json body, when it had one. */
export class APIError extends Error {
  constructor(status, problem) {
    const title = problem?.title ?? `HTTP ${status}`;
    super(problem?.detail ? `${title}: ${problem.detail}` : title);
    this.status = status;
    this.problem = problem;
  }
}

let unauthorizedHandler = () => {};
/** Called when the API answers 401 to a signed-in tab: the token was removed from the server. */
export function onUnauthorized(handler) { unauthorizedHandler = handler; }

function headers(extra = {}) {
  return { Authorization: `Bearer ${token.get() ?? ''}`, ...extra };
}

async function problemOf(response) {
  const type = response.headers.get('Content-Type') ?? '';
  if (!type.includes('json')) return null;
  try { return await response.json(); } catch { return null; }
}

/**
 * A request with the tab's token, as every call sends it: no cookies, no cache, no referrer. Throws
 * `APIError` for any answer but 2xx; a 401 signs the tab out unless `signsOut` is false (`/metrics`, whose
 * token may be another one).
 */
async function send(path, { method = 'GET', body, signal, accept, signsOut = true }) {
  const init = {
    method, signal, cache: 'no-store', credentials: 'omit', referrerPolicy: 'no-referrer',
    headers: headers({ Accept: accept }),
  };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  if (!response.ok) {
    const error = new APIError(response.status, await problemOf(response));
    if (response.status === 401 && signsOut) unauthorizedHandler(error);
    throw error;
  }
  return response;
}

/** Calls the API; JSON in and out (see `send`). */
export async function api(path, { method = 'GET', body, signal, accept = 'application/json', signsOut = true } = {}) {
  const response = await send(path, { method, body, signal, accept, signsOut });
  if (response.status === 204) return null;
  const type = response.headers.get('Content-Type') ?? '';
  return type.includes('json') ? response.json() : response.text();
}

/**
 * `GET path` as a Blob (a downloaded file). A link cannot send the Authorization header and the token
 * must never go in a URL, so the file is fetched here, with the token, and saved from memory.
 */
export async function blob(path, { signal } = {}) {
  return (await send(path, { signal, accept: '*/*' })).blob();
}

/** `GET path` as text (the Prometheus exposition). */
export function text(path, options = {}) {
  return api(path, { ...options, accept: 'text/plain', signsOut: false });
}

/** A query string from the defined members of `parameters`. */
export function query(parameters) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Path segment for an id that came from the API (ids are safe, but never trust that). */
export const id = (value) => encodeURIComponent(value);

/**
 * Reads a server-sent event stream with the bearer token (an EventSource cannot send one) and calls
 * `onEvent(event)` for each parsed `data:` JSON. Resolves when the stream ends cleanly (true) or with
 * 204 (false); rejects on a transport error or a non-2xx answer.
 */
export async function readEventStream(path, { after, signal, onEvent, onOpen }) {
  const response = await send(path + query({ after }), { signal, accept: 'text/event-stream' });
  if (response.status === 204) return false;
  onOpen?.();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return true;
    buffer += value;
    let end;
    while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
      const data = frame.split(/\r?\n/).filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trimStart());
      if (data.length) onEvent(JSON.parse(data.join('\n')));
    }
  }
}
