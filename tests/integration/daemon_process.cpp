// DaemonProcess: fork/exec of the daemon, its temporary folder, and waiting on it. See
// daemon_process.hpp.
#include "daemon_process.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <openssl/sha.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>

#include "ferretdb_server.hpp"

extern char** environ;

namespace opbase::test {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr auto kStartTimeout = 20s;
constexpr auto kStopTimeout = 10s;
constexpr std::string_view kListeningPrefix = "listening on http://";

std::string random_hex(size_t chars) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::random_device rd;
  std::string out(chars, '0');
  for (char& c : out) c = kHex[rd() & 0xf];
  return out;
}

// The first 16 hex digits of the SHA-256 of `text`: a name that stays the same for the same text.
std::string digest_hex(std::string_view text) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest);
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  for (int i = 0; i < 8; ++i) {
    hex.push_back(kDigits[digest[i] >> 4]);
    hex.push_back(kDigits[digest[i] & 15]);
  }
  return hex;
}

std::string make_temp_dir() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base && *base ? base : "/tmp") + "/opbase-it-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("mkdtemp " + pattern + ": " + std::strerror(errno));
  }
  return pattern;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path);
}

std::string tail(const std::string& text, size_t max) {
  return text.size() <= max ? text : "..." + text.substr(text.size() - max);
}

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : std::string(separator)) + item;
  return out;
}

// OPBASE_TEST_STORE=mongodb runs every daemon on the MongoDB driver: against the server
// OPBASE_TEST_MONGODB_URI names, or a FerretDB started once for the test binary
// (ferretdb_server.hpp), each storage.path in databases of its own, so a daemon started again on
// the storage of one before (a restart) finds its data. Unset, or "sqlite", the embedded store.
// A test that sets storage.driver itself keeps its choice.
std::vector<std::pair<std::string, std::string>> store_settings(const std::string& storage_path) {
  if (!daemons_on_mongodb()) return {};
  const MongoTestServer& server = mongo_test_server();
  if (!server.problem.empty()) throw std::runtime_error(server.problem);
  return {{"storage.driver", "mongodb"},
          {"storage.mongodb.uri", server.uri},
          {"storage.mongodb.database_prefix", "t" + digest_hex(storage_path) + "_"}};
}

// The daemon's settings, later entries winning (they become --set in this order).
std::vector<std::pair<std::string, std::string>> settings_for(const DaemonOptions& options,
                                                              const std::string& dir,
                                                              std::string* endpoint_key,
                                                              std::string* api_key) {
  std::vector<std::pair<std::string, std::string>> s = {
      {"storage.path", dir},
      {"server.host", "127.0.0.1"},
      {"server.port", "0"},
      {"log.level", "debug"},
  };
  if (!options.config.contains("storage.driver")) {
    const auto storage = options.config.find("storage.path");
    for (auto& setting : store_settings(storage != options.config.end() ? storage->second : dir)) {
      s.push_back(std::move(setting));
    }
  }
  if (options.daemon.empty()) {
    s.emplace_back("plugins.dir",
                   std::string(OPBASE_BUILT_PLUGIN_DIR) + ":" + OPBASE_TEST_PLUGIN_DIR);
  }
  if (!options.plugins_from_properties)
    s.emplace_back("plugins.enabled", join(options.plugins, ","));
  if (!options.use_default_project) {
    *endpoint_key = options.endpoint_key.empty() ? "ep_" + random_hex(24) : options.endpoint_key;
    *api_key = options.api_key.empty() ? "ak_" + random_hex(48) : options.api_key;
    s.emplace_back("projects.generate_default", "false");
    s.emplace_back("projects.test.endpoint_key", *endpoint_key);
    s.emplace_back("projects.test.api_key", *api_key);
  }
  if (options.with_admin) {
    s.emplace_back("auth.admin_email", kTestAdminEmail);
    s.emplace_back("auth.admin_password", kTestAdminPassword);
    s.emplace_back("auth.rate.signup_per_address", "off");
  }
  for (const auto& [key, value] : options.config) s.emplace_back(key, value);
  return s;
}

// The inherited environment without OPBASE_*, plus the test's own variables.
std::vector<std::string> environment_for(const DaemonOptions& options) {
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    if (!std::string_view(*e).starts_with("OPBASE_")) env.emplace_back(*e);
  }
  for (const auto& [name, value] : options.env) env.push_back(name + "=" + value);
  return env;
}

std::vector<char*> c_strings(std::vector<std::string>& items) {
  std::vector<char*> out;
  for (std::string& item : items) out.push_back(item.data());
  out.push_back(nullptr);
  return out;
}

// A file descriptor closed when it goes out of scope (close-on-exec: only dup2 copies reach the
// daemon).
struct Fd {
  int fd;
  Fd(const std::string& path, int flags) : fd(::open(path.c_str(), flags | O_CLOEXEC, 0600)) {
    if (fd < 0) throw std::runtime_error("open " + path + ": " + std::strerror(errno));
  }
  ~Fd() { ::close(fd); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
};

// The highest descriptor number the child closes when close_range is not available.
int max_fd_to_close() {
  const long open_max = ::sysconf(_SC_OPEN_MAX);
  return open_max > 0 && open_max < 65536 ? static_cast<int>(open_max) : 65536;
}

// Runs in the forked child: only async-signal-safe calls until exec.
[[noreturn]] void exec_child(pid_t parent, int in_fd, int out_fd, int err_fd, int max_fd,
                             char** argv, char** envp) {
  // A test binary that dies must not leave daemons behind.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);
  ::dup2(in_fd, STDIN_FILENO);
  ::dup2(out_fd, STDOUT_FILENO);
  ::dup2(err_fd, STDERR_FILENO);
  // Sockets the test holds (Poco opens them without close-on-exec) must not live on in the daemon.
  if (::close_range(3, ~0U, 0) != 0) {
    for (int fd = 3; fd < max_fd; ++fd) ::close(fd);
  }
  // The test binary ignores SIGPIPE; the daemon must run with the dispositions it would have.
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  ::sigaction(SIGPIPE, &dfl, nullptr);
  sigset_t none;
  ::sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::execve(argv[0], argv, envp);
  static constexpr char kMessage[] = "daemon_process: execve of the daemon failed\n";
  ssize_t ignored = ::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
  (void)ignored;
  ::_exit(127);
}

}  // namespace

bool daemons_on_mongodb() {
  const char* store = std::getenv("OPBASE_TEST_STORE");
  return store != nullptr && std::string_view(store) == "mongodb";
}

bool daemons_on_ferretdb() { return daemons_on_mongodb() && mongo_test_server().is_ferretdb; }

std::string test_plugin_path(std::string_view stem) {
  return std::string(OPBASE_TEST_PLUGIN_DIR) + "/" + std::string(stem) + ".so";
}

std::optional<double> metric_value(std::string_view exposition, std::string_view series) {
  while (!exposition.empty()) {
    const auto nl = exposition.find('\n');
    const std::string_view line = exposition.substr(0, nl);
    exposition = nl == std::string_view::npos ? std::string_view{} : exposition.substr(nl + 1);
    if (line.size() > series.size() && line.starts_with(series) && line[series.size()] == ' ') {
      const std::string number(line.substr(series.size() + 1));
      char* end = nullptr;
      const double value = std::strtod(number.c_str(), &end);
      if (end != number.c_str()) return value;
    }
  }
  return std::nullopt;
}

std::unique_ptr<DaemonProcess> DaemonProcess::spawn(const DaemonOptions& options) {
  std::unique_ptr<DaemonProcess> d(new DaemonProcess());
  d->dir_ = make_temp_dir();
  const auto storage = options.config.find("storage.path");
  d->storage_path_ = storage != options.config.end() ? storage->second : d->dir_;
  const std::string config_file = d->dir_ + "/opbase.properties";
  write_file(config_file, options.properties);

  d->binary_ = options.daemon.empty() ? OPBASE_TEST_DAEMON : options.daemon;
  std::vector<std::string> args = {d->binary_, "--config=" + config_file};
  for (const auto& [key, value] : settings_for(options, d->dir_, &d->endpoint_key_, &d->api_key_)) {
    // "--set=k=v": Poco takes the option's argument after the first '=' or ':'.
    args.push_back("--set=" + key + "=" + value);
  }
  args.insert(args.end(), options.extra_args.begin(), options.extra_args.end());
  std::vector<std::string> env = environment_for(options);
  std::vector<char*> argv = c_strings(args);
  std::vector<char*> envp = c_strings(env);

  const Fd in("/dev/null", O_RDONLY);
  const Fd out(d->dir_ + "/stdout.txt", O_WRONLY | O_CREAT | O_TRUNC);
  const Fd err(d->dir_ + "/stderr.txt", O_WRONLY | O_CREAT | O_TRUNC);
  const int max_fd = max_fd_to_close();
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid == 0) exec_child(parent, in.fd, out.fd, err.fd, max_fd, argv.data(), envp.data());
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  d->pid_ = pid;
  return d;
}

std::unique_ptr<DaemonProcess> DaemonProcess::start(const DaemonOptions& options) {
  std::unique_ptr<DaemonProcess> d = spawn(options);
  if (!d->wait_listening(kStartTimeout)) {
    ADD_FAILURE() << d->failure_report("the daemon did not start listening");
    d->log_reported_ = true;
    throw std::runtime_error("the daemon did not start; see the failure above");
  }
  if (options.use_default_project && !d->read_default_project_keys()) {
    ADD_FAILURE() << d->failure_report("no generated default project keys");
    d->log_reported_ = true;
    throw std::runtime_error("the daemon did not generate the default project's keys");
  }
  return d;
}

bool DaemonProcess::wait_listening(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (true) {
    // Only a whole line counts: the port may still be being written.
    const std::string out = output();
    const auto at = out.find(kListeningPrefix);
    const auto nl = at == std::string::npos ? std::string::npos : out.find('\n', at);
    if (nl != std::string::npos) {
      const std::string address =
          out.substr(at + kListeningPrefix.size(), nl - at - kListeningPrefix.size());
      const auto colon = address.rfind(':');
      if (colon == std::string::npos) return false;
      host_ = address.substr(0, colon);
      port_ = std::atoi(address.c_str() + colon + 1);
      return port_ > 0;
    }
    if (wait_exit(0ms) || Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(10ms);
  }
}

bool DaemonProcess::read_default_project_keys() {
  std::istringstream lines(read_file(storage_path_ + "/default-project.properties"));
  std::string line;
  while (std::getline(lines, line)) {
    const auto eq = line.find('=');
    if (eq == std::string::npos || line.starts_with("#")) continue;
    auto trim = [](std::string s) {
      s.erase(0, s.find_first_not_of(" \t"));
      s.erase(s.find_last_not_of(" \t\r") + 1);
      return s;
    };
    const std::string key = trim(line.substr(0, eq));
    const std::string value = trim(line.substr(eq + 1));
    if (key == "projects.default.endpoint_key") endpoint_key_ = value;
    if (key == "projects.default.api_key") api_key_ = value;
  }
  return !endpoint_key_.empty() && !api_key_.empty();
}

std::string DaemonProcess::failure_report(std::string_view what) const {
  std::string report = std::string(what) + " (" + binary_ + ", folder " + dir_ + ")";
  if (exit_status_) report += "; it exited with status " + std::to_string(*exit_status_);
  report += "\n--- daemon stdout ---\n" + tail(output(), 4096);
  report += "\n--- daemon stderr ---\n" + tail(log(), 16384);
  return report;
}

DaemonProcess::~DaemonProcess() {
  if (pid_ > 0 && !exit_status_) {
    send_signal(SIGTERM);
    if (!wait_exit(kStopTimeout)) {
      std::cerr << "daemon_process: the daemon ignored SIGTERM for 10 s; killing it\n";
      send_signal(SIGKILL);
      wait_exit(kStopTimeout);
    }
  }
  if (::testing::Test::HasFailure() && !log_reported_ && !dir_.empty()) {
    std::cerr << failure_report("the test failed; the daemon's output follows") << "\n";
  }
  if (!dir_.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
}

std::string DaemonProcess::base_url() const {
  return "http://" + host_ + ":" + std::to_string(port_);
}

HttpResponse DaemonProcess::call(const nlohmann::json& body, const Headers& extra) const {
  Headers headers = {{"X-API-KEY", api_key_}, {"Content-Type", "application/json"}};
  headers.insert(headers.end(), extra.begin(), extra.end());
  return request("POST", api_path(), body.dump(), headers);
}

const DaemonProcess::User& DaemonProcess::user(const std::string& name) {
  if (auto known = users_.find(name); known != users_.end()) return known->second;
  const std::string email = name + "@example.com";
  const std::string password = "User-Pass-1";
  const HttpResponse up = call(
      {{"op", "auth.signup"}, {"email", email}, {"password", password}, {"display_name", name}});
  // An account already there was made by a daemon that used this storage before a restart.
  if (up.status != 200 && up.status != 409) {
    throw std::runtime_error("sign-up of " + email + ": " + up.body);
  }
  return users_.emplace(name, signin(email, password)).first->second;
}

nlohmann::json DaemonProcess::call_expecting(int status, const nlohmann::json& body,
                                             const Headers& extra) const {
  const HttpResponse r = call(body, extra);
  EXPECT_EQ(r.status, status) << body << " " << r.describe();
  return r.json();
}

DaemonProcess::User DaemonProcess::signin(const std::string& email,
                                          const std::string& password) const {
  const HttpResponse in = call({{"op", "auth.signin"},
                                {"grant_type", "password"},
                                {"email", email},
                                {"password", password}});
  const nlohmann::json data = in.status == 200 ? in.json()["data"] : nlohmann::json();
  if (!data.is_object()) throw std::runtime_error("sign-in of " + email + ": " + in.body);
  return User{data["id_token"], data["user_profile"]["_userkey"]};
}

HttpResponse DaemonProcess::request(const std::string& method, const std::string& path,
                                    const std::string& body, const Headers& headers) const {
  return http_request(port_, method, path, body, headers);
}

std::optional<double> DaemonProcess::metric(std::string_view series) const {
  const HttpResponse scrape = request("GET", "/metrics");
  if (scrape.status != 200) return std::nullopt;
  return metric_value(scrape.body, series);
}

std::string DaemonProcess::log() const { return read_file(dir_ + "/stderr.txt"); }

std::string DaemonProcess::output() const { return read_file(dir_ + "/stdout.txt"); }

namespace {

// A "<name>: <n> kB" line of /proc/<pid>/status, in bytes.
size_t status_bytes(pid_t pid, std::string_view name) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.starts_with(name) && line.size() > name.size() && line[name.size()] == ':') {
      return std::stoul(line.substr(name.size() + 1)) * 1024;
    }
  }
  return 0;
}

}  // namespace

size_t DaemonProcess::rss_bytes() const { return status_bytes(pid_, "VmRSS"); }
size_t DaemonProcess::peak_rss_bytes() const { return status_bytes(pid_, "VmHWM"); }

void DaemonProcess::send_signal(int sig) {
  // Once reaped, the pid may belong to another process: never signal it then.
  if (pid_ > 0 && !exit_status_) ::kill(pid_, sig);
}

std::optional<int> DaemonProcess::wait_exit(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (!exit_status_ && pid_ > 0) {
    int status = 0;
    const pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    } else if (r < 0 && errno != EINTR) {
      exit_status_ = -1;  // not our child any more: nothing left to wait for
    } else if (Clock::now() >= deadline) {
      break;
    } else {
      std::this_thread::sleep_for(5ms);
    }
  }
  return exit_status_;
}

}  // namespace opbase::test
