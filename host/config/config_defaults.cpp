// The built-in defaults: every key the host reads, its default and its meaning.
// docs/configuration.md and conf/opbase.properties describe the same keys; keep them together.
#include <filesystem>

#include "config/config.hpp"

// The install's plugin folder seen from the daemon's folder (set by the build from the install
// layout; this is the Debian /usr layout's).
#ifndef OPBASE_PLUGIN_DIR_FROM_BINDIR
#define OPBASE_PLUGIN_DIR_FROM_BINDIR "../lib/x86_64-linux-gnu/opbase/plugins"
#endif

namespace opbase::host {
namespace {

// The plugin folder of the install this daemon belongs to, found from the daemon's own file, so
// an install to any prefix loads its own plugins: /usr/bin/opbase reads
// /usr/lib/<multiarch>/opbase/plugins, DIR/bin/opbase reads DIR/lib/<multiarch>/opbase/plugins.
const char* installed_plugin_folder() {
  static const std::string folder = [] {
    std::error_code error;
    const auto daemon = std::filesystem::read_symlink("/proc/self/exe", error);
    const std::filesystem::path bin = error ? "/usr/bin" : daemon.parent_path();
    return (bin / OPBASE_PLUGIN_DIR_FROM_BINDIR).lexically_normal().string();
  }();
  return folder.c_str();
}

}  // namespace

const std::vector<ConfigDefault>& config_defaults() {
  static const std::vector<ConfigDefault> rows = {
      {"server.host", "127.0.0.1", "address to listen on; 0.0.0.0 for every interface"},
      {"server.port", "8080", "TCP port; 0 takes a free port and prints it"},
      {"server.threads", "64",
       "worker threads: requests answered at once; idle and half-sent connections hold none"},
      {"server.queue", "256",
       "whole requests waiting for a free worker; past that, 503 RATE_LIMIT_EXCEEDED"},
      {"server.max_body_bytes", "4194304",
       "largest request body; larger is PAYLOAD_TOO_LARGE, refused before it is read"},
      {"server.max_inflight_body_bytes", "67108864",
       "bytes of request bodies held at once over all requests; past that, 503"},
      {"server.max_json_values", "200000",
       "most JSON values (scalars, objects, arrays) one request body may hold"},
      {"server.max_connections", "16384",
       "connections held at once; past that, 503 (also bounded by the open-files limit)"},
      {"server.max_connections_per_address", "1000",
       "connections from one client address; past that, 429; 0 = no limit (behind a proxy)"},
      {"server.keep_alive", "true", "reuse connections for several requests"},
      {"server.keep_alive_timeout_s", "15", "idle seconds before a kept-alive connection closes"},
      {"server.max_keep_alive_requests", "0",
       "requests per connection before it closes; 0 = no limit"},
      {"server.header_timeout_s", "10",
       "seconds for a request's head to arrive, from its first byte or the connection's start"},
      {"server.receive_timeout_s", "30",
       "seconds for a whole request (head and body) to arrive, from its first byte"},
      {"server.send_timeout_s", "30", "seconds a client may take to read a response"},
      {"server.cors_origins", "*",
       "web origins whose pages may call the API: *, off, or a comma-separated list of "
       "scheme://host[:port]"},
      {"server.drain_timeout_s", "30",
       "on SIGTERM, seconds for in-flight requests and then the event bus to finish, together"},
      {"storage.driver", "sqlite", "document store: sqlite (embedded) or mongodb"},
      {"storage.path", "data", "folder of the embedded store and generated keys"},
      {"storage.mongodb.uri", "mongodb://127.0.0.1:27017", "MongoDB connection string"},
      {"storage.mongodb.database_prefix", "opbase_",
       "database of project P is <prefix>P; several deployments may share one server"},
      {"storage.settings_reload_s", "60",
       "seconds before a daemon sees a settings change an administrator made through another "
       "daemon sharing the store (1-3600)"},
      {"storage.sqlite.readers", "4", "reader connections per project file (1-256)"},
      {"storage.sqlite.synchronous", "full",
       "full: every commit is fsynced (survives power loss); normal: survives a crash of the "
       "daemon, not of the machine"},
      {"datastore.indexes", "",
       "fields of datastore collections to index, comma-separated <collection>.<field path> "
       "(e.g. items.category, orders.customer.id); changing the list re-indexes at start"},
      {"datastore.auto_indexes", "true",
       "index by itself the fields queries keep reading many documents for, and drop those "
       "indexes once unused (sqlite and mongodb stores)"},
      {"datastore.auto_indexes.after_queries", "3",
       "costly queries on a field before it gets an automatic index (1-1000000)"},
      {"datastore.auto_indexes.costly_rows", "1000",
       "documents a query reads, filtering or sorting on a field without an index, to count as "
       "costly for it"},
      {"datastore.auto_indexes.drop_unused_after_s", "604800",
       "seconds without a query using it before an automatic index is dropped (default 7 days)"},
      {"datastore.auto_indexes.max_per_project", "16",
       "automatic indexes per project at most (0-1000); declared indexes do not count"},
      {"plugins.dir", installed_plugin_folder(),
       "where plugins are found: folders separated by ':', searched in order for <name>.so"},
      {"plugins.enabled", "", "plugins to load, comma-separated, in load order"},
      {"projects.generate_default", "true",
       "when no project 'default' is configured, create one with random keys on first start and "
       "keep them in <storage.path>/default-project.properties"},
      {"projects.print_generated_keys", "false",
       "print the generated default project's keys on standard output at start (development)"},
      {"events.queue_capacity", "10000",
       "events waiting per subscription; when full, new events for it are dropped and counted"},
      {"mail.transport", "log",
       "log: each mail is written to the log (development); smtp: sent through mail.smtp.*"},
      {"mail.from", "opbase <no-reply@localhost>", "the sender: 'address' or 'Name <address>'"},
      {"mail.smtp.host", "127.0.0.1", "SMTP server (mail.transport=smtp)"},
      {"mail.smtp.port", "25", "SMTP server port (1-65535)"},
      {"mail.smtp.starttls", "auto",
       "auto: TLS when the server offers it; required: fail without it; off: never"},
      {"mail.smtp.username", "", "SMTP login; empty: no login"},
      {"mail.smtp.password", "", "SMTP password, with mail.smtp.username; a secret"},
      {"mail.smtp.timeout_s", "10",
       "seconds for the connect and for each reply of the SMTP server (1-3600)"},
      {"mail.smtp.tls_verify", "true",
       "check the SMTP server's certificate against the system's CA bundle"},
      {"mail.queue.workers", "2", "threads sending queued mail (1-16)"},
      {"mail.queue.max_attempts", "8",
       "sends tried before a queued mail is given up, logged and removed (1-100)"},
      {"mail.queue.retry_s", "5",
       "seconds before a failed mail is tried again, doubling after each failure up to an hour "
       "(1-3600)"},
      {"log.level", "info", "debug, info, warning or error"},
      {"log.format", "text", "text (one line per entry) or json (one JSON object per line)"},
      {"log.requests", "true",
       "one info line per request: method, route, op, project, status, code, duration, id"},
      {"log.file", "",
       "append log lines to this file instead of standard error (needed with --daemon, which "
       "has none); empty: standard error"},
  };
  return rows;
}

}  // namespace opbase::host
