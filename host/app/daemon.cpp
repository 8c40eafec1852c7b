#include "app/daemon.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>

#include "log/log.hpp"
#include "opbase/version.hpp"
#include "util/clock.hpp"

namespace opbase::host {

Daemon::Daemon(Config config) : config_(std::move(config)) {}

Daemon::~Daemon() { stop(); }

Status Daemon::load() {
  if (Status applied = apply_settings(); !applied) return applied;
  if (Status locked = lock_storage(); !locked) return locked;
  if (Status loaded = load_projects(); !loaded) return loaded;
  if (Status opened = open_stores(); !opened) return opened;
  auto mail = mail_settings_from(config_);
  if (!mail) return mail.status();
  mailer_ = make_mailer(*mail);
  // Plugins' mail goes through the queue, kept in the project stores until it is sent.
  mail_queue_ = std::make_unique<MailQueue>(*mailer_, *stores_, mail->queue, &system_now_ms);
  auto capacity = config_.get_int("events.queue_capacity", 1, 10'000'000);
  if (!capacity) return capacity.status();
  bus_ = std::make_unique<EventBus>(static_cast<size_t>(*capacity));
  load_plugins();
  return Status::ok();
}

Status Daemon::start() {
  if (Status loaded = load(); !loaded) return loaded;
  return serve();
}

// The log first, so that everything after it goes where log.file says.
Status Daemon::apply_settings() {
  log::Level level = log::Level::kInfo;
  if (!log::parse_level(config_.get_or("log.level", "info"), &level)) {
    return Status::validation("log.level must be debug, info, warning or error");
  }
  log::set_level(level);
  log::Format format = log::Format::kText;
  if (!log::parse_format(config_.get_or("log.format", "text"), &format)) {
    return Status::validation("log.format must be text or json");
  }
  log::set_format(format);
  if (const std::string file = config_.get_or("log.file"); !file.empty() && !log::set_file(file)) {
    return Status::validation("cannot open log.file " + file + ": " + std::strerror(errno));
  }

  // Settings of the daemon itself, checked now so that a bad value stops the start, not the stop.
  auto print_keys = config_.get_bool("projects.print_generated_keys");
  if (!print_keys) return print_keys.status();
  print_generated_keys_ = *print_keys;
  auto drain = config_.get_int("server.drain_timeout_s", 0, 3600);
  if (!drain) return drain.status();
  drain_s_ = static_cast<int>(*drain);
  return Status::ok();
}

// Before anything under storage.path is read or written: a restore may be replacing it.
Status Daemon::lock_storage() {
  if (config_.get_or("storage.driver", "sqlite") != "sqlite") return Status::ok();
  auto lock = StorageLock::take(config_.get_or("storage.path", "data"), StorageLock::Mode::kShared);
  if (!lock) return lock.status();
  storage_lock_ = std::move(*lock);
  return Status::ok();
}

Status Daemon::load_projects() {
  auto generated = ensure_default_project_keys(config_);
  if (!generated) return generated.status();
  generated_keys_ = *generated;
  auto projects = Projects::load(config_);
  if (!projects) return projects.status();
  projects_ = std::move(*projects);
  if (projects_->all().empty()) {
    log::warn("daemon",
              "no project is configured: every API call will answer AUTHENTICATION_FAILED");
  }
  return Status::ok();
}

Status Daemon::open_stores() {
  auto stores = Stores::from(config_);
  if (!stores) return stores.status();
  stores_ = std::move(*stores);
  std::vector<std::string> project_ids;
  for (const auto& project : projects_->all()) project_ids.push_back(project->id);
  return stores_->open_all(project_ids);
}

void Daemon::load_plugins() {
  context_.registry = &registry_;
  context_.bus = bus_.get();
  context_.config = &config_;
  context_.stores = stores_.get();
  audit_ = std::make_unique<AuditTrail>(*stores_, &system_now_ms);
  context_.audit = audit_.get();
  context_.mailer = mail_queue_.get();
  context_.durable = &durable_;
  context_.plugin_metrics = &plugin_metrics_;
  context_.now_ms = &system_now_ms;
  context_.listening_url = [this] {
    const std::lock_guard lock(listening_url_mutex_);
    return listening_url_;
  };
  loader_ = std::make_unique<PluginLoader>(&context_);
  enabled_plugins_ = config_.get_list("plugins.enabled");
  bus_->hold();
  loader_->load_all(enabled_plugins_, split_plugin_dirs(config_.get_or("plugins.dir")));
  bus_->release();
}

Status Daemon::serve() {
  auto settings = GatewaySettings::from(config_);
  if (!settings) return settings.status();
  dispatcher_ = std::make_unique<Dispatcher>(*projects_, registry_, settings->max_json_values,
                                             settings->admin_key_digest);
  dispatcher_->set_audit(audit_.get());
  metrics_.set_extra_source([this] { return metrics_extra(); });
  gateway_ = std::make_unique<HttpGateway>(*settings, *dispatcher_, metrics_,
                                           [this] { return readiness(); });
  if (Status started = gateway_->start(); !started) return started;
  {
    const std::lock_guard lock(listening_url_mutex_);
    const std::string& host = gateway_->host();  // an IPv6 address goes in brackets in a URL
    listening_url_ = "http://" + (host.find(':') == std::string::npos ? host : "[" + host + "]") +
                     ":" + std::to_string(gateway_->port());
  }
  mail_queue_->start();

  log::info("daemon", "opbase " OPBASE_VERSION " serving " +
                          std::to_string(projects_->all().size()) + " project(s), " +
                          std::to_string(loader_->loaded().size()) + " plugin(s), " +
                          std::to_string(registry_.op_count()) + " op name(s)");
  print_banner();
  return Status::ok();
}

void Daemon::print_banner() const {
  // Standard output carries what scripts read: the URL first, as one line.
  std::printf("listening on http://%s:%d\n", gateway_->host().c_str(), gateway_->port());
  // Which plugins serve, and which of plugins.enabled did not load (the log says why).
  std::string loaded, refused;
  for (const auto& p : loader_->loaded()) loaded += (loaded.empty() ? "" : ", ") + p.name;
  for (const auto& p : loader_->refused()) refused += (refused.empty() ? "" : ", ") + p.name;
  std::printf("plugins loaded: %s\n", loaded.empty() ? "none" : loaded.c_str());
  if (!refused.empty())
    std::printf("plugins refused: %s (the log above says why)\n", refused.c_str());
  if (generated_keys_ && print_generated_keys_) {
    std::printf("project default: endpoint key %s, API key %s\n",
                config_.get_or("projects.default.endpoint_key").c_str(),
                config_.get_or("projects.default.api_key").c_str());
    std::printf("try: curl -s -H 'X-API-KEY: %s' -d '{\"op\":\"echo.ping\"}' http://%s:%d/api/%s\n",
                config_.get_or("projects.default.api_key").c_str(), gateway_->host().c_str(),
                gateway_->port(), config_.get_or("projects.default.endpoint_key").c_str());
    // The console's bookmark: the keys ride in the fragment, which the browser never sends.
    if (registry_.find_route("/console/") != nullptr) {
      std::printf("console: http://%s:%d/console/#endpoint_key=%s&api_key=%s\n",
                  gateway_->host().c_str(), gateway_->port(),
                  config_.get_or("projects.default.endpoint_key").c_str(),
                  config_.get_or("projects.default.api_key").c_str());
    }
  }
  std::fflush(stdout);
}

void Daemon::stop() {
  if (stopped_) return;
  stopped_ = true;
  // One drain budget for the whole stop: requests first, the event bus gets what is left (at
  // least a moment, so events of the last requests still reach their subscribers).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(drain_s_);
  if (gateway_) {
    log::info("daemon", "stopping: draining in-flight requests");
    gateway_->stop(drain_s_);
  }
  if (bus_) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    bus_->stop(std::max<int64_t>(left.count(), 200));
  }
  if (loader_) loader_->shutdown_all();
  // After the plugins, which may queue mail until they stop; what is not sent stays queued.
  if (mail_queue_) mail_queue_->stop();
  stores_.reset();        // after the plugins: they may write until their shutdown returns
  storage_lock_.reset();  // the files are closed
  log::info("daemon", "stopped");
}

ReadinessReport Daemon::readiness() const {
  nlohmann::json checks = nlohmann::json::object();
  bool ready = true;
  nlohmann::json plugins = nlohmann::json::object();
  for (const auto& p : loader_->loaded()) plugins[p.name] = "loaded";
  for (const auto& p : loader_->refused()) {
    if (plugins.contains(p.name)) continue;  // listed twice in plugins.enabled: it did load
    plugins[p.name] = "refused";
    ready = false;
  }
  checks["plugins"] = plugins;
  // A daemon whose plugins serve no op answers every call UNKNOWN_OPERATION: not ready, whatever
  // loaded (an empty plugins.enabled, say).
  const size_t ops = registry_.op_count();
  checks["ops"] = ops;
  if (ops == 0) ready = false;
  if (stores_) checks["store"] = stores_->readiness(&ready);
  return {ready,
          nlohmann::json{{"status", ready ? "ready" : "not_ready"}, {"checks", checks}}.dump()};
}

std::string Daemon::metrics_extra() const {
  std::string out;
  out += "# HELP opbase_plugins_loaded Plugins loaded and serving.\n";
  out += "# TYPE opbase_plugins_loaded gauge\n";
  out += "opbase_plugins_loaded " + std::to_string(loader_->loaded().size()) + "\n";
  out += "# HELP opbase_plugin_info A loaded plugin and its version.\n";
  out += "# TYPE opbase_plugin_info gauge\n";
  for (const auto& p : loader_->loaded()) {
    out += "opbase_plugin_info{plugin=\"" + p.name + "\",version=\"" + prometheus_label(p.version) +
           "\"} 1\n";
  }
  out += "# HELP opbase_plugins_refused Enabled plugins that could not be loaded.\n";
  out += "# TYPE opbase_plugins_refused gauge\n";
  out += "opbase_plugins_refused " + std::to_string(loader_->refused().size()) + "\n";
  out += "# HELP opbase_events_published_total Events published on the event bus.\n";
  out += "# TYPE opbase_events_published_total counter\n";
  out += "opbase_events_published_total " + std::to_string(bus_->published()) + "\n";
  out += "# HELP opbase_events_delivered_total Events handed to a subscriber.\n";
  out += "# TYPE opbase_events_delivered_total counter\n";
  std::string dropped;
  for (const auto& s : bus_->stats()) {
    const std::string labels = "{subscriber=\"" + s.owner + "\",pattern=\"" + s.pattern + "\"}";
    out += "opbase_events_delivered_total" + labels + " " + std::to_string(s.delivered) + "\n";
    dropped += "opbase_events_dropped_total" + labels + " " + std::to_string(s.dropped) + "\n";
  }
  out +=
      "# HELP opbase_events_dropped_total Events dropped because a subscriber's queue was full.\n";
  out += "# TYPE opbase_events_dropped_total counter\n";
  out += dropped;
  out += plugin_metrics_.render();
  if (mail_queue_) out += mail_queue_->metrics();
  out += stores_->metrics_text();
  return out;
}

}  // namespace opbase::host
