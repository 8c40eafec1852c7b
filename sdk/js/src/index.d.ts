// Types of @opbase/client. Field names are the API's own (docs/api.md).

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** User keys and "role:<name>" entries (docs/api.md#who-may-read-and-change-a-document). */
export type SharingList = string[];
export type Document = {
  _key: string;
  _userkey?: string | null;
  _readers?: SharingList;
  _writers?: SharingList;
  [field: string]: Json | undefined;
};

/** "owner" | "users" | "anyone" | "shared" | "role:<name>" */
export type RuleEntry = 'owner' | 'users' | 'anyone' | 'shared' | `role:${string}`;
export interface Rules {
  read: RuleEntry[];
  /** No "owner" or "shared" here: a new document has neither yet. */
  create: RuleEntry[];
  update: RuleEntry[];
  delete: RuleEntry[];
}

export interface Envelope<D = Json, M = Record<string, Json>> {
  data: D;
  meta?: M;
}

export interface SessionStorage {
  getItem(key: string): string | null | Promise<string | null>;
  setItem(key: string, value: string): void | Promise<void>;
  removeItem(key: string): void | Promise<void>;
}

export interface ClientOptions {
  /** The server, e.g. "https://api.example.com" (without /api). */
  url: string;
  endpointKey: string;
  apiKey: string;
  /** The server admin key (X-Admin-Key), for server-side code only. */
  adminKey?: string;
  /** Where the session is kept; default in memory. Pass localStorage in a browser to keep it. */
  storage?: SessionStorage;
  storageKey?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Milliseconds since the epoch; for tests. */
  now?: () => number;
  onSessionChange?: (tokenSet: TokenSet | null) => void;
  /** A failure of the event stream the client opens again by itself (it goes on trying). */
  onRealtimeError?: (error: Error) => void;
}

export interface UserProfile {
  _userkey: string;
  email: string;
  display_name: string;
  [field: string]: Json;
}

export interface TokenSet {
  id_token: string;
  refresh_token: string;
  token_type: 'bearer';
  token_info: { ttl: number; exp: number; iat: number; aud: string; _userkey: string; project_id: string };
  user_profile: UserProfile;
}

export interface SignupParams {
  email: string;
  password: string;
  display_name: string;
  name?: string;
  surname?: string;
  phone_number?: string;
  photo_url?: string;
  metadata?: { [key: string]: Json };
  aud?: string;
}

export interface SigninParams {
  email: string;
  grant_type?: 'password' | 'otp';
  password?: string;
  otp?: string;
  display_name?: string;
  phone_number?: string;
  aud?: string;
}

export type OtpIntent = 'signin' | 'invite' | 'change_password' | 'change_email' | 'change_username';

export declare class Auth {
  signup(params: SignupParams): Promise<UserProfile>;
  signin(params: SigninParams): Promise<TokenSet>;
  signout(params?: { id_token?: string; aud?: string }): Promise<{ signout: boolean }>;
  refresh(): Promise<TokenSet>;
  /** The project's ID token public keys (the JWKS route). */
  jwks(): Promise<{ keys: Array<{ [field: string]: Json }> }>;
  verifyIdToken(params?: { id_token?: string; aud?: string }): Promise<UserProfile>;
  updateProfile(params: { data: { [field: string]: Json }; id_token?: string; refresh_token?: string; aud?: string }): Promise<TokenSet>;
  sendOtp(params: { email: string; intent: OtpIntent }): Promise<{ otp: boolean; next_op: string }>;
  updateAccount(params: {
    email: string;
    otp: string;
    intent: 'change_password' | 'change_email' | 'change_username';
    new_email?: string;
    new_password?: string;
    new_username?: string;
    aud?: string;
  }): Promise<TokenSet>;
  settings(): Promise<{ [key: string]: Json }>;
  nonce(): Promise<{ nonce: string }>;
  session(): Promise<TokenSet | null>;
  user(): Promise<UserProfile | null>;
}

export interface FindParams {
  match?: { [key: string]: Json };
  filter?: { [key: string]: Json };
  sort?: string | { [field: string]: 'asc' | 'desc' | 1 | -1 } | Json[];
  limit?: number;
  offset?: number;
  lookup?: Json;
  project?: Json;
}

export interface Pagination {
  pagination: {
    count: number;
    size: number;
    page: number;
    per_page: number;
    total_pages: number;
    has_next: boolean;
    has_prev: boolean;
    next_page: number | null;
    prev_page: number | null;
    page_showing_start: number;
    page_showing_end: number;
  };
}

export interface Index {
  field: string;
  origin: 'declared' | 'auto' | 'admin';
  state: 'building' | 'ready' | 'dropping';
  multikey: boolean | null;
  created_ms: number | null;
  last_used_ms: number | null;
}

/** One event of a live query (docs/api.md#realtime). */
export interface RealtimeEvent {
  type: 'created' | 'updated' | 'enter' | 'leave' | 'archived' | 'restored' | 'deleted' | 'reset';
  /** Its position in the server's events (none for reset). */
  id: string | null;
  key?: string;
  collection: string;
  /** As the query may see it; absent with keys_only and on reset. */
  document?: Document;
}

export declare class LiveQuery {
  readonly params: { [key: string]: Json };
  /** The last event's id: where the query resumes after the stream breaks. */
  readonly lastEventId: string | null;
  unsubscribe(): Promise<void>;
}

export declare class Realtime {
  /** The stream's client id while it is open. */
  readonly clientId: string | null;
  subscribe(params: { collection: string; match: { [key: string]: Json }; filter?: { [key: string]: Json }; project?: { [field: string]: Json }; keys_only?: boolean }, onEvent: (event: RealtimeEvent) => void): Promise<LiveQuery>;
  /** Ends the stream and every query on it. */
  close(): void;
}

export declare class Collection {
  readonly name: string;
  /** A live query over the client's one event stream, reconnected and resumed by itself. */
  subscribe(match: { [key: string]: Json }, onEvent: (event: RealtimeEvent) => void, options?: { filter?: { [key: string]: Json }; project?: { [field: string]: Json }; keys_only?: boolean }): Promise<LiveQuery>;
  find(params?: FindParams): Promise<Envelope<Document[], Pagination>>;
  findOne(params?: FindParams): Promise<Document | null>;
  insert(data: { [field: string]: Json } | { [field: string]: Json }[], params?: { captcha?: string }): Promise<Document[]>;
  update(params: { data: Json; match?: { [key: string]: Json } }): Promise<Document[]>;
  upsert(params: { match: { [key: string]: Json }; update: { [key: string]: Json }; insert: { [key: string]: Json } }): Promise<Envelope<Document[], { upserted: boolean }>>;
  count(match?: { [key: string]: Json }): Promise<number>;
  delete(match: { [key: string]: Json }): Promise<{ _ref: string }>;
  archive(match: { [key: string]: Json }): Promise<{ _ref: string }>;
  restore(ref: string): Promise<{ data: boolean }>;
  indexes(): Promise<{ indexes: Index[]; noticed: { field: string; costly_queries: number; rows_read: number; time_ms: number }[] }>;
  addIndex(field: string): Promise<Index>;
  dropIndex(field: string): Promise<{ dropped: boolean }>;
  explain(params?: FindParams & { count?: boolean; user?: string; roles?: string[] }): Promise<{ plan: string; index: string | null; rows_read: number; matched: number; time_ms: number }>;
  /** Administrators: the collection's rules, every action filled in. */
  rules(): Promise<Rules>;
  /** Administrators: set some actions' rules (null puts one back to its default). */
  setRules(rules: Partial<{ [action in keyof Rules]: RuleEntry[] | null }>): Promise<Rules>;
}

export interface WebhookEndpoint {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  signature_content: 'id.timestamp.body' | 'timestamp.body';
  description: string;
  created_ms: number;
  modified_ms: number;
  secret?: string;
}

export declare class Webhooks {
  readonly endpoints: {
    create(params: { url: string; events?: string[]; enabled?: boolean; signature_content?: string; description?: string; secret?: string }): Promise<WebhookEndpoint>;
    update(params: { id: string } & Partial<Omit<WebhookEndpoint, 'id' | 'created_ms' | 'modified_ms' | 'secret'>>): Promise<WebhookEndpoint>;
    delete(id: string): Promise<{ deleted: boolean }>;
    list(): Promise<WebhookEndpoint[]>;
    rotateSecret(params: { id: string; grace_s?: number }): Promise<{ id: string; secret: string; previous_secret_until_ms: number }>;
  };
  readonly messages: {
    list(params?: { endpoint?: string; state?: 'pending' | 'delivered' | 'failed'; limit?: number; offset?: number }): Promise<Envelope<Json[], { total: number }>>;
    resend(id: string): Promise<{ resent: boolean }>;
  };
}

export declare class OpbaseClient {
  constructor(options: ClientOptions);
  readonly auth: Auth;
  readonly webhooks: Webhooks;
  readonly realtime: Realtime;
  collection(name: string): Collection;
  call<D = Json>(op: string, params?: { [key: string]: Json }): Promise<Envelope<D>>;
  statement(query: string, variables?: { [key: string]: Json }): Promise<Document[]>;
}

export declare function createClient(options: ClientOptions): OpbaseClient;

export declare const ErrorCode: Readonly<{ [code: string]: string }> & {
  readonly VALIDATION_ERROR: 'VALIDATION_ERROR';
  readonly AUTHENTICATION_FAILED: 'AUTHENTICATION_FAILED';
  readonly INVALID_CREDENTIALS: 'INVALID_CREDENTIALS';
  readonly TOKEN_EXPIRED: 'TOKEN_EXPIRED';
  readonly TOKEN_INVALID: 'TOKEN_INVALID';
  readonly FORBIDDEN: 'FORBIDDEN';
  readonly UNKNOWN_OPERATION: 'UNKNOWN_OPERATION';
  readonly EMAIL_ALREADY_EXISTS: 'EMAIL_ALREADY_EXISTS';
  readonly RATE_LIMIT_EXCEEDED: 'RATE_LIMIT_EXCEEDED';
  readonly NETWORK_ERROR: 'NETWORK_ERROR';
};

export declare class OpbaseError extends Error {
  readonly code: string;
  readonly details: { [key: string]: Json };
  /** The HTTP status; 0 when no answer arrived. */
  readonly status: number;
  readonly requestId: string | null;
  /** Seconds to wait before trying again (Retry-After), when the server said. */
  readonly retryAfter: number | null;
  readonly op: string | null;
}

export declare class OpbaseNetworkError extends OpbaseError {
  readonly code: 'NETWORK_ERROR';
}

export declare class MemoryStorage implements SessionStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export declare function verifyWebhook<P = Json>(
  secret: string,
  headers: Headers | { [name: string]: string | string[] | undefined },
  body: string | Uint8Array,
  options?: { toleranceSeconds?: number; now?: () => number; signatureContent?: 'id.timestamp.body' | 'timestamp.body'; crypto?: Crypto },
): Promise<P>;
