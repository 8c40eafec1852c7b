#include "local/local_folder.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <utility>

#include "opbase/crypto.hpp"
#include "opbase/hex.hpp"

namespace opbase::file {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kPartialFolder = ".partial";
// How much is written before the disk is asked to start writing it back.
constexpr int64_t kFlushStep = int64_t{8} << 20;

Status failed(std::string_view what, const std::string& path) {
  return Status::internal(std::string(what) + " " + path + ": " + std::strerror(errno));
}

// fsync of a folder, so an entry made or renamed in it survives a crash.
Status sync_folder(const std::string& folder) {
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return failed("cannot open folder", folder);
  const int synced = ::fsync(fd);
  ::close(fd);
  return synced == 0 ? Status::ok() : failed("cannot fsync folder", folder);
}

// Makes `folder` (and its parents), each new entry made durable in its parent.
Status make_folder(const fs::path& folder) {
  if (fs::is_directory(folder)) return Status::ok();
  if (Status parent = make_folder(folder.parent_path()); !parent) return parent;
  if (::mkdir(folder.c_str(), 0750) != 0 && errno != EEXIST) {
    return failed("cannot make folder", folder.string());
  }
  return sync_folder(folder.parent_path().string());
}

}  // namespace

Status LocalFolder::prepare() const {
  if (Status made = make_folder(root_); !made) return made;
  std::error_code error;
  for (const auto& project : fs::directory_iterator(root_, error)) {
    if (project.is_directory()) fs::remove_all(project.path() / kPartialFolder, error);
    if (error)
      return Status::internal("cannot clear " + project.path().string() + ": " + error.message());
  }
  if (error) return Status::internal("cannot read " + root_ + ": " + error.message());
  return Status::ok();
}

std::string LocalFolder::path_of(std::string_view project, std::string_view key) const {
  const std::string_view shard = key.size() >= 2 ? key.substr(key.size() - 2) : key;
  return root_ + "/" + std::string(project) + "/" + std::string(shard) + "/" + std::string(key);
}

Result<std::unique_ptr<LocalFolder::Partial>> LocalFolder::begin(std::string_view project,
                                                                 std::string_view key) const {
  const std::string final_path = path_of(project, key);
  const fs::path partial_folder = fs::path(root_) / std::string(project) / kPartialFolder;
  if (Status made = make_folder(partial_folder); !made) return made;
  if (Status made = make_folder(fs::path(final_path).parent_path()); !made) return made;
  const std::string temp_path =
      (partial_folder / (std::string(key) + "." + random_hex(8))).string();
  Sha256 digest;  // before the file: a digest that cannot start leaves nothing to clean up
  const int fd = ::open(temp_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0640);
  if (fd < 0) return failed("cannot create", temp_path);
  return std::unique_ptr<Partial>(new Partial(fd, temp_path, final_path, std::move(digest)));
}

Result<std::optional<int64_t>> LocalFolder::size_of(std::string_view project,
                                                    std::string_view key) const {
  const std::string path = path_of(project, key);
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return std::optional<int64_t>();
    return failed("cannot stat", path);
  }
  return std::optional<int64_t>(info.st_size);
}

Status LocalFolder::remove(std::string_view project, std::string_view key) const {
  const std::string path = path_of(project, key);
  if (::unlink(path.c_str()) != 0 && errno != ENOENT && errno != ENOTDIR) {
    return failed("cannot remove", path);
  }
  return Status::ok();
}

LocalFolder::Partial::Partial(int fd, std::string temp_path, std::string final_path, Sha256 digest)
    : fd_(fd),
      temp_path_(std::move(temp_path)),
      final_path_(std::move(final_path)),
      digest_(std::move(digest)) {}

LocalFolder::Partial::~Partial() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) ::unlink(temp_path_.c_str());
}

Status LocalFolder::Partial::write(std::string_view bytes) {
  try {
    digest_.add(bytes);
  } catch (const std::runtime_error&) {
    return Status::internal("SHA-256 failed");  // a Status: the route puts the nonce back
  }
  while (!bytes.empty()) {
    const ssize_t written = ::write(fd_, bytes.data(), bytes.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return failed("cannot write", temp_path_);
    bytes.remove_prefix(static_cast<size_t>(written));
    size_ += written;
  }
  if (size_ - flushed_ >= kFlushStep) {
    // Starts the writeback without waiting for it; a failure here only leaves more to fsync.
    (void)::sync_file_range(fd_, flushed_, size_ - flushed_, SYNC_FILE_RANGE_WRITE);
    flushed_ = size_;
  }
  return Status::ok();
}

std::string LocalFolder::Partial::sha256_hex() { return hex_encode(digest_.finish()); }

Status LocalFolder::Partial::commit() {
  if (::fsync(fd_) != 0) return failed("cannot fsync", temp_path_);
  ::close(fd_);
  fd_ = -1;
  if (::rename(temp_path_.c_str(), final_path_.c_str()) != 0) {
    return failed("cannot rename into place", final_path_);
  }
  committed_ = true;
  return sync_folder(fs::path(final_path_).parent_path().string());
}

}  // namespace opbase::file
