// Daemon: assembles one opbase server from a Config — projects, event bus, plugins, dispatcher,
// HTTP gateway — and takes it down again in the reverse order: stop accepting and drain requests,
// drain the event bus, shut plugins down in reverse load order.
// Thread-safety: start and stop from one thread.
#pragma once

#include <memory>

#include "config/config.hpp"
#include "events/event_bus.hpp"
#include "gateway/dispatcher.hpp"
#include "gateway/http_gateway.hpp"
#include "metrics/metrics.hpp"
#include "plugins/plugin_loader.hpp"
#include "plugins/registry.hpp"
#include "projects/projects.hpp"
#include "store/stores.hpp"

namespace opbase::host {

class Daemon {
 public:
  explicit Daemon(Config config);
  ~Daemon();

  // Loads everything and starts serving; prints "listening on http://HOST:PORT" on stdout.
  Status start();
  // SIGTERM's path: drain and stop. Safe to call twice.
  void stop();

  int port() const { return gateway_ ? gateway_->port() : 0; }
  ReadinessReport readiness() const;

 private:
  std::string metrics_extra() const;
  void print_banner(bool generated_keys) const;

  Config config_;
  std::unique_ptr<Projects> projects_;
  std::unique_ptr<Stores> stores_;
  std::unique_ptr<EventBus> bus_;
  Registry registry_;
  HostContext context_;
  std::unique_ptr<PluginLoader> loader_;
  Metrics metrics_;
  std::unique_ptr<Dispatcher> dispatcher_;
  std::unique_ptr<HttpGateway> gateway_;
  std::vector<std::string> enabled_plugins_;
  bool stopped_ = false;
  bool print_generated_keys_ = false;
  int drain_s_ = 30;
};

}  // namespace opbase::host
