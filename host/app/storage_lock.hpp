// StorageLock: who is using a storage.path, told by an flock(2) on <storage.path>/opbase.lock.
// A daemon, and `opbase admin create`, hold it shared from load() to stop() while they have the
// embedded store's files open; `opbase restore` holds it exclusive while it replaces them. So a
// restore refuses to run beside a daemon, and a daemon refuses to start during a restore. The
// file itself holds nothing and stays; the kernel drops the lock when its holder exits, however
// it exits. Thread-safety: take and release from one thread.
#pragma once

#include <memory>
#include <string>

#include "opbase/status.hpp"

namespace opbase::host {

inline constexpr const char* kStorageLockFileName = "opbase.lock";

class StorageLock {
 public:
  enum class Mode { kShared, kExclusive };

  // Creates the folder and its lock file when missing, then takes the lock without waiting.
  // VALIDATION_ERROR saying who holds it when another process holds it in a conflicting mode;
  // INTERNAL_ERROR when the file cannot be made, opened or locked.
  static Result<std::unique_ptr<StorageLock>> take(const std::string& folder, Mode mode);

  ~StorageLock();  // releases the lock
  StorageLock(const StorageLock&) = delete;
  StorageLock& operator=(const StorageLock&) = delete;

 private:
  explicit StorageLock(int fd) : fd_(fd) {}
  int fd_;
};

}  // namespace opbase::host
