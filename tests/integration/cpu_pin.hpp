// Pins every thread of a process to one CPU for as long as the guard lives, then gives back the
// CPUs it had. For tests that compare the times of two requests: the cores of a virtual machine
// need not be equally fast (on the CI machine one core runs argon2 ~20 % slower than the other,
// steadily), and a thread that stays on its core would turn that into a false difference.
#pragma once

#include <sched.h>
#include <sys/types.h>

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

}  // namespace opbase::test
