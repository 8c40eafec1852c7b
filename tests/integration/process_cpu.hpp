// The CPU of another process, for tests that compare how much work two requests cost it:
//  - CpuPin pins every thread of the process to one CPU while it lives. The cores of a virtual
//    machine need not be equally fast (on the CI machine one core runs argon2 ~20 % slower than
//    the other, steadily), and a thread that stays on its core would turn that into a false
//    difference.
//  - cpu_time_ns is the CPU time all its threads have used. Unlike a request's wall time it does
//    not grow while other processes (a parallel build, other tests) hold the CPU.
#pragma once

#include <sched.h>
#include <sys/types.h>

#include <cstdint>

namespace opbase::test {

class CpuPin {
 public:
  // Pins the threads `pid` has now; threads they start later inherit the pin.
  explicit CpuPin(pid_t pid);
  ~CpuPin();
  CpuPin(const CpuPin&) = delete;
  CpuPin& operator=(const CpuPin&) = delete;

  bool pinned() const { return pinned_; }

 private:
  pid_t pid_;
  cpu_set_t original_{};
  bool pinned_ = false;
};

// Nanoseconds of CPU the threads of `pid` have run so far (/proc/<pid>/task/*/schedstat), or
// -1 when they cannot be read. Threads that ended are no longer counted.
int64_t cpu_time_ns(pid_t pid);

}  // namespace opbase::test
