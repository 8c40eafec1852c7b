// DaemonProcess: the one way an integration test starts the real opbase daemon.
//
// start() forks and execs the built daemon (OPBASE_TEST_DAEMON) with a fresh temporary folder as
// storage.path, a free port (server.port=0, read back from the "listening on http://HOST:PORT"
// line), the built and the test plugin folders, debug logging, and a project "test" with random
// keys. Standard output and error go to files in that folder. The destructor stops the daemon
// (SIGTERM, then SIGKILL after 10 s) and removes the folder; when the test failed, it prints the
// end of the daemon's log first.
//
//   auto daemon = DaemonProcess::start({.plugins = {"echo", "probe"}});
//   HttpResponse r = daemon->call({{"op", "echo.ping"}});
//
// The daemon is killed (PR_SET_PDEATHSIG) when the thread that started it ends, so a crashed
// test binary leaves no daemons behind: start it from the thread that owns the object.
//
// Thread-safety: call(), request(), metric(), log() and output() may be used from any thread at
// once; send_signal(), wait_exit() and destruction belong to the thread that owns the object.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http_client.hpp"

namespace opbase::test {

struct DaemonOptions {
  // plugins.enabled, in load order. A name ending in ".so" is a path (see test_plugin_path()).
  std::vector<std::string> plugins = {"echo"};
  // Extra --set key=value, applied after (so winning over) the helper's own settings.
  std::map<std::string, std::string> config;
  // Extra environment variables for the daemon. Inherited OPBASE_* variables are dropped, so a
  // developer's shell cannot change what a test runs.
  std::map<std::string, std::string> env;
  // true: no test project; the daemon generates its "default" project, whose keys are then read
  // from <storage.path>/default-project.properties.
  bool use_default_project = false;
  // The keys of the project "test"; empty: random ones. A daemon started on files restored from
  // another's backup takes that one's keys.
  std::string endpoint_key;
  std::string api_key;
  // The text of the properties file passed with --config. A file is always passed, so a
  // system-wide configuration file never leaks into a test; empty means an empty file.
  std::string properties;
  // Extra command-line arguments after the settings (e.g. "--daemon", "--pidfile=FILE").
  std::vector<std::string> extra_args;
  // true: plugins.enabled is the one the properties text names (a shipped configuration's),
  // not `plugins`.
  bool plugins_from_properties = false;
  // The daemon to run; empty: the one this tree builds, with plugins.dir naming the build's
  // plugin folders. Otherwise an installed daemon, left to find its own plugins.
  std::string daemon;
  // true: the project's first administrator (auth.admin_email, kTestAdminEmail) is made by the
  // auth plugin, and DaemonProcess::admin() signs in as them; sign-ups are not rate limited.
  bool with_admin = false;
};

inline constexpr const char* kTestAdminEmail = "root@example.com";
inline constexpr const char* kTestAdminPassword = "Admin-Pass-1";

class DaemonProcess {
 public:
  // Starts the daemon and waits (at most 20 s) until it listens. When it exits or times out
  // instead, the test fails with the daemon's output and this throws (ending the test).
  static std::unique_ptr<DaemonProcess> start(const DaemonOptions& options = {});
  // Starts the daemon without waiting for it to listen: for tests of refused start-ups, which
  // then use wait_exit() and log().
  static std::unique_ptr<DaemonProcess> spawn(const DaemonOptions& options = {});

  ~DaemonProcess();
  DaemonProcess(const DaemonProcess&) = delete;
  DaemonProcess& operator=(const DaemonProcess&) = delete;

  int port() const { return port_; }
  std::string base_url() const;
  const std::string& endpoint_key() const { return endpoint_key_; }
  const std::string& api_key() const { return api_key_; }
  // The daemon's temporary folder (storage.path, its config file and its output).
  const std::string& dir() const { return dir_; }
  // "/api/<endpoint key>".
  std::string api_path() const { return "/api/" + endpoint_key_; }

  // POST /api/<endpoint_key> with X-API-KEY and Content-Type: application/json; `extra` headers
  // are sent after those, so they may replace them.
  HttpResponse call(const nlohmann::json& body, const Headers& extra = {}) const;
  // call() that expects the answer's HTTP `status` (a test failure naming the request and the
  // answer when it differs) and gives the answer's JSON.
  nlohmann::json call_expecting(int status, const nlohmann::json& body,
                                const Headers& extra = {}) const;
  // Any request, on a fresh connection.
  HttpResponse request(const std::string& method, const std::string& path,
                       const std::string& body = "", const Headers& headers = {}) const;
  // A real user of the auth plugin, which the daemon must load with
  // auth.rate.signup_per_address=off: `<name>@example.com` is signed up the first time and
  // signed in (only signed in when a daemon that used the same storage made the account); later
  // calls answer the same session. Throws (failing the test) when either fails.
  struct User {
    std::string id_token;
    std::string key;  // _userkey, the owner of what the user writes
    Headers bearer() const { return {{"Authorization", "Bearer " + id_token}}; }
  };
  const User& user(const std::string& name);
  // A sign-in of an account that exists already (an administrator made from auth.admin_email
  // and auth.admin_password, say): a fresh session each call. Throws (failing the test) when
  // the sign-in fails.
  User signin(const std::string& email, const std::string& password) const;
  // A fresh session of the administrator DaemonOptions::with_admin made.
  User admin() const { return signin(kTestAdminEmail, kTestAdminPassword); }

  // The value of one series of GET /metrics, e.g. `opbase_requests_in_flight` or
  // `opbase_requests_total{op="echo.ping",code="OK"}`; nullopt when the series is absent.
  std::optional<double> metric(std::string_view series) const;

  // Standard error (the log) and standard output so far.
  std::string log() const;
  std::string output() const;

  void send_signal(int sig);
  // Waits at most `timeout` for the daemon to exit. Answers its exit code, 128 + the signal
  // number when a signal ended it, or nullopt when it is still running.
  std::optional<int> wait_exit(std::chrono::milliseconds timeout);
  pid_t pid() const { return pid_; }
  // The daemon's resident memory now (VmRSS) and at its peak so far (VmHWM), in bytes; 0 when
  // they cannot be read.
  size_t rss_bytes() const;
  size_t peak_rss_bytes() const;

 private:
  DaemonProcess() = default;
  bool wait_listening(std::chrono::milliseconds timeout);
  bool read_default_project_keys();
  std::string failure_report(std::string_view what) const;

  pid_t pid_ = -1;
  std::string binary_;  // the daemon's file
  std::optional<int> exit_status_;
  std::string dir_;
  std::string storage_path_;  // dir_, unless DaemonOptions::config sets storage.path
  std::string host_;
  int port_ = 0;
  std::string endpoint_key_;
  std::string api_key_;
  bool log_reported_ = false;  // the daemon's output is already in a test failure
  std::map<std::string, User> users_;
};

// Whether OPBASE_TEST_STORE=mongodb puts the daemons on the MongoDB driver (docs/operations.md,
// "MongoDB-compatible servers"), and whether that server is FerretDB, whose differences from
// MongoDB some tests step around, saying so.
bool daemons_on_mongodb();
bool daemons_on_ferretdb();

// The file of test plugin `stem` in OPBASE_TEST_PLUGIN_DIR, to put in DaemonOptions::plugins.
// Named by path because a test plugin may share its plugin name with a real one (fake "auth").
std::string test_plugin_path(std::string_view stem);

// The value of one series in a Prometheus text exposition, or nullopt when absent.
std::optional<double> metric_value(std::string_view exposition, std::string_view series);

}  // namespace opbase::test
