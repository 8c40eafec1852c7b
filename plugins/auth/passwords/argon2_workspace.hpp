// The memory argon2 works in. Each run needs m_cost KiB (19 MiB by default). Allocated fresh,
// those pages fault in on every run (~4,900 faults, 5-15 ms of system time, and a time that
// varies from run to run and thread to thread), and 64 concurrent sign-ins would hold 1.2 GiB.
// So at most one run per core works at a time, each in a buffer kept from run to run.
// Thread-safety: any thread; a workspace belongs to the thread that made it.
#pragma once

#include <argon2.h>

#include <cstddef>

namespace opbase::auth {

class Argon2Workspace {
 public:
  // Buffers up to this size are kept; a run with a larger m_cost allocates and frees its own,
  // so an odd setting cannot pin gigabytes per core.
  static constexpr size_t kMostKeptBytes = size_t{64} << 20;

  // Waits until fewer runs than cores are working, then takes a buffer.
  Argon2Workspace();
  ~Argon2Workspace();
  Argon2Workspace(const Argon2Workspace&) = delete;
  Argon2Workspace& operator=(const Argon2Workspace&) = delete;

  // Points the context's allocator at this workspace. Call argon2_ctx on this thread, while the
  // workspace lives.
  void attach(argon2_context& context) const;

  struct Buffer;

 private:
  Buffer* buffer_;
};

}  // namespace opbase::auth
