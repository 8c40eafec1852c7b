// The embedded store's files kept private: a project's "<project>.db" holds password hashes,
// signing keys and webhook secrets, so it and its "-wal" and "-shm" companions are mode 0600
// whatever the process umask. SQLite creates the companions with the mode of the database
// file, so making the database file 0600 before SQLite first opens it covers files made
// later; companions an older opbase left 0644 are tightened here too. A function, no state:
// safe from any thread, but call it before the store's connections open the file.
#pragma once

#include <string>

#include "opbase/status.hpp"

namespace opbase::host::sqlite {

// Creates the database file at `path` (empty, mode 0600) when it is missing, and sets mode
// 0600 on it and on the "-wal" and "-shm" files beside it that exist. INTERNAL_ERROR naming the
// file when one cannot be created or changed (a file another user owns, a file system without
// modes); the others are still done.
Status keep_store_files_private(const std::string& path);

}  // namespace opbase::host::sqlite
