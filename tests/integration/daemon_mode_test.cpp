// --daemon and --pidfile: the daemon detaches, writes its pid, serves, logs to log.file, and on
// SIGTERM stops and removes the pid file. A detached daemon prints nowhere, so the test picks
// the port itself.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <csignal>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "daemon_process.hpp"

namespace opbase::test {
namespace {

using namespace std::chrono_literals;

// A port the kernel just handed out and that nobody listens on now. Another process could take
// it before the daemon does; on this test machine that is unlikely, and the test then fails
// loudly rather than passing wrongly.
int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  socklen_t length = sizeof address;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  ::close(fd);
  return ntohs(address.sin_port);
}

pid_t read_pid(const std::string& file) {
  std::ifstream in(file);
  pid_t pid = 0;
  in >> pid;
  return pid;
}

// Running, and not a zombie waiting for a parent that may never reap it (a detached daemon's
// parent is whatever reaper the machine has).
bool alive(pid_t pid) {
  if (pid <= 0 || ::kill(pid, 0) != 0) return false;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const auto paren = text.rfind(')');
  return paren == std::string::npos || paren + 2 >= text.size() || text[paren + 2] != 'Z';
}

// Waits (bounded) until `done` holds.
template <typename Check>
bool eventually(Check done, std::chrono::milliseconds limit = 20s) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(20ms);
  }
  return done();
}

TEST(DaemonMode, DetachesWritesItsPidServesAndStopsOnSigterm) {
  const int port = free_port();
  char pid_dir[] = "/tmp/opbase-pid-XXXXXX";
  ASSERT_NE(::mkdtemp(pid_dir), nullptr);
  const std::string pid_file = std::string(pid_dir) + "/opbase.pid";
  const std::string log_file = std::string(pid_dir) + "/opbase.log";
  DaemonOptions options;
  options.config["server.port"] = std::to_string(port);
  options.config["log.file"] = log_file;  // a detached daemon has no standard error
  options.extra_args = {"--daemon", "--pidfile=" + pid_file};
  auto parent = DaemonProcess::spawn(options);
  // The process we started forks the daemon and exits at once with 0.
  ASSERT_EQ(parent->wait_exit(20s), std::optional<int>(0)) << parent->log();

  ASSERT_TRUE(eventually([&] { return read_pid(pid_file) > 0; })) << "no pid file " << pid_file;
  const pid_t daemon_pid = read_pid(pid_file);
  EXPECT_NE(daemon_pid, parent->pid());
  ASSERT_TRUE(alive(daemon_pid));
  struct KillOnExit {
    pid_t pid;
    ~KillOnExit() {
      if (alive(pid)) ::kill(pid, SIGKILL);
    }
  } guard{daemon_pid};

  ASSERT_TRUE(eventually([&] { return accepts_connections(port, 1s); }));
  const HttpResponse health = http_request(port, "GET", "/healthz");
  EXPECT_EQ(health.status, 200);
  const HttpResponse ping =
      http_request(port, "POST", "/api/" + parent->endpoint_key(), R"({"op":"echo.ping"})",
                   {{"X-API-KEY", parent->api_key()}, {"Content-Type", "application/json"}});
  EXPECT_EQ(ping.status, 200) << ping.body;
  EXPECT_EQ(ping.json()["data"]["pong"], true);

  ASSERT_EQ(::kill(daemon_pid, SIGTERM), 0);
  EXPECT_TRUE(eventually([&] { return !alive(daemon_pid); })) << "still running after SIGTERM";
  EXPECT_FALSE(std::ifstream(pid_file).good()) << "the pid file outlived the daemon";

  std::ifstream log_in(log_file);
  const std::string log((std::istreambuf_iterator<char>(log_in)), std::istreambuf_iterator<char>());
  EXPECT_NE(log.find("plugin 'echo' 1.0.0 loaded from"), std::string::npos) << log;
  EXPECT_NE(log.find("[daemon] stopped"), std::string::npos) << log;
  ::unlink(log_file.c_str());
  ::rmdir(pid_dir);
}

}  // namespace
}  // namespace opbase::test
