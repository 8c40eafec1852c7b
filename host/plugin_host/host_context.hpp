// HostContext: the host services that the C function table (host_api.cpp) reaches. One per
// daemon; outlives every plugin. The registry is written only while plugins load.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "audit/audit_trail.hpp"
#include "config/config.hpp"
#include "events/durable_subscriptions.hpp"
#include "events/event_bus.hpp"
#include "mail/mailer.hpp"
#include "metrics/plugin_metrics.hpp"
#include "plugin_host/registry.hpp"
#include "store/stores.hpp"

namespace opbase::host {

struct HostContext {
  Registry* registry = nullptr;
  EventBus* bus = nullptr;
  const Config* config = nullptr;
  Stores* stores = nullptr;           // the `store.*` services; nullptr in tests without stores
  const AuditTrail* audit = nullptr;  // the `audit.list` service; nullptr in tests without it
  Mailer* mailer = nullptr;           // the `mail.send` service; nullptr in tests without a mailer
  DurableSubscriptions* durable = nullptr;  // nullptr in tests: no event is journaled
  PluginMetrics* plugin_metrics = nullptr;  // nullptr in tests: metric calls are accepted, dropped
  std::function<int64_t()> now_ms;
  // "http://<host>:<port>" once the HTTP front listens (the port is known only then when
  // server.port is 0), "" before; for plugins that hand out URLs of their own routes.
  std::function<std::string()> listening_url;
};

}  // namespace opbase::host

// The host's side of one plugin handle (`opbase_plugin*` in abi.h).
struct opbase_plugin {
  std::string name;
  std::string file;
  opbase::host::HostContext* context = nullptr;
  // Registration is allowed only while true. Atomic: a thread the plugin starts in init may call
  // a registration function while the loader clears it.
  std::atomic<bool> in_init{false};
  std::string refused_registration;  // the first refused registration in init, for the log line
  // Subscriptions made in init reach the event bus only once the plugin is accepted, so a
  // refused plugin never receives an event, not even while it is being rolled back.
  struct PendingSubscription {
    std::string pattern;
    opbase_event_fn fn;
    void* state;
  };
  std::vector<PendingSubscription> pending_subscriptions;
  // subscribe_durable(_documents) patterns, kept on acceptance.
  std::vector<opbase::host::DurableSubscriptions::Pending> pending_durable;
};

namespace opbase::host {

// The function table handed to every plugin's init. Static storage; valid for the process.
const opbase_host_api* host_api();

}  // namespace opbase::host
