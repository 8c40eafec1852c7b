// The flock on <storage.path>/opbase.lock (see storage_lock.hpp).
#include "app/storage_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace opbase::host {

Result<std::unique_ptr<StorageLock>> StorageLock::take(const std::string& folder, Mode mode) {
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) {
    return Status::internal("cannot create storage.path " + folder + ": " + error.message());
  }
  const std::string path = folder + "/" + kStorageLockFileName;
  // Read-only is enough for flock, and works on a lock file another user made.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) return Status::internal("cannot open " + path + ": " + std::strerror(errno));
  std::unique_ptr<StorageLock> lock(new StorageLock(fd));
  int rc = 0;
  do {
    rc = ::flock(fd, (mode == Mode::kShared ? LOCK_SH : LOCK_EX) | LOCK_NB);
  } while (rc != 0 && errno == EINTR);
  if (rc == 0) return lock;
  if (errno != EWOULDBLOCK) {
    return Status::internal("cannot lock " + path + ": " + std::strerror(errno));
  }
  if (mode == Mode::kShared) {
    return Status::validation("storage.path " + folder +
                              " is being restored (opbase restore holds " + path +
                              "): start opbase once the restore has finished");
  }
  return Status::validation("opbase is running on storage.path " + folder +
                            " (a daemon or an admin command holds " + path +
                            "): stop it before the restore");
}

StorageLock::~StorageLock() { ::close(fd_); }

}  // namespace opbase::host
