// `opbase backup` (see backup_command.hpp).
#include "app/backup_command.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "backup/backup_archive.hpp"
#include "backup/backup_manifest.hpp"
#include "backup/storage_files.hpp"
#include "opbase/version.hpp"
#include "store/sqlite/sqlite_snapshot.hpp"
#include "util/clock.hpp"
#include "util/file_sync.hpp"
#include "util/work_folder.hpp"

namespace opbase::host {
namespace {

namespace fs = std::filesystem;

struct BackupSummary {
  std::string to;
  std::vector<std::string> projects;
  uint64_t data_bytes = 0;
  uint64_t file_bytes = 0;
};

Status check_storage_path(const std::string& folder) {
  std::error_code error;
  if (!fs::is_directory(folder, error)) {
    return Status::validation("storage.path " + folder +
                              " is not a folder: give the daemon's configuration (--config, "
                              "--set storage.path=...)");
  }
  return Status::ok();
}

// The copies of the projects' stores and of the keys into `work`, and their manifest.
Result<BackupManifest> copy_storage(const std::string& folder, const std::string& work) {
  auto stores = store_files_in(folder);
  if (!stores) return stores.status();
  if (stores->empty()) {
    return Status::validation("storage.path " + folder +
                              " holds no project store (<project>.db): is it the daemon's "
                              "storage.path?");
  }
  BackupManifest manifest;
  manifest.opbase_version = OPBASE_VERSION;
  manifest.created_ms = system_now_ms();
  std::vector<std::string> names;
  for (const std::string& name : *stores) {
    Status copied = sqlite::snapshot_database(folder + "/" + name, work + "/" + name);
    if (!copied) return copied;
    manifest.projects.push_back(*project_of_store_file(name));
    names.push_back(name);
  }
  const std::string keys = folder + "/" + std::string(kDefaultKeysFileName);
  std::error_code error;
  if (fs::exists(keys, error)) {
    fs::copy_file(keys, work + "/" + std::string(kDefaultKeysFileName), error);
    if (error) return Status::internal("cannot copy " + keys + ": " + error.message());
    names.emplace_back(kDefaultKeysFileName);
  }
  for (const std::string& name : names) {
    auto file = describe_backup_file(work, name);
    if (!file) return file.status();
    manifest.files.push_back(std::move(*file));
  }
  return manifest;
}

// The archive, written into `work` and synced, then renamed onto `to`.
Result<uint64_t> write_archive(const BackupManifest& manifest, const std::string& work,
                               const std::string& to, const std::string& to_folder) {
  const std::string partial = work + "/backup.partial";
  const int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return Status::internal("cannot create " + partial + ": " + std::strerror(errno));
  Status written = write_backup_archive(fd, manifest, work);
  if (written && ::fsync(fd) != 0) {
    written = Status::internal("cannot sync " + partial + ": " + std::strerror(errno));
  }
  struct stat st {};
  if (written && ::fstat(fd, &st) != 0) {
    written = Status::internal("cannot read the size of " + partial + ": " + std::strerror(errno));
  }
  if (::close(fd) != 0 && written) {
    written = Status::internal("cannot write " + partial + ": " + std::strerror(errno));
  }
  if (!written) return written;
  if (::rename(partial.c_str(), to.c_str()) != 0) {
    return Status::internal("cannot rename " + partial + " to " + to + ": " + std::strerror(errno));
  }
  if (Status synced = fsync_folder(to_folder); !synced) return synced;
  return static_cast<uint64_t>(st.st_size);
}

Result<BackupSummary> back_up(const Config& config, const std::string& to) {
  if (Status embedded = require_embedded_store(config, "backup"); !embedded) return embedded;
  const std::string folder = storage_path_of(config);
  if (Status checked = check_storage_path(folder); !checked) return checked;

  const fs::path target(to);
  std::error_code error;
  if (fs::is_directory(target, error)) {
    return Status::validation("--to " + to + " is a folder; give the backup file's name");
  }
  const std::string to_folder =
      target.parent_path().empty() ? std::string(".") : target.parent_path().string();
  // Beside FILE: the same file system, so the archive renames onto it.
  WorkFolder work(to_folder + "/." + target.filename().string() + ".tmp-XXXXXX");
  if (work.path().empty()) {
    return Status::internal("cannot make a work folder in " + to_folder + ": " +
                            std::strerror(errno));
  }
  auto manifest = copy_storage(folder, work.path());
  if (!manifest) return manifest.status();
  auto file_bytes = write_archive(*manifest, work.path(), to, to_folder);
  if (!file_bytes) return file_bytes.status();

  BackupSummary summary{to, manifest->projects, 0, *file_bytes};
  for (const BackupFile& file : manifest->files) summary.data_bytes += file.bytes;
  return summary;
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

}  // namespace

int run_backup(const Config& config, const BackupArgs& args) {
  const auto started = std::chrono::steady_clock::now();
  Result<BackupSummary> done = back_up(config, args.to);
  if (!done) {
    std::fprintf(stderr, "error: %s\n", done.status().message().c_str());
    return 1;
  }
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
  std::printf(
      "backed up %zu project(s) (%s) to %s: %llu bytes of data, %llu bytes written, %.2f s\n",
      done->projects.size(), joined(done->projects).c_str(), done->to.c_str(),
      static_cast<unsigned long long>(done->data_bytes),
      static_cast<unsigned long long>(done->file_bytes), took.count());
  std::fflush(stdout);
  return 0;
}

}  // namespace opbase::host
