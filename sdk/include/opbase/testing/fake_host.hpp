// FakeHost: an in-process stand-in for the opbase daemon, for a plugin's unit tests. It loads a
// plugin from its descriptor (no shared object needed: link the plugin's sources into the test),
// checks the ABI as the daemon does, enforces each op's access need from the caller you give,
// records published events and log lines, and serves services you provide.
//
//   opbase::testing::FakeHost host;
//   host.set_config("echo.greeting", "Hi");
//   ASSERT_TRUE(host.load(opbase_plugin_entry()).is_ok());
//   auto r = host.call("echo.greet", {{"name", "Ada"}});
//   EXPECT_EQ(r.data, "Hi, Ada!");
//
// Thread-safety: call() and call_service() may run concurrently once load() returned.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/abi.h"
#include "opbase/held_stream.hpp"
#include "opbase/op.hpp"
#include "opbase/status.hpp"

namespace opbase::testing {

struct CallResult {
  bool ok = false;
  int http_status = 0;
  nlohmann::json data;       // "data" when ok
  nlohmann::json meta;       // object, or null when none was set
  nlohmann::json top_level;  // object, or null when none was set
  std::string code;          // error code when !ok
  std::string message;
  nlohmann::json details;  // object, or null
};

// A response a route held open (RouteCall::hold), as the fake host keeps it: every byte pushed
// is taken at once (no client reads slowly here), and end() ends it as the daemon would when
// its client leaves or it stops. One still open when the FakeHost goes ends then
// (kServerStopping), before the plugin's shutdown, as in the daemon. Thread-safe.
class HeldRecord {
 public:
  HeldRecord(opbase_held_end_fn on_end, void* on_end_state)
      : on_end_(on_end), on_end_state_(on_end_state) {}
  std::string body() const;  // everything pushed (and closed with) so far
  bool ended() const;
  // Ends the response, calling the plugin's on_end once; false when it had ended already.
  bool end(HeldEnd why);
  // The host's side (fake_host.cpp).
  bool push(std::string_view bytes);

 private:
  mutable std::mutex mu_;
  std::string body_;
  bool ended_ = false;
  opbase_held_end_fn on_end_;
  void* on_end_state_;
};

// A request on one of the plugin's routes (Registrar::route, or an endpoint route at
// /api/<endpoint key>/<name>), and what the route answered.
struct RouteRequest {
  std::string method = "GET";
  std::string target;  // path and query, e.g. "/files/test/k1?expires=..."
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::string client_address = "127.0.0.1";
  std::string project_id = "test";  // what the keys of an endpoint route named
};
struct RouteResult {
  int status = 0;  // 0: no route took it; 500 with an INTERNAL_ERROR body when none answered
  std::string content_type;
  std::vector<std::pair<std::string, std::string>> headers;  // the route's own
  std::string body;                  // whole, as written (for HEAD too: the daemon would drop it)
  bool complete = false;             // the body announced by start was sent whole
  std::shared_ptr<HeldRecord> held;  // when the route held its response open
  std::string header(std::string_view name) const;  // any case; "" when absent
};

struct Caller {
  std::string project_id = "test";
  std::string user_id;              // empty: anonymous
  nlohmann::json claims = nullptr;  // e.g. {"sub": ..., "roles": ["admin"]}
  std::string bearer_token;
  std::string client_address = "127.0.0.1";
};

struct PublishedEvent {
  std::string type;
  std::string project_id;
  nlohmann::json payload;
  int64_t time_ms;
};

class FakeHost {
 public:
  FakeHost();
  ~FakeHost();  // calls the plugin's shutdown
  FakeHost(const FakeHost&) = delete;
  FakeHost& operator=(const FakeHost&) = delete;

  void set_config(std::string key, std::string value);
  void set_now_ms(int64_t now_ms);
  void advance_ms(int64_t delta_ms);
  // A service another plugin would provide (e.g. "auth.verify_token").
  void provide_service(std::string name, ServiceHandler fn);
  // The same with the JSON as text both ways, as the daemon passes it (a service that returns
  // text it already holds, such as the host's store.find).
  void provide_text_service(std::string name, TextServiceHandler fn);

  // Checks the ABI version and runs init. A failed Status says why (as the daemon's log would).
  Status load(const opbase_plugin_descriptor* descriptor);

  // Calls an op as the gateway would, after the access check for `caller`.
  CallResult call(std::string_view op, nlohmann::json body = nlohmann::json::object(),
                  const Caller& caller = {});
  // Calls a service the plugin provides.
  Result<nlohmann::json> call_service(std::string_view name, std::string_view project_id,
                                      const nlohmann::json& input);
  // Hands an event to the plugin's matching subscriptions, synchronously.
  void deliver(std::string_view type, std::string_view project_id, const nlohmann::json& payload);

  std::vector<PublishedEvent> published() const;
  std::vector<std::string> log_lines() const;
  std::vector<std::string> op_names() const;
  // Calls the route whose prefix starts the target's path, as the daemon would on its lane.
  RouteResult call_route(const RouteRequest& request);
  // The patterns the plugin subscribed durably (the fake host journals nothing itself).
  std::vector<std::string> durable_patterns() const;
  // A metric's value as the plugin last left it: a counter's total, a gauge's value, a
  // histogram's number of observations; nullopt when never recorded.
  std::optional<double> metric(std::string_view name) const;

  struct State;  // private; public only so the C callbacks in fake_host.cpp can name it

 private:
  std::unique_ptr<State> state_;
};

}  // namespace opbase::testing
