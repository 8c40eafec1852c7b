#include "translate/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

namespace opbase::ai {

namespace {

std::string errno_text(int error) { return std::strerror(error); }

// posix_spawn's attribute and file action objects, destroyed on every path.
class SpawnSetup {
 public:
  SpawnSetup() {
    posix_spawnattr_init(&attributes_);
    posix_spawn_file_actions_init(&actions_);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions_);
    posix_spawnattr_destroy(&attributes_);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;

  // 0: ok; else an errno value.
  int prepare(int stdin_fd, int stdout_fd) {
    sigset_t none;
    sigset_t all;
    sigemptyset(&none);
    sigfillset(&all);
    int error = posix_spawnattr_setsigmask(&attributes_, &none);
    if (error == 0) error = posix_spawnattr_setsigdefault(&attributes_, &all);
    if (error == 0) {
      error =
          posix_spawnattr_setflags(&attributes_, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    }
    if (error == 0) error = posix_spawn_file_actions_adddup2(&actions_, stdin_fd, 0);
    if (error == 0) error = posix_spawn_file_actions_adddup2(&actions_, stdout_fd, 1);
    if (error == 0) {
      error = posix_spawn_file_actions_addopen(&actions_, 2, "/dev/null", O_WRONLY, 0);
    }
    if (error == 0) error = posix_spawn_file_actions_addclosefrom_np(&actions_, 3);
    return error;
  }

  const posix_spawnattr_t* attributes() const { return &attributes_; }
  const posix_spawn_file_actions_t* actions() const { return &actions_; }

 private:
  posix_spawnattr_t attributes_;
  posix_spawn_file_actions_t actions_;
};

std::vector<char*> pointers_to(const std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (const std::string& text : strings) pointers.push_back(const_cast<char*>(text.c_str()));
  pointers.push_back(nullptr);
  return pointers;
}

int remaining_ms(std::chrono::steady_clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  return left.count() < 0 ? 0 : static_cast<int>(left.count());
}

}  // namespace

std::vector<std::string> child_environment(std::string_view search_path) {
  return {"PATH=" + std::string(search_path), "LC_ALL=C.UTF-8"};
}

std::optional<std::string> find_program(std::string_view program, std::string_view search_path) {
  if (program.empty()) return std::nullopt;
  if (program.find('/') != std::string_view::npos) {
    const std::string path(program);
    if (access(path.c_str(), X_OK) == 0) return path;
    return std::nullopt;
  }
  size_t at = 0;
  while (at <= search_path.size()) {
    size_t end = search_path.find(':', at);
    if (end == std::string_view::npos) end = search_path.size();
    const std::string_view folder = search_path.substr(at, end - at);
    if (!folder.empty()) {
      const std::string path = std::string(folder) + "/" + std::string(program);
      if (access(path.c_str(), X_OK) == 0) return path;
    }
    at = end + 1;
  }
  return std::nullopt;
}

Result<pid_t> spawn_child(const std::vector<std::string>& argv, int stdin_fd, int stdout_fd,
                          const std::vector<std::string>& environment) {
  if (argv.empty()) return Status::internal("no program to start");
  SpawnSetup setup;
  int error = setup.prepare(stdin_fd, stdout_fd);
  if (error != 0)
    return Status::internal("cannot prepare to start a program: " + errno_text(error));
  std::vector<char*> args = pointers_to(argv);
  std::vector<char*> env = pointers_to(environment);
  pid_t pid = 0;
  error = posix_spawn(&pid, argv[0].c_str(), setup.actions(), setup.attributes(), args.data(),
                      env.data());
  if (error != 0) return Status::internal("cannot start " + argv[0] + ": " + errno_text(error));
  return pid;
}

bool child_ended(pid_t pid, std::string* how) {
  int status = 0;
  const pid_t got = waitpid(pid, &status, WNOHANG);
  if (got == pid) {
    if (how != nullptr) {
      *how = WIFSIGNALED(status) ? "signal " + std::to_string(WTERMSIG(status))
                                 : "exit status " + std::to_string(WEXITSTATUS(status));
    }
    return true;
  }
  // ECHILD: already collected, or the host ignores SIGCHLD and the system collected it.
  if (got < 0 && errno == ECHILD) {
    if (how != nullptr) *how = "an unknown status";
    return true;
  }
  return false;
}

void stop_child(pid_t pid) {
  kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
}

int above_standard_streams(int fd) {
  if (fd < 0 || fd > 2) return fd;
  const int moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
  close(fd);
  return moved;
}

Result<std::string> run_for_output(const std::vector<std::string>& argv,
                                   const std::vector<std::string>& environment, int timeout_ms) {
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) return Status::internal("pipe: " + errno_text(errno));
  out[0] = above_standard_streams(out[0]);
  out[1] = above_standard_streams(out[1]);
  const int null_in = above_standard_streams(open("/dev/null", O_RDONLY | O_CLOEXEC));
  if (out[0] < 0 || out[1] < 0 || null_in < 0) {
    for (const int fd : {out[0], out[1], null_in}) {
      if (fd >= 0) close(fd);
    }
    return Status::internal("cannot open descriptors for " + argv[0]);
  }
  Result<pid_t> pid = spawn_child(argv, null_in, out[1], environment);
  close(null_in);
  close(out[1]);
  if (!pid) {
    close(out[0]);
    return pid.status();
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  std::string output;
  char buffer[4096];
  bool timed_out = false;
  for (;;) {
    pollfd readable{out[0], POLLIN, 0};
    const int ready = poll(&readable, 1, remaining_ms(deadline));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      timed_out = true;
      break;
    }
    const ssize_t got = read(out[0], buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    output.append(buffer, static_cast<size_t>(got));
  }
  close(out[0]);
  if (timed_out) {
    stop_child(*pid);
    return Status::internal(argv[0] + " did not finish within " + std::to_string(timeout_ms) +
                            " ms");
  }
  int status = 0;
  while (waitpid(*pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return Status::internal(argv[0] + " failed (status " + std::to_string(status) + ")");
  }
  return output;
}

}  // namespace opbase::ai
