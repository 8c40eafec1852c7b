#include "translate/process_pipeline.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "translate/child_process.hpp"
#include "translate/translate_errors.hpp"

namespace opbase::ai {

namespace {

constexpr size_t kReadChunk = 64 * 1024;

int remaining_ms(ProcessPipeline::Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - ProcessPipeline::Clock::now());
  return left.count() <= 0 ? 0 : static_cast<int>(left.count());
}

std::string file_name(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

void close_if_open(int* fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

bool set_non_blocking(int fd) {
  const int flags = fcntl(fd, F_GETFL);
  return flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0;
}

std::string tag_text(uint64_t tag) { return "[" + std::to_string(tag) + "]"; }

}  // namespace

Result<std::unique_ptr<ProcessPipeline>> ProcessPipeline::start(
    std::string name, const std::vector<Stage>& stages,
    const std::vector<std::string>& environment) {
  std::unique_ptr<ProcessPipeline> pipeline(new ProcessPipeline(std::move(name)));
  if (stages.empty()) return Status::internal("no program in the pipeline " + pipeline->name_);
  // A socket for the first program's input: send() with MSG_NOSIGNAL then reports a reader that
  // has gone as an error instead of raising SIGPIPE in the host.
  int input[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, input) != 0) {
    return translation_failure("engine_failed", "socketpair: " + std::string(strerror(errno)),
                               true);
  }
  pipeline->to_first_ = above_standard_streams(input[0]);
  int stdin_fd = above_standard_streams(input[1]);
  for (size_t i = 0; i < stages.size(); ++i) {
    int next_stdin = -1;
    const Status added =
        pipeline->add_stage(stages[i], stdin_fd, i + 1 == stages.size(), environment, &next_stdin);
    close(stdin_fd);
    if (!added.is_ok()) return added;  // the destructor stops the programs already started
    stdin_fd = next_stdin;
  }
  if (!set_non_blocking(pipeline->to_first_) || !set_non_blocking(pipeline->from_last_)) {
    return translation_failure("engine_failed", "cannot set up the pipes of " + pipeline->name_,
                               true);
  }
  return pipeline;
}

Status ProcessPipeline::add_stage(const Stage& stage, int stdin_fd, bool last,
                                  const std::vector<std::string>& environment, int* next_stdin) {
  int output[2];
  if (stdin_fd < 0 || pipe2(output, O_CLOEXEC) != 0) {
    return translation_failure("engine_failed", "pipe: " + std::string(strerror(errno)), true);
  }
  const int read_end = above_standard_streams(output[0]);
  const int write_end = above_standard_streams(output[1]);
  Result<pid_t> pid = spawn_child(stage, stdin_fd, write_end, environment);
  close(write_end);
  if (last) {
    from_last_ = read_end;
  } else {
    *next_stdin = read_end;
  }
  if (!pid) {
    if (!last) close(read_end);
    *next_stdin = -1;
    return translation_failure("engine_failed", pid.status().message(), true);
  }
  std::lock_guard<std::mutex> lock(collect_mutex_);
  pids_.push_back(*pid);
  programs_.push_back(file_name(stage[0]));
  collected_.push_back(false);
  return Status::ok();
}

ProcessPipeline::~ProcessPipeline() {
  close_if_open(&to_first_);
  close_if_open(&from_last_);
  std::lock_guard<std::mutex> lock(collect_mutex_);
  for (size_t i = 0; i < pids_.size(); ++i) {
    if (!collected_[i]) stop_child(pids_[i]);
  }
}

void ProcessPipeline::kill() {
  std::lock_guard<std::mutex> lock(collect_mutex_);
  for (size_t i = 0; i < pids_.size(); ++i) {
    if (!collected_[i]) ::kill(pids_[i], SIGKILL);
  }
}

bool ProcessPipeline::usable() {
  if (broken_) return false;
  std::lock_guard<std::mutex> lock(collect_mutex_);
  for (size_t i = 0; i < pids_.size(); ++i) {
    if (!collected_[i] && child_ended(pids_[i])) {
      collected_[i] = true;
      broken_ = true;
    }
  }
  return !broken_;
}

std::string ProcessPipeline::ended_programs() {
  std::lock_guard<std::mutex> lock(collect_mutex_);
  std::string ended;
  for (size_t i = 0; i < pids_.size(); ++i) {
    std::string how;
    if (collected_[i] || !child_ended(pids_[i], &how)) continue;
    collected_[i] = true;
    if (!ended.empty()) ended += ", ";
    ended += programs_[i] + " (program " + std::to_string(i + 1) + " of " +
             std::to_string(pids_.size()) + ", " + how + ")";
  }
  return ended;
}

Status ProcessPipeline::broken(std::string what) {
  broken_ = true;
  const std::string ended = ended_programs();
  if (!ended.empty()) what += "; ended: " + ended;
  return translation_failure("engine_failed", "the Apertium pipeline " + name_ + " " + what, true);
}

Status ProcessPipeline::timed_out() {
  broken_ = true;
  return translation_failure(
      "timeout", "the Apertium pipeline " + name_ + " did not answer before the deadline", true);
}

bool ProcessPipeline::take_answers(const std::vector<uint64_t>& tags,
                                   std::vector<std::string>* answers) {
  size_t start = 0;
  for (;;) {
    const size_t end = incoming_.find('\0', start);
    if (end == std::string::npos) break;
    if (answers->size() == tags.size()) return false;  // more answers than messages
    const std::string tag = tag_text(tags[answers->size()]);
    if (incoming_.compare(start, tag.size(), tag) != 0 || end - start < tag.size()) return false;
    answers->push_back(incoming_.substr(start + tag.size(), end - start - tag.size()));
    start = end + 1;
  }
  incoming_.erase(0, start);
  return true;
}

Result<std::vector<std::string>> ProcessPipeline::exchange(const std::vector<std::string>& messages,
                                                           Clock::time_point deadline) {
  if (broken_) return broken("was already broken");
  std::string outgoing;
  std::vector<uint64_t> tags;
  for (const std::string& message : messages) {
    if (message.find('\0') != std::string::npos) return broken("was given a NUL in a message");
    tags.push_back(next_tag_++);
    // The trailing superblank gives the last word a blank after it, which the analyser needs
    // before it lets go of a word.
    outgoing += tag_text(tags.back()) + message + "[]";
    outgoing.push_back('\0');
  }
  const size_t most_expected = 64 * 1024 + 16 * outgoing.size();
  size_t written = 0;
  std::vector<std::string> answers;
  std::string buffer(kReadChunk, '\0');
  while (answers.size() < messages.size()) {
    pollfd ends[2] = {{from_last_, POLLIN, 0}, {to_first_, POLLOUT, 0}};
    const nfds_t watched = written < outgoing.size() ? 2 : 1;
    const int wait_ms = remaining_ms(deadline);
    if (wait_ms == 0) return timed_out();
    const int ready = poll(ends, watched, wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) return broken("could not be polled: " + std::string(strerror(errno)));
    if (ready == 0) return timed_out();
    if (watched == 2 && (ends[1].revents & (POLLERR | POLLHUP)) != 0) {
      return broken("stopped reading");
    }
    if (watched == 2 && (ends[1].revents & POLLOUT) != 0) {
      const ssize_t sent = send(to_first_, outgoing.data() + written, outgoing.size() - written,
                                MSG_NOSIGNAL | MSG_DONTWAIT);
      if (sent < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
        return broken("stopped reading: " + std::string(strerror(errno)));
      }
      if (sent > 0) written += static_cast<size_t>(sent);
    }
    if ((ends[0].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
      const ssize_t got = read(from_last_, buffer.data(), buffer.size());
      if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) continue;
      if (got <= 0) return broken("ended before answering");
      incoming_.append(buffer.data(), static_cast<size_t>(got));
      if (!take_answers(tags, &answers)) return broken("answered out of step");
      if (incoming_.size() > most_expected) return broken("wrote far more than it was sent");
    }
  }
  if (!incoming_.empty()) return broken("answered out of step");
  return answers;
}

}  // namespace opbase::ai
