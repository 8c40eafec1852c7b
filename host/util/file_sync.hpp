// Durability of files on disk: fsync of a file's data, and of the folder that names it, so that
// a file written and renamed into place is there, whole, after a power loss. For the backup and
// restore commands. Thread-safe: plain system calls.
#pragma once

#include <string>

#include "opbase/status.hpp"

namespace opbase::host {

// fsync(2) of the file at `path`; INTERNAL_ERROR naming the file and the reason.
Status fsync_file(const std::string& path);
// fsync(2) of the folder at `path`: makes the creations, renames and removals in it durable.
Status fsync_folder(const std::string& path);

}  // namespace opbase::host
