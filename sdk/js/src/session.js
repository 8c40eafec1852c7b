// The signed-in user's token set: kept (in memory, or in a storage the app gives, such as
// localStorage), sent as the bearer token, and refreshed before the id token expires, with
// concurrent calls sharing one refresh.

const DEFAULT_STORAGE_KEY = 'opbase.session';

/** A storage in memory, the default: the session lasts as long as the client. */
export class MemoryStorage {
  #items = new Map();
  getItem(key) {
    return this.#items.has(key) ? this.#items.get(key) : null;
  }
  setItem(key, value) {
    this.#items.set(key, String(value));
  }
  removeItem(key) {
    this.#items.delete(key);
  }
}

/** Unix seconds at which the token set's id token expires, or null when unknown. */
export function expiresAt(tokenSet) {
  const exp = tokenSet?.token_info?.exp;
  if (typeof exp === 'number') return exp;
  const payload = tokenSet?.id_token?.split('.')[1];
  if (!payload) return null;
  try {
    const text = atob(payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '='));
    const claims = JSON.parse(text);
    return typeof claims.exp === 'number' ? claims.exp : null;
  } catch {
    return null;
  }
}

/**
 * Seconds before expiry at which the token is refreshed: a tenth of its lifetime, at least a
 * minute, but never more than half of it (a very short-lived token is still used).
 */
export function refreshMargin(tokenSet) {
  const ttl = tokenSet?.token_info?.ttl;
  if (typeof ttl !== 'number' || ttl <= 0) return 60;
  return Math.min(Math.max(ttl / 10, 60), ttl / 2);
}

export class Session {
  #storage;
  #key;
  #now;
  #onChange;
  #refresh;
  #current = undefined; // undefined: not read from the storage yet
  #refreshing = null;

  /**
   * @param {{storage?: object, storageKey?: string, now?: () => number,
   *          onChange?: (tokenSet: object|null) => void,
   *          refresh: (tokenSet: object) => Promise<object>}} options
   */
  constructor({ storage, storageKey, now, onChange, refresh }) {
    this.#storage = storage ?? new MemoryStorage();
    this.#key = storageKey ?? DEFAULT_STORAGE_KEY;
    this.#now = now ?? (() => Date.now());
    this.#onChange = onChange ?? (() => {});
    this.#refresh = refresh;
  }

  /** The kept token set, or null when signed out. */
  async tokenSet() {
    if (this.#current === undefined) this.#current = await this.#stored();
    return this.#current;
  }

  // What the storage holds now: another client sharing it (a second browser tab) may have
  // refreshed or ended the session since this one read it.
  async #stored() {
    const text = await this.#storage.getItem(this.#key);
    try {
      return text ? JSON.parse(text) : null;
    } catch {
      return null;
    }
  }

  async set(tokenSet) {
    this.#current = tokenSet;
    await this.#storage.setItem(this.#key, JSON.stringify(tokenSet));
    this.#onChange(tokenSet);
  }

  async clear() {
    const had = (await this.tokenSet()) !== null;
    this.#current = null;
    await this.#storage.removeItem(this.#key);
    if (had) this.#onChange(null);
  }

  /** Whether the id token is within its refresh margin (or past its expiry). */
  needsRefresh(tokenSet) {
    const exp = expiresAt(tokenSet);
    if (exp === null) return false;
    return this.#now() / 1000 >= exp - refreshMargin(tokenSet);
  }

  /** The id token to send, refreshed first when it is about to expire; null when signed out. */
  async idToken() {
    const tokenSet = await this.tokenSet();
    if (!tokenSet) return null;
    if (!this.needsRefresh(tokenSet)) return tokenSet.id_token;
    return (await this.refresh()).id_token;
  }

  /**
   * Refreshes now; concurrent callers share the one refresh in flight. When the storage already
   * holds a newer token set that is not due (another tab refreshed first), that one is taken
   * instead: refreshing with the spent refresh token would be refused as a reuse. When the
   * storage holds none (another tab signed out), the session ends here too.
   */
  refresh() {
    if (!this.#refreshing) {
      this.#refreshing = (async () => {
        const known = await this.tokenSet();
        const stored = await this.#stored();
        if (!stored) {
          await this.clear();
          throw new Error('opbase: not signed in');
        }
        this.#current = stored;
        if (known && stored.refresh_token !== known.refresh_token && !this.needsRefresh(stored)) return stored;
        const fresh = await this.#refresh(stored);
        await this.set(fresh);
        return fresh;
      })().finally(() => {
        this.#refreshing = null;
      });
    }
    return this.#refreshing;
  }
}
