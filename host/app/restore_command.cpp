// `opbase restore` (see restore_command.hpp).
#include "app/restore_command.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "app/storage_lock.hpp"
#include "backup/backup_archive.hpp"
#include "backup/backup_manifest.hpp"
#include "backup/storage_files.hpp"
#include "opbase/iso_time.hpp"
#include "util/clock.hpp"
#include "util/file_sync.hpp"
#include "util/work_folder.hpp"

namespace opbase::host {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kKeptAsidePrefix = ".before-restore-";

struct RestoreSummary {
  std::string folder;
  BackupManifest manifest;
  std::string kept_aside_suffix;  // empty when nothing was replaced
  size_t kept_aside = 0;
};

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

Status check_backup_file(const std::string& from) {
  std::error_code error;
  if (!fs::is_regular_file(from, error)) {
    return Status::validation("the backup " + from + " is not a readable file" +
                              (error ? ": " + error.message() : std::string()));
  }
  return Status::ok();
}

Status refuse_existing(const std::string& folder, const std::vector<std::string>& existing) {
  return Status::validation(
      "storage.path " + folder + " already holds project files (" + joined(existing) +
      "): restore into an empty storage.path, or add --force to keep those aside as "
      "<name>.before-restore-<time>");
}

// ".before-restore-20261122T080523Z", with "-2", "-3"... when a name it makes is taken.
std::string kept_aside_suffix(const std::string& folder, const std::vector<std::string>& names) {
  std::string time;
  for (char c : iso_time(system_now_ms()).substr(0, 19)) {
    if (c != '-' && c != ':') time += c;
  }
  const std::string base = std::string(kKeptAsidePrefix) + time + "Z";
  for (int n = 1;; ++n) {
    const std::string suffix = n == 1 ? base : base + "-" + std::to_string(n);
    bool free = true;
    for (const std::string& name : names) {
      std::error_code ignored;
      if (fs::exists(folder + "/" + kept_aside_name(name, suffix), ignored)) free = false;
    }
    if (free) return suffix;
  }
}

Status rename_file(const std::string& from, const std::string& to) {
  if (::rename(from.c_str(), to.c_str()) != 0) {
    return Status::internal("cannot rename " + from + " to " + to + ": " + std::strerror(errno));
  }
  return Status::ok();
}

// Run as root: the files take the owner of storage.path, whose user runs the daemon.
Status give_to_owner(const std::string& folder, const std::string& work,
                     const BackupManifest& manifest) {
  if (::geteuid() != 0) return Status::ok();
  struct stat owner {};
  if (::stat(folder.c_str(), &owner) != 0) {
    return Status::internal("cannot read the owner of " + folder + ": " + std::strerror(errno));
  }
  for (const BackupFile& file : manifest.files) {
    const std::string path = work + "/" + file.name;
    if (::chown(path.c_str(), owner.st_uid, owner.st_gid) != 0) {
      return Status::internal("cannot give " + path + " to the owner of " + folder + ": " +
                              std::strerror(errno));
    }
  }
  return Status::ok();
}

Result<RestoreSummary> restore(const Config& config, const RestoreArgs& args) {
  if (Status embedded = require_embedded_store(config, "restore"); !embedded) return embedded;
  if (Status readable = check_backup_file(args.from); !readable) return readable;
  RestoreSummary summary;
  summary.folder = storage_path_of(config);
  const std::string& folder = summary.folder;
  auto lock = StorageLock::take(folder, StorageLock::Mode::kExclusive);
  if (!lock) return lock.status();
  auto existing = project_files_in(folder);
  if (!existing) return existing.status();
  if (!existing->empty() && !args.force) return refuse_existing(folder, *existing);

  // Inside storage.path: the same file system, so the files rename into place.
  WorkFolder work(folder + "/.restore-XXXXXX");
  if (work.path().empty()) {
    return Status::internal("cannot make a work folder in " + folder + ": " + std::strerror(errno));
  }
  auto manifest = extract_backup_archive(args.from, work.path());
  if (!manifest) return manifest.status();
  if (Status given = give_to_owner(folder, work.path(), *manifest); !given) return given;

  // From here on a failure (of a rename in one folder: rare) leaves storage.path half done; the
  // message says so, and where the replaced files are.
  std::string kept_note;
  if (!existing->empty()) {
    summary.kept_aside_suffix = kept_aside_suffix(folder, *existing);
    kept_note = "; the files it replaced so far are kept as <name>" + summary.kept_aside_suffix;
    for (const std::string& name : *existing) {
      Status kept = rename_file(folder + "/" + name,
                                folder + "/" + kept_aside_name(name, summary.kept_aside_suffix));
      if (!kept) return Status::internal(kept.message() + kept_note);
      ++summary.kept_aside;
    }
  }
  size_t placed_files = 0;
  for (const BackupFile& file : manifest->files) {
    Status placed = rename_file(work.path() + "/" + file.name, folder + "/" + file.name);
    if (!placed) {
      return Status::internal(
          placed.message() + ": storage.path holds " + std::to_string(placed_files) + " of the " +
          std::to_string(manifest->files.size()) + " restored files" + kept_note);
    }
    ++placed_files;
  }
  if (Status synced = fsync_folder(folder); !synced) return synced;
  summary.manifest = std::move(*manifest);
  return summary;
}

}  // namespace

int run_restore(const Config& config, const RestoreArgs& args) {
  const auto started = std::chrono::steady_clock::now();
  Result<RestoreSummary> done = restore(config, args);
  if (!done) {
    std::fprintf(stderr, "error: %s\n", done.status().message().c_str());
    return 1;
  }
  const BackupManifest& manifest = done->manifest;
  uint64_t bytes = 0;
  for (const BackupFile& file : manifest.files) bytes += file.bytes;
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
  std::printf(
      "restored %zu project(s) (%s) into %s from %s (backup of %s by opbase %s): %llu bytes, "
      "%.2f s\n",
      manifest.projects.size(), joined(manifest.projects).c_str(), done->folder.c_str(),
      args.from.c_str(), iso_time(manifest.created_ms).c_str(),
      manifest.opbase_version.empty() ? "?" : manifest.opbase_version.c_str(),
      static_cast<unsigned long long>(bytes), took.count());
  if (done->kept_aside > 0) {
    std::printf("kept the %zu file(s) it replaced as <name>%s\n", done->kept_aside,
                done->kept_aside_suffix.c_str());
  }
  std::fflush(stdout);
  return 0;
}

}  // namespace opbase::host
