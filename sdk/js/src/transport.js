// One API call over fetch: the body with its op, the project's keys and the caller's token in
// headers, and the answer's envelope turned into a value or a thrown OpbaseError.
import { OpbaseError, OpbaseNetworkError, ErrorCode } from './errors.js';

export class Transport {
  /**
   * @param {{url: string, endpointKey: string, apiKey: string, adminKey?: string,
   *          fetch?: typeof fetch, timeoutMs?: number}} options
   */
  constructor(options) {
    if (!options || typeof options.url !== 'string' || !options.url) {
      throw new TypeError('opbase: `url` is required (e.g. "https://api.example.com")');
    }
    for (const name of ['endpointKey', 'apiKey']) {
      if (typeof options[name] !== 'string' || !options[name]) {
        throw new TypeError(`opbase: \`${name}\` is required`);
      }
    }
    this.endpoint = `${options.url.replace(/\/+$/, '')}/api/${encodeURIComponent(options.endpointKey)}`;
    this.apiKey = options.apiKey;
    this.adminKey = options.adminKey ?? null;
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.timeoutMs = options.timeoutMs ?? 30000;
  }

  /**
   * POSTs `{op, ...params}`; resolves to the envelope `{data, meta}`.
   * @param {string} op
   * @param {object} params
   * @param {{token?: string|null, admin?: boolean}} [auth]
   */
  async call(op, params = {}, auth = {}) {
    const headers = { 'Content-Type': 'application/json', 'X-API-KEY': this.apiKey };
    if (auth.token) headers.Authorization = `Bearer ${auth.token}`;
    if (auth.admin && this.adminKey) headers['X-Admin-Key'] = this.adminKey;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    let response;
    let text;
    try {
      response = await this.fetch(this.endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify({ ...params, op }),
        signal: controller.signal,
      });
      text = await response.text();
    } catch (cause) {
      const reason = controller.signal.aborted ? `no answer within ${this.timeoutMs} ms` : String(cause?.message ?? cause);
      throw new OpbaseNetworkError({ message: `${op}: ${reason}`, cause, op });
    } finally {
      clearTimeout(timer);
    }
    return this.#envelope(op, response, text);
  }

  /** GETs the project's JWKS route: the key set `{keys: [...]}` as it is, not in an envelope. */
  async jwks() {
    const op = 'jwks';
    let response;
    let text;
    try {
      response = await this.fetch(`${this.endpoint}/.well-known/jwks.json`, { method: 'GET' });
      text = await response.text();
    } catch (cause) {
      throw new OpbaseNetworkError({ message: `${op}: ${String(cause?.message ?? cause)}`, cause, op });
    }
    if (response.ok) return JSON.parse(text);
    return this.#envelope(op, response, text);
  }

  #envelope(op, response, text) {
    const requestId = response.headers.get('X-Request-Id');
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      throw new OpbaseError({
        code: response.ok ? ErrorCode.INTERNAL_ERROR : codeForStatus(response.status),
        message: `${op}: the server answered HTTP ${response.status} without a JSON envelope`,
        status: response.status,
        requestId,
        op,
      });
    }
    if (body && typeof body === 'object' && body.error) {
      const retry = Number.parseInt(response.headers.get('Retry-After') ?? '', 10);
      throw new OpbaseError({
        code: body.error.code,
        message: body.error.message,
        details: body.error.details,
        status: response.status,
        requestId: requestId ?? body.error.details?.request_id,
        retryAfter: Number.isFinite(retry) ? retry : null,
        op,
      });
    }
    return body;
  }
}

function codeForStatus(status) {
  if (status === 401) return ErrorCode.AUTHENTICATION_FAILED;
  if (status === 413) return ErrorCode.PAYLOAD_TOO_LARGE;
  if (status === 429 || status === 503) return ErrorCode.RATE_LIMIT_EXCEEDED;
  return ErrorCode.INTERNAL_ERROR;
}
