// The fake host's function table. It never defines the opaque ABI structs: its handles are its
// own types, cast at the edge, so a test binary may also link the real host.
#include "opbase/testing/fake_host.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>

#include "opbase/internal/answer_rules.hpp"
#include "opbase/internal/event_pattern.hpp"
#include "opbase/internal/op_names.hpp"
#include "opbase/internal/route_rules.hpp"
#include "opbase/internal/str.hpp"

namespace opbase::testing {
namespace {

struct FakeResponse {
  bool failed = false;
  std::string data, meta, top_level, code, message, details;
  int http_status = 0;
};

FakeResponse* as_response(opbase_response* r) { return reinterpret_cast<FakeResponse*>(r); }

// One route call: the request, how much of its body was read, and the answer.
struct FakeStream {
  const RouteRequest* request = nullptr;
  size_t read = 0;
  RouteResult result;
  bool answered = false;
  std::string project_id;
  FakeHost::State* host = nullptr;
  uint64_t body_left = 0;
};
FakeStream* as_stream(opbase_stream* s) { return reinterpret_cast<FakeStream*>(s); }
opbase_response* as_handle(FakeResponse* r) { return reinterpret_cast<opbase_response*>(r); }

}  // namespace

struct FakeHost::State {
  struct Op {
    std::string canonical;  // the registered name; an alias entry points back to it
    opbase_access access;
    opbase_op_fn fn;
    void* state;
  };
  struct Service {
    opbase_service_fn fn;
    void* state;
  };
  struct Subscription {
    std::string pattern;
    opbase_event_fn fn;
    void* state;
  };
  struct Route {
    std::string prefix;
    opbase_route_fn fn;
    void* state;
  };

  const opbase_plugin_descriptor* descriptor = nullptr;
  void* plugin_state = nullptr;
  std::string plugin_name;
  bool in_init = false;
  bool loaded = false;
  std::string refused;
  std::map<std::string, std::string, std::less<>> config;
  std::map<std::string, Op, std::less<>> ops;
  std::map<std::string, Service, std::less<>> services;
  std::map<std::string, TextServiceHandler, std::less<>> provided;
  std::vector<Subscription> subscriptions;
  std::vector<Route> routes;
  std::vector<Route> endpoint_routes;  // prefix: the route's name
  // Every response a route held, ended before shutdown as the daemon's front ends them.
  std::vector<std::weak_ptr<HeldRecord>> held;
  std::atomic<int64_t> now_ms{1'700'000'000'000};
  mutable std::mutex mu;  // guards published and log
  std::vector<PublishedEvent> published;
  std::vector<std::string> log;
  std::vector<std::string> durable;
  std::map<std::string, double, std::less<>> metrics;  // guarded by mu

  static State* of(opbase_plugin* p) { return reinterpret_cast<State*>(p); }
  opbase_plugin* handle() { return reinterpret_cast<opbase_plugin*>(this); }

  // The daemon's own naming rules, aliases included (opbase/op_names.hpp).
  bool name_allowed(std::string_view name) const {
    return names::valid_name(name) && names::name_belongs_to(plugin_name, name);
  }
  opbase_rc refuse(std::string why) {
    if (refused.empty()) refused = std::move(why);
    return OPBASE_RC_REFUSED;
  }
};

namespace {

using State = FakeHost::State;

opbase_rc fake_register_op(opbase_plugin* p, opbase_str name, opbase_access access, opbase_op_fn fn,
                           void* fn_state) {
  State* s = State::of(p);
  const std::string n(view(name));
  if (!s->in_init) return s->refuse("register_op outside init");
  if (!s->name_allowed(n)) return s->refuse("op '" + n + "' is outside the plugin's area");
  const std::string alias = names::alias_of(n);
  if (s->ops.count(n) || (!alias.empty() && s->ops.count(alias))) {
    return s->refuse("op '" + n + "' is registered twice");
  }
  s->ops[n] = {n, access, fn, fn_state};
  if (!alias.empty()) s->ops[alias] = {n, access, fn, fn_state};  // as the daemon binds it
  return OPBASE_RC_OK;
}

// The fake host has no HTTP workers to spare: a lane op is called like any other op.
opbase_rc fake_register_lane_op(opbase_plugin* p, opbase_str name, opbase_access access,
                                opbase_op_fn fn, void* fn_state) {
  return fake_register_op(p, name, access, fn, fn_state);
}

opbase_rc fake_size_lane(opbase_plugin* p, uint32_t threads, uint32_t queue) {
  State* s = State::of(p);
  if (!s->in_init) return s->refuse("size_lane outside init");
  if (threads < 1 || threads > 1024 || queue < 1 || queue > (1u << 20)) {
    return s->refuse("a lane has 1-1024 threads and a queue of 1-1048576 calls");
  }
  return OPBASE_RC_OK;
}

opbase_rc fake_provide_service(opbase_plugin* p, opbase_str name, opbase_service_fn fn, void* st) {
  State* s = State::of(p);
  const std::string n(view(name));
  if (!s->in_init) return s->refuse("provide_service outside init");
  if (!s->name_allowed(n)) return s->refuse("service '" + n + "' is outside the plugin's area");
  if (s->services.count(n)) return s->refuse("service '" + n + "' is provided twice");
  s->services[n] = {fn, st};
  return OPBASE_RC_OK;
}

opbase_rc fake_subscribe(opbase_plugin* p, opbase_str type, opbase_event_fn fn, void* st) {
  State* s = State::of(p);
  if (!s->in_init) return s->refuse("subscribe outside init");
  if (fn == nullptr || !events::valid_pattern(view(type))) {
    return s->refuse("subscription '" + std::string(view(type)) +
                     "' is not an event type, 'area.*' or '*'");
  }
  s->subscriptions.push_back({std::string(view(type)), fn, st});
  return OPBASE_RC_OK;
}

opbase_rc fake_respond(opbase_response* r, opbase_part part, opbase_str json) {
  const std::string_view text = view(json);
  if (part == OPBASE_PART_DATA ? !json_text::is_valid(text) : !answers::is_json_object(text)) {
    return OPBASE_RC_REFUSED;
  }
  FakeResponse* out = as_response(r);
  (part == OPBASE_PART_DATA   ? out->data
   : part == OPBASE_PART_META ? out->meta
                              : out->top_level) = text;
  return OPBASE_RC_OK;
}

opbase_rc fake_respond_error(opbase_response* r, opbase_str code, opbase_str message,
                             opbase_str details, int http_status) {
  FakeResponse* out = as_response(r);
  out->failed = true;
  const bool details_ok = view(details).empty() || answers::is_json_object(view(details));
  if (!answers::valid_error_code(view(code)) || !details_ok ||
      !answers::valid_http_status(http_status)) {
    // As the daemon does: a malformed error is the plugin's bug, returned as INTERNAL_ERROR.
    out->code = "INTERNAL_ERROR";
    out->message = "the plugin answered a malformed error";
    out->details.clear();
    out->http_status = 0;
    return OPBASE_RC_REFUSED;
  }
  out->code = view(code);
  out->message = view(message);
  out->details = view(details);
  out->http_status = http_status;
  return OPBASE_RC_OK;
}

struct ServiceAnswerCollector {
  opbase_service_result_fn fn;
  void* ctx;
};

opbase_rc fake_call_service(opbase_plugin* p, opbase_str name, opbase_str project, opbase_str input,
                            opbase_service_result_fn on_result, void* ctx) {
  State* s = State::of(p);
  auto it = s->provided.find(view(name));
  if (it == s->provided.end()) {
    const std::string message =
        "no loaded plugin provides the service '" + std::string(view(name)) + "'";
    on_result(ctx, OPBASE_RC_NOT_FOUND, {}, str("INTERNAL_ERROR"), str(message), {});
    return OPBASE_RC_NOT_FOUND;
  }
  Result<std::string> answer = it->second(view(project), view(input));
  if (!answer) {
    const Status st = answer.status();
    const std::string details = st.details().is_null() ? "" : st.details().dump();
    on_result(ctx, OPBASE_RC_ERROR, {}, str(st.code()), str(st.message()), str(details));
    return OPBASE_RC_ERROR;
  }
  on_result(ctx, OPBASE_RC_OK, str(*answer), {}, {}, {});
  return OPBASE_RC_OK;
}

opbase_rc fake_publish(opbase_plugin* p, opbase_str type, opbase_str project, opbase_str payload) {
  State* s = State::of(p);
  auto parsed = nlohmann::json::parse(view(payload), nullptr, false);
  if (!parsed.is_object()) return OPBASE_RC_REFUSED;
  std::lock_guard lock(s->mu);
  s->published.push_back(
      {std::string(view(type)), std::string(view(project)), std::move(parsed), s->now_ms.load()});
  return OPBASE_RC_OK;
}

opbase_rc fake_config_get(opbase_plugin* p, opbase_str key, opbase_config_value_fn on_value,
                          void* ctx) {
  State* s = State::of(p);
  auto it = s->config.find(view(key));
  if (it == s->config.end()) return OPBASE_RC_NOT_FOUND;
  on_value(ctx, str(it->second));
  return OPBASE_RC_OK;
}

void fake_log(opbase_plugin* p, opbase_log_level level, opbase_str message) {
  State* s = State::of(p);
  static const char* kLevels[] = {"DEBUG", "INFO", "WARNING", "ERROR"};
  std::lock_guard lock(s->mu);
  s->log.push_back(std::string(kLevels[std::clamp<int>(level, 0, 3)]) + " " +
                   std::string(view(message)));
}

int64_t fake_now_ms(opbase_plugin* p) { return State::of(p)->now_ms.load(); }

opbase_rc fake_subscribe_durable(opbase_plugin* p, opbase_str type) {
  State* s = State::of(p);
  if (!s->in_init) return s->refuse("subscribe_durable outside init");
  if (!events::valid_pattern(view(type))) {
    return s->refuse("durable subscription '" + std::string(view(type)) + "' is not a pattern");
  }
  s->durable.emplace_back(view(type));
  return OPBASE_RC_OK;
}

opbase_rc fake_subscribe_durable_documents(opbase_plugin* p, opbase_str type) {
  return fake_subscribe_durable(p, type);
}

// Metric names follow the daemon's rule: lowercase letters, digits and '_', 1-64 bytes.
bool metric_name_ok(std::string_view name) {
  return !name.empty() && name.size() <= 64 && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

opbase_rc fake_metric(opbase_plugin* p, opbase_str name, double value, bool add) {
  if (!metric_name_ok(view(name)) || !std::isfinite(value)) return OPBASE_RC_REFUSED;
  State* s = State::of(p);
  std::lock_guard lock(s->mu);
  double& slot = s->metrics[std::string(view(name))];
  slot = add ? slot + value : value;
  return OPBASE_RC_OK;
}

opbase_rc fake_metric_add(opbase_plugin* p, opbase_str name, double amount) {
  return amount < 0 ? OPBASE_RC_REFUSED : fake_metric(p, name, amount, true);
}
opbase_rc fake_metric_set(opbase_plugin* p, opbase_str name, double value) {
  return fake_metric(p, name, value, false);
}
opbase_rc fake_metric_observe(opbase_plugin* p, opbase_str name, double seconds) {
  return seconds < 0 ? OPBASE_RC_REFUSED : fake_metric(p, name, 1, true);
}

opbase_rc fake_register_route(opbase_plugin* p, opbase_str prefix, opbase_route_fn fn,
                              void* fn_state) {
  State* s = State::of(p);
  const std::string text(view(prefix));
  if (!s->in_init) return s->refuse("register_route outside init");
  if (fn == nullptr) return s->refuse("route '" + text + "' has no handler");
  if (std::string problem = answers::route_prefix_problem(s->plugin_name, text); !problem.empty()) {
    return s->refuse("route '" + text + "': " + problem);
  }
  for (const auto& route : s->routes) {
    if (route.prefix.starts_with(text) || text.starts_with(route.prefix)) {
      return s->refuse("route '" + text + "' overlaps route '" + route.prefix + "'");
    }
  }
  s->routes.push_back({text, fn, fn_state});
  return OPBASE_RC_OK;
}

opbase_rc fake_register_endpoint_route(opbase_plugin* p, opbase_str name, opbase_route_fn fn,
                                       void* fn_state) {
  State* s = State::of(p);
  const std::string text(view(name));
  if (!s->in_init) return s->refuse("register_endpoint_route outside init");
  if (fn == nullptr) return s->refuse("endpoint route '" + text + "' has no handler");
  if (std::string problem = answers::endpoint_route_name_problem(s->plugin_name, text);
      !problem.empty()) {
    return s->refuse("endpoint route '" + text + "': " + problem);
  }
  for (const auto& route : s->endpoint_routes) {
    if (route.prefix == text) return s->refuse("endpoint route '" + text + "' is taken");
  }
  s->endpoint_routes.push_back({text, fn, fn_state});
  return OPBASE_RC_OK;
}

opbase_rc fake_stream_header(opbase_stream* st, opbase_str name, opbase_config_value_fn on_value,
                             void* ctx) {
  for (const auto& [field, value] : as_stream(st)->request->headers) {
    if (field.size() == name.len &&
        std::equal(field.begin(), field.end(), name.ptr, [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) ==
                 std::tolower(static_cast<unsigned char>(b));
        })) {
      on_value(ctx, str(value));
      return OPBASE_RC_OK;
    }
  }
  return OPBASE_RC_NOT_FOUND;
}

int64_t fake_stream_read(opbase_stream* st, char* buffer, size_t capacity) {
  FakeStream* s = as_stream(st);
  const size_t take = std::min(capacity, s->request->body.size() - s->read);
  std::copy_n(s->request->body.data() + s->read, take, buffer);
  s->read += take;
  return static_cast<int64_t>(take);
}

// The same checks as the daemon's (route_rules.hpp): one answer, a valid status and headers.
opbase_rc fake_stream_head(FakeStream* s, int status, opbase_str content_type, opbase_str headers) {
  auto lines = answers::route_header_lines(view(headers));
  if (s->answered || !answers::valid_route_status(status) || !lines) return OPBASE_RC_REFUSED;
  s->answered = true;
  s->result.status = status;
  s->result.content_type =
      view(content_type).empty() ? "application/octet-stream" : std::string(view(content_type));
  s->result.headers = std::move(*lines);
  return OPBASE_RC_OK;
}

opbase_rc fake_stream_respond(opbase_stream* st, int status, opbase_str content_type,
                              opbase_str headers, opbase_str body) {
  FakeStream* s = as_stream(st);
  if (opbase_rc rc = fake_stream_head(s, status, content_type, headers); rc != OPBASE_RC_OK) {
    return rc;
  }
  s->result.body.assign(view(body));
  s->result.complete = true;
  return OPBASE_RC_OK;
}

opbase_rc fake_stream_respond_error(opbase_stream* st, opbase_str code, opbase_str message,
                                    opbase_str details, int http_status) {
  FakeStream* s = as_stream(st);
  if (s->answered || !answers::valid_error_code(view(code)) ||
      !answers::valid_http_status(http_status) ||
      (!view(details).empty() && !answers::is_json_object(view(details)))) {
    return OPBASE_RC_REFUSED;
  }
  nlohmann::json error = {{"code", view(code)}, {"message", view(message)}};
  if (!view(details).empty()) error["details"] = nlohmann::json::parse(view(details));
  s->answered = true;
  s->result.status = http_status != 0 ? http_status : code::http_status_of(view(code));
  s->result.content_type = "application/json";
  s->result.body = nlohmann::json{{"error", error}}.dump();
  s->result.complete = true;
  return OPBASE_RC_OK;
}

opbase_rc fake_stream_start(opbase_stream* st, int status, opbase_str content_type,
                            opbase_str headers, uint64_t content_length) {
  FakeStream* s = as_stream(st);
  if (opbase_rc rc = fake_stream_head(s, status, content_type, headers); rc != OPBASE_RC_OK) {
    return rc;
  }
  s->body_left = content_length;
  s->result.complete = content_length == 0;
  return OPBASE_RC_OK;
}

opbase_rc fake_stream_write(opbase_stream* st, opbase_str bytes) {
  FakeStream* s = as_stream(st);
  if (!s->answered || bytes.len > s->body_left) return OPBASE_RC_REFUSED;
  s->result.body.append(view(bytes));
  s->body_left -= bytes.len;
  s->result.complete = s->body_left == 0;
  return OPBASE_RC_OK;
}

opbase_rc fake_stream_send_file(opbase_stream* st, int fd, uint64_t offset, uint64_t length) {
  FakeStream* s = as_stream(st);
  if (!s->answered || fd < 0 || length > s->body_left) return OPBASE_RC_REFUSED;
  std::string bytes(length, '\0');
  const ssize_t got = ::pread(fd, bytes.data(), length, static_cast<off_t>(offset));
  if (got != static_cast<ssize_t>(length)) return OPBASE_RC_ERROR;
  s->result.body += bytes;
  s->body_left -= length;
  s->result.complete = s->body_left == 0;
  return OPBASE_RC_OK;
}

// The plugin's handle on a held response.
struct FakeHeld {
  std::shared_ptr<HeldRecord> record;
};
FakeHeld* as_held(opbase_held* h) { return reinterpret_cast<FakeHeld*>(h); }

opbase_held* fake_stream_hold(opbase_stream* st, int status, opbase_str content_type,
                              opbase_str headers, uint64_t max_queued_bytes,
                              opbase_str too_slow_farewell, opbase_held_end_fn on_end,
                              void* on_end_state) {
  (void)too_slow_farewell;
  FakeStream* s = as_stream(st);
  if (on_end == nullptr || max_queued_bytes < 1024 ||
      fake_stream_head(s, status, content_type, headers) != OPBASE_RC_OK) {
    return nullptr;
  }
  s->result.held = std::make_shared<HeldRecord>(on_end, on_end_state);
  s->host->held.push_back(s->result.held);
  return reinterpret_cast<opbase_held*>(new FakeHeld{s->result.held});
}

opbase_rc fake_held_push(opbase_held* h, opbase_str bytes) {
  return as_held(h)->record->push(view(bytes)) ? OPBASE_RC_OK : OPBASE_RC_ERROR;
}

void fake_held_close(opbase_held* h, opbase_str last) {
  if (as_held(h)->record->push(view(last))) as_held(h)->record->end(HeldEnd::kClosed);
}

uint64_t fake_held_queued_bytes(opbase_held*) { return 0; }

void fake_held_release(opbase_held* h) { delete as_held(h); }

const opbase_host_api kFakeApi = {
    sizeof(opbase_host_api),
    OPBASE_ABI_MAJOR,
    OPBASE_ABI_MINOR,
    "fake",
    &fake_register_op,
    &fake_provide_service,
    &fake_subscribe,
    &fake_respond,
    &fake_respond_error,
    &fake_call_service,
    &fake_publish,
    &fake_config_get,
    &fake_log,
    &fake_now_ms,
    &fake_subscribe_durable,
    &fake_metric_add,
    &fake_metric_set,
    &fake_metric_observe,
    &fake_register_lane_op,
    &fake_size_lane,
    &fake_register_route,
    &fake_stream_header,
    &fake_stream_read,
    &fake_stream_respond,
    &fake_stream_respond_error,
    &fake_stream_start,
    &fake_stream_write,
    &fake_stream_send_file,
    &fake_register_endpoint_route,
    &fake_stream_hold,
    &fake_held_push,
    &fake_held_close,
    &fake_held_queued_bytes,
    &fake_held_release,
    &fake_subscribe_durable_documents,
};

CallResult to_result(const FakeResponse& r, opbase_rc rc) {
  CallResult out;
  if (r.failed || rc != OPBASE_RC_OK) {
    out.ok = false;
    out.code = r.failed ? r.code : "INTERNAL_ERROR";
    out.message = r.message;
    out.details =
        r.details.empty() ? nlohmann::json() : nlohmann::json::parse(r.details, nullptr, false);
    out.http_status = r.http_status ? r.http_status : code::http_status_of(out.code);
    return out;
  }
  out.ok = true;
  out.http_status = 200;
  out.data = r.data.empty() ? nlohmann::json() : nlohmann::json::parse(r.data);
  if (!r.meta.empty()) out.meta = nlohmann::json::parse(r.meta);
  if (!r.top_level.empty()) out.top_level = nlohmann::json::parse(r.top_level);
  return out;
}

CallResult refused_call(std::string_view code, std::string message) {
  CallResult out;
  out.code = code;
  out.message = std::move(message);
  out.http_status = code::http_status_of(code);
  return out;
}

}  // namespace

FakeHost::FakeHost() : state_(std::make_unique<State>()) {}

FakeHost::~FakeHost() {
  for (const auto& held : state_->held) {
    if (auto record = held.lock()) record->end(HeldEnd::kServerStopping);
  }
  if (state_->loaded && state_->descriptor->shutdown)
    state_->descriptor->shutdown(state_->plugin_state);
}

void FakeHost::set_config(std::string key, std::string value) {
  state_->config[std::move(key)] = std::move(value);
}
void FakeHost::set_now_ms(int64_t now_ms) { state_->now_ms = now_ms; }
void FakeHost::advance_ms(int64_t delta_ms) { state_->now_ms += delta_ms; }
void FakeHost::provide_service(std::string name, ServiceHandler fn) {
  provide_text_service(std::move(name),
                       [fn = std::move(fn)](std::string_view project,
                                            std::string_view input) -> Result<std::string> {
                         const auto parsed =
                             nlohmann::json::parse(input, nullptr, /*allow_exceptions=*/false);
                         if (parsed.is_discarded())
                           return Status::validation("the service input is not JSON");
                         Result<nlohmann::json> answer = fn(project, parsed);
                         if (!answer) return answer.status();
                         return answer->dump();
                       });
}
void FakeHost::provide_text_service(std::string name, TextServiceHandler fn) {
  state_->provided[std::move(name)] = std::move(fn);
}

Status FakeHost::load(const opbase_plugin_descriptor* d) {
  if (d == nullptr) return Status::internal("no descriptor");
  if (d->abi_major != OPBASE_ABI_MAJOR || d->abi_minor > OPBASE_ABI_MINOR) {
    return Status::internal("built for ABI " + std::to_string(d->abi_major) + "." +
                            std::to_string(d->abi_minor) + ", the fake host speaks " +
                            std::to_string(OPBASE_ABI_MAJOR) + "." +
                            std::to_string(OPBASE_ABI_MINOR));
  }
  if (state_->loaded) return Status::internal("a plugin is already loaded");
  state_->descriptor = d;
  state_->plugin_name = d->name;
  state_->in_init = true;
  const opbase_rc rc = d->init(&kFakeApi, state_->handle(), &state_->plugin_state);
  state_->in_init = false;
  if (rc != OPBASE_RC_OK)
    return Status::internal("init failed: " +
                            (state_->refused.empty() ? std::string("see log") : state_->refused));
  if (!state_->refused.empty()) {
    if (d->shutdown) d->shutdown(state_->plugin_state);
    return Status::internal(state_->refused);
  }
  state_->loaded = true;
  return Status::ok();
}

CallResult FakeHost::call(std::string_view op, nlohmann::json body, const Caller& caller) {
  auto it = state_->ops.find(op);
  if (it == state_->ops.end())
    return refused_call(code::kUnknownOperation, "unknown operation '" + std::string(op) + "'");
  const State::Op& entry = it->second;
  const bool signed_in = !caller.user_id.empty();
  if ((entry.access == OPBASE_ACCESS_USER || entry.access == OPBASE_ACCESS_ADMIN) && !signed_in) {
    return refused_call(code::kAuthenticationFailed, "needs a signed-in user");
  }
  if (entry.access == OPBASE_ACCESS_ADMIN) {
    const auto roles = caller.claims.is_object()
                           ? caller.claims.value("roles", nlohmann::json::array())
                           : nlohmann::json::array();
    if (std::find(roles.begin(), roles.end(), "admin") == roles.end())
      return refused_call(code::kForbidden, "needs the admin role");
  }
  if (!body.contains("op")) body["op"] = op;
  const std::string text = body.dump();
  nlohmann::json claims = caller.claims;
  if (signed_in && !claims.is_object()) claims = {{"sub", caller.user_id}};
  const std::string claims_text = signed_in ? claims.dump() : "";
  const opbase_request request{
      sizeof(opbase_request),     str(entry.canonical),    str(op),          str(text),
      str(caller.project_id),     str(caller.user_id),     str(claims_text), str("test-request"),
      str(caller.client_address), str(caller.bearer_token)};
  FakeResponse response;
  const opbase_rc rc = entry.fn(entry.state, &request, as_handle(&response));
  return to_result(response, rc);
}

Result<nlohmann::json> FakeHost::call_service(std::string_view name, std::string_view project_id,
                                              const nlohmann::json& input) {
  auto it = state_->services.find(name);
  if (it == state_->services.end())
    return Status::internal("no service '" + std::string(name) + "'");
  const std::string text = input.dump();
  FakeResponse response;
  const opbase_rc rc =
      it->second.fn(it->second.state, str(project_id), str(text), as_handle(&response));
  CallResult r = to_result(response, rc);
  if (!r.ok) return Status(r.code, r.message, r.details);
  return r.data;
}

void FakeHost::deliver(std::string_view type, std::string_view project_id,
                       const nlohmann::json& payload) {
  const std::string text = payload.dump();
  const opbase_event event{sizeof(opbase_event), str(type), str(project_id), str(text),
                           state_->now_ms.load()};
  for (const auto& sub : state_->subscriptions) {
    if (events::matches(sub.pattern, type)) sub.fn(sub.state, &event);
  }
}

std::vector<PublishedEvent> FakeHost::published() const {
  std::lock_guard lock(state_->mu);
  return state_->published;
}

std::vector<std::string> FakeHost::log_lines() const {
  std::lock_guard lock(state_->mu);
  return state_->log;
}

std::vector<std::string> FakeHost::durable_patterns() const { return state_->durable; }

std::optional<double> FakeHost::metric(std::string_view name) const {
  std::lock_guard lock(state_->mu);
  const auto it = state_->metrics.find(name);
  if (it == state_->metrics.end()) return std::nullopt;
  return it->second;
}

std::string RouteResult::header(std::string_view name) const {
  for (const auto& [field, value] : headers) {
    if (std::equal(field.begin(), field.end(), name.begin(), name.end(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) ==
                 std::tolower(static_cast<unsigned char>(b));
        })) {
      return value;
    }
  }
  return "";
}

std::string HeldRecord::body() const {
  std::lock_guard lock(mu_);
  return body_;
}

bool HeldRecord::ended() const {
  std::lock_guard lock(mu_);
  return ended_;
}

bool HeldRecord::push(std::string_view bytes) {
  std::lock_guard lock(mu_);
  if (ended_) return false;
  body_.append(bytes);
  return true;
}

bool HeldRecord::end(HeldEnd why) {
  {
    std::lock_guard lock(mu_);
    if (ended_) return false;
    ended_ = true;
  }
  const opbase_held_end abi_why = why == HeldEnd::kTooSlow          ? OPBASE_HELD_TOO_SLOW
                                  : why == HeldEnd::kClosed         ? OPBASE_HELD_CLOSED
                                  : why == HeldEnd::kServerStopping ? OPBASE_HELD_SERVER_STOPPING
                                                                    : OPBASE_HELD_CLIENT_LEFT;
  on_end_(on_end_state_, abi_why);
  return true;
}

namespace {

// The name of an endpoint route's path, /api/<endpoint key>/<name>, or "".
std::string_view endpoint_route_name(std::string_view path) {
  if (!path.starts_with("/api/")) return {};
  const size_t slash = path.find('/', 5);
  if (slash == std::string_view::npos || slash == 5) return {};
  return path.substr(slash + 1);
}

}  // namespace

RouteResult FakeHost::call_route(const RouteRequest& request) {
  const std::string_view path =
      std::string_view(request.target).substr(0, request.target.find('?'));
  std::vector<const State::Route*> candidates;
  for (const auto& route : state_->routes) {
    if (path.starts_with(route.prefix)) candidates.push_back(&route);
  }
  const std::string_view endpoint_name = endpoint_route_name(path);
  for (const auto& route : state_->endpoint_routes) {
    if (!endpoint_name.empty() && route.prefix == endpoint_name) candidates.push_back(&route);
  }
  for (const State::Route* found : candidates) {
    const auto& route = *found;
    const bool endpoint = !endpoint_name.empty() && route.prefix == endpoint_name;
    FakeStream stream;
    stream.request = &request;
    stream.project_id = endpoint ? request.project_id : "";
    stream.host = state_.get();
    const opbase_route_request call{sizeof(opbase_route_request),
                                    str(request.method),
                                    str(request.target),
                                    str(request.client_address),
                                    str(std::string_view("fake-request")),
                                    static_cast<int64_t>(request.body.size()),
                                    str(stream.project_id)};
    route.fn(route.state, &call, reinterpret_cast<opbase_stream*>(&stream));
    if (!stream.answered) {
      stream.result.status = 500;
      stream.result.content_type = "application/json";
      stream.result.body = R"({"error":{"code":"INTERNAL_ERROR","message":"no answer"}})";
    }
    return stream.result;
  }
  return RouteResult{};
}

std::vector<std::string> FakeHost::op_names() const {
  std::vector<std::string> names;
  for (const auto& [name, op] : state_->ops) names.push_back(name);
  return names;
}

}  // namespace opbase::testing
