/*
 * opbase plugin ABI — the only contract between the opbase daemon and a plugin shared object.
 *
 * A plugin is a shared object that exports one C function, `opbase_plugin_entry`, returning a
 * descriptor. The host checks the descriptor (ABI version, completeness, name), then calls its
 * `init` with a table of host functions (`opbase_host_api`). During `init` — and only then — the
 * plugin registers its op names, the services it provides to other plugins, and its event
 * subscriptions.
 *
 * Rules of this header:
 *  - Pure C, no C++ types cross it; JSON crosses as UTF-8 bytes (`opbase_str`: pointer + length).
 *  - No exceptions and no longjmp cross it; every fallible call returns `opbase_rc`.
 *  - Every pointer says who owns it. `OWNERSHIP:` lines use these words:
 *      borrowed   — valid only for the duration of the call it was passed to; copy to keep it.
 *      host-owned — the host allocated it and frees it; the plugin never frees it.
 *      plugin-owned — the plugin allocated it and must keep it alive for as long as stated.
 *    Data the plugin passes to a host function is always copied by the host before it returns.
 *  - The tables (`opbase_host_api`, `opbase_plugin_descriptor`) begin with their own size and only
 *    ever grow at the end. Each addition bumps OPBASE_ABI_MINOR; a plugin that wants a newer
 *    function checks `host->abi_minor` (or `struct_size`) before calling it.
 *  - Versioning: the host loads a plugin built for the same major and a minor no newer than its
 *    own; anything else is refused with a log line naming both versions.
 *
 * Threads: op handlers, service functions and event handlers may be called concurrently from
 * many host threads. Registration functions may be called only from inside `init`.
 */
#ifndef OPBASE_ABI_H
#define OPBASE_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OPBASE_ABI_MAJOR 1
#define OPBASE_ABI_MINOR 4

/* The one symbol the host looks up in every plugin. */
#define OPBASE_PLUGIN_ENTRY_SYMBOL "opbase_plugin_entry"

#if defined(__GNUC__)
#define OPBASE_EXPORT __attribute__((visibility("default")))
#else
#define OPBASE_EXPORT
#endif

/* A byte string that is not NUL-terminated. OWNERSHIP: stated where it is used. */
typedef struct opbase_str {
  const char* ptr;
  size_t len;
} opbase_str;

/* Result of every fallible call across the edge. */
typedef enum opbase_rc {
  OPBASE_RC_OK = 0,
  /* The op or service failed; the error (code, message, details) was written to the response. */
  OPBASE_RC_ERROR = 1,
  /* The call itself was wrong: bad argument, called outside init, name refused, ... */
  OPBASE_RC_REFUSED = 2,
  /* A named service or key does not exist. */
  OPBASE_RC_NOT_FOUND = 3
} opbase_rc;

/* What a caller must present before the host dispatches an op to its handler. Every op needs the
 * project's API key; the levels add a signed-in user on top. */
typedef enum opbase_access {
  /* API key only (sign-in, sign-up, settings, ...). The handler gets no user and no token, even
   * when the caller sent one. */
  OPBASE_ACCESS_API_KEY = 0,
  OPBASE_ACCESS_USER = 1, /* a valid bearer token of a signed-in user */
  /* A signed-in user whose token's roles hold "admin", or the server admin key (X-Admin-Key,
   * `server.admin_key`): then user_id is empty and user_claims is
   * {"roles":["admin"],"admin_key":true}. */
  OPBASE_ACCESS_ADMIN = 2,
  OPBASE_ACCESS_USER_OPTIONAL =
      3 /* token checked when present; anonymous calls reach the handler */
} opbase_access;

/* Which part of the success envelope `respond` writes. */
typedef enum opbase_part {
  OPBASE_PART_DATA = 0,     /* the value of "data" */
  OPBASE_PART_META = 1,     /* the object under "meta" */
  OPBASE_PART_TOP_LEVEL = 2 /* an object whose fields are set beside "data" at the top level */
} opbase_part;

typedef enum opbase_log_level {
  OPBASE_LOG_DEBUG = 0,
  OPBASE_LOG_INFO = 1,
  OPBASE_LOG_WARNING = 2,
  OPBASE_LOG_ERROR = 3
} opbase_log_level;

/* Opaque host objects. Host-owned; a plugin only passes them back to host functions. */
typedef struct opbase_plugin opbase_plugin;     /* this plugin, valid from init to shutdown */
typedef struct opbase_response opbase_response; /* valid only during the call it was passed to */

/* One call of an op. OWNERSHIP: borrowed, every field valid only during the handler call. */
typedef struct opbase_request {
  size_t struct_size;
  opbase_str op;          /* the op name as registered (aliases already resolved) */
  opbase_str called_as;   /* the op name the client sent (may be an alias) */
  opbase_str body;        /* the whole request body: a JSON object, UTF-8 */
  opbase_str project_id;  /* the project the endpoint key (on POST /api, the API key) selected */
  opbase_str user_id;     /* the signed-in user's key; empty when anonymous or by admin key */
  opbase_str user_claims; /* the verified token's claims as a JSON object; empty when anonymous */
  opbase_str request_id;  /* also in the X-Request-Id response header and the host log */
  opbase_str client_address; /* the TCP peer's IP address as text, for rate limits */
  /* The raw bearer token when one was presented and verified (ops of the USER, ADMIN and
   * USER_OPTIONAL levels); empty otherwise. */
  opbase_str bearer_token;
} opbase_request;

/* An event on the host's event bus. OWNERSHIP: borrowed, valid only during the handler call. */
typedef struct opbase_event {
  size_t struct_size;
  opbase_str type; /* "document.created", "user.signedup", ... */
  opbase_str project_id;
  opbase_str payload; /* a JSON object */
  int64_t time_ms;    /* Unix time of the event, milliseconds */
} opbase_event;

/* Handles one op. Writes its result with host->respond / host->respond_error on `response` and
 * returns OPBASE_RC_OK or OPBASE_RC_ERROR. When respond_error was called, the error is the
 * op's result whatever else was set; any rc but OPBASE_RC_OK without respond_error makes the op
 * return INTERNAL_ERROR. `state` is the plugin's own pointer from init. Must not throw. Called
 * concurrently. */
typedef opbase_rc (*opbase_op_fn)(void* state, const opbase_request* request,
                                  opbase_response* response);

/* A service this plugin offers to others by name ("auth.verify_token", "ai.embed", ...). `input`
 * (borrowed) is the JSON text the caller passed; the host does not check it. The result is
 * written to `response` as for an op: only the DATA part is passed on (META and TOP_LEVEL are
 * dropped), or the error of respond_error. Return OPBASE_RC_OK after respond, OPBASE_RC_ERROR
 * after respond_error: call_service and the gateway's token check do not read the rc (no
 * respond_error is success, with data "null" when none was set), while the JWKS route and
 * `opbase admin create` take any other rc without respond_error as INTERNAL_ERROR. `project_id`
 * (borrowed) is the project the call is made for. Must not throw. Called concurrently, on the
 * caller's thread. */
typedef opbase_rc (*opbase_service_fn)(void* state, opbase_str project_id, opbase_str input,
                                       opbase_response* response);

/* Receives events of a subscribed type, on a host thread that is never a request thread. */
typedef void (*opbase_event_fn)(void* state, const opbase_event* event);

/* ---- routes (ABI 1.3) ---- */

/* One HTTP exchange on a plugin's route: its body read as it arrives, its response written in
 * pieces. Host-owned; valid only during the route handler's call. */
typedef struct opbase_stream opbase_stream;

/* A request on a route. OWNERSHIP: borrowed, every field valid only during the handler call. */
typedef struct opbase_route_request {
  size_t struct_size;
  opbase_str method;         /* "GET", "HEAD", "PUT", ... */
  opbase_str target;         /* the path and query as sent, e.g. "/files/shop/k1?expires=..." */
  opbase_str client_address; /* the TCP peer's IP address as text */
  opbase_str request_id;     /* also in the X-Request-Id response header and the host log */
  int64_t content_length;    /* the body's length; 0 when there is none */
  /* ABI 1.4: on an endpoint route (register_endpoint_route), the project its endpoint key and
   * API key named; empty on other routes. Check struct_size before reading it. */
  opbase_str project_id;
} opbase_route_request;

/* Handles one request on a route (register_route): reads the body with stream_read, answers
 * with stream_respond, stream_respond_error, or stream_start and then stream_write /
 * stream_send_file for exactly the length announced. A handler that returns without answering
 * gets 500 INTERNAL_ERROR sent for it. Must not throw. Called concurrently, on the plugin's lane.
 */
typedef void (*opbase_route_fn)(void* state, const opbase_route_request* request,
                                opbase_stream* stream);

/* ---- held responses (ABI 1.4) ---- */

/* A response held open after its head (stream_hold): its body is what the plugin pushes, from
 * any thread, for as long as the client stays (server-sent events). Host-owned; valid from
 * stream_hold until the plugin's held_release. */
typedef struct opbase_held opbase_held;

/* How a held response ended. */
typedef enum opbase_held_end {
  OPBASE_HELD_CLIENT_LEFT = 0,    /* the client closed its side, or the connection failed */
  OPBASE_HELD_TOO_SLOW = 1,       /* the client read too slowly (see stream_hold) */
  OPBASE_HELD_CLOSED = 2,         /* the plugin closed it (held_close) */
  OPBASE_HELD_SERVER_STOPPING = 3 /* the daemon stops */
} opbase_held_end;

/* Called exactly once when a held response ends, on the HTTP front's thread: must be quick and
 * never block, and must not call the held_* functions (hand the end to a thread of the
 * plugin's). Every held response ends before the plugin's shutdown is called. */
typedef void (*opbase_held_end_fn)(void* state, opbase_held_end why);

/* Receives the result of `call_service`. `data` or the error fields are borrowed for the call.
 * On success `rc` is OPBASE_RC_OK and `data` holds the service's "data" JSON ("null" when it set
 * none); on failure `rc` is OPBASE_RC_ERROR (the service's error) or OPBASE_RC_NOT_FOUND (no
 * such service: `code` INTERNAL_ERROR, `message` naming it) and `code`, `message`, `details`
 * (a JSON object, or empty) describe it. */
typedef void (*opbase_service_result_fn)(void* caller_ctx, opbase_rc rc, opbase_str data,
                                         opbase_str code, opbase_str message, opbase_str details);

/* Receives one configuration value. OWNERSHIP: `value` borrowed for the call. */
typedef void (*opbase_config_value_fn)(void* caller_ctx, opbase_str value);

/* The host's functions. OWNERSHIP: host-owned, valid from init until shutdown returns.
 * Grows only at the end; check abi_minor before using a function added after 1.0. */
typedef struct opbase_host_api {
  size_t struct_size;
  uint16_t abi_major;
  uint16_t abi_minor;
  const char* host_version; /* host-owned, NUL-terminated */

  /* ---- registration: only during init; any other time returns OPBASE_RC_REFUSED (and logs a
   * warning). A registration refused during init returns OPBASE_RC_REFUSED and refuses the
   * whole plugin once init returns, even if init returns OPBASE_RC_OK (see `init`). ---- */

  /* Registers op `name` (e.g. "echo.ping"): "<area>.<verb>" or "<area>.<group>.<verb>", each part
   * 1-64 lowercase letters, digits and '_'. The area is the plugin's name, or the alias area the
   * host grants it ("db" for the plugin "collection", "baseai" for "ai"). The host binds the
   * alias name itself ("db.find" for "collection.find"); neither name may be taken already.
   * `handler` must not be NULL and `access` must be one of the opbase_access levels.
   * `handler_state` (plugin-owned) is passed back as `state`; keep it alive until shutdown. */
  opbase_rc (*register_op)(opbase_plugin* plugin, opbase_str name, opbase_access access,
                           opbase_op_fn handler, void* handler_state);

  /* Offers a service under `name` (same naming rules as ops; no alias is bound) to the other
   * plugins. The name must not be provided yet; `fn` must not be NULL. */
  opbase_rc (*provide_service)(opbase_plugin* plugin, opbase_str name, opbase_service_fn fn,
                               void* fn_state);

  /* Subscribes to events whose type equals `type`; or, when `type` is "<prefix>.*", whose type
   * starts with "<prefix>."; or every event when it is "*". A pattern is at most 128 characters,
   * '*' only as described; `fn` must not be NULL. Delivery is off the request thread, through a
   * bounded queue of this subscription: when it is full the event is dropped and counted. The
   * subscription receives events only once the plugin is accepted, and the host holds every
   * delivery until all enabled plugins have loaded. */
  opbase_rc (*subscribe)(opbase_plugin* plugin, opbase_str type, opbase_event_fn fn,
                         void* fn_state);

  /* ---- the result of an op or a service call ---- */

  /* Sets one part of the success envelope to `json` (copied; must be valid JSON; for META and
   * TOP_LEVEL an object). Setting a part twice replaces it. OPBASE_RC_REFUSED (nothing set) for
   * text that breaks these rules. */
  opbase_rc (*respond)(opbase_response* response, opbase_part part, opbase_str json);

  /* Sets the error envelope: `code` like "VALIDATION_ERROR" (1-64 of A-Z, 0-9 and '_'),
   * `message` for people, `details` a JSON object or empty. The HTTP status follows from the code;
   * `http_status` 0 means "from the code", a value from 400 to 599 overrides it. All copied. A
   * malformed code, details or status still sets an error, INTERNAL_ERROR "the plugin answered a
   * malformed error", and returns OPBASE_RC_REFUSED. */
  opbase_rc (*respond_error)(opbase_response* response, opbase_str code, opbase_str message,
                             opbase_str details, int http_status);

  /* ---- host services, callable any time after init began, from any thread ---- */

  /* Calls service `name` for `project_id` with `input` (JSON text), synchronously on this thread:
   * the host's own services ("store.*", "mail.send", "projects.list") or a service a plugin
   * provides. During init only the services of plugins loaded earlier (and this plugin's own)
   * exist. `on_result` is called exactly once, before this returns, with `caller_ctx`, and this
   * returns the same rc it passed. When the call itself is wrong (`plugin` or `on_result` NULL,
   * a NULL pointer with a non-zero length) it returns OPBASE_RC_REFUSED and `on_result` is not
   * called. */
  opbase_rc (*call_service)(opbase_plugin* plugin, opbase_str name, opbase_str project_id,
                            opbase_str input, opbase_service_result_fn on_result, void* caller_ctx);

  /* Publishes an event; never blocks on subscribers. `type` must be non-empty without '*',
   * `payload` a JSON object; OPBASE_RC_REFUSED otherwise. Such an event is not kept for durable
   * subscribers (see subscribe_durable). */
  opbase_rc (*publish)(opbase_plugin* plugin, opbase_str type, opbase_str project_id,
                       opbase_str payload);

  /* Reads configuration key `key` (e.g. "echo.greeting"). Calls `on_value` once and returns
   * OPBASE_RC_OK when the key is set, returns OPBASE_RC_NOT_FOUND without calling it otherwise. */
  opbase_rc (*config_get)(opbase_plugin* plugin, opbase_str key, opbase_config_value_fn on_value,
                          void* caller_ctx);

  /* Writes one line to the host log, tagged "[plugin <name>]"; line breaks in `message` become
   * spaces. Never log secrets. */
  void (*log)(opbase_plugin* plugin, opbase_log_level level, opbase_str message);

  /* The host clock: Unix time in milliseconds. Tests may run the host on a fake clock. */
  int64_t (*now_ms)(opbase_plugin* plugin);

  /* ---- added in ABI 1.1 ---- */

  /* Registration, only during init. Keeps, for this plugin, every event whose type matches
   * `type` (as in subscribe) that a store write raises (store.hpp Events): each one becomes a
   * document of this plugin's collection "_events" (store::kEventsCollection) in the project's
   * store, written in the same transaction as the write on sqlite, and right after the write,
   * before it is acknowledged, on mongodb. So an event of a write that was acknowledged is never
   * lost, whatever crashes. Events of `publish` are not kept. The plugin reads and removes those
   * documents itself; subscribe too to be woken when new ones arrive. */
  opbase_rc (*subscribe_durable)(opbase_plugin* plugin, opbase_str type);

  /* Metrics, exposed at GET /metrics as opbase_<plugin>_<name>. `name`: lowercase letters,
   * digits and '_', at most 64 bytes; one name is one kind for the life of the process (the
   * first call decides); at most 256 names per plugin. A call that breaks a rule (or a value
   * that is not finite) records nothing and returns OPBASE_RC_REFUSED. Any time after init
   * began, from any thread. */
  /* A counter: adds `amount` (>= 0). Name it <what>_total. */
  opbase_rc (*metric_add)(opbase_plugin* plugin, opbase_str name, double amount);
  /* A gauge: sets its value. */
  opbase_rc (*metric_set)(opbase_plugin* plugin, opbase_str name, double value);
  /* A histogram of durations in seconds (>= 0; the buckets of the request latency histogram). */
  opbase_rc (*metric_observe)(opbase_plugin* plugin, opbase_str name, double seconds);

  /* ---- added in ABI 1.2 ---- */

  /* Registration, only during init. Registers an op as register_op does, but the host runs its
   * handler on this plugin's lane: threads of its own instead of the HTTP workers. For ops that
   * wait on another server (a model server, an object store): however long they wait, they hold
   * only the lane's threads, and every other op keeps the workers and its latency. The checks
   * before the handler (key, body, token, access) still run on a worker. When the lane's threads
   * are busy and its queue is full, the call is answered 503 RATE_LIMIT_EXCEEDED (details.reason
   * "lane_full", Retry-After) without reaching the handler. One lane per plugin, made by its
   * first lane op. */
  opbase_rc (*register_lane_op)(opbase_plugin* plugin, opbase_str name, opbase_access access,
                                opbase_op_fn handler, void* handler_state);

  /* Registration, only during init, before the first register_lane_op: how many of this
   * plugin's lane ops run at once (`threads`, 1-1024; default 16) and how many more may wait
   * (`queue`, 1-1048576; default 256). OPBASE_RC_REFUSED (refusing the plugin) otherwise. */
  opbase_rc (*size_lane)(opbase_plugin* plugin, uint32_t threads, uint32_t queue);

  /* ---- added in ABI 1.3 ---- */

  /* Registration, only during init. Requests whose path starts with `prefix` go to `handler`, on
   * this plugin's lane (size_lane sizes it), without an API key or a token: the route checks its
   * own credentials (a signed URL, say). `prefix`: '/' first and last, 3-64 bytes of lowercase
   * letters, digits, '_', '-' and '/', the first segment named after the plugin
   * ("/files/" for the plugin "files" or "file": the segment may add an 's'). The body is not
   * held by the host: Content-Length is required (a chunked body is answered 411) and may be any
   * size; each read waits at most server.receive_timeout_s, each write server.send_timeout_s. */
  opbase_rc (*register_route)(opbase_plugin* plugin, opbase_str prefix, opbase_route_fn handler,
                              void* handler_state);

  /* The value of request header `name` (any case; the first of repeated ones), through
   * `on_value`; OPBASE_RC_NOT_FOUND (not called) when the request has none. */
  opbase_rc (*stream_header)(opbase_stream* stream, opbase_str name,
                             opbase_config_value_fn on_value, void* caller_ctx);

  /* Reads up to `capacity` bytes of the body into `buffer`: how many, 0 at its end, -1 when the
   * client went away or stayed silent too long (then no answer can reach it: return). */
  int64_t (*stream_read)(opbase_stream* stream, char* buffer, size_t capacity);

  /* A whole response: `status` (100-599), `content_type`, `headers` (zero or more
   * "Name: value\r\n" lines; not Content-Length, Content-Type, Connection, Date or Server, which
   * the host writes) and `body`. The exchange ends. OPBASE_RC_REFUSED for a bad argument or a
   * second answer; OPBASE_RC_ERROR when the client is gone. */
  opbase_rc (*stream_respond)(opbase_stream* stream, int status, opbase_str content_type,
                              opbase_str headers, opbase_str body);

  /* The API's error envelope as the whole response, as respond_error makes it for an op. */
  opbase_rc (*stream_respond_error)(opbase_stream* stream, opbase_str code, opbase_str message,
                                    opbase_str details, int http_status);

  /* The response head, as stream_respond's, announcing `content_length` bytes of body that
   * stream_write and stream_send_file then send (for HEAD they send nothing). */
  opbase_rc (*stream_start)(opbase_stream* stream, int status, opbase_str content_type,
                            opbase_str headers, uint64_t content_length);
  opbase_rc (*stream_write)(opbase_stream* stream, opbase_str bytes);
  /* `length` bytes of the open file `fd` from `offset`, copied by the kernel. */
  opbase_rc (*stream_send_file)(opbase_stream* stream, int fd, uint64_t offset, uint64_t length);

  /* ---- added in ABI 1.4 ---- */

  /* Registration, only during init. Requests for /api/{endpoint_key}/<name> go to `handler` on
   * this plugin's lane, as a route's do (register_route), once the host has checked the
   * project's API key: in the X-API-KEY header, or in the `api_key` query parameter (a
   * browser's EventSource cannot set headers). Without a valid key the host answers 401
   * AUTHENTICATION_FAILED, as it would an op. The handler's request carries the project's id
   * (project_id); no bearer token is checked here, and none belongs in a URL. `name`: 1-64
   * lowercase letters, digits and '_', the plugin's name or starting with it and '_' ("realtime").
   */
  opbase_rc (*register_endpoint_route)(opbase_plugin* plugin, opbase_str name,
                                       opbase_route_fn handler, void* handler_state);

  /* Answers with a head (status, content_type and headers as stream_respond's; no length, and
   * the connection closes when the response ends) and holds the response open: its body is what
   * held_push sends, for as long as the client stays. The handler returns at once; the response
   * costs no thread while it is held. It ends with held_close, the client leaving, the daemon's
   * stop, or a client too slow: a push that would leave more than `max_queued_bytes` (at least
   * 1024) pushed and not yet taken by the client, or bytes waiting with none taken for
   * server.send_timeout_s. Then what waits is dropped and `too_slow_farewell` sent in its place.
   * `on_end` (not NULL) is then called once with `on_end_state` (plugin-owned; keep it until
   * shutdown). Returns the held response, or NULL (on_end is not called) when the call breaks a
   * rule or the client is gone. After it the stream is answered: no other stream_* call. */
  opbase_held* (*stream_hold)(opbase_stream* stream, int status, opbase_str content_type,
                              opbase_str headers, uint64_t max_queued_bytes,
                              opbase_str too_slow_farewell, opbase_held_end_fn on_end,
                              void* on_end_state);

  /* Queues `bytes` for the client, never waiting for it: OPBASE_RC_OK, or OPBASE_RC_ERROR once
   * the response has ended (nothing more is sent). From any thread. */
  opbase_rc (*held_push)(opbase_held* held, opbase_str bytes);
  /* Sends what is queued, then `last`, and ends the response (OPBASE_HELD_CLOSED). */
  void (*held_close)(opbase_held* held, opbase_str last);
  /* Bytes pushed and not yet taken by the client's socket. */
  uint64_t (*held_queued_bytes)(opbase_held* held);
  /* The plugin is done with `held`, ended or not (an open one goes on until it ends); it is
   * invalid from now on. Exactly once per held response. */
  void (*held_release)(opbase_held* held);

  /* Registration, only during init. As subscribe_durable, and each event kept also holds the
   * document it is about: "document", the document as the write left it (for an archive or a
   * delete, as it was when moved), and for an update "before", the document as it was. For a
   * subscriber that must judge each change by its content after the fact (live queries). */
  opbase_rc (*subscribe_durable_documents)(opbase_plugin* plugin, opbase_str type);
} opbase_host_api;

/* What a plugin tells the host about itself. OWNERSHIP: plugin-owned, static storage; must stay
 * valid for as long as the shared object is loaded. */
typedef struct opbase_plugin_descriptor {
  size_t struct_size;
  uint16_t abi_major;  /* OPBASE_ABI_MAJOR the plugin was built with */
  uint16_t abi_minor;  /* OPBASE_ABI_MINOR the plugin was built with */
  const char* name;    /* area name, NUL-terminated: lowercase letters, digits, '_' */
  const char* version; /* the plugin's own version, NUL-terminated, e.g. "1.2.0" */

  /* Registers ops, services and subscriptions through `host`, sets `*state` to the plugin's own
   * pointer (or leaves NULL) and returns OPBASE_RC_OK. Any other rc refuses the plugin: the host
   * removes everything it registered (its subscriptions never reach the event bus) and does not
   * call shutdown. When init returns OPBASE_RC_OK but one of its registrations was refused, the
   * plugin is refused too: the host removes everything it registered and calls shutdown once.
   * Either way a refused plugin's shared object stays loaded until the daemon exits (a thread it
   * started may still run its code), and it is never initialised again: none of its ops is
   * served, no event reaches it, its services are gone. What init did through the host (a store
   * write, a published event) is not undone. `host` and `plugin` stay valid until shutdown
   * returns; for a refused plugin, until the daemon exits. */
  opbase_rc (*init)(const opbase_host_api* host, opbase_plugin* plugin, void** state);

  /* Called once at host stop (in reverse load order), after the HTTP front and the event bus
   * have stopped and the plugins loaded after this one were shut down: no op or event reaches
   * the plugin any more. Also called once when the plugin is refused after an init that returned
   * OPBASE_RC_OK (see `init`). Frees what init allocated. May be NULL. */
  void (*shutdown)(void* state);
} opbase_plugin_descriptor;

/* The entry symbol every plugin exports. Must not call into the host. */
typedef const opbase_plugin_descriptor* (*opbase_plugin_entry_fn)(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* OPBASE_ABI_H */
