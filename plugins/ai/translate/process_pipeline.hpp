// One running Apertium pipeline: its programs started side by side, each reading the one
// before, the first reading what the engine sends and the last writing the answers back. A
// message is stream text (apertium_stream.hpp) ended by a NUL; every program flushes at each
// NUL (the modes are made with apertium-wblank-mode -z), so each message is answered at once and
// several can be in flight: exchange() writes and reads together, never waiting on a full pipe.
//
// Each message travels with a tag, a superblank "[n]" in front that Apertium copies untouched;
// an answer that does not start with its message's tag means the pipeline is out of step, and
// an exchange that fails in any way leaves the pipeline broken: its owner discards it. The
// destructor kills every program and collects it.
//
// Thread-safety: one thread uses it at a time (the pool lends it out); kill() may be called from
// another thread meanwhile.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "opbase/status.hpp"
#include "translate/mode_command.hpp"

namespace opbase::ai {

class ProcessPipeline {
 public:
  using Clock = std::chrono::steady_clock;

  // `stages` with argv[0] a path to an executable. `name` (e.g. "eng-cat") is for messages.
  static Result<std::unique_ptr<ProcessPipeline>> start(
      std::string name, const std::vector<Stage>& stages,
      const std::vector<std::string>& environment);
  ~ProcessPipeline();
  ProcessPipeline(const ProcessPipeline&) = delete;
  ProcessPipeline& operator=(const ProcessPipeline&) = delete;

  // The answer to each message, in order, all before `deadline`. Messages hold no NUL.
  // Failures: error_type "timeout", or "engine_failed" when a program ended or the answers came
  // out of step; either way the pipeline is broken afterwards.
  Result<std::vector<std::string>> exchange(const std::vector<std::string>& messages,
                                            Clock::time_point deadline);

  // False once broken or once any program has ended (which collects it).
  bool usable();

  const std::vector<pid_t>& pids() const { return pids_; }

  // Kills every program not yet collected, so that an exchange under way fails at once. The
  // programs are collected by the owner (usable(), a failed exchange, or the destructor).
  void kill();

 private:
  explicit ProcessPipeline(std::string name) : name_(std::move(name)) {}
  Status add_stage(const Stage& stage, int stdin_fd, bool last,
                   const std::vector<std::string>& environment, int* next_stdin);
  // Takes complete answers off `incoming_` into `answers`; false when one is out of step.
  bool take_answers(const std::vector<uint64_t>& tags, std::vector<std::string>* answers);
  Status broken(std::string what);
  Status timed_out();
  std::string ended_programs();

  std::string name_;
  std::vector<pid_t> pids_;
  std::vector<std::string> programs_;  // file names of the stages, for messages
  // A collected pid may be reused by an unrelated process, so kill() and the collecting agree
  // under this lock.
  std::mutex collect_mutex_;
  std::vector<bool> collected_;  // guarded by collect_mutex_
  int to_first_ = -1;            // our end of the first program's standard input (a socket)
  int from_last_ = -1;           // our end of the last program's standard output (a pipe)
  uint64_t next_tag_ = 0;
  std::string incoming_;
  bool broken_ = false;
};

}  // namespace opbase::ai
