#include "process_cpu.hpp"

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <string>

namespace opbase::test {
namespace {

// Applies `mask` to every thread of `pid`; false if any could not be set.
bool set_every_thread(pid_t pid, const cpu_set_t& mask) {
  std::error_code error;
  bool all = true;
  for (const auto& task :
       std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task", error)) {
    const pid_t tid = static_cast<pid_t>(std::stol(task.path().filename().string()));
    // A thread may end between the listing and the call; that one needs no pin.
    if (sched_setaffinity(tid, sizeof mask, &mask) != 0 && errno != ESRCH) all = false;
  }
  return all && !error;
}

}  // namespace

CpuPin::CpuPin(pid_t pid) : pid_(pid) {
  if (sched_getaffinity(pid, sizeof original_, &original_) != 0) return;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &original_)) continue;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    pinned_ = set_every_thread(pid, one);
    return;
  }
}

CpuPin::~CpuPin() {
  if (pinned_) set_every_thread(pid_, original_);
}

int64_t cpu_time_ns(pid_t pid) {
  std::error_code error;
  int64_t total = 0;
  for (const auto& task :
       std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task", error)) {
    std::ifstream in(task.path() / "schedstat");
    int64_t on_cpu_ns = 0;
    if (in >> on_cpu_ns) total += on_cpu_ns;  // a thread that just ended reads as nothing
  }
  return error ? -1 : total;
}

}  // namespace opbase::test
