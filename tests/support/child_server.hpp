// ChildServer: a helper server the tests run in a child process (the Python servers of this
// folder: smtp_sink.py, mock_mongod.py, webhook_receiver.py). The child writes "PORT <n>" as
// its first line on stdout and stops when its stdin closes; the destructor closes it and waits,
// killing the child after the grace.
//
//   ChildServer sink({"/usr/bin/python3", script, "--dir", dir});
//   if (sink.port() <= 0) GTEST_SKIP() << "the sink did not start";
//
// Thread-safety: one owner.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace opbase::test {

// Debian's interpreter: the one with python3-aiosmtpd and python3-mockupdb (the python3 first on
// PATH may be another).
inline constexpr const char* kSystemPython = "/usr/bin/python3";

class ChildServer {
 public:
  // Starts args[0] with args, waiting at most 20 s for the PORT line.
  explicit ChildServer(const std::vector<std::string>& args,
                       std::chrono::seconds grace = std::chrono::seconds(10));
  ~ChildServer();
  ChildServer(const ChildServer&) = delete;
  ChildServer& operator=(const ChildServer&) = delete;

  // The port it listens on; 0 when it did not start.
  int port() const { return port_; }

 private:
  void read_port();

  std::chrono::seconds grace_;
  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  int stdout_fd_ = -1;
  int port_ = 0;
};

// Runs a command with its output discarded, for at most `limit`; true when it exited with 0.
bool run_command(const std::vector<std::string>& args, std::chrono::seconds limit);

// Runs args (args[0] looked up on PATH) with standard output and error into `output_file`, for at
// most `limit`; its exit code, or -1 when it could not start, was killed or ran too long.
int run_to_file(const std::vector<std::string>& args, const std::string& output_file,
                std::chrono::seconds limit);

}  // namespace opbase::test
