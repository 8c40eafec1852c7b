// createClient: the one object an app holds: the project's URL and keys, the session, and the
// areas (auth, collections, webhooks) whose methods call the API.
import { Transport } from './transport.js';
import { Session } from './session.js';
import { Auth } from './auth.js';
import { Collection } from './collection.js';
import { Webhooks } from './webhooks.js';
import { Realtime } from './realtime.js';
import { OpbaseError, ErrorCode } from './errors.js';

// Answers to a refresh that mean the session is over: sign in again.
const SESSION_ENDED = new Set([
  ErrorCode.AUTHENTICATION_FAILED,
  ErrorCode.TOKEN_EXPIRED,
  ErrorCode.TOKEN_INVALID,
  ErrorCode.INVALID_CREDENTIALS,
]);

export class OpbaseClient {
  #transport;
  #session;

  /**
   * @param {{url: string, endpointKey: string, apiKey: string, adminKey?: string,
   *          storage?: object, storageKey?: string, fetch?: typeof fetch, timeoutMs?: number,
   *          now?: () => number, onSessionChange?: (tokenSet: object|null) => void}} options
   */
  constructor(options) {
    this.#transport = new Transport(options);
    this.#session = new Session({
      storage: options.storage,
      storageKey: options.storageKey,
      now: options.now,
      onChange: options.onSessionChange,
      refresh: (tokenSet) => this.#refresh(tokenSet),
    });
    const call = (op, params, access) => this.#call(op, params, access);
    this.auth = new Auth(call, this.#session, () => this.#transport.jwks());
    this.webhooks = new Webhooks(call);
    /** The one event stream of this client, shared by every collection(...).subscribe. */
    this.realtime = new Realtime(this.#transport, (op, params) => this.#call(op, params, { user: true }), {
      onError: options.onRealtimeError,
    });
  }

  /** The operations on one collection. */
  collection(name) {
    return new Collection((op, params, access) => this.#call(op, params, access), name, this.realtime);
  }

  /** Any op, a plugin's own among them, as the signed-in user when there is one: {data, meta}. */
  call(op, params = {}) {
    return this.#call(op, params, { user: true, admin: true });
  }

  /** The statement form: {query, variables}. */
  async statement(query, variables = {}) {
    return (await this.#call('collection.statement', { query, variables }, { user: true })).data;
  }

  // `access.user`: send the session's id token (refreshed when due); `access.admin`: send the
  // server admin key when the client has one.
  async #call(op, params, access = {}) {
    const token = access.user || access.admin ? await this.#session.idToken() : null;
    try {
      return await this.#transport.call(op, params, { token, admin: access.admin });
    } catch (error) {
      // The token expired by the server's clock but not by this one's (a clock behind, a laptop
      // that slept): refresh and send the call once more.
      if (!token || !(error instanceof OpbaseError) || error.code !== ErrorCode.TOKEN_EXPIRED) throw error;
      const fresh = await this.#session.refresh();
      return this.#transport.call(op, params, { token: fresh.id_token, admin: access.admin });
    }
  }

  async #refresh(tokenSet) {
    try {
      const answer = await this.#transport.call('auth.refresh_token', {
        refresh_token: tokenSet.refresh_token,
        id_token: tokenSet.id_token,
      });
      return answer.data;
    } catch (error) {
      if (error instanceof OpbaseError && SESSION_ENDED.has(error.code)) await this.#session.clear();
      throw error;
    }
  }
}

export function createClient(options) {
  return new OpbaseClient(options);
}
