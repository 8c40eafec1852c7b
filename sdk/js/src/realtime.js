// client.realtime: one event stream per client (docs/api.md#realtime), shared by every live
// query the app makes with collection(name).subscribe(...). The stream is read over fetch (in
// browsers and Node alike, so the API key goes in a header and never in a URL), its server-sent
// events parsed here. When the stream breaks, it is opened again after the server's `retry`
// (doubling up to 30 s while it keeps failing) and every live query is made again with `since`,
// the last event it got, so none is missed or repeated; past the server's retention a query gets
// a `reset` event, and the app fetches again.
import { OpbaseError, OpbaseNetworkError } from './errors.js';

const MAX_RETRY_MS = 30000;

// Splits a byte stream of server-sent events into events: {id, event, data} (data parsed as
// JSON), and `retry` values; comment lines (heartbeats) are dropped.
export class SseParser {
  #buffer = '';
  #decoder = new TextDecoder();

  /** Feeds bytes; returns the complete events and retry values they finish. */
  push(bytes) {
    this.#buffer += typeof bytes === 'string' ? bytes : this.#decoder.decode(bytes, { stream: true });
    const out = [];
    let end;
    while ((end = this.#buffer.search(/\r?\n\r?\n/)) >= 0) {
      const block = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end).replace(/^\r?\n\r?\n/, '');
      const message = { id: null, event: 'message', data: '', retry: null };
      let hasData = false;
      for (const line of block.split(/\r?\n/)) {
        if (line === '' || line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id') message.id = value;
        else if (field === 'event') message.event = value;
        else if (field === 'data') {
          message.data += (hasData ? '\n' : '') + value;
          hasData = true;
        } else if (field === 'retry' && /^\d+$/.test(value)) message.retry = Number(value);
      }
      if (message.retry !== null) out.push({ retry: message.retry });
      if (hasData) out.push({ id: message.id, event: message.event, data: JSON.parse(message.data) });
    }
    return out;
  }
}

/** One live query, as the app holds it. */
export class LiveQuery {
  #realtime;

  constructor(realtime, params, onEvent) {
    this.#realtime = realtime;
    this.params = params;
    this.onEvent = onEvent;
    this.serverId = null; // the subscription_id on the current stream
    this.lastEventId = null;
    this.closed = false;
  }

  /** Stops the events (and the stream, once no query is left). */
  async unsubscribe() {
    await this.#realtime.remove(this);
  }
}

export class Realtime {
  #transport;
  #call;
  #queries = new Set();
  #clientId = null;
  #connected = null; // a promise of the client id while a stream is being opened
  #abort = null;
  #retryMs = 2000;
  #failures = 0;
  #lastEventId = null;
  #stopped = false;
  // Events of a subscription whose op has not answered yet (the events since `since` may come
  // first), by subscription id: handed to its query once the answer names it.
  #early = new Map();

  /**
   * @param {Transport} transport  the API's, for the stream's URL, key and fetch
   * @param {(op: string, params: object) => Promise<object>} call  an op as the signed-in user
   * @param {{onError?: (error: Error) => void}} [options]
   */
  constructor(transport, call, options = {}) {
    this.#transport = transport;
    this.#call = call;
    this.onError = options.onError ?? (() => {});
  }

  /** A live query: {collection, match, filter?, project?, keys_only?}; resolves once it is made. */
  async subscribe(params, onEvent) {
    if (typeof onEvent !== 'function') throw new TypeError('opbase: subscribe needs an onEvent function');
    const query = new LiveQuery(this, params, onEvent);
    this.#queries.add(query);
    this.#stopped = false;
    try {
      await this.#make(query, await this.#connect());
    } catch (error) {
      this.#queries.delete(query);
      throw error;
    }
    return query;
  }

  async remove(query) {
    if (query.closed) return;
    query.closed = true;
    this.#queries.delete(query);
    const serverId = query.serverId;
    query.serverId = null;
    if (this.#queries.size === 0) return this.close();
    if (serverId && this.#clientId) {
      await this.#call('realtime.unsubscribe', { client_id: this.#clientId, subscription_id: serverId });
    }
  }

  /** Ends the stream and every query on it. */
  close() {
    this.#stopped = true;
    for (const query of this.#queries) query.closed = true;
    this.#queries.clear();
    this.#abort?.abort();
    this.#abort = null;
    this.#clientId = null;
    this.#connected = null;
  }

  get clientId() {
    return this.#clientId;
  }

  // The current stream's client id, opening the stream first when there is none.
  #connect() {
    if (this.#clientId) return Promise.resolve(this.#clientId);
    if (!this.#connected) {
      this.#connected = this.#open().catch((error) => {
        this.#connected = null;
        throw error;
      });
    }
    return this.#connected;
  }

  // Opens the stream and reads it until it ends; resolves with the client id of its connect event.
  #open() {
    return new Promise((resolve, reject) => {
      const controller = new AbortController();
      this.#abort = controller;
      const headers = { 'X-API-KEY': this.#transport.apiKey, Accept: 'text/event-stream' };
      if (this.#lastEventId) headers['Last-Event-ID'] = this.#lastEventId;
      let settled = false;
      const read = async () => {
        const response = await this.#transport.fetch(`${this.#transport.endpoint}/realtime`, {
          method: 'GET',
          headers,
          signal: controller.signal,
        });
        if (!response.ok) {
          const text = await response.text();
          let error;
          try {
            const body = JSON.parse(text).error;
            error = new OpbaseError({ code: body.code, message: body.message, details: body.details, status: response.status, op: 'realtime' });
          } catch {
            error = new OpbaseNetworkError({ message: `realtime: HTTP ${response.status}`, op: 'realtime' });
          }
          throw error;
        }
        const parser = new SseParser();
        const reader = response.body.getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          for (const item of parser.push(value)) {
            if (item.retry !== undefined) {
              this.#retryMs = item.retry;
            } else if (item.event === 'connect') {
              this.#clientId = item.data.client_id;
              this.#failures = 0;
              settled = true;
              resolve(this.#clientId);
            } else {
              this.#dispatch(item);
            }
          }
        }
      };
      read().then(
        () => this.#ended(controller, null),
        (error) => {
          if (!settled) {
            settled = true;
            reject(error);
          }
          this.#ended(controller, error);
        },
      );
    });
  }

  #dispatch(item) {
    const { data } = item;
    if (!data || typeof data.subscription_id !== 'string') return; // close: the stream ends next
    for (const query of this.#queries) {
      if (query.serverId === data.subscription_id) return this.#deliver(query, item);
    }
    const early = this.#early.get(data.subscription_id) ?? [];
    if (early.length < 10000) early.push(item);
    this.#early.set(data.subscription_id, early);
  }

  #deliver(query, { id, event, data }) {
    if (id) {
      query.lastEventId = id;
      this.#lastEventId = id;
    }
    query.onEvent({ type: event, id, key: data._key, collection: data.collection, document: data.document });
  }

  // The stream ended: unless it was closed on purpose, open it again after the retry time and
  // make every query again from where it left off.
  #ended(controller, error) {
    if (controller !== this.#abort || this.#stopped) return;
    this.#clientId = null;
    this.#connected = null;
    if (error) this.onError(error);
    if (this.#queries.size === 0) return;
    const wait = Math.min(this.#retryMs * 2 ** this.#failures, MAX_RETRY_MS);
    this.#failures += 1;
    setTimeout(() => this.#resume(), wait);
  }

  async #resume() {
    if (this.#stopped || this.#queries.size === 0) return;
    for (const query of this.#queries) query.serverId = null;
    this.#early.clear();
    try {
      const clientId = await this.#connect();
      for (const query of this.#queries) await this.#make(query, clientId);
    } catch (error) {
      this.onError(error);
    }
  }

  async #make(query, clientId) {
    const params = { ...query.params, client_id: clientId };
    if (query.lastEventId) params.since = query.lastEventId;
    const { data } = await this.#call('realtime.subscribe', params);
    query.serverId = data.subscription_id;
    const early = this.#early.get(query.serverId) ?? [];
    this.#early.delete(query.serverId);
    for (const item of early) this.#deliver(query, item);
  }
}
