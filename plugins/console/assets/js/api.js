// The console's client of the opbase API: one POST per op to /api/<endpoint key> on this daemon,
// with the project's API key and the administrator's id token. The tokens live in this object
// only (never in storage), so closing the tab signs the console out; a request carries its
// token in a header, never a cookie, so no other site can make the browser send one (CSRF).

export class ApiError extends Error {
  constructor(status, error) {
    super(error?.message || `HTTP ${status}`);
    this.status = status;
    this.code = error?.code || "NETWORK_ERROR";
    this.details = error?.details || {};
  }
}

export class Api {
  constructor(endpointKey, apiKey) {
    this.endpointKey = endpointKey;
    this.apiKey = apiKey;
    this.idToken = null;
    this.refreshToken = null;
    this.profile = null;
  }

  // The op's answer: {data, meta}; an ApiError for the error envelope.
  async call(op, params = {}, { retried = false } = {}) {
    const headers = { "Content-Type": "application/json", "X-API-KEY": this.apiKey };
    if (this.idToken) headers.Authorization = `Bearer ${this.idToken}`;
    let response;
    try {
      response = await fetch(`/api/${encodeURIComponent(this.endpointKey)}`, {
        method: "POST",
        headers,
        body: JSON.stringify({ op, ...params }),
        credentials: "omit",
        cache: "no-store",
      });
    } catch (e) {
      throw new ApiError(0, { code: "NETWORK_ERROR", message: `the daemon did not answer: ${e.message}` });
    }
    const body = await response.json().catch(() => ({}));
    if (response.ok) return { data: body.data, meta: body.meta || {} };
    const error = new ApiError(response.status, body.error);
    if (error.code === "TOKEN_EXPIRED" && this.refreshToken && !retried) {
      await this.refresh();
      return this.call(op, params, { retried: true });
    }
    throw error;
  }

  // The daemon's event stream (docs/api.md#realtime): resolves to {clientId, close} once it has
  // opened, and calls onEvent(name, data) for each event of a live query on it, and
  // onReconnect(clientId) when it opened again after a break (its subscriptions are then gone:
  // make them again). Rejects when it does not open: a daemon without the realtime plugin. A
  // browser's EventSource cannot set headers, so the project's API key goes in the query; the
  // token never does (it travels with realtime.subscribe).
  liveStream(onEvent, onReconnect) {
    const url = `/api/${encodeURIComponent(this.endpointKey)}/realtime?api_key=${encodeURIComponent(this.apiKey)}`;
    const source = new EventSource(url);
    return new Promise((resolve, reject) => {
      let clientId = null;
      source.addEventListener("connect", (event) => {
        const first = clientId === null;
        clientId = JSON.parse(event.data).client_id;
        if (first) resolve({ get clientId() { return clientId; }, close: () => source.close() });
        else onReconnect(clientId);
      });
      source.addEventListener("error", () => {
        if (clientId !== null) return;  // a break: the browser opens it again by itself
        source.close();
        reject(new ApiError(0, { code: "UNKNOWN_OPERATION", message: "this daemon has no event stream" }));
      });
      for (const name of ["created", "updated", "enter", "leave", "archived", "restored", "deleted", "reset"]) {
        source.addEventListener(name, (event) => onEvent(name, JSON.parse(event.data)));
      }
    });
  }

  // The op's answer, or null when no plugin of this daemon serves it (an area not loaded).
  async optional(op, params = {}) {
    try {
      return await this.call(op, params);
    } catch (e) {
      if (e.code === "UNKNOWN_OPERATION") return null;
      throw e;
    }
  }

  async settings() {
    return (await this.call("auth.settings")).data;
  }

  async sendCode(email) {
    await this.call("auth.send_otp", { email, intent: "signin" });
  }

  // Signs in; with `otp`, the code is the second factor (or the only one without a password).
  async signIn(email, password, otp) {
    const params = otp
      ? { grant_type: password ? "password" : "otp", email, otp, ...(password ? { password } : {}) }
      : { grant_type: "password", email, password };
    const { data } = await this.call("auth.signin", params);
    this.keep(data);
    return data.user_profile;
  }

  async refresh() {
    const tokens = { refresh_token: this.refreshToken, id_token: this.idToken };
    this.idToken = null;
    const { data } = await this.call("auth.refresh_token", tokens, { retried: true });
    this.keep(data);
  }

  async signOut() {
    if (this.idToken) await this.call("auth.signout", { id_token: this.idToken }).catch(() => {});
    this.forget();
  }

  keep(tokenSet) {
    this.idToken = tokenSet.id_token;
    this.refreshToken = tokenSet.refresh_token;
    this.profile = tokenSet.user_profile;
  }

  forget() {
    this.idToken = null;
    this.refreshToken = null;
    this.profile = null;
  }

  isAdmin() {
    return Array.isArray(this.profile?.roles) && this.profile.roles.includes("admin");
  }
}
