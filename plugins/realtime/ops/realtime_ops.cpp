#include "ops/realtime_ops.hpp"

#include "journal/journal_event.hpp"
#include "opbase/crypto.hpp"
#include "opbase/error_code.hpp"
#include "opbase/field_error.hpp"
#include "stream/sse_frame.hpp"

namespace opbase::realtime {
namespace {

using nlohmann::json;

// How long a browser waits before it reconnects after the stream ends.
constexpr int64_t kRetryMs = 2'000;

// The conditions and projection collection.read_access has checked, parsed for judging events.
// Its checks used the users' options; these only guard.
const query::ParseOptions& checked_options() {
  static const query::ParseOptions options = [] {
    query::ParseOptions o;
    o.allow_system_fields = true;
    return o;
  }();
  return options;
}

Result<std::string> string_field(const json& body, const char* field) {
  const auto it = body.find(field);
  if (it == body.end() || !it->is_string() || it->get_ref<const std::string&>().empty()) {
    return field_error(field, std::string(field) + " must be a non-empty string");
  }
  return it->get<std::string>();
}

Status add_conditions(query::Match& match, const json& body, const char* field) {
  const auto it = body.find(field);
  if (it == body.end() || it->is_null()) return Status::ok();
  auto parsed = query::parse_match(*it, checked_options());
  if (!parsed) return parsed.status();
  match.insert(match.end(), parsed->begin(), parsed->end());
  return Status::ok();
}

}  // namespace

void RealtimeOps::connect(RouteCall& call) {
  if (call.method() != "GET") {
    call.respond_error(Status(code::kUnknownOperation, "the event stream answers GET",
                              {{"method", std::string(call.method())}}),
                       405);
    return;
  }
  // Where a reconnecting browser's stream left off; any other text is no position.
  std::string resume = call.header("Last-Event-ID").value_or("");
  if (!event_id_time_ms(resume)) resume.clear();
  auto id = clients_.add(std::string(call.project_id()), std::string(call.client_address()), resume,
                         host_.now_ms());
  if (!id) {
    call.respond_error(id.status());
    return;
  }
  reader_.begin_project(std::string(call.project_id()));
  HoldSettings hold;
  hold.max_queued_bytes = static_cast<uint64_t>(settings_.max_queued_bytes);
  hold.too_slow_farewell = sse_event("", "close", R"({"reason":"too_slow"})");
  hold.on_end = [this, client = *id](HeldEnd why) {
    if (why == HeldEnd::kTooSlow) host_.count("clients_too_slow_total");
    clients_.note_gone(client);
  };
  auto stream = call.hold(200, "text/event-stream", std::move(hold),
                          {{"Cache-Control", "no-store"}, {"X-Accel-Buffering", "no"}});
  if (stream) {
    stream->push(sse_retry(kRetryMs) + sse_event("", "connect", json{{"client_id", *id}}.dump()));
  }
  clients_.attach(*id, std::move(stream));
}

Result<std::optional<store::Scope>> RealtimeOps::read_access(std::string_view project,
                                                             const json& input) const {
  auto answer = host_.call_service("collection.read_access", project, input);
  if (!answer) return answer.status();
  const auto scope = answer->find("scope");
  if (scope == answer->end() || scope->is_null()) return std::optional<store::Scope>();
  auto parsed = store::scope_from_json(*scope);
  if (!parsed) return parsed.status();
  return std::optional<store::Scope>(std::move(*parsed));
}

Result<Reply> RealtimeOps::subscribe(const Request& request) {
  const json& body = request.body;
  auto client_id = string_field(body, "client_id");
  if (!client_id) return client_id.status();
  const std::string user(request.user_id);
  auto resume = clients_.check_caller(request.project_id, *client_id, user);
  if (!resume) return resume.status();
  // Checked by the collection plugin as collection.find checks its query: the same errors.
  json access = {{"collection", body.value("collection", json())},
                 {"match", body.value("match", json())},
                 {"filter", body.value("filter", json())},
                 {"project", body.value("project", json())},
                 {"user_id", user},
                 {"claims", request.signed_in() ? request.user_claims() : json()}};
  auto scope = read_access(request.project_id, access);
  if (!scope) return scope.status();
  const auto keys_only = body.find("keys_only");
  if (keys_only != body.end() && !keys_only->is_boolean() && !keys_only->is_null()) {
    return field_error("keys_only", "keys_only must be true or false");
  }
  std::string since = *resume;
  if (const auto it = body.find("since"); it != body.end() && !it->is_null()) {
    if (!it->is_string() || !event_id_time_ms(it->get<std::string>())) {
      return field_error("since", "since must be an event id the stream sent (evt_...)");
    }
    since = it->get<std::string>();
  }

  Subscription s;
  s.id = "rts_" + random_hex(12);
  s.collection = access["collection"].get<std::string>();
  if (Status st = add_conditions(s.match, body, "match"); !st) return st;
  if (Status st = add_conditions(s.match, body, "filter"); !st) return st;
  if (const auto it = body.find("project"); it != body.end() && !it->is_null()) {
    auto projection = query::parse_projection(*it, checked_options());
    if (!projection) return projection.status();
    s.projection = std::move(*projection);
    s.projects = true;
  }
  s.keys_only = keys_only != body.end() && keys_only->is_boolean() && keys_only->get<bool>();
  s.scope = std::move(*scope);
  s.scope_checked_ms = host_.now_ms();
  s.access_request = std::move(access);
  const std::string subscription_id = s.id;
  if (Status st = clients_.subscribe(request.project_id, *client_id, user, std::move(s)); !st) {
    return st;
  }
  if (!since.empty()) {
    reader_.replay(std::string(request.project_id), *client_id, subscription_id, since);
  }
  return Reply({{"subscription_id", subscription_id}});
}

Result<Reply> RealtimeOps::unsubscribe(const Request& request) {
  auto client_id = string_field(request.body, "client_id");
  if (!client_id) return client_id.status();
  auto subscription_id = string_field(request.body, "subscription_id");
  if (!subscription_id) return subscription_id.status();
  const std::string user(request.user_id);
  if (auto checked = clients_.check_caller(request.project_id, *client_id, user); !checked) {
    return checked.status();
  }
  if (!clients_.unsubscribe(request.project_id, *client_id, user, *subscription_id)) {
    return field_error("subscription_id", "this event stream has no such subscription",
                       {{"reason", "unknown_subscription"}});
  }
  return Reply({{"unsubscribed", true}});
}

void RealtimeOps::refresh(std::string_view project, Subscription& subscription) const {
  auto scope = read_access(project, subscription.access_request);
  // Refused now (the rules no longer let this caller read): the subscription sees nothing, and
  // is asked again after the same time.
  subscription.scope = scope ? std::move(*scope) : std::nullopt;
  subscription.scope_checked_ms = host_.now_ms();
}

}  // namespace opbase::realtime
