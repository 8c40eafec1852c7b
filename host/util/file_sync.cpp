// fsync of files and folders (see file_sync.hpp).
#include "util/file_sync.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace opbase::host {
namespace {

Status fsync_path(const std::string& path, int flags, const char* what) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) {
    return Status::internal(std::string("cannot open ") + what + " " + path +
                            " to sync it: " + std::strerror(errno));
  }
  const int synced = ::fsync(fd);
  const int error = errno;
  ::close(fd);
  if (synced != 0) {
    return Status::internal(std::string("cannot sync ") + what + " " + path + ": " +
                            std::strerror(error));
  }
  return Status::ok();
}

}  // namespace

Status fsync_file(const std::string& path) { return fsync_path(path, O_RDONLY, "file"); }

Status fsync_folder(const std::string& path) {
  return fsync_path(path, O_RDONLY | O_DIRECTORY, "folder");
}

}  // namespace opbase::host
