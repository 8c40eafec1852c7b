// probe: a test-only plugin; each op makes the gateway show one behaviour.
//   probe.sleep         API key; sleeps body.ms milliseconds (0-10000), returns {"slept_ms": n}
//   probe.throw         API key; throws std::runtime_error (→ INTERNAL_ERROR with the request id)
//   probe.admin         admin; returns {"user": user id, "roles": the token's roles}
//   probe.optional      signed-in user optional; returns {"user": user id or null}
//   probe.meta          API key; returns data, meta and top-level fields (one named "data" too,
//                       which the envelope must not let replace the real data)
//   probe.rate_limited  API key; returns RATE_LIMIT_EXCEEDED with details.retry_after 7
//   probe.publish       API key; publishes event body.type with payload body.payload
//   probe.events        API key; returns the document.* and user.* events received so far, in
//                       arrival order, as [{"type", "project", "payload"}] (at most 10,000 kept)
//   probe.call          API key; calls service body.service with body.input (default {}) for the
//                       request's project, and returns its answer or its error
//   probe.journal       API key; returns the document.* and user.* events the store kept for the
//                       probe durably (its `_events` documents), oldest first, body.offset and
//                       body.limit (default 0 and 1000) paging them
//   probe.metric        API key; records metric body.name: body.kind "count" adds body.value,
//                       "gauge" sets it, "seconds" observes it; returns {"recorded": name}
//   probe.lane_wait     API key, on the probe's lane (sized by probe.lane_threads and
//                       probe.lane_queue, default 64 and 8); waits until probe.lane_open (at most
//                       probe.lane_wait_ms, default 20000), returns {"opened": true|false}
//   probe.lane_open     API key; lets every probe.lane_wait go on, now and later
//   probe.lane_waiting  API key; returns {"waiting": how many probe.lane_wait are waiting}
//   probe.held_push     API key; pushes body.text to the response held as body.name, returns
//                       {"pushed": whether it was still open}
//   probe.held_close    API key; closes the one held as body.name with body.text last
//   probe.held_ends     API key; returns {name: how it ended} for each held response that did
// and the route /probes/ (abi.h register_route):
//   GET /probes/throw       throws (→ 500 INTERNAL_ERROR with the request id)
//   GET /probes/silent      returns without answering (→ the same)
//   GET /probes/own_length  answers with a Content-Length header of its own, which the host
//                           refuses; then answers 200 "refused" when it was
// and the endpoint route /api/{endpoint_key}/probe (abi.h register_endpoint_route):
//   GET ...?name=<n>        holds the response open as <n> (text/event-stream): its first
//                           bytes "project <id>\n", a queue of max_queued bytes (a query
//                           parameter, default 65536), the farewell "too slow\n"
//   GET (no name)           answers 200 "project <id>"
// Thread-safety: the event record and the lane's gate are guarded; every handler may run
// concurrently.
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <opbase/document_store.hpp>
#include <opbase/sdk.hpp>
#include <stdexcept>
#include <thread>

namespace {

using nlohmann::json;
using opbase::Access;
using opbase::Reply;
using opbase::Request;
using opbase::Result;
using opbase::Status;

constexpr int64_t kMaxSleepMs = 10'000;

Result<Reply> sleep_op(const Request& req) {
  const auto ms = req.body.find("ms");
  if (ms == req.body.end() || !ms->is_number_integer() || ms->get<int64_t>() < 0 ||
      ms->get<int64_t>() > kMaxSleepMs) {
    return Status::validation("field 'ms' must be an integer from 0 to 10000", {{"field", "ms"}});
  }
  const int64_t n = ms->get<int64_t>();
  std::this_thread::sleep_for(std::chrono::milliseconds(n));
  return Reply({{"slept_ms", n}});
}

Result<Reply> throw_op(const Request&) { throw std::runtime_error("probe.throw always throws"); }

json user_or_null(const Request& req) {
  return req.signed_in() ? json(std::string(req.user_id)) : json(nullptr);
}

Result<Reply> admin_op(const Request& req) {
  return Reply(
      {{"user", user_or_null(req)}, {"roles", req.user_claims().value("roles", json::array())}});
}

Result<Reply> optional_op(const Request& req) { return Reply({{"user", user_or_null(req)}}); }

Result<Reply> meta_op(const Request& req) {
  Reply reply({{"echo", req.body.value("value", json(nullptr))}});
  reply.with_meta(
      {{"called_as", std::string(req.called_as)}, {"request_id", std::string(req.request_id)}});
  reply.with_top_level({{"extra", "beside data"}, {"data", "must not replace data"}});
  return reply;
}

Result<Reply> rate_limited_op(const Request&) {
  return Status(opbase::code::kRateLimitExceeded, "probe.rate_limited is always over its limit",
                {{"retry_after", 7}});
}

class ProbePlugin final : public opbase::Plugin {
 public:
  Status init(opbase::Registrar& r) override {
    r.op("probe.sleep", Access::kApiKey, &sleep_op);
    r.op("probe.throw", Access::kApiKey, &throw_op);
    r.op("probe.admin", Access::kAdmin, &admin_op);
    r.op("probe.optional", Access::kUserOptional, &optional_op);
    r.op("probe.meta", Access::kApiKey, &meta_op);
    r.op("probe.rate_limited", Access::kApiKey, &rate_limited_op);
    r.op("probe.publish", Access::kApiKey, [this](const Request& req) { return publish(req); });
    r.op("probe.call", Access::kApiKey, [this](const Request& req) { return call(req); });
    r.op("probe.events", Access::kApiKey, [this](const Request&) -> Result<Reply> {
      std::lock_guard lock(mutex_);
      return Reply(events_);
    });
    r.op("probe.journal", Access::kApiKey, [this](const Request& req) { return journal(req); });
    r.op("probe.metric", Access::kApiKey, [this](const Request& req) { return metric(req); });
    const auto lane_threads = host().config_int("probe.lane_threads", 64);
    const auto lane_queue = host().config_int("probe.lane_queue", 8);
    const auto wait_ms = host().config_int("probe.lane_wait_ms", 20'000);
    if (!lane_threads || !lane_queue || !wait_ms) {
      return Status::validation("probe.lane_* must be integers");
    }
    lane_wait_ms_ = *wait_ms;
    r.size_lane(static_cast<int>(*lane_threads), static_cast<int>(*lane_queue));
    r.lane_op("probe.lane_wait", Access::kApiKey, [this](const Request&) { return lane_wait(); });
    r.op("probe.lane_open", Access::kApiKey, [this](const Request&) -> Result<Reply> {
      {
        std::lock_guard lock(gate_mutex_);
        gate_open_ = true;
      }
      gate_.notify_all();
      return Reply({{"opened", true}});
    });
    r.op("probe.lane_waiting", Access::kApiKey, [this](const Request&) -> Result<Reply> {
      std::lock_guard lock(gate_mutex_);
      return Reply({{"waiting", waiting_}});
    });
    for (const char* pattern : {"document.*", "user.*"}) {
      r.subscribe(pattern, [this](const opbase::Event& e) { record(e); });
      r.subscribe_durable(pattern);
    }
    r.endpoint_route("probe", [this](opbase::RouteCall& call) { hold(call); });
    r.op("probe.held_push", Access::kApiKey, [this](const Request& req) -> Result<Reply> {
      std::lock_guard lock(held_mutex_);
      const auto found = held_.find(req.body.value("name", ""));
      if (found == held_.end()) return Status::validation("no response is held by that name");
      return Reply({{"pushed", found->second->push(req.body.value("text", ""))}});
    });
    r.op("probe.held_close", Access::kApiKey, [this](const Request& req) -> Result<Reply> {
      std::lock_guard lock(held_mutex_);
      const auto found = held_.find(req.body.value("name", ""));
      if (found == held_.end()) return Status::validation("no response is held by that name");
      found->second->close(req.body.value("text", ""));
      return Reply({{"closed", true}});
    });
    r.op("probe.held_ends", Access::kApiKey, [this](const Request&) -> Result<Reply> {
      std::lock_guard lock(held_mutex_);
      return Reply(held_ends_);
    });
    r.route("/probes/", [](opbase::RouteCall& call) {
      const std::string_view path = call.target();
      if (path == "/probes/throw") throw std::runtime_error("the probe route throws");
      if (path == "/probes/own_length") {
        const bool refused = !call.respond(200, "text/plain", "12345", {{"Content-Length", "5"}});
        call.respond(200, "text/plain", refused ? "refused" : "accepted");
      }
      // /probes/silent and anything else: no answer.
    });
    return r.status();
  }

 private:
  static constexpr std::size_t kMaxEvents = 10'000;

  Result<Reply> lane_wait() {
    std::unique_lock lock(gate_mutex_);
    ++waiting_;
    const bool opened = gate_.wait_for(lock, std::chrono::milliseconds(lane_wait_ms_),
                                       [this] { return gate_open_; });
    --waiting_;
    return Reply({{"opened", opened}});
  }

  void hold(opbase::RouteCall& call) {
    const std::string project(call.project_id());
    const std::optional<std::string> name = call.query("name");
    if (!name) {
      call.respond(200, "text/plain", "project " + project);
      return;
    }
    opbase::HoldSettings settings;
    settings.max_queued_bytes = std::stoull(call.query("max_queued").value_or("65536"));
    settings.too_slow_farewell = "too slow\n";
    settings.on_end = [this, name = *name](opbase::HeldEnd why) {
      static constexpr const char* kNames[] = {"client_left", "too_slow", "closed",
                                               "server_stopping"};
      std::lock_guard lock(held_mutex_);
      held_ends_[name] = kNames[static_cast<int>(why)];
    };
    auto held = call.hold(200, "text/event-stream", std::move(settings));
    if (!held) return;
    // Kept before its first bytes go out: a client that read them may push to it at once.
    std::lock_guard lock(held_mutex_);
    held->push("project " + project + "\n");
    held_[*name] = std::move(held);
  }

  std::mutex held_mutex_;
  std::map<std::string, std::unique_ptr<opbase::HeldStream>> held_;
  json held_ends_ = json::object();

  std::mutex gate_mutex_;
  std::condition_variable gate_;
  bool gate_open_ = false;
  int64_t lane_wait_ms_ = 20'000;
  int waiting_ = 0;

  void record(const opbase::Event& e) {
    std::lock_guard lock(mutex_);
    if (events_.size() >= kMaxEvents) return;
    events_.push_back({{"type", std::string(e.type)},
                       {"project", std::string(e.project_id)},
                       {"payload", e.payload}});
  }

  std::mutex mutex_;
  json events_ = json::array();

  Result<Reply> publish(const Request& req) const {
    const auto type = req.body.find("type");
    if (type == req.body.end() || !type->is_string()) {
      return Status::validation("field 'type' must be a string", {{"field", "type"}});
    }
    const json payload = req.body.value("payload", json::object());
    if (!payload.is_object()) {
      return Status::validation("field 'payload' must be an object", {{"field", "payload"}});
    }
    if (Status published = host().publish(type->get<std::string>(), req.project_id, payload);
        !published) {
      return published;
    }
    return Reply({{"published", *type}});
  }

  Result<Reply> journal(const Request& req) const {
    opbase::store::FindRequest find;
    find.collection = std::string(opbase::store::kEventsCollection);
    find.scope = opbase::store::Scope::everyone();
    auto sort = opbase::query::parse_sort("_created_at asc", opbase::store::wire_parse_options());
    if (!sort) return sort.status();
    find.sort = std::move(*sort);
    find.offset = req.body.value("offset", int64_t{0});
    find.limit = req.body.value("limit", int64_t{1000});
    auto found = opbase::DocumentStore(host()).find(req.project_id, find);
    if (!found) return found.status();
    return Reply(json(std::move(found->documents)));
  }

  Result<Reply> metric(const Request& req) const {
    const std::string kind = req.body.value("kind", "");
    const std::string name = req.body.value("name", "");
    const double value = req.body.value("value", 1.0);
    if (kind == "count") {
      host().count(name, value);
    } else if (kind == "gauge") {
      host().gauge(name, value);
    } else if (kind == "seconds") {
      host().observe_seconds(name, value);
    } else {
      return Status::validation("kind must be count, gauge or seconds", {{"field", "kind"}});
    }
    return Reply({{"recorded", name}});
  }

  Result<Reply> call(const Request& req) const {
    const auto service = req.body.find("service");
    if (service == req.body.end() || !service->is_string()) {
      return Status::validation("field 'service' must be a string", {{"field", "service"}});
    }
    auto answer = host().call_service(service->get<std::string>(), req.project_id,
                                      req.body.value("input", json::object()));
    if (!answer) return answer.status();
    return Reply(std::move(*answer));
  }
};

}  // namespace

OPBASE_PLUGIN(ProbePlugin, "probe", "1.0.0")
