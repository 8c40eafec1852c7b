// `opbase restore --from FILE [--force]` (docs/operations.md#data-and-backups): puts the projects'
// stores and the default project's keys of a backup (app/backup_command.hpp) into storage.path,
// for a daemon started afterwards. In order, changing nothing until every check passed (but for
// making storage.path and its opbase.lock when missing):
//   1. storage.driver must be sqlite, FILE a file;
//   2. no daemon (nor admin command) may be using storage.path: the restore takes its lock
//      exclusive (app/storage_lock.hpp) and holds it to the end;
//   3. storage.path must hold no project file (backup/storage_files.hpp), unless --force;
//   4. the archive is read into a work folder inside storage.path, the manifest and each file's
//      size and SHA-256 checked, each file synced;
//   5. with --force, the project files there are renamed to "<name>.before-restore-<time>"
//      (never deleted); then the restored files are renamed into place and the folder synced.
// Run as root, the restored files get the owner of storage.path, so the daemon's user can open
// them. Thread-safety: run from the main thread, once.
#pragma once

#include <string>

#include "config/config.hpp"

namespace opbase::host {

struct RestoreArgs {
  std::string from;    // the backup file
  bool force = false;  // replace the project files already in storage.path, keeping them aside
};

// The whole command. Prints "restored <n> project(s) (<ids>) into <storage.path> from <FILE>
// (backup of <time> by opbase <version>): <bytes> bytes, <seconds> s", and with --force a line
// naming where the replaced files are, on standard output and returns 0; or prints
// "error: <message>" on standard error and returns 1.
int run_restore(const Config& config, const RestoreArgs& args);

}  // namespace opbase::host
