// `opbase backup --to FILE` (docs/operations.md#data-and-backups): one file holding a consistent
// copy of every project's embedded store and the default project's generated keys, taken while
// the daemon runs. Each "<project>.db" under storage.path is copied with SQLite's online backup
// (store/sqlite/sqlite_snapshot.hpp), into a folder beside FILE; the copies and a manifest then
// become one archive (backup/backup_archive.hpp), written beside FILE, synced and renamed onto
// it, so FILE is either the whole new backup or what it was before. Reads the configuration as
// the server does; never opens the stores through the daemon's drivers, never loads plugins.
// Thread-safety: run from the main thread, once.
#pragma once

#include <string>

#include "config/config.hpp"

namespace opbase::host {

struct BackupArgs {
  std::string to;  // the backup file to write (replaced when it exists)
};

// The whole command. Prints "backed up <n> project(s) (<ids>) to <FILE>: <bytes> bytes of data,
// <bytes> bytes written, <seconds> s" on standard output and returns 0, or prints
// "error: <message>" on standard error and returns 1.
int run_backup(const Config& config, const BackupArgs& args);

}  // namespace opbase::host
