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

Result<std::string> string_field(const json& body, const char* field) {
  const auto it = body.find(field);
  if (it == body.end() || !it->is_string() || it->get_ref<const std::string&>().empty()) {
    return field_error(field, std::string(field) + " must be a non-empty string");
  }
  return it->get<std::string>();
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
  if (Status s = subscriptions_.add_client(call.project_id(), *id, host_.now_ms()); !s) {
    clients_.attach(*id, nullptr);
    call.respond_error(s);
    return;
  }
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
  // Checked by the collection plugin as collection.find checks its query: the same errors.
  json access = {{"collection", body.value("collection", json())},
                 {"match", body.value("match", json())},
                 {"filter", body.value("filter", json())},
                 {"project", body.value("project", json())},
                 {"all_users", body.value("all_users", json())},
                 {"user_id", user},
                 {"claims", request.signed_in() ? request.user_claims() : json()}};
  if (Status s = subscriptions_.claim(request.project_id, *client_id, user, false); !s) return s;
  auto scope = read_access(request.project_id, access);
  if (!scope) return scope.status();
  if (const auto it = body.find("all_users");
      it != body.end() && !it->is_boolean() && !it->is_null()) {
    return field_error("all_users", "all_users must be true or false");
  }
  const auto keys_only = body.find("keys_only");
  if (keys_only != body.end() && !keys_only->is_boolean() && !keys_only->is_null()) {
    return field_error("keys_only", "keys_only must be true or false");
  }
  json since = nullptr;
  if (const auto it = body.find("since"); it != body.end() && !it->is_null()) {
    if (!it->is_string() || !event_id_time_ms(it->get<std::string>())) {
      return field_error("since", "since must be an event id the stream sent (evt_...)");
    }
    since = *it;
  }
  if (Status s = subscriptions_.claim(request.project_id, *client_id, user, true); !s) return s;
  const std::string id = "rts_" + random_hex(12);
  json record = {{"_key", id},
                 {"_userkey", nullptr},
                 {"client_id", *client_id},
                 {"user", user},
                 {"collection", access["collection"]},
                 {"match", access["match"]},
                 {"filter", access["filter"]},
                 {"project", access["project"]},
                 {"keys_only", keys_only != body.end() && keys_only->is_boolean() && *keys_only},
                 {"since", since},
                 {"scope", *scope ? store::scope_to_json(**scope) : json(nullptr)},
                 {"access", std::move(access)}};
  if (Status s = subscriptions_.add_subscription(request.project_id, std::move(record)); !s) {
    return s;
  }
  return Reply({{"subscription_id", id}});
}

Result<Reply> RealtimeOps::unsubscribe(const Request& request) {
  auto client_id = string_field(request.body, "client_id");
  if (!client_id) return client_id.status();
  auto subscription_id = string_field(request.body, "subscription_id");
  if (!subscription_id) return subscription_id.status();
  const std::string user(request.user_id);
  if (Status s = subscriptions_.claim(request.project_id, *client_id, user, false); !s) return s;
  auto removed = subscriptions_.remove_subscription(request.project_id, *client_id,
                                                    *subscription_id, host_.now_ms());
  if (!removed) return removed.status();
  if (!*removed) {
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
