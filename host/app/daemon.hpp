// Daemon: assembles one opbase server from a Config — projects, stores, mailer, event bus,
// plugins, dispatcher, HTTP gateway — and takes it down again in the reverse order: stop
// accepting and drain requests, drain the event bus, shut plugins down in reverse load order.
// The start-up is in two steps so that a command run from the shell (`opbase admin create`) can
// take the first, load(), and call plugin services without ever serving HTTP. With the embedded
// store, load() takes storage.path's lock shared and stop() releases it (app/storage_lock.hpp).
// Thread-safety: load, start and stop from one thread.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "app/storage_lock.hpp"
#include "audit/audit_trail.hpp"
#include "config/config.hpp"
#include "events/durable_subscriptions.hpp"
#include "events/event_bus.hpp"
#include "gateway/dispatcher.hpp"
#include "gateway/http_gateway.hpp"
#include "mail/mail_queue.hpp"
#include "mail/mailer.hpp"
#include "metrics/metrics.hpp"
#include "metrics/plugin_metrics.hpp"
#include "plugin_host/plugin_loader.hpp"
#include "plugin_host/registry.hpp"
#include "projects/projects.hpp"
#include "store/stores.hpp"

namespace opbase::host {

class Daemon {
 public:
  explicit Daemon(Config config);
  ~Daemon();

  // Everything but the HTTP server, once: the log and daemon settings, projects, stores,
  // mailer, event bus, plugins. Fails with the first bad setting, naming its key.
  Status load();
  // load(), then serves; prints "listening on http://HOST:PORT" on stdout.
  Status start();
  // SIGTERM's path: drain and stop. Safe to call twice, and after load() alone.
  void stop();

  int port() const { return gateway_ ? gateway_->port() : 0; }
  ReadinessReport readiness() const;

  // Valid after load(); what the plugins registered and the configured projects.
  const Registry& registry() const { return registry_; }
  const Projects& projects() const { return *projects_; }

 private:
  Status apply_settings();
  Status lock_storage();
  Status load_projects();
  Status open_stores();
  void load_plugins();
  Status serve();
  std::string metrics_extra() const;
  void print_banner() const;

  Config config_;
  // The embedded store's storage.path, held shared while its files are open (storage_lock.hpp).
  std::unique_ptr<StorageLock> storage_lock_;
  std::unique_ptr<Projects> projects_;
  std::unique_ptr<Stores> stores_;
  std::unique_ptr<AuditTrail> audit_;      // admin changes, in the project stores
  std::unique_ptr<Mailer> mailer_;         // before loader_: plugins may send mail until shutdown
  std::unique_ptr<MailQueue> mail_queue_;  // plugins' mail, sent by mailer_ in the background
  std::unique_ptr<EventBus> bus_;
  DurableSubscriptions durable_;  // before loader_: plugins write events until they stop
  PluginMetrics plugin_metrics_;
  Registry registry_;
  HostContext context_;
  std::unique_ptr<PluginLoader> loader_;
  Metrics metrics_;
  std::unique_ptr<Dispatcher> dispatcher_;
  std::unique_ptr<HttpGateway> gateway_;
  // What the server.url host service answers: set once the gateway listens, read by plugin
  // threads (HostContext::listening_url).
  mutable std::mutex listening_url_mutex_;
  std::string listening_url_;
  std::vector<std::string> enabled_plugins_;
  bool stopped_ = false;
  bool print_generated_keys_ = false;
  bool generated_keys_ = false;  // the default project's keys were made or read from storage
  int drain_s_ = 30;
};

}  // namespace opbase::host
