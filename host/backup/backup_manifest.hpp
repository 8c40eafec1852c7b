// BackupManifest: what one backup file of the embedded store holds, written first in it as
// "manifest.json" (docs/operations.md#data-and-backups): the format version, the opbase that
// wrote it, when, the projects, and each file with its size and SHA-256, which a restore checks
// before it changes anything. A backup holds only plain file names: "<project>.db" and
// "default-project.properties". Pure values and functions: safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "opbase/status.hpp"

namespace opbase::host {

// The format this opbase writes and the newest it reads.
inline constexpr int kBackupFormatVersion = 1;
inline constexpr std::string_view kBackupFormatName = "opbase-backup";
inline constexpr std::string_view kManifestName = "manifest.json";
// The generated keys of the project "default" (projects.hpp).
inline constexpr std::string_view kDefaultKeysFileName = "default-project.properties";
// A manifest larger than this is not one: restore refuses it before reading it into memory.
inline constexpr int64_t kMaxManifestBytes = 1 << 20;

struct BackupFile {
  std::string name;    // "<project>.db" or "default-project.properties"
  uint64_t bytes = 0;  // its size
  std::string sha256;  // of its content, 64 lowercase hex digits
};

struct BackupManifest {
  int format_version = kBackupFormatVersion;
  std::string opbase_version;
  int64_t created_ms = 0;             // when the backup began, Unix milliseconds
  std::vector<std::string> projects;  // the ids of the "<id>.db" files, in their order
  std::vector<BackupFile> files;

  // The file of this name, or nullptr.
  const BackupFile* file(std::string_view name) const;
  // The manifest as JSON text, with "created" also in ISO 8601 for people who read it.
  std::string to_json() const;
};

// The project whose store file `name` is ("shop.db" → "shop"), or nullopt when `name` is not
// "<valid project id>.db".
std::optional<std::string> project_of_store_file(std::string_view name);
// A name a backup may hold: a project's store file or the default project's keys; never a path.
bool is_backup_file_name(std::string_view name);

// Reads and checks a manifest: the format name and a version this opbase reads, every file with
// a permitted name (once), a size and a SHA-256, "projects" naming exactly the store files, and
// at least one project. VALIDATION_ERROR naming what is wrong.
Result<BackupManifest> parse_backup_manifest(std::string_view text);

}  // namespace opbase::host
