// The embedded store's files under storage.path (see storage_files.hpp).
#include "backup/storage_files.hpp"

#include <algorithm>
#include <filesystem>

#include "backup/backup_manifest.hpp"

namespace opbase::host {
namespace {

constexpr std::string_view kCompanionSuffixes[] = {"-wal", "-shm", "-journal"};

// "shop.db-wal" → "-wal" when "shop.db" names a store file; empty otherwise.
std::string_view companion_suffix(std::string_view name) {
  for (std::string_view suffix : kCompanionSuffixes) {
    if (name.ends_with(suffix) &&
        project_of_store_file(name.substr(0, name.size() - suffix.size()))) {
      return suffix;
    }
  }
  return {};
}

// The names of the entries of `folder` that `keep` accepts, sorted.
template <typename Keep>
Result<std::vector<std::string>> names_in(const std::string& folder, Keep keep) {
  std::vector<std::string> names;
  std::error_code error;
  std::filesystem::directory_iterator it(folder, error);
  for (; !error && it != std::filesystem::directory_iterator(); it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (keep(name, *it)) names.push_back(name);
  }
  if (error) return Status::internal("cannot list storage.path " + folder + ": " + error.message());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

std::string storage_path_of(const Config& config) { return config.get_or("storage.path", "data"); }

Status require_embedded_store(const Config& config, std::string_view command) {
  const std::string driver = config.get_or("storage.driver", "sqlite");
  if (driver == "sqlite") return Status::ok();
  if (driver == "mongodb") {
    return Status::validation(
        "storage.driver is mongodb: opbase " + std::string(command) +
        " covers the embedded store only; back up and restore the databases " +
        config.get_or("storage.mongodb.database_prefix") +
        "<project> with MongoDB's own tools (mongodump, mongorestore)");
  }
  return Status::validation("storage.driver must be sqlite or mongodb, not '" + driver + "'");
}

Result<std::vector<std::string>> store_files_in(const std::string& folder) {
  return names_in(folder, [](const std::string& name, const std::filesystem::directory_entry& e) {
    std::error_code ignored;
    return project_of_store_file(name).has_value() && e.is_regular_file(ignored);
  });
}

Result<std::vector<std::string>> project_files_in(const std::string& folder) {
  std::error_code error;
  if (!std::filesystem::exists(folder, error)) return std::vector<std::string>{};
  return names_in(folder, [](const std::string& name, const std::filesystem::directory_entry&) {
    return name == kDefaultKeysFileName || project_of_store_file(name).has_value() ||
           !companion_suffix(name).empty();
  });
}

std::string kept_aside_name(std::string_view name, std::string_view suffix) {
  const std::string_view companion = companion_suffix(name);
  const std::string_view base = name.substr(0, name.size() - companion.size());
  return std::string(base) + std::string(suffix) + std::string(companion);
}

}  // namespace opbase::host
