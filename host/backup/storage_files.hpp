// The embedded store's files under storage.path, as `opbase backup` reads them and `opbase
// restore` replaces them: "<project>.db" for each project, with its SQLite companions
// "<project>.db-wal", "-shm" and "-journal", and "default-project.properties" (the generated
// keys of the project "default"). Other files there (opbase.lock, a log, files a restore kept
// aside) are none of these. Functions, no state: safe from any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "config/config.hpp"
#include "opbase/status.hpp"

namespace opbase::host {

// storage.path, as the daemon reads it.
std::string storage_path_of(const Config& config);

// OK with storage.driver = sqlite. Otherwise VALIDATION_ERROR: with mongodb, that `command`
// covers the embedded store only and MongoDB's own tools back up the project databases.
Status require_embedded_store(const Config& config, std::string_view command);

// The projects' database files in `folder` ("<project>.db", regular files), by name.
Result<std::vector<std::string>> store_files_in(const std::string& folder);
// Every file in `folder` a restore would replace or leave stale: the database files with their
// companions, and default-project.properties; by name. Empty when the folder does not exist.
Result<std::vector<std::string>> project_files_in(const std::string& folder);

// Where a restore keeps a file it replaces: "shop.db" → "shop.db<suffix>", and a companion
// beside its database as SQLite names it, "shop.db-wal" → "shop.db<suffix>-wal", so that the
// kept database opens with its journal.
std::string kept_aside_name(std::string_view name, std::string_view suffix);

}  // namespace opbase::host
