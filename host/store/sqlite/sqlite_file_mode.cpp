// The store's files made mode 0600 (see sqlite_file_mode.hpp).
#include "store/sqlite/sqlite_file_mode.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace opbase::host::sqlite {
namespace {

constexpr mode_t kPrivate = 0600;

Status mode_error(const char* what, const std::string& path, int error) {
  return Status::internal(std::string("sqlite: cannot ") + what + " " + path + ": " +
                          std::strerror(error));
}

// fchmod, not the mode given to open: the umask only ever takes bits away, and an existing file
// keeps the mode it had.
Status make_private(int fd, const std::string& path) {
  struct stat info {};
  if (::fstat(fd, &info) != 0) return mode_error("read the mode of", path, errno);
  if ((info.st_mode & 07777) == kPrivate) return Status::ok();
  if (::fchmod(fd, kPrivate) != 0) return mode_error("make private", path, errno);
  return Status::ok();
}

// Opens `path` (creating it when `create`) and makes it private; a missing companion is fine.
Status private_file(const std::string& path, bool create) {
  const int flags = O_RDONLY | O_CLOEXEC | (create ? O_CREAT : 0);
  const int fd = ::open(path.c_str(), flags, kPrivate);
  if (fd < 0) {
    if (!create && errno == ENOENT) return Status::ok();
    return mode_error(create ? "create" : "open", path, errno);
  }
  Status status = make_private(fd, path);
  ::close(fd);
  return status;
}

}  // namespace

Status keep_store_files_private(const std::string& path) {
  Status first = private_file(path, /*create=*/true);
  for (const char* companion : {"-wal", "-shm"}) {
    Status s = private_file(path + companion, /*create=*/false);
    if (first.is_ok()) first = std::move(s);
  }
  return first;
}

}  // namespace opbase::host::sqlite
