#include "child_server.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <thread>

extern char** environ;

namespace opbase::test {
namespace {

using std::chrono::steady_clock;

// `on_path`: look args[0] up on PATH (posix_spawnp) instead of taking it as a path.
pid_t spawn(const std::vector<std::string>& args, posix_spawn_file_actions_t* actions,
            bool on_path = false) {
  std::vector<std::string> copy = args;
  std::vector<char*> argv;
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int spawned = on_path ? posix_spawnp(&pid, argv[0], actions, nullptr, argv.data(), environ)
                              : posix_spawn(&pid, argv[0], actions, nullptr, argv.data(), environ);
  return spawned == 0 ? pid : -1;
}

// Waits for `pid` until `deadline`, then kills it. Its exit status, or -1.
int reap(pid_t pid, steady_clock::time_point deadline) {
  int status = 0;
  while (steady_clock::now() < deadline) {
    if (waitpid(pid, &status, WNOHANG) == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  return -1;
}

}  // namespace

ChildServer::ChildServer(const std::vector<std::string>& args, std::chrono::seconds grace)
    : grace_(grace) {
  int in[2];
  int out[2];
  if (pipe2(in, O_CLOEXEC) != 0) return;
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(in[0]);
    close(in[1]);
    return;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  pid_ = spawn(args, &actions);
  posix_spawn_file_actions_destroy(&actions);
  close(in[0]);
  close(out[1]);
  stdin_fd_ = in[1];
  stdout_fd_ = out[0];
  if (pid_ > 0) read_port();
}

ChildServer::~ChildServer() {
  if (stdin_fd_ >= 0) close(stdin_fd_);  // the child's signal to stop
  if (stdout_fd_ >= 0) close(stdout_fd_);
  if (pid_ > 0) reap(pid_, steady_clock::now() + grace_);
}

// The first line on stdout, "PORT <n>", within 20 s.
void ChildServer::read_port() {
  std::string line;
  const auto deadline = steady_clock::now() + std::chrono::seconds(20);
  while (line.find('\n') == std::string::npos && steady_clock::now() < deadline) {
    pollfd fd{stdout_fd_, POLLIN, 0};
    if (poll(&fd, 1, 200) <= 0) continue;
    char buffer[64];
    const ssize_t n = read(stdout_fd_, buffer, sizeof buffer);
    if (n <= 0) break;
    line.append(buffer, static_cast<size_t>(n));
  }
  if (line.rfind("PORT ", 0) == 0) port_ = std::atoi(line.c_str() + 5);
}

bool run_command(const std::vector<std::string>& args, std::chrono::seconds limit) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  const pid_t pid = spawn(args, &actions);
  posix_spawn_file_actions_destroy(&actions);
  return pid > 0 && reap(pid, steady_clock::now() + limit) == 0;
}

int run_to_file(const std::vector<std::string>& args, const std::string& output_file,
                std::chrono::seconds limit) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, output_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  const pid_t pid = spawn(args, &actions, /*on_path=*/true);
  posix_spawn_file_actions_destroy(&actions);
  return pid > 0 ? reap(pid, steady_clock::now() + limit) : -1;
}

}  // namespace opbase::test
