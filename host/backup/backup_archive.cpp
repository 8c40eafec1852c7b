// Writing and reading the backup archive (see backup_archive.hpp).
#include "backup/backup_archive.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <set>
#include <vector>

#include "opbase/crypto.hpp"
#include "opbase/hex.hpp"

namespace opbase::host {
namespace {

constexpr size_t kChunkBytes = 1 << 20;

// A file descriptor closed when it goes out of scope.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  // Closes now, answering close's result (a delayed write error shows here).
  int close() {
    const int r = ::close(fd_);
    fd_ = -1;
    return r;
  }

 private:
  int fd_;
};

using Archive = std::unique_ptr<struct archive, int (*)(struct archive*)>;
using Entry = std::unique_ptr<struct archive_entry, void (*)(struct archive_entry*)>;

std::string errno_text() { return std::strerror(errno); }

std::string archive_text(struct archive* a) {
  const char* text = archive_error_string(a);
  return text != nullptr ? text : "unknown error";
}

// Writes all of `size` bytes, or fails naming the file.
Status write_all(int fd, const char* data, size_t size, const std::string& path) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Status::internal("cannot write " + path + ": " + errno_text());
    data += n;
    size -= static_cast<size_t>(n);
  }
  return Status::ok();
}

Entry file_entry(const std::string& name, uint64_t bytes, int64_t mtime_s) {
  Entry entry(archive_entry_new(), &archive_entry_free);
  archive_entry_set_pathname(entry.get(), name.c_str());
  archive_entry_set_filetype(entry.get(), AE_IFREG);
  archive_entry_set_perm(entry.get(), 0600);
  archive_entry_set_size(entry.get(), static_cast<la_int64_t>(bytes));
  archive_entry_set_mtime(entry.get(), mtime_s, 0);
  return entry;
}

Status write_entry_data(struct archive* a, const char* data, size_t size, const std::string& name) {
  while (size > 0) {
    const la_ssize_t n = archive_write_data(a, data, size);
    if (n <= 0)
      return Status::internal("cannot write " + name + " into the backup: " + archive_text(a));
    data += n;
    size -= static_cast<size_t>(n);
  }
  return Status::ok();
}

// Copies `<folder>/<file.name>` into the archive; it must still be the size the manifest says.
Status write_file_entry(struct archive* a, const BackupFile& file, const std::string& folder,
                        int64_t mtime_s) {
  const std::string path = folder + "/" + file.name;
  Fd in(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (in.get() < 0) return Status::internal("cannot open " + path + ": " + errno_text());
  Entry entry = file_entry(file.name, file.bytes, mtime_s);
  if (archive_write_header(a, entry.get()) != ARCHIVE_OK) {
    return Status::internal("cannot write " + file.name + " into the backup: " + archive_text(a));
  }
  std::vector<char> buffer(kChunkBytes);
  uint64_t copied = 0;
  while (true) {
    const ssize_t n = ::read(in.get(), buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Status::internal("cannot read " + path + ": " + errno_text());
    if (n == 0) break;
    copied += static_cast<uint64_t>(n);
    if (copied > file.bytes) break;
    if (Status s = write_entry_data(a, buffer.data(), static_cast<size_t>(n), file.name); !s) {
      return s;
    }
  }
  if (copied != file.bytes) {
    return Status::internal(path + " changed size while it was being archived");
  }
  return Status::ok();
}

Status bad_backup(const std::string& archive_path, const std::string& why) {
  return Status::validation(archive_path + " is not a whole opbase backup: " + why);
}

// Reads the current entry's data (at most `limit` bytes) into memory.
Result<std::string> read_small_entry(struct archive* a, int64_t limit,
                                     const std::string& archive_path) {
  std::string text;
  std::vector<char> buffer(64 * 1024);
  while (true) {
    const la_ssize_t n = archive_read_data(a, buffer.data(), buffer.size());
    if (n < 0) return bad_backup(archive_path, archive_text(a));
    if (n == 0) break;
    text.append(buffer.data(), static_cast<size_t>(n));
    if (static_cast<int64_t>(text.size()) > limit) {
      return bad_backup(archive_path, std::string(kManifestName) + " is too large");
    }
  }
  return text;
}

// The next entry's header; nullptr at the end of the archive.
Result<struct archive_entry*> next_entry(struct archive* a, const std::string& archive_path) {
  struct archive_entry* entry = nullptr;
  const int rc = archive_read_next_header(a, &entry);
  if (rc == ARCHIVE_EOF) return static_cast<struct archive_entry*>(nullptr);
  if (rc != ARCHIVE_OK) return bad_backup(archive_path, archive_text(a));
  return entry;
}

// The entry must be a plain file named `name` (checked by the caller) of a known size.
Status check_plain_file(struct archive_entry* entry, const std::string& name,
                        const std::string& archive_path) {
  if (archive_entry_filetype(entry) != AE_IFREG || archive_entry_hardlink(entry) != nullptr ||
      archive_entry_symlink(entry) != nullptr) {
    return bad_backup(archive_path, "its entry " + name + " is not a plain file");
  }
  if (!archive_entry_size_is_set(entry) || archive_entry_size(entry) < 0) {
    return bad_backup(archive_path, "its entry " + name + " has no size");
  }
  return Status::ok();
}

// Extracts the current entry to `<folder>/<file.name>`, checking its size and SHA-256.
Status extract_file(struct archive* a, const BackupFile& file, const std::string& folder,
                    const std::string& archive_path) {
  const std::string path = folder + "/" + file.name;
  Fd out(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
  if (out.get() < 0) return Status::internal("cannot create " + path + ": " + errno_text());
  Sha256 sha;
  uint64_t size = 0;
  std::vector<char> buffer(kChunkBytes);
  while (true) {
    const la_ssize_t n = archive_read_data(a, buffer.data(), buffer.size());
    if (n < 0) return bad_backup(archive_path, "reading " + file.name + ": " + archive_text(a));
    if (n == 0) break;
    size += static_cast<uint64_t>(n);
    if (size > file.bytes) break;
    sha.add({buffer.data(), static_cast<size_t>(n)});
    if (Status s = write_all(out.get(), buffer.data(), static_cast<size_t>(n), path); !s) return s;
  }
  if (size != file.bytes) {
    return bad_backup(archive_path, file.name + " is not the " + std::to_string(file.bytes) +
                                        " bytes its manifest gives");
  }
  if (const std::string digest = hex_encode(sha.finish()); digest != file.sha256) {
    return bad_backup(archive_path, file.name + " has SHA-256 " + digest + ", not the manifest's " +
                                        file.sha256 + ": it is damaged");
  }
  if (::fsync(out.get()) != 0) return Status::internal("cannot sync " + path + ": " + errno_text());
  if (out.close() != 0) return Status::internal("cannot write " + path + ": " + errno_text());
  return Status::ok();
}

}  // namespace

Result<BackupFile> describe_backup_file(const std::string& folder, const std::string& name) {
  const std::string path = folder + "/" + name;
  Fd in(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (in.get() < 0) return Status::internal("cannot open " + path + ": " + errno_text());
  Sha256 sha;
  BackupFile file{name, 0, ""};
  std::vector<char> buffer(kChunkBytes);
  while (true) {
    const ssize_t n = ::read(in.get(), buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Status::internal("cannot read " + path + ": " + errno_text());
    if (n == 0) break;
    sha.add({buffer.data(), static_cast<size_t>(n)});
    file.bytes += static_cast<uint64_t>(n);
  }
  file.sha256 = hex_encode(sha.finish());
  return file;
}

Status write_backup_archive(int fd, const BackupManifest& manifest, const std::string& folder) {
  Archive a(archive_write_new(), &archive_write_free);
  if (!a) return Status::internal("libarchive: out of memory");
  if (archive_write_add_filter_zstd(a.get()) < ARCHIVE_WARN ||
      archive_write_set_format_pax_restricted(a.get()) != ARCHIVE_OK ||
      archive_write_open_fd(a.get(), fd) != ARCHIVE_OK) {
    return Status::internal("cannot start the backup archive: " + archive_text(a.get()));
  }
  const int64_t mtime_s = manifest.created_ms / 1000;
  const std::string text = manifest.to_json();
  Entry entry = file_entry(std::string(kManifestName), text.size(), mtime_s);
  if (archive_write_header(a.get(), entry.get()) != ARCHIVE_OK) {
    return Status::internal("cannot write the manifest into the backup: " + archive_text(a.get()));
  }
  if (Status s = write_entry_data(a.get(), text.data(), text.size(), std::string(kManifestName));
      !s) {
    return s;
  }
  for (const BackupFile& file : manifest.files) {
    if (Status s = write_file_entry(a.get(), file, folder, mtime_s); !s) return s;
  }
  if (archive_write_close(a.get()) != ARCHIVE_OK) {
    return Status::internal("cannot finish the backup archive: " + archive_text(a.get()));
  }
  return Status::ok();
}

Result<BackupManifest> extract_backup_archive(const std::string& archive_path,
                                              const std::string& folder) {
  Fd in(::open(archive_path.c_str(), O_RDONLY | O_CLOEXEC));
  if (in.get() < 0) {
    return Status::validation("cannot open the backup " + archive_path + ": " + errno_text());
  }
  Archive a(archive_read_new(), &archive_read_free);
  if (!a) return Status::internal("libarchive: out of memory");
  // Only what opbase writes: tar, compressed with zstd (or, decompressed by hand, plain).
  archive_read_support_filter_zstd(a.get());
  archive_read_support_format_tar(a.get());
  if (archive_read_open_fd(a.get(), in.get(), 64 * 1024) != ARCHIVE_OK) {
    return bad_backup(archive_path, archive_text(a.get()));
  }

  Result<struct archive_entry*> first = next_entry(a.get(), archive_path);
  if (!first) return first.status();
  if (*first == nullptr || archive_entry_pathname(*first) == nullptr ||
      archive_entry_pathname(*first) != kManifestName) {
    return bad_backup(archive_path, "it does not begin with " + std::string(kManifestName));
  }
  if (Status s = check_plain_file(*first, std::string(kManifestName), archive_path); !s) return s;
  Result<std::string> text = read_small_entry(a.get(), kMaxManifestBytes, archive_path);
  if (!text) return text.status();
  Result<BackupManifest> manifest = parse_backup_manifest(*text);
  if (!manifest) return bad_backup(archive_path, manifest.status().message());

  std::set<std::string> extracted;
  while (true) {
    Result<struct archive_entry*> entry = next_entry(a.get(), archive_path);
    if (!entry) return entry.status();
    if (*entry == nullptr) break;
    const char* raw_name = archive_entry_pathname(*entry);
    const std::string name = raw_name != nullptr ? raw_name : "";
    const BackupFile* file = manifest->file(name);
    if (file == nullptr) {
      return bad_backup(archive_path, "it holds '" + name + "', which its manifest does not list");
    }
    if (!extracted.insert(name).second) {
      return bad_backup(archive_path, "it holds " + name + " twice");
    }
    if (Status s = check_plain_file(*entry, name, archive_path); !s) return s;
    if (Status s = extract_file(a.get(), *file, folder, archive_path); !s) return s;
  }
  for (const BackupFile& file : manifest->files) {
    if (!extracted.count(file.name)) {
      return bad_backup(archive_path, file.name + " is missing (the file may be cut short)");
    }
  }
  return manifest;
}

}  // namespace opbase::host
