// The C++ way to write an opbase plugin: derive from Plugin, register ops in init, and name the
// class once with OPBASE_PLUGIN. The SDK turns that into the C entry symbol and descriptor of
// abi.h, catches every exception at the edge (an op that throws returns INTERNAL_ERROR with the
// request id, logged), and converts JSON both ways.
//
//   class Echo : public opbase::Plugin {
//     opbase::Status init(opbase::Registrar& r) override {
//       r.op("echo.ping", opbase::Access::kApiKey,
//            [](const opbase::Request&) -> opbase::Result<opbase::Reply> { return {{"pong", true}};
//            });
//       return r.status();
//     }
//   };
//   OPBASE_PLUGIN(Echo, "echo", "1.0.0")
//
// Thread-safety: init and shutdown run alone; handlers run concurrently on host threads.
#pragma once

#include <deque>
#include <memory>
#include <string_view>

#include "opbase/abi.h"
#include "opbase/host.hpp"
#include "opbase/op.hpp"
#include "opbase/route.hpp"
#include "opbase/status.hpp"

namespace opbase {

class Plugin;
struct PluginRuntime;  // the SDK's private side of one loaded plugin

// Collects what a plugin registers during init. Each call returns a Status; the first failure is
// also kept, so init may register everything and return status() once.
class Registrar {
 public:
  Status op(std::string_view name, Access access, OpHandler handler);
  // An op whose handler runs on this plugin's lane, not on the HTTP workers (abi.h
  // register_lane_op): for handlers that wait on another server. On a host older than ABI 1.2
  // it is registered as a plain op.
  Status lane_op(std::string_view name, Access access, OpHandler handler);
  // The lane's size, before the first lane_op (abi.h size_lane): `threads` handlers at once,
  // `queue` more waiting. Ignored by a host older than ABI 1.2.
  Status size_lane(int threads, int queue);
  // A route: requests whose path starts with `prefix` ("/files/") go to `handler` on this
  // plugin's lane as a RouteCall, without the host checking an API key or a token (abi.h
  // register_route). A handler that throws or returns without answering gets INTERNAL_ERROR
  // sent. Refused by a host older than ABI 1.3.
  Status route(std::string_view prefix, RouteHandler handler);
  // An endpoint route: requests for /api/{endpoint_key}/<name> go to `handler` on this plugin's
  // lane, once the host has checked the project's API key (header or `api_key` query
  // parameter); RouteCall::project_id() names the project (abi.h register_endpoint_route).
  // `name` is the plugin's name or starts with it and '_'. Refused by a host older than ABI 1.4.
  Status endpoint_route(std::string_view name, RouteHandler handler);
  Status service(std::string_view name, ServiceHandler handler);
  // A service whose handler parses its own input and returns JSON text (the gateway's token
  // verifier, called on every signed-in request, saves two JSON conversions this way).
  Status text_service(std::string_view name, TextServiceHandler handler);
  Status subscribe(std::string_view event_type, EventHandler handler);
  // Keeps the events of store writes whose type matches (store.hpp Events) as documents of this
  // plugin's store::kEventsCollection, in the write's own transaction (abi.h subscribe_durable).
  // Refused by a host older than ABI 1.1.
  Status subscribe_durable(std::string_view event_type);
  // The same, each kept event also holding its document ("document", and "before" for an
  // update; abi.h subscribe_durable_documents). Refused by a host older than ABI 1.4.
  Status subscribe_durable_documents(std::string_view event_type);
  Status status() const { return first_failure_; }

 private:
  friend struct PluginRuntime;
  explicit Registrar(PluginRuntime* runtime) : runtime_(runtime) {}
  Status keep(Status s);
  Status provide(std::string_view name, ServiceHandler fn, TextServiceHandler text_fn);

  PluginRuntime* runtime_;
  Status first_failure_;
};

class Plugin {
 public:
  virtual ~Plugin() = default;
  // Register ops, services and subscriptions; read configuration through host().
  virtual Status init(Registrar& registrar) = 0;
  // Called once at host stop, after the last handler call.
  virtual void shutdown() {}

  // Valid from the start of init until shutdown returns.
  const Host& host() const { return *host_; }

 private:
  friend struct PluginRuntime;
  const Host* host_ = nullptr;
};

namespace sdk_detail {

using PluginFactory = std::unique_ptr<Plugin> (*)();

// Builds the static descriptor for a plugin class. Called by OPBASE_PLUGIN only.
const opbase_plugin_descriptor* make_descriptor(opbase_plugin_descriptor* storage, const char* name,
                                                const char* version, PluginFactory factory);

}  // namespace sdk_detail
}  // namespace opbase

// Declares the plugin's entry symbol. Use once per shared object, at namespace scope.
#define OPBASE_PLUGIN(PluginClass, NAME, VERSION)                                               \
  extern "C" OPBASE_EXPORT const opbase_plugin_descriptor* opbase_plugin_entry(void) {          \
    static opbase_plugin_descriptor descriptor;                                                 \
    return ::opbase::sdk_detail::make_descriptor(                                               \
        &descriptor, NAME, VERSION,                                                             \
        []() -> std::unique_ptr<::opbase::Plugin> { return std::make_unique<PluginClass>(); }); \
  }
