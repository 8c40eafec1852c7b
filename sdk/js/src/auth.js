// client.auth: one method per auth.* op (docs/api.md#the-auth-ops). Sign-in, refresh, profile
// and account updates keep the token set they answer; sign-out forgets it. The ops that take a
// token in the body get the kept one unless the caller passes its own.

export class Auth {
  #call;
  #session;
  #jwks;

  constructor(call, session, jwks) {
    this.#call = call;
    this.#session = session;
    this.#jwks = jwks;
  }

  /** The project's ID token public keys, `{keys: [...]}`, to check tokens with a JOSE library. */
  jwks() {
    return this.#jwks();
  }

  /** auth.signup: email, password, display_name, and the optional profile fields. */
  async signup(params) {
    return (await this.#call('auth.signup', params)).data;
  }

  /** auth.signin: grant_type ('password' or 'otp'), email, password and/or otp. Keeps the session. */
  async signin(params) {
    const tokenSet = (await this.#call('auth.signin', { grant_type: 'password', ...params })).data;
    await this.#session.set(tokenSet);
    return tokenSet;
  }

  /** auth.signout: ends the kept session (or the given id_token's) on the server and here. */
  async signout(params = {}) {
    const kept = await this.#session.tokenSet();
    const idToken = params.id_token ?? kept?.id_token;
    try {
      if (idToken) return (await this.#call('auth.signout', { ...params, id_token: idToken })).data;
      return { signout: true };
    } finally {
      if (!params.id_token || params.id_token === kept?.id_token) await this.#session.clear();
    }
  }

  /** auth.refresh_token: a new token set now (the client also refreshes by itself). */
  async refresh() {
    return this.#session.refresh();
  }

  /** auth.verify_id_token: the profile of a valid id token (default: the kept one). */
  async verifyIdToken(params = {}) {
    const idToken = params.id_token ?? (await this.#session.tokenSet())?.id_token;
    return (await this.#call('auth.verify_id_token', { ...params, id_token: idToken })).data;
  }

  /** auth.update_profile: `data` holds the fields to change. Keeps the new token set. */
  async updateProfile(params) {
    const kept = await this.#session.tokenSet();
    const tokenSet = (
      await this.#call('auth.update_profile', {
        id_token: kept?.id_token,
        refresh_token: kept?.refresh_token,
        ...params,
      })
    ).data;
    await this.#session.set(tokenSet);
    return tokenSet;
  }

  /** auth.send_otp: email and intent; an 'invite' needs an administrator's session. */
  async sendOtp(params) {
    return (await this.#call('auth.send_otp', params, { user: params?.intent === 'invite' })).data;
  }

  /** auth.update_account: email, otp, intent and the new value. Keeps the new token set. */
  async updateAccount(params) {
    const tokenSet = (await this.#call('auth.update_account', params)).data;
    await this.#session.set(tokenSet);
    return tokenSet;
  }

  /** auth.settings: the project's auth settings. */
  async settings() {
    return (await this.#call('auth.settings', {})).data;
  }

  /** auth.nonce: a one-time nonce. */
  async nonce() {
    return (await this.#call('auth.nonce', {})).data;
  }

  /** The kept token set, or null. */
  session() {
    return this.#session.tokenSet();
  }

  /** The kept user's profile, or null. */
  async user() {
    return (await this.#session.tokenSet())?.user_profile ?? null;
  }
}
